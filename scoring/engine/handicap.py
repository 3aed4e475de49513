"""A season's handicap cup, as ../shared/specs/league.md ("The handicap cup") defines it.

On the first day of each month, each player's handicap is ``H = A - S``: ``A`` his mean
league points per counted game of the club over the 365 days before that day, ``S`` the
mean of the season's four league points; ``H = 0`` under 5 such games. ``H`` is rounded to
two decimals, half to even, and holds for his games finished that month. The cup ranks the
season's players by the sum over their counted games of ``league points - H``, then by
league points, then by name. Money is never adjusted.

Computed exactly (rationals, rounded once, as the contract says), so that any other
implementation given the same games agrees to the last digit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from .errors import RulesError, gettext_noop
from .league import check_points
from .names import collation_key

MIN_GAMES = 5
"""A player's handicap is 0 until he has this many counted games in the window."""
WINDOW_DAYS = 365
"""The days before the first of the month whose games make a handicap."""


def half_even(value: Fraction, places: int = 2) -> Decimal:
    """``value`` rounded to ``places`` decimals, a half to the even neighbour, exactly."""
    # Fraction's round() rounds a half to even.
    return Decimal(round(value * 10**places)).scaleb(-places)


def month_start(day: date) -> date:
    """The first day of the month ``day`` falls in: the day its handicap is fixed on."""
    return day.replace(day=1)


def window(first: date) -> tuple[date, date]:
    """The days whose games make the handicap fixed on ``first``: from 365 days before it
    to the day before it, both included."""
    return first - timedelta(days=WINDOW_DAYS), first - timedelta(days=1)


def handicap(won: Sequence[int], points: Sequence[int]) -> Decimal:
    """A player's handicap from the league points ``won`` in each of his counted games of
    the window, with the season's league ``points`` by rank."""
    season = check_points(points)
    if len(won) < MIN_GAMES:
        return Decimal("0.00")
    return half_even(Fraction(sum(won), len(won)) - Fraction(sum(season), len(season)))


@dataclass(frozen=True, slots=True)
class Played:
    """One player's part in one counted game of the club, as the cup reads it."""

    day: date
    """The day the game finished, in the club's zone."""
    player: str
    """The player, by a key that is his alone in the club."""
    rank: int


@dataclass(frozen=True, slots=True)
class CupLine:
    """A player's line in a season's handicap cup."""

    player: str
    """His key, as the games gave it."""
    name: str
    games: int
    league_points: int
    handicap: Decimal
    """The sum of the handicaps taken off, one per game."""
    cup: Decimal
    """``league_points - handicap``: what the cup ranks by."""
    current: Decimal
    """The handicap of his last game of the season."""
    rank: int


def cup(
    games: Iterable[Played],
    points: Sequence[int],
    first_day: date,
    last_day: date,
    names: dict[str, str] | None = None,
) -> list[CupLine]:
    """The handicap cup of the season from ``first_day`` to ``last_day``, from the club's
    counted games (those of the season and those of the 365 days before its first month;
    others are left out), players named by ``names`` (by default, by their keys)."""
    season = check_points(points)
    if last_day < first_day:
        raise RulesError(
            gettext_noop("a season's last day {last} comes before its first {first}"),
            last=last_day.isoformat(),
            first=first_day.isoformat(),
        )
    named = names or {}
    by_player: dict[str, list[tuple[date, int]]] = defaultdict(list)
    for one in games:
        if not 1 <= one.rank <= len(season):
            raise RulesError(
                gettext_noop("a rank at a table is from 1 to 4, not {rank}"), rank=one.rank
            ).at("player {player}", player=one.player)
        by_player[one.player].append((one.day, season[one.rank - 1]))
    lines = []
    for player, played in by_player.items():
        fixed: dict[date, Decimal] = {}
        taken = Decimal("0.00")
        won = 0
        count = 0
        current = Decimal("0.00")
        for day, value in sorted(played):
            if not first_day <= day <= last_day:
                continue
            first = month_start(day)
            if first not in fixed:
                start, end = window(first)
                fixed[first] = handicap([v for d, v in played if start <= d <= end], season)
            current = fixed[first]
            taken += current
            won += value
            count += 1
        if count:
            lines.append(
                CupLine(
                    player, named.get(player, player), count, won, taken, won - taken, current, 0
                )
            )
    ordered = sorted(
        lines,
        key=lambda line: (-line.cup, -line.league_points, collation_key(line.name), line.name),
    )
    ranked: list[CupLine] = []
    for position, line in enumerate(ordered):
        previous = ranked[-1] if ranked else None
        same = previous is not None and (previous.cup, previous.league_points) == (
            line.cup,
            line.league_points,
        )
        rank = previous.rank if same and previous else position + 1
        ranked.append(replace(line, rank=rank))
    return ranked
