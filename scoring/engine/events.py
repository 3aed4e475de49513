"""A club's events (championships, tournaments, cups), as ../shared/specs/events.md defines
them: the points of a round, the event's ranking and its tie-breaks, and the final tables.
The seating of a round is in :mod:`.seating`.

Pure like the rest of the engine: the web app keeps the rounds, seatings and games; given
them, this module prints the same ranking as any other implementation of the contract.

Points of a round. At a table, an entrant's rank is league.md's (1 + the players whose
final total is strictly higher: ties share a rank) and he scores the event's scheme's
points for it; an entrant sitting out scores ``sit_out_points``: ``"0"``, or ``"average"``,
the mean of the scheme's four values.

The ranking. Per entrant: ``rounds`` (seated or sitting out), ``league_points`` (with best
``N`` nights, the sum of his ``N`` highest nightly sums), ``points`` (his final totals),
``opponents`` (the mean of his opponents' ``league_points``, three decimals, half to
even), ``firsts`` and ``nights``. Order: league points, points, opponents, firsts, head to
head among those still tied, then the lot (the SHA-256 of ``"<seed>:<entrant>"``).
``decided_by`` is the first step after which no other entrant equals him (None for step
1). Attendance: entrants below the event's minimum share of nights are listed after the
others, in the same order, with the reason ``"attendance"``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from .errors import RulesError, gettext_noop
from .seating import (
    Seating,
    SeatingError,
    repeats,
    seat_round,
    seating_cost,
)
from .sheets import csv_text

__all__ = [
    "ATTENDANCE",
    "EventGame",
    "EventRules",
    "FinalLine",
    "RankingLine",
    "Seating",
    "SeatingError",
    "check_late_entry",
    "final_standing",
    "finalists",
    "lot",
    "places_after_finals",
    "rank_event",
    "ranking_csv",
    "repeats",
    "round_points",
    "seat_round",
    "seating_cost",
    "table_ranks",
]

ATTENDANCE = "attendance"
"""The reason of an entrant below the event's minimum attendance."""

SIT_OUT_POINTS = ("0", "average")
CARRIES = (Fraction(1), Fraction(1, 2), Fraction(0))
"""The carry-overs a final may have: in full, halved, or not at all."""


@dataclass(frozen=True)
class EventGame:
    """A counted event game (won, or settled by the organiser)."""

    round: int
    """1, 2, ... across nights."""
    night: int
    """The index of its night (0-based, in the event's order)."""
    players: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    """Final totals, in the order of ``players``."""


@dataclass(frozen=True)
class EventRules:
    scheme: tuple[int, int, int, int] = (3, 2, 1, 0)
    sit_out_points: str = "0"
    """``"0"`` or ``"average"`` (the mean of the scheme's four values)."""
    best_nights: int | None = None
    """Only the best N nights count in league points."""
    min_attendance: Fraction | None = None
    """The least share of the event's nights to be ranked for the title."""
    seed: str = ""
    """The event's seed: the lot of step 6."""


@dataclass(frozen=True)
class RankingLine:
    entrant: int
    rank: int
    rounds: int
    league_points: Fraction
    points: int
    opponents: Decimal
    """Three decimals, rounded half to even."""
    firsts: int
    nights: int
    eligible: bool
    decided_by: int | None
    """The step (2 to 6) that placed him; None when league points alone did."""
    reason: str | None
    """Why he is not eligible (:data:`ATTENDANCE`); a machine word the pages translate."""
    night_points: tuple[Fraction, ...]
    """His round points per night of the event, in the event's order."""
    counted_nights: tuple[int, ...]
    """The nights his league points count (best N nights: the others are struck through),
    ascending."""


@dataclass(frozen=True)
class FinalLine:
    """An entrant's line in a final's standing."""

    entrant: int
    place: int
    """1 to 4 at the final (add 4 for a consolation final's places 5-8)."""
    carried: Fraction
    """His league points times the event's carry-over."""
    final: int
    """His round points from the final game."""
    total: Fraction
    """``carried + final``: what orders the final."""
    table_rank: int
    """His rank at the final table (league.md's: ties share it)."""
    rank: int
    """His rank in the event's ranking."""
    decided_by: str | None = field(default=None)
    """What placed him when the totals tie: ``"table"`` (rank at the final table) or
    ``"ranking"`` (the event's ranking); None when the total did."""


def check_late_entry(planned: int, drawn: int) -> None:
    """A RulesError once a late entrant may no longer enter: when half the event's planned
    rounds (rounded down) have been drawn."""
    if drawn >= planned // 2:
        raise RulesError(
            gettext_noop("entries closed once {half} of the {planned} rounds were drawn"),
            half=planned // 2,
            planned=planned,
        ).at("entry")


def table_ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """League.md's rank at a table: 1 + the players whose total is strictly higher."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def round_points(totals: Sequence[int], scheme: Sequence[int]) -> tuple[int, ...]:
    """Each seat's points for its rank at the table (tied players share the rank's points)."""
    return tuple(scheme[rank - 1] for rank in table_ranks(totals))


def sit_out_value(rules: EventRules) -> Fraction:
    """What an entrant sitting out scores."""
    if rules.sit_out_points == "average":
        return Fraction(sum(rules.scheme), len(rules.scheme))
    return Fraction(0)


def lot(seed: str, entrant: int) -> str:
    """Step 6: the hexadecimal SHA-256 of ``"<seed>:<entrant>"`` (ascending first)."""
    return hashlib.sha256(f"{seed}:{entrant}".encode()).hexdigest()


def three_decimals(value: Fraction) -> Decimal:
    """``value`` to three decimals, rounded half to even, exactly (no float on the way)."""
    scaled = value * 1000
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * rest
    if twice > scaled.denominator or (twice == scaled.denominator and whole % 2):
        whole += 1
    return (Decimal(whole) / 1000).quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)


def _check(
    entrants: Sequence[int],
    nights: int,
    rounds: Sequence[tuple[int, Seating]],
    games: Sequence[EventGame],
    rules: EventRules,
) -> None:
    if nights < 1:
        raise RulesError(
            gettext_noop("an event has 1 night or more, not {count}"), count=nights
        ).at("nights")
    known = set(entrants)
    if len(known) != len(entrants):
        raise RulesError(gettext_noop("an entrant listed more than once")).at("entrants")
    if rules.sit_out_points not in SIT_OUT_POINTS:
        raise RulesError(
            gettext_noop("sit-out points are 0 or average, not {value}"),
            value=rules.sit_out_points,
        ).at("rules")
    if rules.best_nights is not None and rules.best_nights < 1:
        raise RulesError(
            gettext_noop("best nights must be 1 or more, not {count}"), count=rules.best_nights
        ).at("rules")
    for number, (night, seating) in enumerate(rounds, start=1):
        if not 0 <= night < nights:
            raise RulesError(
                gettext_noop("night {night} is not one of the event's {count} nights"),
                night=night + 1,
                count=nights,
            ).at("round {number}", number=number)
        named = [player for table in seating.tables for player in table]
        strangers = sorted(set(named + list(seating.sitting_out)) - known)
        if strangers:
            raise RulesError(
                gettext_noop("{players} not entered in the event"),
                players=", ".join(map(str, strangers)),
            ).at("round {number}", number=number)
    for game in games:
        strangers = sorted(set(game.players) - known)
        if strangers or not 1 <= game.round <= len(rounds) or not 0 <= game.night < nights:
            raise RulesError(
                gettext_noop("a game of round {round}, night {night}, players {players}"),
                round=game.round,
                night=game.night + 1,
                players=", ".join(map(str, game.players)),
            ).at("games")


def rank_event(
    entrants: Sequence[int],
    nights: int,
    rounds: Sequence[tuple[int, Seating]],
    games: Sequence[EventGame],
    rules: EventRules,
    *,
    up_to_round: int | None = None,
) -> tuple[RankingLine, ...]:
    """The event's ranking (events.md, "The event's ranking").

    ``rounds`` holds each round's night index and seating, oldest first (round 1 first);
    ``games`` the counted event games. With ``up_to_round`` (hidden rounds), only the rounds
    up to it, and their games, count. Raises RulesError for an entrant listed twice, a
    round or game naming someone not entered or a night out of range, or bad rules.
    """
    _check(entrants, nights, rounds, games, rules)
    last = len(rounds) if up_to_round is None else max(0, min(up_to_round, len(rounds)))
    counted_games = [game for game in games if game.round <= last]
    per_night: dict[int, list[Fraction]] = {entrant: [Fraction(0)] * nights for entrant in entrants}
    played: dict[int, int] = dict.fromkeys(entrants, 0)
    present: dict[int, set[int]] = {entrant: set() for entrant in entrants}
    resting = sit_out_value(rules)
    for night, seating in rounds[:last]:
        for table in seating.tables:
            for player in table:
                played[player] += 1
                present[player].add(night)
        for player in seating.sitting_out:
            played[player] += 1
            present[player].add(night)
            per_night[player][night] += resting
    points: dict[int, int] = dict.fromkeys(entrants, 0)
    firsts: dict[int, int] = dict.fromkeys(entrants, 0)
    tables_of: dict[int, list[EventGame]] = defaultdict(list)
    for game in counted_games:
        ranks = table_ranks(game.totals)
        for seat, player in enumerate(game.players):
            per_night[player][game.night] += rules.scheme[ranks[seat] - 1]
            points[player] += game.totals[seat]
            firsts[player] += ranks[seat] == 1
            tables_of[player].append(game)
    league: dict[int, Fraction] = {}
    counted: dict[int, tuple[int, ...]] = {}
    for entrant in entrants:
        sums = per_night[entrant]
        if rules.best_nights is None or rules.best_nights >= nights:
            chosen = tuple(range(nights))
        else:
            best = sorted(range(nights), key=lambda night: (-sums[night], night))
            chosen = tuple(sorted(best[: rules.best_nights]))
        counted[entrant] = chosen
        league[entrant] = sum((sums[night] for night in chosen), Fraction(0))
    opponents: dict[int, Decimal] = {}
    for entrant in entrants:
        own = tables_of[entrant]
        faced = sum(
            (league[other] for game in own for other in game.players if other != entrant),
            Fraction(0),
        )
        opponents[entrant] = three_decimals(faced / (3 * len(own))) if own else Decimal("0.000")

    def before_h2h(entrant: int) -> tuple[Fraction, int, Decimal, int]:
        return (league[entrant], points[entrant], opponents[entrant], firsts[entrant])

    groups: dict[tuple[Fraction, int, Decimal, int], list[int]] = defaultdict(list)
    for entrant in entrants:
        groups[before_h2h(entrant)].append(entrant)
    h2h: dict[int, int] = {}
    for tied in groups.values():
        among = set(tied)
        for entrant in tied:
            h2h[entrant] = _head_to_head(entrant, among, tables_of[entrant])

    keys = {entrant: (*before_h2h(entrant), h2h[entrant]) for entrant in entrants}
    order = sorted(
        entrants,
        key=lambda entrant: (
            -league[entrant],
            -points[entrant],
            -opponents[entrant],
            -firsts[entrant],
            -h2h[entrant],
            lot(rules.seed, entrant),
        ),
    )
    decided = {entrant: _decided_by(at, order, keys) for at, entrant in enumerate(order)}
    eligible = {
        entrant: rules.min_attendance is None
        or Fraction(len(present[entrant]), nights) >= rules.min_attendance
        for entrant in entrants
    }
    listed = [entrant for entrant in order if eligible[entrant]]
    listed += [entrant for entrant in order if not eligible[entrant]]
    return tuple(
        RankingLine(
            entrant=entrant,
            rank=position,
            rounds=played[entrant],
            league_points=league[entrant],
            points=points[entrant],
            opponents=opponents[entrant],
            firsts=firsts[entrant],
            nights=len(present[entrant]),
            eligible=eligible[entrant],
            decided_by=decided[entrant],
            reason=None if eligible[entrant] else ATTENDANCE,
            night_points=tuple(per_night[entrant]),
            counted_nights=counted[entrant],
        )
        for position, entrant in enumerate(listed, start=1)
    )


def _head_to_head(entrant: int, among: set[int], games: Sequence[EventGame]) -> int:
    """Step 5: over his games shared with others of ``among``, the others he finished ahead
    of minus those he finished behind."""
    score = 0
    for game in games:
        ranks = dict(zip(game.players, table_ranks(game.totals), strict=True))
        mine = ranks[entrant]
        for other in game.players:
            if other != entrant and other in among:
                score += (ranks[other] > mine) - (ranks[other] < mine)
    return score


def _decided_by(
    place: int, order: Sequence[int], keys: Mapping[int, tuple[object, ...]]
) -> int | None:
    """The first step after which no other entrant equals the one at ``place`` of the order
    (his neighbours there are the closest): None for step 1."""
    mine = keys[order[place]]
    step = 1
    for at in (place - 1, place + 1):
        if 0 <= at < len(order):
            theirs = keys[order[at]]
            same = 0
            while same < len(mine) and theirs[same] == mine[same]:
                same += 1
            step = max(step, same + 1)
    return None if step == 1 else step


def finalists(ranking: Sequence[RankingLine], count: int = 4, start: int = 0) -> tuple[int, ...]:
    """The eligible entrants of places ``start + 1`` to ``start + count`` of the ranking, in
    its order: the final's (``start`` 0) or the consolation final's (``start`` 4).

    Raises RulesError when fewer eligible entrants are left.
    """
    eligible = [line.entrant for line in ranking if line.eligible]
    chosen = eligible[start : start + count]
    if len(chosen) < count:
        raise RulesError(
            gettext_noop("a final needs {count} eligible entrants from place {place}, not {found}"),
            count=count,
            place=start + 1,
            found=len(chosen),
        ).at("final")
    return tuple(chosen)


def final_standing(
    ranking: Sequence[RankingLine], final_game: EventGame, carry: Fraction, rules: EventRules
) -> tuple[FinalLine, ...]:
    """A final's (or a consolation final's) standing: by ``carried + final`` descending,
    then rank at the final table, then the ranking (events.md, "The final").

    Raises RulesError for a carry-over other than 1, 1/2 or 0, or a final whose players are
    not four different entrants of the ranking.
    """
    if carry not in CARRIES:
        raise RulesError(
            gettext_noop("the carry-over is 1, 0.5 or 0, not {carry}"), carry=str(carry)
        ).at("final")
    lines = {line.entrant: line for line in ranking}
    players = final_game.players
    if len(set(players)) != len(players) or any(player not in lines for player in players):
        raise RulesError(
            gettext_noop("the final's players {players} are not four entrants of the ranking"),
            players=", ".join(map(str, players)),
        ).at("final")
    ranks = table_ranks(final_game.totals)
    scored = round_points(final_game.totals, rules.scheme)
    rows = []
    for seat, player in enumerate(players):
        carried = lines[player].league_points * carry
        rows.append((carried + scored[seat], ranks[seat], lines[player].rank, seat, carried))
    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    result = []
    for place, (total, table_rank, rank, seat, carried) in enumerate(rows, start=1):
        neighbours = [rows[at] for at in (place - 2, place) if 0 <= at < len(rows)]
        decided: str | None = None
        if any(other[0] == total for other in neighbours):
            decided = "table"
            if any(other[0] == total and other[1] == table_rank for other in neighbours):
                decided = "ranking"
        result.append(
            FinalLine(
                entrant=players[seat],
                place=place,
                carried=carried,
                final=scored[seat],
                total=total,
                table_rank=table_rank,
                rank=rank,
                decided_by=decided,
            )
        )
    return tuple(result)


def places_after_finals(
    ranking: Sequence[RankingLine], *finals: Sequence[FinalLine]
) -> tuple[int, ...]:
    """The entrants in their final places: the final's four, then the consolation final's,
    then everyone else in the ranking's order (they keep their ranking)."""
    placed = [line.entrant for final in finals for line in final]
    taken = set(placed)
    return (*placed, *(line.entrant for line in ranking if line.entrant not in taken))


CSV_HEADER = (
    "rank",
    "player",
    "rounds",
    "league_points",
    "points",
    "opponents",
    "firsts",
    "nights",
    "eligible",
    "decided_by",
)
"""``ranking.csv``'s header, exactly as the contract writes it."""


def points_text(value: Fraction) -> str:
    """League points as written in ``ranking.csv``: a whole number as it is, else its exact
    decimals (``1.5``, ``2.25``: the sit-out average of a scheme of whole numbers)."""
    if value.denominator == 1:
        return str(value.numerator)
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def ranking_csv(lines: Sequence[RankingLine], names: Mapping[int, str]) -> str:
    """``ranking.csv`` of an event: the contract's header, then a line per entrant, ``player``
    his name in ``names``; ``opponents`` with three decimals, ``eligible`` 1 or 0,
    ``decided_by`` empty or the step (2 to 6)."""
    rows = [
        (
            str(line.rank),
            names[line.entrant],
            str(line.rounds),
            points_text(line.league_points),
            str(line.points),
            str(line.opponents),
            str(line.firsts),
            str(line.nights),
            "1" if line.eligible else "0",
            "" if line.decided_by is None else str(line.decided_by),
        )
        for line in lines
    ]
    return csv_text([CSV_HEADER, *rows])
