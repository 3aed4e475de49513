"""A season's handicap cup (docs/league.md, "The handicap cup"), derived at read time from
the league's rows (:class:`ClubResult`): the season's counted games and those of the 365
days before its first month, one query; the engine (scoring/engine/handicap.py) fixes each
month's handicaps and ranks the cup. Nothing is stored, so it is always what a full rebuild
would give."""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from ...common.words import number
from ...engine.handicap import MIN_GAMES, WINDOW_DAYS, Played, cup, half_even, month_start
from ..models import Club, ClubResult, Member, Season
from ..names import NAMED_COLUMNS, Named, shown_names
from .standings import day_start, season_range


@dataclass(frozen=True)
class CupRow:
    """A line of the season's handicap cup, as its page, print page, PDF and API show it."""

    rank: int
    player: str
    member_id: int | None
    games: int
    league_points: int
    handicap: Decimal
    """The handicaps taken off, one per game, added up."""
    cup: Decimal
    current: Decimal
    """The handicap of his last game of the season."""


def season_cup(club: Club, season: Season, *, public: bool = False) -> list[CupRow]:
    """The season's handicap cup: two queries (the rows, the club's players named as the
    public sees them if ``public``)."""
    zone = ZoneInfo(club.time_zone)
    start = day_start(month_start(season.first_day) - timedelta(days=WINDOW_DAYS), club.time_zone)
    _, end = season_range(club, season)
    rows = ClubResult.objects.filter(
        club=club, finished_at__gte=start, finished_at__lt=end
    ).values_list("key", "name", "finished_at", "rank")
    played = []
    stored: dict[str, str] = {}
    for key, name, finished_at, rank in rows:
        stored.setdefault(key, name)
        played.append(Played(finished_at.astimezone(zone).date(), key, rank))
    named = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    shown = shown_names(named, public=public)
    ids = {member.key: member.pk for member in named}
    names = {key: shown.get(key, name) for key, name in stored.items()}
    return [
        CupRow(
            line.rank,
            line.name,
            ids.get(line.player),
            line.games,
            line.league_points,
            line.handicap,
            line.cup,
            line.current,
        )
        for line in cup(played, season.points, season.first_day, season.last_day, names)
    ]


def cup_values(row: CupRow) -> dict[str, object]:
    """A line of the cup as the API writes it: the decimals as strings (two decimals)."""
    return {
        "rank": row.rank,
        "player": row.player,
        "games": row.games,
        "league_points": row.league_points,
        "handicap": str(row.handicap),
        "cup": str(row.cup),
        "current_handicap": str(row.current),
    }


def cup_explained(season: Season) -> SafeString:
    """The one sentence under the cup that says its formula, with the season's own mean of
    its league points and those points: each figure read left to right in Arabic too
    (``number``: a ``<bdi dir="ltr">`` on a right-to-left page), apart from the words
    beside it. The points are listed as the season's line above the standings lists them,
    in the page's direction (the first rank's at the right in Arabic), on one line (no-break
    spaces after their commas)."""
    mean = half_even(Fraction(sum(season.points), len(season.points)))
    figures = {
        "days": number(WINDOW_DAYS),
        "mean": number(mean, 2),
        "points": mark_safe(
            ",\u00a0".join(conditional_escape(number(point)) for point in season.points)
        ),
        "zero": number(0),
        "games": number(MIN_GAMES),
    }
    sentence = gettext(
        "Each game counts its league points less the player's handicap for its month: his "
        "mean league points per game over the %(days)s days before the month's first day, "
        "less %(mean)s, the mean of the season's league points (%(points)s), to two "
        "decimals; %(zero)s until he has %(games)s games in that time. Money is never "
        "adjusted."
    )
    escaped = {key: conditional_escape(value) for key, value in figures.items()}
    return mark_safe(conditional_escape(sentence) % escaped)
