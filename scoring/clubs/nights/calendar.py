"""A club's nights in the calendar (issue 22.5): iCalendar (RFC 5545), written by the
``icalendar`` package, which escapes text (commas, semicolons, newlines, backslashes),
folds lines at 75 octets and ends them with CRLF.

A night has a date and no start time: each is a whole-day event (``DTSTART;VALUE=DATE``,
its end the next day), transparent (it does not make the day busy), so that it needs no
time zone. Its UID (``night-<id>@<host>``) stays the night's whatever changes, so that a
calendar that reads the feed again updates the event rather than adding another.
"""

import hashlib
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.core import signing
from django.db import transaction
from django.utils.translation import get_language, gettext
from icalendar import Calendar, Event, vDuration

from ...common.rights import Actor
from ...common.words import isolate
from .. import history
from ..models import Club, Member, Night

FEED_SALT = "boulmous.clubs.nights-feed"


def feed_key(member: Member) -> str:
    """The key in a private club's feed address that stands for ``member``: a calendar
    app cannot sign in. Signed (SECRET_KEY), so it cannot be made up; it names his account
    and the version of his key, so that it reads while he is in the club with that
    account, not retired, and until he (or an admin) changes it (:func:`change_feed_key`),
    and no longer."""
    return signing.dumps(
        [member.club_id, member.pk, member.user_id, member.feed_version], salt=FEED_SALT
    )


def member_of_key(club: Club, key: str) -> Member | None:
    """The member a feed key stands for, if it is valid and his, in this club: refused
    (None) once his account is gone or another's, once he is retired, or once his key
    was changed. A key of before keys had versions names no account: refused too."""
    try:
        club_id, member_id, user_id, version = signing.loads(key, salt=FEED_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if club_id != club.pk or user_id is None:
        return None
    return Member.objects.filter(
        club=club,
        pk=member_id,
        user_id=user_id,
        user__is_active=True,
        retired_at__isnull=True,
        feed_version=version,
    ).first()


class NoFeedKey(Exception):
    """The member has no key to change: no account, or retired."""


@transaction.atomic
def change_feed_key(*, club: Club, member_id: int, by: Actor | None = None) -> Member:
    """A new key for this member: every feed address he gave out before stops reading at
    once. ``by`` an admin (for him, at his request), a line of the club's history; by the
    member himself (None), his own, and none. NoFeedKey, and nothing changes, if he has no
    account or is retired: he has no key."""
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.user_id is None or member.retired_at is not None:
        raise NoFeedKey(member.name)
    member.feed_version += 1
    member.save(update_fields=["feed_version"])
    if by is not None:
        history.log(club, by, "feed_key_changed", member)
    return member


PRODID = "-//Boulmous//Club nights//EN"
REFRESH = timedelta(hours=6)
"""How often a calendar app that subscribed is asked to read the feed again (RFC 7986
REFRESH-INTERVAL, and the older X-PUBLISHED-TTL that some apps read instead)."""


def night_summary(club: Club, night: Night | None = None) -> str:
    """What the calendar calls a night: the club's night, or, for a night of an event
    (issue 41) that whoever reads the club may see, the event's name."""
    event = _event_named(club, night)
    if event:
        return gettext("%(club)s — %(event)s") % {
            "club": isolate(club.name),
            "event": isolate(event),
        }
    return gettext("%(club)s — club night") % {"club": isolate(club.name)}


def _event_named(club: Club, night: Night | None) -> str:
    """The name of the night's event, if the feed may say it: the event is public, or the
    club is private (its feed is read by its members only). Read with the night (the
    views select its event's name and public flag)."""
    if night is None or night.event_id is None:
        return ""
    event = night.event
    if event is None or not (event.public or not club.public):
        return ""
    return event.name


NIGHT_COLUMNS = ("pk", "date", "place", "event", "event__name", "event__public")
"""What the calendar reads of a night, its event's name with it (one query)."""


def nights_version(club: Club, nights: Iterable[Night], host: str) -> str:
    """What the feed says, short: its ETag, which changes when a night is added, moved,
    renamed or deleted, when the club is renamed, and with the language and the host."""
    facts = [club.slug, club.name, get_language() or "", host]
    facts += [
        f"{night.pk}:{night.date.isoformat()}:{night.place}:{_event_named(club, night)}"
        for night in nights
    ]
    return hashlib.sha256("\n".join(facts).encode()).hexdigest()[:32]


def _event(club: Club, night: Night, url: str, host: str, stamp: datetime) -> Event:
    event = Event()
    event.add("uid", f"night-{night.pk}@{host}")
    event.add("dtstamp", stamp)
    event.add("dtstart", night.date)
    event.add("dtend", night.date + timedelta(days=1))
    event.add("transp", "TRANSPARENT")
    event.add("summary", night_summary(club, night))
    if night.place:
        event.add("location", night.place)
    event.add("url", url)
    event.add("description", gettext("The night's page: %(url)s") % {"url": url})
    return event


def nights_calendar(
    club: Club,
    nights: Iterable[Night],
    *,
    url_of: Callable[[Night], str],
    host: str,
    stamp: datetime,
    feed: bool,
) -> bytes:
    """The nights as one calendar: the club's feed (``feed``: named, with how often to read
    it again), or one night's file to add."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    if feed:
        name = gettext("%(club)s — club nights") % {"club": isolate(club.name)}
        calendar.add("name", name)
        calendar.add("x-wr-calname", name)
        calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
        calendar.add("x-published-ttl", vDuration(REFRESH))
    for night in nights:
        calendar.add_component(_event(club, night, url_of(night), host, stamp))
    written: bytes = calendar.to_ical()
    return written
