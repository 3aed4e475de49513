"""When a daily job runs next, and which of the daily files are kept (issue 43.5): pure
functions of the times they are given, which the backups' job asks
(scoring/management/backups.py)."""

from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta

DAILY = 7
"""The newest file of each of the last 7 days that have one."""
WEEKLY = 4
"""And, older than those, the newest file of each of the 4 weeks before (ISO weeks, Monday
to Sunday) that have one: about a month back, in 11 files."""


def parse_time(text: str) -> time:
    """``03:00`` as a time of day (the settings checked its form)."""
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def next_run(now: datetime, at: time) -> datetime:
    """The first moment after ``now`` at ``at`` o'clock, UTC: today's if it is still to
    come, else tomorrow's."""
    now = now.astimezone(UTC)
    today = datetime.combine(now.date(), at, tzinfo=UTC)
    return today if today > now else today + timedelta(days=1)


def kept(taken: Iterable[datetime], daily: int = DAILY, weekly: int = WEEKLY) -> set[datetime]:
    """Of the files taken at these moments, those to keep: the newest of each of the last
    ``daily`` days, then, of those older, the newest of each of the last ``weekly``
    weeks."""
    newest_first = sorted(set(taken), reverse=True)
    days: dict[object, datetime] = {}
    for moment in newest_first:
        days.setdefault(moment.date(), moment)
    dailies = list(days.values())[:daily]
    oldest = dailies[-1] if dailies else None
    weeks: dict[object, datetime] = {}
    for moment in newest_first:
        if oldest is not None and moment >= oldest:
            continue
        weeks.setdefault(moment.isocalendar()[:2], moment)
    return set(dailies) | set(list(weeks.values())[:weekly])
