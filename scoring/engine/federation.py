"""A federation's ranking of players across its clubs, as ../shared/specs/league.md ("A
federation of clubs") defines it.

For each night of ``N >= 4`` ranked players where a player has rank ``r`` (the night
ranking's, ties sharing it), his result is ``b = 1000 (N - r) / (N - 1)``. On the ranking's
day, a night's weight is 1 up to 365 days old, 0.66 up to 730, 0.33 up to 1,095, and it is
left out beyond. ``A`` is the weighted mean of his results, ``B`` the sum of his 5 highest
``w b`` (0 for each missing one) over 5, and ``score = (A + B) / 2``, rounded to two
decimals, half to even. A player appears with at least 2 nights, ordered by score, then
nights, then name.

Computed exactly (rationals, rounded once), so that any other implementation given the
same nights agrees to the last digit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from .errors import RulesError, gettext_noop
from .handicap import half_even
from .names import collation_key

MIN_PLAYERS = 4
"""A night counts with at least this many ranked players."""
BASE = 1000
"""The result of a night's first; its last's is 0."""
WEIGHTS: tuple[tuple[int, Fraction], ...] = (
    (365, Fraction(1)),
    (730, Fraction(66, 100)),
    (1095, Fraction(33, 100)),
)
"""A night's weight by its age in days on the ranking's day: up to each age, its weight;
older nights are left out."""
BEST = 5
"""``B`` is the mean of the best this many weighted results."""
MIN_NIGHTS = 2
"""A player appears in the ranking with at least this many nights."""
_HUNDREDTHS = {value: int(value * 100) for _, value in WEIGHTS}


def places(orders: Sequence[tuple[int, ...]]) -> list[int]:
    """Each line's rank in a ranking by ``orders``, greatest first: 1 + the number of lines
    strictly ahead, so that equal lines share a rank (a night's ranking's)."""
    ahead = sorted(orders, reverse=True)
    first: dict[tuple[int, ...], int] = {}
    for position, order in enumerate(ahead, 1):
        first.setdefault(order, position)
    return [first[order] for order in orders]


def base(players: int, rank: int) -> Fraction:
    """A result at a night of ``players`` ranked players, at ``rank``."""
    if players < MIN_PLAYERS:
        raise RulesError(
            gettext_noop("a night counts with {least} players or more, not {players}"),
            least=MIN_PLAYERS,
            players=players,
        )
    _check_rank(players, rank)
    return Fraction(BASE * (players - rank), players - 1)


def _check_rank(players: int, rank: int) -> None:
    if not 1 <= rank <= players:
        raise RulesError(
            gettext_noop("a rank at a night of {players} is from 1 to {players}, not {rank}"),
            players=players,
            rank=rank,
        )


def weight(age: int) -> Fraction | None:
    """A night's weight ``age`` days after it; None when it is left out."""
    if age < 0:
        raise RulesError(
            gettext_noop("a night after the ranking's day ({days} days) does not count"),
            days=-age,
        )
    return next((value for most, value in WEIGHTS if age <= most), None)


def score(results: Sequence[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction, Decimal]:
    """``A``, ``B`` and the score of a player's results, each given as its weight and its
    base: the score rounded to two decimals, half to even."""
    if not results:
        raise RulesError(gettext_noop("a score needs one night at least"))
    weighted = [w * b for w, b in results]
    mean = sum(weighted, Fraction(0)) / sum((w for w, _ in results), Fraction(0))
    best = sum(sorted(weighted, reverse=True)[:BEST], Fraction(0)) / BEST
    return mean, best, half_even((mean + best) / 2)


@dataclass(frozen=True, slots=True)
class NightPlaces:
    """A night of a member club, as the ranking reads it."""

    day: date
    source: str
    """The club it was played in (its name, as the ranking shows it)."""
    players: int
    """``N``: the players its ranking ranks, account or not."""
    ranks: Mapping[Hashable, int]
    """The rank of each of its players who counts in the federation (who holds an account),
    by who he is across the clubs."""


@dataclass(frozen=True, slots=True)
class Result:
    """One night in a player's line."""

    day: date
    source: str
    rank: int
    players: int
    weight: Fraction

    @property
    def base(self) -> Fraction:
        return base(self.players, self.rank)

    @property
    def value(self) -> Fraction:
        return self.weight * self.base

    @property
    def _near(self) -> float:
        """``value`` as a float: to choose the best, never to add up (two values apart are
        at least 1 / 10,000 of a point apart, far beyond a float's error)."""
        return float(self.weight) * BASE * (self.players - self.rank) / (self.players - 1)


def _score_of(results: Sequence[Result]) -> tuple[Fraction, Fraction, Decimal]:
    """:func:`score` of a player's results, in as few rational operations as it takes: the
    weighted results added up by their denominator first (a night's ``N - 1``, times 100),
    then the 5 best, chosen by their floats, added up exactly."""
    numerators: dict[int, int] = defaultdict(int)
    weights = Fraction(0)
    for one in results:
        numerators[one.players - 1] += BASE * (one.players - one.rank) * _HUNDREDTHS[one.weight]
        weights += one.weight
    total = sum((Fraction(top, 100 * below) for below, top in numerators.items()), Fraction(0))
    best = sorted(results, key=lambda one: one._near, reverse=True)[:BEST]
    mean = total / weights
    chosen = sum((one.value for one in best), Fraction(0)) / BEST
    return mean, chosen, half_even((mean + chosen) / 2)


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's line in the federation's ranking."""

    player: Hashable
    name: str
    rank: int
    score: Decimal
    mean: Fraction
    """``A``."""
    best: Fraction
    """``B``."""
    results: tuple[Result, ...]
    """Newest first."""

    @property
    def nights(self) -> int:
        return len(self.results)

    @property
    def sources(self) -> tuple[str, ...]:
        """The clubs his results came from, each once, in the order of their names."""
        return tuple(sorted({one.source for one in self.results}, key=collation_key))


def ranking(nights: Iterable[NightPlaces], day: date, names: Mapping[Hashable, str]) -> list[Entry]:
    """The federation's ranking on ``day`` from its clubs' nights, players named by
    ``names``: those with at least 2 nights, by score, nights, then name; equal score and
    nights share a rank. A night of fewer than 4 players, after ``day`` or older than
    1,095 days is left out."""
    results: dict[Hashable, list[Result]] = defaultdict(list)
    for night in nights:
        age = (day - night.day).days
        if night.players < MIN_PLAYERS or age < 0:
            continue
        found = weight(age)
        if found is None:
            continue
        for player, rank in night.ranks.items():
            try:
                _check_rank(night.players, rank)
            except RulesError as error:
                raise error.at(
                    "night of {day} at {club}", day=night.day, club=night.source
                ) from None
            results[player].append(Result(night.day, night.source, rank, night.players, found))
    entries = []
    for player, own in results.items():
        if len(own) < MIN_NIGHTS:
            continue
        mean, best, total = _score_of(own)
        newest = tuple(sorted(own, key=lambda one: (one.day, one.source), reverse=True))
        entries.append(Entry(player, names.get(player, str(player)), 0, total, mean, best, newest))
    entries.sort(
        key=lambda one: (
            -one.score,
            -one.nights,
            collation_key(one.name),
            one.name,
            str(one.player),
        )
    )
    ranked: list[Entry] = []
    for position, entry in enumerate(entries, 1):
        previous = ranked[-1] if ranked else None
        if previous is not None and (previous.score, previous.nights) == (
            entry.score,
            entry.nights,
        ):
            position = previous.rank
        ranked.append(
            Entry(
                entry.player,
                entry.name,
                position,
                entry.score,
                entry.mean,
                entry.best,
                entry.results,
            )
        )
    return ranked
