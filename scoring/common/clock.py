"""One clock (issue 19): which time zone a time is shown in, and the filters that say it.

- A club's game, night or history: the club's zone (``Club.time_zone``). Club views run in
  it (clubs/access.py ``with_club``); the table's game pages ask ``time_zones``
  (scoring/table/hooks.py), to which clubs answer for their games.
- Any other game: the zone of the phone that views it. static/js/table.js keeps the
  browser's zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``) in the ``tz``
  cookie; :class:`PhoneZone` makes it the current zone of each request when zoneinfo
  knows it. A first visit (no cookie yet), or a name it does not know: settings.TIME_ZONE.
- Said one way: ``{{ moment|when }}`` and ``{{ day|day }}`` (built into every template,
  settings.TEMPLATES), from ``words.say_moment`` and ``words.say_day``, which PDFs use too.
  CSV and JSON keep ISO 8601, as their specs say.
"""

from collections.abc import Callable
from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django import template
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .words import say_day, say_moment

ZONE_COOKIE = "tz"
"""The phone's time zone, as static/js/table.js sets it."""

LONGEST_NAME = 64


@cache
def known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_named(name: str | None) -> ZoneInfo | None:
    """The zone of that IANA name, or None for a name zoneinfo does not know."""
    if not name or len(name) > LONGEST_NAME or name not in known_zones():
        return None
    return ZoneInfo(name)


def phone_zone(request: HttpRequest) -> ZoneInfo | None:
    """The zone the phone's cookie names, if it is one."""
    return zone_named(request.COOKIES.get(ZONE_COOKIE))


class PhoneZone:
    """Each request runs in its phone's time zone (else settings.TIME_ZONE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with timezone.override(phone_zone(request)):
            return self.get_response(request)


register = template.Library()


@register.filter
def when(moment: datetime | None) -> str:
    """A moment, in the current time zone: ``1 janv. 2026, 00:30``."""
    return "" if moment is None else say_moment(moment)


@register.filter
def day(value: date | datetime | None) -> str:
    """A day (a moment's day in the current time zone): ``1 janv. 2026``."""
    return "" if value is None else say_day(value)
