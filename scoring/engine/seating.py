"""Seating a round of an event, as ../shared/specs/events.md defines it ("Seating a round").

Every method seats the entrants present (the ranking, best first) at tables of four, after
sitting out ``n % 4`` of them: the lowest-ranked among those who have sat out least in the
event's earlier rounds (the history). No table holds a pair declared forbidden: when no
seating can honour them, :class:`SeatingError` names the first pair (in the order they were
given) that cannot be honoured with those before it, and nothing is drawn. Tables are listed
best-ranked first, each ordered by its best-ranked player; the sitting out, best-ranked
first.

Methods (their version is stored with the round: the same inputs, seed and version give the
same tables, on any machine, as no step depends on time):

- ``random-1``: the seated shuffled by a ``random.Random`` seeded with the version, the seed
  and the round's number, four by four.
- ``interval-1``: by rank among the seated, 1, 3, 5, 7 at one table and 2, 4, 6, 8 at the
  next, then 9, 11, 13, 15 and 10, 12, 14, 16, and so on; four left over sit together.
- ``no-repeat-1``: league.md's night draw (:mod:`.draw`'s search) for one round, the
  history counted, the sit-outs fixed as above; a forbidden pair weighs there as a pair
  that met more often than any other can.
- ``swiss-1``: judged by :func:`seating_cost` (the sum over pairs seated together of ``m²``
  plus 10 for a pair that met in the round just before; then the sum of the tables' spreads
  of ranks; then the ranks of table 1, table 2, ... in order). It starts from the contract's
  greedy seating (table 1: the best-ranked player and, one at a time, the best-ranked of
  those he and the chosen have met least, no forbidden pair; then table 2 from those left;
  "met least" read three ways, the best of the three kept), and descends from it by the
  best swap of two players between two tables, until no pair of tables has a swap that
  lowers the order; then ``KICKS`` times, from the best seating so far, a kick
  (``KICK_SWAPS`` random swaps between tables close in rank) and a descent, kept when
  better. It is never worse than the greedy seating, which it starts from; the kicks are
  counted, not timed.

When random, interval or no-repeat seat a forbidden pair, swaps of the pair's lower-ranked
player with the nearest in rank that seats fewer forbidden pairs remove it; when no single
swap does, a search that tries each player at his table first rebuilds the seating.

The forbidden pairs' placement (:func:`_pack`) is bounded by ``PACK_STEPS`` steps, counted:
a round it cannot seat within them is refused as one that cannot be seated.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .draw import Round, _Search, meetings
from .errors import RulesError, gettext_noop

TABLE = 4

METHODS = ("random", "interval", "no-repeat", "swiss")
VERSIONS = {
    "random": "random-1",
    "interval": "interval-1",
    "no-repeat": "no-repeat-1",
    "swiss": "swiss-1",
}
"""Each method's current algorithm: stored with a round, so that it can be drawn again."""

REPEAT_BEFORE = 10
"""What a pair that met in the round just before weighs more (Swiss)."""

KICKS = 200
"""Swiss: the seeded kicks tried after the first descent."""

KICK_SWAPS = 2
"""Swiss: random swaps in one kick."""

Pair = tuple[int, int]


@dataclass(frozen=True)
class Seating:
    """One round's seats."""

    tables: tuple[tuple[int, ...], ...]
    """Each table of four entrant ids, best-ranked first; tables by their best-ranked."""
    sitting_out: tuple[int, ...]
    version: str = ""
    """The algorithm that drew it, e.g. ``"swiss-1"``."""


class SeatingError(RulesError):
    """A round that cannot be seated: the pair that cannot be kept apart, or too few
    entrants."""

    pair: tuple[int, int] | None
    round: int | None

    def __init__(
        self,
        message: str,
        /,
        *,
        pair: tuple[int, int] | None = None,
        round: int | None = None,
        **params: Any,
    ) -> None:
        self.pair = pair
        self.round = round
        super().__init__(message, **params)


def _pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def repeats(seating: Seating, history: Sequence[Seating]) -> tuple[Pair, ...]:
    """The pairs seated together in ``seating`` that met in an earlier round (ascending):
    what a swap by the organiser warns of."""
    met = meetings(_rounds(history))
    found = {
        _pair(a, b)
        for table in seating.tables
        for a, b in combinations(table, 2)
        if frozenset((a, b)) in met
    }
    return tuple(sorted(found))


def seating_cost(
    seating: Seating, history: Sequence[Seating], ranking: Sequence[int] | None = None
) -> tuple[Any, ...]:
    """The contract's order key of a seating (lower is better): the sum over pairs seated
    together of ``m²`` plus 10 for a pair that met in the round just before; then, given the
    ranking (present entrants, best first), the sum of the tables' spreads of ranks and the
    ranks of the players of table 1, table 2, and so on. Without a ranking, only the first.
    """
    met = meetings(_rounds(history))
    last = meetings(_rounds(history[-1:]))
    cost = 0
    for table in seating.tables:
        for a, b in combinations(table, 2):
            pair = frozenset((a, b))
            cost += met.get(pair, 0) ** 2 + REPEAT_BEFORE * (pair in last)
    if ranking is None:
        return (cost,)
    rank = {entrant: position for position, entrant in enumerate(ranking, start=1)}
    tables = [sorted(rank[player] for player in table) for table in seating.tables]
    spread = sum(table[-1] - table[0] for table in tables)
    return (cost, spread, tuple(value for table in sorted(tables) for value in table))


def _rounds(history: Iterable[Seating]) -> list[Round]:
    return [Round(seating.tables, seating.sitting_out) for seating in history]


def _check(method: str, ranking: Sequence[int], history: Sequence[Seating], number: int) -> None:
    if method not in METHODS:
        raise RulesError(gettext_noop("no seating method {method}"), method=method).at(
            "round {number}", number=number
        )
    if len(set(ranking)) != len(ranking):
        raise RulesError(gettext_noop("an entrant listed more than once")).at(
            "round {number}", number=number
        )
    if len(ranking) < TABLE:
        raise SeatingError(
            gettext_noop("{count} entrants present, a table needs 4"),
            round=number,
            count=len(ranking),
        ).at("round {number}", number=number)
    for before, seating in enumerate(history, start=1):
        if any(len(table) != TABLE for table in seating.tables):
            raise RulesError(gettext_noop("a table not of four")).at(
                "round {number}", number=before
            )


def sitting_out(ranking: Sequence[int], history: Sequence[Seating]) -> tuple[int, ...]:
    """Who sits out: ``n % 4`` of the present, the lowest-ranked among those who have sat
    out least in the history; best-ranked first."""
    rested: dict[int, int] = {}
    for seating in history:
        for player in seating.sitting_out:
            rested[player] = rested.get(player, 0) + 1
    count = len(ranking) % TABLE
    by_turn = sorted(range(len(ranking)), key=lambda at: (rested.get(ranking[at], 0), -at))
    return tuple(ranking[at] for at in sorted(by_turn[:count]))


def seat_round(
    method: str,
    ranking: Sequence[int],
    history: Sequence[Seating],
    forbidden: Iterable[tuple[int, int]] = (),
    *,
    seed: int | str = 0,
    round_number: int | None = None,
) -> Seating:
    """Seat the next round by ``method`` ("random", "interval", "no-repeat", "swiss").

    ``ranking`` lists the present entrants, best first; ``history`` the event's earlier
    rounds, oldest first; ``forbidden`` the pairs that must never sit together.
    ``round_number`` (the history's length + 1 by default) names the round in errors.
    Raises SeatingError when fewer than 4 are present or a forbidden pair cannot be
    honoured, RulesError for an unknown method, an entrant listed twice or a history's
    table not of four.
    """
    number = len(history) + 1 if round_number is None else round_number
    _check(method, ranking, history, number)
    resting = sitting_out(ranking, history)
    out = set(resting)
    seated = [player for player in ranking if player not in out]
    banned = _banned(seated, forbidden)
    packed = _feasible(seated, banned, number)
    ban = set(banned)
    version = VERSIONS[method]
    rank = {player: position for position, player in enumerate(ranking)}
    if method == "random":
        rng = random.Random(f"{version}:{seed}:{len(history) + 1}")
        order = seated[:]
        rng.shuffle(order)
        drawn = [order[at : at + TABLE] for at in range(0, len(order), TABLE)]
        tables = _honour(drawn, ban, rank, packed)
    elif method == "interval":
        tables = _honour(_interval(seated), ban, rank, packed)
    elif method == "no-repeat":
        tables = _honour(_no_repeat(ranking, out, history, ban, seed), ban, rank, packed)
    else:
        tables = _Swiss(ranking, seated, history, ban, seed).run(packed)
    ordered = sorted(tuple(sorted(table, key=rank.__getitem__)) for table in tables)
    ordered.sort(key=lambda table: rank[table[0]])
    return Seating(tuple(ordered), resting, version)


def _banned(seated: Sequence[int], forbidden: Iterable[tuple[int, int]]) -> list[Pair]:
    """The forbidden pairs of two seated entrants, in the order given, each once."""
    here = set(seated)
    found: list[Pair] = []
    for a, b in forbidden:
        pair = _pair(a, b)
        if a != b and a in here and b in here and pair not in found:
            found.append(pair)
    return found


def _feasible(seated: Sequence[int], banned: Sequence[Pair], number: int) -> list[list[int]]:
    """A placement of ``seated`` at tables that honours every banned pair (:func:`_pack`'s,
    without preferences); else a SeatingError naming the first forbidden pair that cannot be
    honoured with those before it, found by halving the pairs given (a placement of a few
    pairs holds for fewer)."""
    tables = len(seated) // TABLE
    packed = _pack(seated, set(banned), tables, {})
    if packed is not None:
        return packed
    # With none of the pairs there is a placement, with all of them none: halve between.
    honoured, refused = 0, len(banned)
    while refused - honoured > 1:
        middle = (honoured + refused) // 2
        if _pack(seated, set(banned[:middle]), tables, {}) is None:
            refused = middle
        else:
            honoured = middle
    a, b = banned[refused - 1]
    raise SeatingError(
        gettext_noop("{a} and {b} cannot be kept apart"),
        pair=(a, b),
        round=number,
        a=a,
        b=b,
    ).at("round {number}", number=number)


PACK_STEPS = 10_000
"""The forbidden pairs' placement: the most players it places (each try of a player at a
table counts one) before it gives up and counts the round as one it cannot seat. Counted,
never timed, so that every machine gives up at the same step."""


def _pack(
    seated: Sequence[int], ban: set[Pair], tables: int, prefer: dict[int, int]
) -> list[list[int]] | None:
    """Tables of four for ``seated`` with no banned pair, or None when there are none (or
    when ``PACK_STEPS`` placements found none).

    The players of a banned pair are placed first by a depth-first search that places next
    the player with the fewest tables left open to him (then the most banned, then the
    lowest id), and backs up as soon as one has none; the others then fill the seats left.
    With ``prefer`` (each player's table in another seating), each is tried at that table
    first and the others fill their own table first; without, the empty tables being
    alike, only the first of them is tried.

    What is left to place depends only on who is left and, for each table, its seats taken
    and who of those left it bars: a state the search has found to lead nowhere (in any
    order of its tables) is not searched again. As that skips only what fails, the search
    finds the placement the plain search finds first, in far fewer steps where many states
    are alike (say two groups of which each player is banned with each of the other).
    """
    banned_with: dict[int, list[int]] = {}
    for a, b in sorted(ban):
        banned_with.setdefault(a, []).append(b)
        banned_with.setdefault(b, []).append(a)
    players = sorted(banned_with)
    bit = {player: 1 << at for at, player in enumerate(players)}
    bars = {player: sum(bit[other] for other in banned_with[player]) for player in banned_with}
    seats: list[list[int]] = [[] for _ in range(tables)]
    barred = [0] * tables
    """Per table: the players (as bits) banned with one seated there."""
    left = set(banned_with)
    left_bits = sum(bit.values())
    dead: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    steps = [PACK_STEPS]

    def open_to(player: int) -> list[int]:
        mine = bit[player]
        found = [
            table
            for table in range(tables)
            if len(seats[table]) < TABLE and not barred[table] & mine
        ]
        if prefer:
            return sorted(found, key=lambda table: table != prefer[player])
        empty = [table for table in found if not seats[table]]
        return [table for table in found if seats[table]] + empty[:1]

    def state() -> tuple[int, tuple[tuple[int, int], ...]]:
        return left_bits, tuple(
            sorted(
                (len(seats[table]), barred[table] & left_bits)
                for table in range(tables)
                if len(seats[table]) < TABLE
            )
        )

    def place() -> bool:
        nonlocal left_bits
        if not left:
            return True
        here = state()
        if here in dead or steps[0] <= 0:
            return False
        choice: tuple[tuple[int, int, int], int, list[int]] | None = None
        for player in left:
            found = open_to(player)
            if not found:
                dead.add(here)
                return False
            rank = (len(found), -len(banned_with[player]), player)
            if choice is None or rank < choice[0]:
                choice = (rank, player, found)
        assert choice is not None
        _, player, found = choice
        left.discard(player)
        left_bits ^= bit[player]
        for table in found:
            steps[0] -= 1
            seats[table].append(player)
            before = barred[table]
            barred[table] |= bars[player]
            if place():
                return True
            seats[table].pop()
            barred[table] = before
        left.add(player)
        left_bits ^= bit[player]
        if steps[0] > 0:
            dead.add(here)
        return False

    if not place():
        return None
    free = [player for player in seated if player not in banned_with]
    unseated = []
    for player in free:
        table = prefer.get(player)
        if table is not None and len(seats[table]) < TABLE:
            seats[table].append(player)
        else:
            unseated.append(player)
    for members in seats:
        while len(members) < TABLE:
            members.append(unseated.pop(0))
    return seats


def _honour(
    tables: list[list[int]], ban: set[Pair], rank: dict[int, int], packed: list[list[int]]
) -> list[list[int]]:
    """``tables`` as they are when they seat no banned pair. Else, while one is seated, the
    lower-ranked of the pair swaps seats with the nearest in rank (the better-ranked first)
    whose swap seats fewer banned pairs; when no swap does, the search that places each
    player at his table first, or, should it give up (``PACK_STEPS``), ``packed``, the
    placement :func:`_feasible` found."""
    tables = [table[:] for table in tables]
    where = {player: number for number, table in enumerate(tables) for player in table}
    by_rank = sorted(where, key=rank.__getitem__)
    while True:
        seated = _seated_banned(tables, ban)
        if not seated:
            return tables
        lower = max(seated[0], key=rank.__getitem__)
        others = sorted(
            (player for player in by_rank if where[player] != where[lower]),
            key=lambda player: (abs(rank[player] - rank[lower]), rank[player]),
        )
        for other in others:
            mine, theirs = tables[where[lower]], tables[where[other]]
            mine[mine.index(lower)], theirs[theirs.index(other)] = other, lower
            if len(_seated_banned(tables, ban)) < len(seated):
                where[lower], where[other] = where[other], where[lower]
                break
            mine[mine.index(other)], theirs[theirs.index(lower)] = lower, other
        else:
            prefer = {player: number for number, table in enumerate(tables) for player in table}
            return _pack(by_rank, ban, len(tables), prefer) or packed


def _seated_banned(tables: Sequence[Sequence[int]], ban: set[Pair]) -> list[Pair]:
    """The banned pairs seated together, table by table."""
    return [
        _pair(a, b) for table in tables for a, b in combinations(table, 2) if _pair(a, b) in ban
    ]


def _interval(seated: Sequence[int]) -> list[list[int]]:
    """1, 3, 5, 7 / 2, 4, 6, 8, then 9, 11, 13, 15 / 10, 12, 14, 16, ...; a last four
    together."""
    tables = []
    for start in range(0, len(seated), 2 * TABLE):
        block = seated[start : start + 2 * TABLE]
        if len(block) == 2 * TABLE:
            tables.append(list(block[0::2]))
            tables.append(list(block[1::2]))
        else:
            tables.append(list(block))
    return tables


def _no_repeat(
    ranking: Sequence[int],
    out: set[int],
    history: Sequence[Seating],
    ban: set[Pair],
    seed: int | str,
) -> list[list[int]]:
    """One round of the night draw's search (draw.py), the history counted, the sit-outs
    given, a banned pair weighing as one that met more than any other can."""
    n = len(ranking)
    index = {player: at for at, player in enumerate(ranking)}
    met = [[0] * n for _ in range(n)]
    for pair, count in meetings(_rounds(history)).items():
        a, b = pair
        if a in index and b in index:
            met[index[a]][index[b]] = met[index[b]][index[a]] = count
    most = max((max(row) for row in met), default=0) + 2
    for a, b in ban:
        met[index[a]][index[b]] = met[index[b]][index[a]] = most
    # Those who sit out are the only ones who "sat out least": the draw rests them, and
    # never exchanges them with a seated player (it only exchanges equals).
    rested = [0 if player in out else 1 for player in ranking]
    rng = random.Random(f"{VERSIONS['no-repeat']}:{seed}:{len(history) + 1}")
    plan = _Search(met, rested, 1, rng).run()
    tables, _ = plan[0]
    return [[ranking[at] for at in table] for table in tables]


class _Swiss:
    """The Swiss search over one round (players as their index in the ranking)."""

    def __init__(
        self,
        ranking: Sequence[int],
        seated: Sequence[int],
        history: Sequence[Seating],
        ban: set[Pair],
        seed: int | str,
    ) -> None:
        self.ranking = ranking
        n = len(ranking)
        index = {player: at for at, player in enumerate(ranking)}
        self.seated = [index[player] for player in seated]
        met = meetings(_rounds(history))
        last = meetings(_rounds(history[-1:]))
        self.met = [[0] * n for _ in range(n)]
        self.weight = [[0] * n for _ in range(n)]
        for pair, count in met.items():
            a, b = pair
            if a in index and b in index:
                i, j = index[a], index[b]
                value = count * count + REPEAT_BEFORE * (pair in last)
                self.met[i][j] = self.met[j][i] = count
                self.weight[i][j] = self.weight[j][i] = value
        self.banned = [[False] * n for _ in range(n)]
        for a, b in ban:
            i, j = index[a], index[b]
            self.banned[i][j] = self.banned[j][i] = True
        self.rng = random.Random(f"{VERSIONS['swiss']}:{seed}:{len(history) + 1}")

    def greedy(self, measure: list[list[int]]) -> list[list[int]] | None:
        """The contract's greedy seating, "met least" measured by ``measure`` between two
        players (None when it runs into a forbidden pair)."""
        free = self.seated[:]
        tables = []
        while free:
            table = [free.pop(0)]
            while len(table) < TABLE:
                allowed = [
                    at
                    for at, player in enumerate(free)
                    if not any(self.banned[player][other] for other in table)
                ]
                if not allowed:
                    return None
                best = min(allowed, key=lambda at: (sum(measure[free[at]][o] for o in table), at))
                table.append(free.pop(best))
            tables.append(table)
        return tables

    def key(self, tables: Sequence[Sequence[int]]) -> tuple[int, int, tuple[int, ...]]:
        """The contract's order key, players as indices (ranks minus one)."""
        weight = self.weight
        cost = sum(weight[a][b] for table in tables for a, b in combinations(table, 2))
        spread = sum(max(table) - min(table) for table in tables)
        return (cost, spread, _ranks(tables))

    def run(self, packed: list[list[int]]) -> list[list[int]]:
        """The search, from the best greedy seating, or from ``packed`` (the forbidden
        pairs' placement) when every greedy seating runs into a forbidden pair."""
        # "Met least" read three ways: the meetings added up, the players met, and the
        # weights of the order; the best of these greedy seatings is the start.
        once = [[int(count > 0) for count in row] for row in self.met]
        starts = [self.greedy(measure) for measure in (self.met, once, self.weight)]
        valid = [start for start in starts if start is not None]
        if valid:
            start = min(valid, key=self.key)
        else:
            index = {player: at for at, player in enumerate(self.ranking)}
            start = [[index[player] for player in table] for table in packed]
        count = len(start)
        self.quiet: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        best = [table[:] for table in start]
        self.descend(best, set(range(count)))
        best_key = self.key(best)
        for _ in range(KICKS if count > 1 else 0):
            tables = [table[:] for table in best]
            self.descend(tables, self.kick(tables))
            key = self.key(tables)
            if key < best_key:
                best, best_key = tables, key
        return [[self.ranking[at] for at in table] for table in best]

    def kick(self, tables: list[list[int]]) -> set[int]:
        """A few random swaps between tables close in rank that seat no forbidden pair; the
        tables changed."""
        rng, count = self.rng, len(tables)
        order = sorted(range(count), key=lambda number: min(tables[number]))
        touched: set[int] = set()
        for _ in range(KICK_SWAPS):
            at = rng.randrange(count - 1)
            i, j = order[at], order[min(count - 1, at + rng.randint(1, 3))]
            x, y = rng.randrange(TABLE), rng.randrange(TABLE)
            if self.allowed(tables[i], x, tables[j][y]) and self.allowed(
                tables[j], y, tables[i][x]
            ):
                tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                touched.update((i, j))
        return touched

    def allowed(self, table: Sequence[int], seat: int, coming: int) -> bool:
        """Whether ``coming`` may take ``seat`` at ``table`` (no forbidden pair)."""
        row = self.banned[coming]
        return not any(row[other] for at, other in enumerate(table) if at != seat)

    def descend(self, tables: list[list[int]], pending: set[int]) -> None:
        """Swaps of two players of different tables that lower the key, until none does.
        Whether two tables have such a swap depends on them alone: a pair of tables found
        without one is remembered by their contents, and only the tables that changed
        (``pending``) are looked at again. Two tables whose ranks do not overlap and that
        seat no pair that met have none: a swap would widen their spreads and seat no pair
        that met less."""
        quiet = self.quiet
        keys = [tuple(sorted(table)) for table in tables]
        calm = [self.calm(table) for table in tables]
        while pending:
            i = min(pending)
            pending.discard(i)
            for j in range(len(tables)):
                if j == i:
                    continue
                low, high = keys[i], keys[j]
                if calm[i] and calm[j] and (low[-1] < high[0] or high[-1] < low[0]):
                    continue
                pair = (low, high) if low < high else (high, low)
                if pair in quiet:
                    continue
                if self.improve(tables[i], tables[j]):
                    keys[i], keys[j] = tuple(sorted(tables[i])), tuple(sorted(tables[j]))
                    calm[i], calm[j] = self.calm(tables[i]), self.calm(tables[j])
                    pending.update((i, j))
                    break
                quiet.add(pair)

    def calm(self, table: Sequence[int]) -> bool:
        """Whether no pair of the table weighs (none met before)."""
        weight = self.weight
        return not any(weight[a][b] for a, b in combinations(table, 2))

    def improve(self, first: list[int], second: list[int]) -> bool:
        """Make the swap of a player of ``first`` with one of ``second`` that lowers the
        key most (by its first two steps, else the first that lowers the third)."""
        weight = self.weight
        # Each player's weight with the players of each table (his own pairs included),
        # added up by hand: this is the search's innermost loop.
        f0, f1, f2, f3 = first
        s0, s1, s2, s3 = second
        at_first = []
        at_second = []
        for a in first:
            row = weight[a]
            at_first.append(
                (row[f0] + row[f1] + row[f2] + row[f3], row[s0] + row[s1] + row[s2] + row[s3])
            )
        for b in second:
            row = weight[b]
            at_second.append(
                (row[f0] + row[f1] + row[f2] + row[f3], row[s0] + row[s1] + row[s2] + row[s3])
            )
        low_first, high_first = min(first), max(first)
        low_second, high_second = min(second), max(second)
        spread_before = high_first - low_first + high_second - low_second
        rest_first = [sorted(first[:x] + first[x + 1 :]) for x in range(TABLE)]
        rest_second = [sorted(second[:y] + second[y + 1 :]) for y in range(TABLE)]
        best: tuple[int, int] = (0, 0)
        chosen: tuple[int, int] | None = None
        level: list[tuple[int, int]] = []
        for x, a in enumerate(first):
            own_a, to_second_a = at_first[x]
            rest_a = rest_first[x]
            wa = weight[a]
            for y, b in enumerate(second):
                to_first_b, own_b = at_second[y]
                change = to_first_b - wa[b] - own_a + to_second_a - wa[b] - own_b
                if change > best[0]:
                    continue
                rest_b = rest_second[y]
                spread = (
                    max(rest_a[-1], b)
                    - min(rest_a[0], b)
                    + max(rest_b[-1], a)
                    - min(rest_b[0], a)
                    - spread_before
                )
                if (change, spread) < best:
                    if self.allowed(first, x, b) and self.allowed(second, y, a):
                        best, chosen = (change, spread), (x, y)
                elif (change, spread) == (0, 0) and chosen is None:
                    level.append((x, y))
        if chosen is None:
            chosen = self.lower_ranks(first, second, level)
            if chosen is None:
                return False
        x, y = chosen
        first[x], second[y] = second[y], first[x]
        return True

    def lower_ranks(
        self, first: list[int], second: list[int], level: list[tuple[int, int]]
    ) -> tuple[int, int] | None:
        """Of the swaps that leave the first two steps as they are, the first that lowers
        the third: the ranks of the table holding the best player of the two, the only
        one of step 3's tables that comes earlier."""
        top = min(min(first), min(second))
        before = sorted(first) if top in first else sorted(second)
        for x, y in level:
            a, b = first[x], second[y]
            if not (self.allowed(first, x, b) and self.allowed(second, y, a)):
                continue
            new_first = [*first[:x], b, *first[x + 1 :]]
            new_second = [*second[:y], a, *second[y + 1 :]]
            after = sorted(new_first) if top in new_first else sorted(new_second)
            if after < before:
                return (x, y)
        return None


def _ranks(tables: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """Step 3's key: the tables' sorted indices, tables by their best, flattened."""
    return tuple(value for table in sorted(sorted(table) for table in tables) for value in table)


def seat_json(text: str, *, seed: int | str = 0) -> str:
    """``manage.py seat``: the seating question ``text`` (JSON: ``method``, ``ranking``, and
    optionally ``history`` and ``forbidden``) answered as the contract prints it:
    ``{"tables": [...], "sitting_out": [...], "version": "..."}``.

    Raises RulesError for text that is not such a question, SeatingError for a round that
    cannot be seated.
    """
    try:
        question = json.loads(text)
    except ValueError as error:
        raise RulesError(gettext_noop("not JSON: {error}"), error=str(error)) from None
    if not isinstance(question, dict):
        raise RulesError(gettext_noop("a seating question is a JSON object"))
    method = question.get("method")
    if not isinstance(method, str):
        raise RulesError(gettext_noop("a method is a string")).at("method")
    ranking = _ints(question.get("ranking"), "ranking")
    history = []
    rounds = question.get("history", [])
    if not isinstance(rounds, list):
        raise RulesError(gettext_noop("a list of rounds")).at("history")
    for number, round_ in enumerate(rounds, start=1):
        if not isinstance(round_, dict) or not isinstance(round_.get("tables"), list):
            raise RulesError(gettext_noop("a round is an object with its tables")).at(
                "history {number}", number=number
            )
        tables = tuple(tuple(_ints(table, "tables")) for table in round_["tables"])
        out = tuple(_ints(round_.get("sitting_out", []), "sitting_out"))
        history.append(Seating(tables, out))
    forbidden = []
    pairs = question.get("forbidden", [])
    if not isinstance(pairs, list):
        raise RulesError(gettext_noop("a list of pairs")).at("forbidden")
    for pair in pairs:
        values = _ints(pair, "forbidden")
        if len(values) != 2:
            raise RulesError(gettext_noop("a pair is two entrants, not {pair!r}"), pair=values).at(
                "forbidden"
            )
        forbidden.append((values[0], values[1]))
    seating = seat_round(method, ranking, history, forbidden, seed=seed)
    return json.dumps(
        {
            "tables": [list(table) for table in seating.tables],
            "sitting_out": list(seating.sitting_out),
            "version": seating.version,
        }
    )


def _ints(value: object, place: str) -> list[int]:
    """``value`` as a list of entrant ids (whole numbers), or a RulesError at ``place``."""
    if not isinstance(value, list) or not all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    ):
        raise RulesError(gettext_noop("a list of entrant ids, not {value!r}"), value=value).at(
            place
        )
    return value
