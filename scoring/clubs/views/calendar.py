"""A club's nights in the calendar (issue 22.5): the club's feed, ``nights.ics``, to
subscribe to, and each night's file, ``night.ics``, to add (pages/calendar.py writes them).

Both have the rights of the club's pages (Action.SEE_CLUB): anyone for a public club; for a
private one, its members, signed in. A calendar app cannot sign in, so the club page
offers the feed to subscribe to only for a public club, and says so for a private one.
The feed answers a 304 while its nights are as the calendar read them (their ETag).
"""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from ...table.views.live import etag, unchanged
from ..access import with_club
from ..models import Club, Member, Night
from ..pages.calendar import nights_calendar, nights_version

CONTENT_TYPE = "text/calendar; charset=utf-8"


def _answer(
    request: HtmxHttpRequest, club: Club, nights: list[Night], *, feed: bool
) -> HttpResponse:
    host = request.get_host()
    body = nights_calendar(
        club,
        nights,
        url_of=lambda night: request.build_absolute_uri(
            reverse("night", args=[club.slug, night.pk])
        ),
        host=host,
        stamp=timezone.now(),
        feed=feed,
    )
    return HttpResponse(body, content_type=CONTENT_TYPE)


def _kept(club: Club, response: HttpResponse) -> HttpResponse:
    """A private club's nights are for its members: no shared cache keeps them."""
    if not club.public:
        response["Cache-Control"] = "private"
    return response


@require_safe
@with_club(Action.SEE_CLUB)
def nights_ics(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """Every night of the club, one event each."""
    nights = list(club.nights.only("pk", "date", "place").order_by("date", "id"))
    version = nights_version(club, nights, request.get_host())
    if unchanged(request.META.get("HTTP_IF_NONE_MATCH", ""), version):
        response = HttpResponse(status=304)
    else:
        response = _answer(request, club, nights, feed=True)
    response["ETag"] = etag(version)
    return _kept(club, response)


@require_safe
@with_club(Action.SEE_CLUB)
def night_ics(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """One night, to add to a calendar."""
    found = get_object_or_404(Night.objects.only("pk", "date", "place"), club=club, pk=night)
    response = _answer(request, club, [found], feed=False)
    attachment(response, f"{club.slug}-night-{found.date.isoformat()}.ics")
    return _kept(club, response)
