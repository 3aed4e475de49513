"""A club's nights in the calendar (issue 22.5): the club's feed, ``nights.ics``, to
subscribe to, and each night's file, ``night.ics``, to add (nights/calendar.py writes them).

Both have the rights of the club's pages (Action.SEE_CLUB): anyone for a public club; for a
private one, its members, signed in. A calendar app cannot sign in: a private club's page
gives each member a feed address of his own, whose signed ``key`` stands for him
(nights/calendar.py) while he is in the club with his account, until he changes it
(``new_feed_key``). The feed's address carries the language of
the page it was taken from (``lang``): a calendar app asks in its own, or in none.
The feed answers a 304 while its nights are as the calendar read them (their ETag).
"""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from ...infra.etags import etag, unchanged
from ..access import club_may, club_member, with_club
from ..models import Club, Member, Night
from .calendar import (
    NIGHT_COLUMNS,
    change_feed_key,
    feed_key,
    member_of_key,
    nights_calendar,
    nights_version,
)

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
        if not has_feed_key(member):
            return ""
        assert member is not None
        query["key"] = feed_key(member)
    address = reverse("club_nights_ics", args=[club.slug])
    return request.build_absolute_uri(f"{address}?{urlencode(query)}")


def has_feed_key(member: Member | None) -> bool:
    """Whether this member may have a feed key of his own: with an account, not retired."""
    return member is not None and member.user_id is not None and member.retired_at is None


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SEE_CLUB)
def new_feed_key(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A member changes his feed key (asked first): the address he gave his calendar apps
    stops reading, the club page gives him the new one. A public club's feed has no key;
    someone who is no member with an account in the club, or is retired, has none."""
    if club.public:
        raise Http404(gettext("A public club's calendar link is everyone's: it has no key."))
    if not has_feed_key(member):
        refusal = gettext(
            "Only the club's members with an account have a calendar link of their own."
        )
        return render(
            request, "clubs/feed_key.html", {"club": club, "refusal": refusal}, status=403
        )
    assert member is not None
    if request.method == "POST":
        change_feed_key(club=club, member_id=member.pk)  # his own: has_feed_key, above
        messages.success(
            request,
            gettext(
                "Your calendar link was changed: the old address no longer reads the "
                "club's nights. Subscribe again with the new one."
            ),
        )
        return redirect(reverse("club", args=[club.slug]) + "#club-nights")
    return render(request, "clubs/feed_key.html", {"club": club, "refusal": ""})


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
    nights = list(club.nights.select_related("event").only(*NIGHT_COLUMNS).order_by("date", "id"))
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
    found = get_object_or_404(
        Night.objects.select_related("event").only(*NIGHT_COLUMNS), club=club, pk=night
    )
    response = _answer(request, club, [found], feed=False)
    attachment(response, f"{club.slug}-night-{found.date.isoformat()}.ics")
    return _kept(club, response)
