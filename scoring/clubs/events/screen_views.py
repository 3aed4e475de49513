"""The room's screen of an event (issue 41, item 6; screen.py): the page, and its panels
alone for static/js/screen.js, which asks for them every second and a half with the
version it shows and gets a 304 until the event changed.

Who sees it: anyone, for a public event; for a private one, whoever may read the club
(signed in), or whoever holds its signed key (``?key=``, screen.py ``screen_key``), which
its organisers copy from the event's page. A key that is not the event's is refused (403),
whoever asks. The link may also choose the language (``lang``) and the colours
(``theme``: ``dark`` or ``light``; else the system's) and how long a panel stays
(``turn``, in seconds)."""

from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ...infra.etags import etag, unchanged
from ..access import club_may, club_member
from ..models import Club, Event, Member
from ..names import sees_full_names
from .screen import key_reads, screen, screen_key, screen_version

THEMES = ("dark", "light")
LANGUAGES = {code for code, _ in settings.LANGUAGES}
CACHE_CONTROL = "private, no-cache"
TURN = 10
"""How long a panel stays before the next, in seconds, unless the link says (``turn``,
from 3 to 120)."""


def _shown(request: HtmxHttpRequest, club: str, event: int) -> tuple[Club, Event, Member | None]:
    """The club and its event (a 404 if none), if this request may see its screen: else a
    403, with nothing said of the event."""
    found = get_object_or_404(Event.objects.select_related("club"), club__slug=club, pk=event)
    key = request.GET.get("key")
    if key is not None:
        if not key_reads(found, key):
            raise PermissionDenied
        return found.club, found, None
    if found.public:
        return found.club, found, None
    member = club_member(request, found.club)
    if not club_may(Action.SEE_CLUB, found.club, member):
        raise PermissionDenied
    return found.club, found, member


def _query(request: HtmxHttpRequest) -> dict[str, str]:
    """What the link chose (its key, language, colours), kept in the panels' address."""
    return {
        name: value
        for name in ("key", "lang", "theme")
        if (value := request.GET.get(name, ""))
        and (name == "key" or value in (LANGUAGES if name == "lang" else THEMES))
    }


def _language(request: HtmxHttpRequest) -> str:
    chosen = request.GET.get("lang", "")
    return chosen if chosen in LANGUAGES else translation.get_language() or settings.LANGUAGE_CODE


def _turn(request: HtmxHttpRequest) -> int:
    chosen = request.GET.get("turn", "")
    if chosen.isascii() and chosen.isdigit() and 3 <= int(chosen) <= 120:
        return int(chosen)
    return TURN


def screen_address(event: Event, *, signed: bool) -> str:
    """The screen's address, with the event's key if ``signed``."""
    address = reverse("event_screen", args=[event.club.slug, event.pk])
    return address + ("?" + urlencode({"key": screen_key(event)}) if signed else "")


def _render(
    request: HtmxHttpRequest, template: str, club: Club, event: Event, member: Member | None
) -> HttpResponse:
    version = screen_version(event)
    language = _language(request)
    shown = f"{version}@{language}"
    live = template.endswith("#panels")
    if live and unchanged(request.META.get("HTTP_IF_NONE_MATCH", ""), shown):
        response = HttpResponse(status=304)
        response["ETag"] = etag(shown)
        response["Cache-Control"] = CACHE_CONTROL
        return response
    query = _query(request)
    with translation.override(language), timezone.override(club.time_zone):
        context = {
            "club": club,
            "event": event,
            "screen": screen(event, public=not sees_full_names(member)),
            "theme": query.get("theme", ""),
            "version": shown,
            "turn": _turn(request) * 1000,
            "live": reverse("event_screen_live", args=[club.slug, event.pk])
            + ("?" + urlencode(query) if query else ""),
        }
        response = render(request, template, context)
    response["ETag"] = etag(shown)
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def event_screen(request: HtmxHttpRequest, club: str, event: int) -> HttpResponse:
    """The room's screen: 1920 x 1080, dark or light, turning by itself."""
    found, shown, member = _shown(request, club, event)
    return _render(request, "clubs/event_screen.html", found, shown, member)


@require_safe
def event_screen_live(request: HtmxHttpRequest, club: str, event: int) -> HttpResponse:
    """The screen's panels alone, or a 304 when they are as the screen shows them."""
    found, shown, member = _shown(request, club, event)
    return _render(request, "clubs/event_screen.html#panels", found, shown, member)
