"""A club's nights in the calendar (issue 22.5): the club's feed, ``nights.ics``, to
subscribe to, and each night's file, ``night.ics``, to add (nights/calendar.py writes them).

Both have the rights of the club's pages (Action.SEE_CLUB): anyone for a public club; for a
private one, its members, signed in. A calendar app cannot sign in: a private club's page
gives each member a feed address of his own, whose signed ``key`` stands for him
(nights/calendar.py) while he is in the club. The feed's address carries the language of
the page it was taken from (``lang``): a calendar app asks in its own, or in none.
The feed answers a 304 while its nights are as the calendar read them (their ETag).
"""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone, translation
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from ...infra.etags import etag, unchanged
from ..access import club_may, club_member, with_club
from ..models import Club, Member, Night
from .calendar import feed_key, member_of_key, nights_calendar, nights_version

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


def feed_address(request: HtmxHttpRequest, club: Club, member: Member | None) -> str:
    """The feed's address for this page's reader, in the page's language: a private club's
    with the member's key, none for someone who may not read it."""
    query = {"lang": translation.get_language() or settings.LANGUAGE_CODE}
    if not club.public:
        if member is None:
            return ""
        query["key"] = feed_key(member)
    address = reverse("club_nights_ics", args=[club.slug])
    return request.build_absolute_uri(f"{address}?{urlencode(query)}")


@require_safe
def nights_ics(request: HtmxHttpRequest, club: str) -> HttpResponse:
    """Every night of the club, one event each."""
    found = get_object_or_404(Club, slug=club)
    key = request.GET.get("key", "")
    member = member_of_key(found, key) if key else club_member(request, found)
    if not club_may(Action.SEE_CLUB, found, member):
        if key:  # a key that is not valid, or whose member has left
            raise PermissionDenied
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language() or settings.LANGUAGE_CODE
    with timezone.override(found.time_zone), translation.override(language):
        return _feed(request, found)


def _feed(request: HtmxHttpRequest, club: Club) -> HttpResponse:
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
