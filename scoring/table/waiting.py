"""Hands waiting to be sent (issue 20): what each phone that scores a game says it holds.

A phone that saved hands offline (static/js/offline.js) tells the server how many it still
holds, each time it tries to send them (``POST games/<gid>/waiting``, views/table.py
``waiting_hands``), and 0 once they are sent. The other phones' pages say so ("Bilal's
phone has 2 hands waiting to be sent"), so that no one records "the same" hand meanwhile.

Kept in Django's cache (Redis in production, shared by every worker: docs/deploy.md), one
entry per game: ``{phone: [name, count, at]}``. A report older than :data:`KEPT_FOR` is
no longer said (the phone went away, or stopped trying), and the entry goes with its
last report. What the others see is part of the game's version as the pages show it
(:func:`with_waiting`), so that the live view's ETag changes when it changes, expiry
included. A cache that does not answer says nothing is waiting, and keeps nothing.
"""

import logging
import time
import zlib
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext, ngettext
from redis.exceptions import RedisError

from ..common.http import HtmxHttpRequest

log = logging.getLogger(__name__)

KEPT_FOR = 120
"""Seconds a report is believed: a phone holding hands reports at least once a minute."""
MOST = 99
"""The most hands a report may say (a night of hands is fewer)."""


@dataclass(frozen=True)
class Waiting:
    """What one phone said it holds."""

    phone: str
    """Who it is towards the game (:func:`phone_of`): not shown."""
    name: str
    """The phone's name as the history says it; empty for the phone that started the game."""
    count: int
    at: float

    @property
    def text(self) -> str:
        name = self.name or gettext("The phone that started the game")
        return ngettext(
            "%(name)s has %(counter)s hand waiting to be sent",
            "%(name)s has %(counter)s hands waiting to be sent",
            self.count,
        ) % {"name": name, "counter": self.count}


def _key(gid: str) -> str:
    return f"waiting-hands:{gid}"


def phone_of(request: HtmxHttpRequest, gid: str) -> str:
    """Who the request is towards the game, for its report: its right in the phone's cookie
    (the link's id, or the starter's mark), else its account."""
    claim = request.phone.games.get(gid)
    if claim is not None:
        return f"phone:{claim}"
    user = getattr(request, "user", None)
    return f"user:{user.pk}" if user is not None and user.is_authenticated else "phone:?"


def name_of(request: HtmxHttpRequest) -> str:
    """The phone's name as the history gives it (pages/game.py ``_who``): its account, else
    the name it took with its scorer link, else none (the phone that started the game)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return str(user.get_username())
    return request.actor.device


def _read(gid: str) -> dict[str, list[object]]:
    try:
        found = cache.get(_key(gid))
    except RedisError as error:
        log.error("waiting hands: the cache does not answer: %s", error)
        return {}
    return found if isinstance(found, dict) else {}


def waiting(gid: str, now: float | None = None) -> list[Waiting]:
    """The reports still believed, oldest phone first."""
    now = time.time() if now is None else now
    reports = []
    for phone, entry in _read(gid).items():
        match entry:
            case [str(name), int(count), float(at)] if now - at < KEPT_FOR and count > 0:
                reports.append(Waiting(phone, name, count, at))
    return sorted(reports, key=lambda report: (report.at, report.phone))


def report(gid: str, phone: str, name: str, count: int) -> None:
    """What ``phone`` holds now; 0 clears its report."""
    now = time.time()
    entries: dict[str, list[object]] = {
        each.phone: [each.name, each.count, each.at] for each in waiting(gid, now)
    }
    entries.pop(phone, None)
    if count > 0:
        entries[phone] = [name, count, now]
    try:
        if entries:
            cache.set(_key(gid), entries, KEPT_FOR)
        else:
            cache.delete(_key(gid))
    except RedisError as error:
        log.error("waiting hands: the cache does not answer: %s", error)


def others(
    request: HtmxHttpRequest, gid: str, reports: list[Waiting] | None = None
) -> list[Waiting]:
    """What the other phones hold, as this request's page says it (from ``reports``, when
    the caller has read them already)."""
    me = phone_of(request, gid)
    return [each for each in (waiting(gid) if reports is None else reports) if each.phone != me]


def stamp(gid: str, reports: list[Waiting] | None = None) -> str:
    """A short mark of what is waiting, empty when nothing is: part of the version."""
    shown = [(each.phone, each.count) for each in (waiting(gid) if reports is None else reports)]
    return f"{zlib.crc32(repr(shown).encode()):08x}" if shown else ""


def with_waiting(version: str, gid: str) -> str:
    """The game's version, and what its phones hold (``1767225600000000~1a2b3c4d``): the
    pages show it and the live view compares it. An unknown version stays unknown."""
    mark = stamp(gid) if version else ""
    return f"{version}~{mark}" if mark else version
