"""The table draw of a club night, as ../shared/specs/league.md defines it.

With ``n`` players present, each round has ``n // 4`` tables of four and ``n % 4`` players
sitting out. Nobody sits out twice before everyone present has sat out once, and the
meetings (two players at one table in one round) are spread as evenly as possible over the
night: first the largest number of times any two players meet is made as small as
possible, then the number of pairs that meet more than once.

Sit-outs. Before each round, the players present who have sat out least (counting the
rounds already played that night) sit out, ties broken by the draw. A newcomer (a player
present whom no earlier round names) counts as having sat out as often as the players
already there who sat out least: he is not sent out at once ahead of those who have not
rested yet, nor kept from resting in turn with them.

Tables. A plan of every round asked for is built at once: random tables filled greedily,
then a tabu search that swaps two players of one round between tables (or rests one
player instead of another who has sat out as often, from that round on), to lower a sum
over the pairs that charges a pair ``K ** (c - 2)`` for ``c >= 2`` meetings, history
included, where ``K`` is larger than the number of pairs: one pair meeting one more time
costs more than all the pairs at the level below. Plans are compared by (largest number
of meetings, pairs meeting more than once), over the pairs present. The search starts
afresh when ``STALL`` moves bring no lower cost, and ends as soon as a plan reaches a
bound that no plan with its sit-outs can beat (for 16 players over 5 rounds: no pair
meeting twice), after ``PATIENCE`` fresh starts without a better plan, or once it has
weighed ``EVALUATIONS`` moves.

Reproducible: the search counts moves, never time, and its only randomness is a
``random.Random`` seeded with ``seed``; the players are taken in the order of their ids,
so the same players, rounds, history and seed give the same draw, however fast the machine.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .errors import RulesError, gettext_noop

TABLE = 4
"""Players at a table."""

MAX_PLAYERS = 200
MAX_ROUNDS = 20
"""Bounds that keep one draw's memory and time small; a club night is far below them."""

EVALUATIONS = 200_000
"""Moves weighed over all restarts, at most: a budget in steps, not in seconds, so that the
draw does not depend on the machine's speed."""

STALL = 300
"""Moves without a better plan after which the search restarts."""

PATIENCE = 3
"""Plans built afresh without a better one, after which the search ends."""

TENURE = (3, 10)
"""For how many moves a player moved in a round is not moved again in it (drawn between
these)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables, each four player ids in seat order, and who sits out."""

    tables: tuple[tuple[int, ...], ...]
    sitting_out: tuple[int, ...]


def meetings(rounds: Iterable[Round]) -> dict[frozenset[int], int]:
    """How many times each pair met at one table (pairs that never met are left out)."""
    met: Counter[frozenset[int]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return dict(met)


def spread(rounds: Iterable[Round]) -> tuple[int, int]:
    """What the draw minimises, in order: the largest number of meetings of any pair, and
    the number of pairs meeting more than once."""
    counts = meetings(rounds).values()
    return (max(counts, default=0), sum(count > 1 for count in counts))


def sit_outs(rounds: Iterable[Round]) -> dict[int, int]:
    """How many times each player the rounds name sat out (0 for one who always played)."""
    counts: dict[int, int] = {}
    for round_ in rounds:
        for table in round_.tables:
            for player in table:
                counts.setdefault(player, 0)
        for player in round_.sitting_out:
            counts[player] = counts.get(player, 0) + 1
    return counts


def draw_json(rounds: Sequence[Round]) -> str:
    """The draw as the spec prints it: ``{"rounds": [{"tables": [...], "sitting_out":
    [...]}, ...]}``."""
    return json.dumps(
        {
            "rounds": [
                {
                    "tables": [list(table) for table in round_.tables],
                    "sitting_out": list(round_.sitting_out),
                }
                for round_ in rounds
            ]
        }
    )


def check_size(players: int, rounds: int) -> None:
    """A RulesError unless a draw can seat this many players over this many rounds."""
    if not TABLE <= players <= MAX_PLAYERS:
        raise RulesError(
            gettext_noop("a draw needs {least} to {most} players, not {count}"),
            least=TABLE,
            most=MAX_PLAYERS,
            count=players,
        ).at("players")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise RulesError(
            gettext_noop("a draw needs 1 to {most} rounds, not {count}"),
            most=MAX_ROUNDS,
            count=rounds,
        ).at("rounds")


def _check(players: Sequence[int], rounds: int, history: Sequence[Round]) -> tuple[int, ...]:
    """The players present, by id; a RulesError for a draw that cannot be made."""
    ids = tuple(sorted(players))
    repeated = sorted(player for player, times in Counter(ids).items() if times > 1)
    if repeated:
        raise RulesError(
            gettext_noop("{players} listed more than once"),
            players=", ".join(map(str, repeated)),
        ).at("players")
    check_size(len(ids), rounds)
    for number, round_ in enumerate(history, start=1):
        for table in round_.tables:
            if len(table) != TABLE:
                raise RulesError(
                    gettext_noop("a table of {count} players, not 4"), count=len(table)
                ).at("round {number}", number=number)
        named = [player for table in round_.tables for player in table]
        named.extend(round_.sitting_out)
        twice = sorted(player for player, times in Counter(named).items() if times > 1)
        if twice:
            raise RulesError(
                gettext_noop("{players} named more than once"),
                players=", ".join(map(str, twice)),
            ).at("round {number}", number=number)
    return ids


def draw(
    players: Sequence[int], rounds: int, *, seed: int = 0, history: Sequence[Round] = ()
) -> tuple[Round, ...]:
    """Plan `rounds` rounds for the players present (ids, any ints), after the rounds already
    played that night (`history`, which may name players no longer present and lack
    newcomers).

    Raises RulesError for fewer than 4 players, rounds < 1, or repeated ids (and for more
    than MAX_PLAYERS players, more than MAX_ROUNDS rounds, or a history round with a table
    not of four or a player named twice).
    """
    ids = _check(players, rounds, history)
    index = {player: position for position, player in enumerate(ids)}
    n = len(ids)
    met = [[0] * n for _ in range(n)]
    for pair, count in meetings(history).items():
        a, b = sorted(pair)
        if a in index and b in index:
            met[index[a]][index[b]] = met[index[b]][index[a]] = count
    rested = sit_outs(history)
    regulars = [rested[player] for player in ids if player in rested]
    newcomer = min(regulars, default=0)
    out = [rested.get(player, newcomer) for player in ids]
    rng = random.Random(seed)
    plan = _Search(met, out, rounds, rng).run()
    result = []
    for tables, sitting in plan:
        seated = []
        for table in tables:
            seats = [ids[player] for player in table]
            rng.shuffle(seats)
            seated.append(tuple(seats))
        result.append(Round(tuple(seated), tuple(sorted(ids[player] for player in sitting))))
    return tuple(result)


Plan = list[tuple[list[list[int]], list[int]]]
"""Each round's tables and sitting out, players as indices."""

Move = tuple[int, int, int, bool]
"""A round, two players, and whether the second one rests in place of the first from that
round on (else they swap seats)."""


class _Search:
    """The tabu search over whole plans (players as indices ``0 .. n - 1``)."""

    def __init__(self, met: list[list[int]], out: list[int], rounds: int, rng: random.Random):
        self.n = n = len(out)
        self.base = met
        self.out0 = out
        self.rounds = rounds
        self.rng = rng
        self.tables = n // TABLE
        self.resting = n % TABLE
        pairs = n * (n - 1) // 2
        top = max(max(row) for row in met) + rounds + 2
        weight = pairs + 1
        self.cost_of = [0, 0] + [weight ** (count - 2) for count in range(2, top + 1)]
        self.up = [self.cost_of[c + 1] - self.cost_of[c] for c in range(top)]
        self.down = [0] + [self.cost_of[c - 1] - self.cost_of[c] for c in range(1, top)]

    # --- A plan ---------------------------------------------------------------------------

    def start(self) -> None:
        """A new plan: fair sit-outs, ties broken at random, and tables filled greedily."""
        n, rng = self.n, self.rng
        self.met = [row[:] for row in self.base]
        self.seats: list[list[list[int]]] = []
        self.where: list[list[int]] = []
        self.sitting: list[list[int]] = []
        self.rested: list[list[int]] = []
        counts = self.out0[:]
        for _ in range(self.rounds):
            self.rested.append(counts[:])
            order = sorted(range(n), key=lambda player: (counts[player], rng.random()))
            sitting = order[: self.resting]
            for player in sitting:
                counts[player] += 1
            free = order[self.resting :]
            rng.shuffle(free)
            tables: list[list[int]] = []
            for _ in range(self.tables):
                table = [free.pop()]
                while len(table) < TABLE:
                    best = min(
                        range(len(free)),
                        key=lambda at: sum(self.met[free[at]][other] for other in table),
                    )
                    table.append(free.pop(best))
                for a, b in combinations(table, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                tables.append(table)
            where = [-1] * n
            for number, table in enumerate(tables):
                for player in table:
                    where[player] = number
            self.seats.append(tables)
            self.where.append(where)
            self.sitting.append(sitting)
        self.cost = sum(self.cost_of[self.met[a][b]] for a in range(n) for b in range(a + 1, n))

    def key(self) -> tuple[int, int]:
        """The plan's spread over the pairs present, history included."""
        counts = [self.met[a][b] for a in range(self.n) for b in range(a + 1, self.n)]
        return (max(counts), sum(count > 1 for count in counts))

    def bound(self) -> tuple[int, int]:
        """A spread no plan with these sit-outs can beat: each player meets three others at
        each table he sits at, among ``n - 1`` (and the history's meetings are kept)."""
        n = self.n
        others = n - 1
        base = [self.base[a][b] for a in range(n) for b in range(a + 1, n)]
        totals = [
            sum(self.base[player]) + (TABLE - 1) * sum(where[player] >= 0 for where in self.where)
            for player in range(n)
        ]
        largest = max(max(base), 1, *(-(-total // others) for total in totals))
        if largest < 2:
            return (largest, 0)
        excess = sum(-(-max(0, total - others) // (largest - 1)) for total in totals)
        everyone = -(-max(0, sum(totals) // 2 - len(base)) // (largest - 1))
        return (largest, max(sum(count > 1 for count in base), -(-excess // 2), everyone))

    def snapshot(self) -> Plan:
        """A copy of the plan, kept while the search goes on changing it."""
        return [
            ([table[:] for table in tables], sitting[:])
            for tables, sitting in zip(self.seats, self.sitting, strict=True)
        ]

    # --- Moves ----------------------------------------------------------------------------

    def swap_change(self, round_: int, a: int, b: int) -> int:
        """The change of cost if ``a`` and ``b``, at different tables, swapped seats."""
        met, up, down = self.met, self.up, self.down
        tables, where = self.seats[round_], self.where[round_]
        change = 0
        for other in tables[where[a]]:
            if other != a:
                change += down[met[a][other]] + up[met[b][other]]
        for other in tables[where[b]]:
            if other != b:
                change += down[met[b][other]] + up[met[a][other]]
        return change

    def swap(self, round_: int, a: int, b: int) -> None:
        """Swap the seats of ``a`` and ``b``, at different tables of one round."""
        met = self.met
        tables, where = self.seats[round_], self.where[round_]
        table_a, table_b = tables[where[a]], tables[where[b]]
        for other in table_a:
            if other != a:
                met[a][other] -= 1
                met[other][a] -= 1
                met[b][other] += 1
                met[other][b] += 1
        for other in table_b:
            if other != b:
                met[b][other] -= 1
                met[other][b] -= 1
                met[a][other] += 1
                met[other][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = where[b], where[a]

    def replace(self, round_: int, leaving: int, coming: int) -> int:
        """Seat ``coming``, who sat out, where ``leaving`` sat, who now sits out; the change
        of cost."""
        met, up, down = self.met, self.up, self.down
        where = self.where[round_]
        table = self.seats[round_][where[leaving]]
        change = 0
        for other in table:
            if other != leaving:
                change += down[met[leaving][other]] + up[met[coming][other]]
                met[leaving][other] -= 1
                met[other][leaving] -= 1
                met[coming][other] += 1
                met[other][coming] += 1
        table[table.index(leaving)] = coming
        sitting = self.sitting[round_]
        sitting[sitting.index(coming)] = leaving
        where[coming], where[leaving] = where[leaving], -1
        return change

    def exchange(self, round_: int, a: int, b: int) -> int:
        """Swap the sit-outs of ``a`` and ``b``, who have sat out as often before this round,
        from this round on (fair still, as it only renames them); the change of cost. Done
        twice, it undoes itself."""
        change = 0
        for later in range(round_, self.rounds):
            where = self.where[later]
            if where[a] >= 0 > where[b]:
                change += self.replace(later, a, b)
            elif where[b] >= 0 > where[a]:
                change += self.replace(later, b, a)
            if later > round_:
                rested = self.rested[later]
                rested[a], rested[b] = rested[b], rested[a]
        return change

    def exchange_change(self, round_: int, a: int, b: int) -> int:
        """The change of cost of :meth:`exchange`, the plan left as it was."""
        change = self.exchange(round_, a, b)
        self.exchange(round_, a, b)
        return change

    def conflicted(self) -> list[tuple[int, int]]:
        """(round, player) for each player at a table with someone he meets more than once."""
        met = self.met
        found = []
        for round_, tables in enumerate(self.seats):
            for table in tables:
                for player in table:
                    row = met[player]
                    if any(row[other] > 1 for other in table if other != player):
                        found.append((round_, player))
        return found

    # --- The search ---------------------------------------------------------------------------

    def best_moves(self, step: int, tabu: list[list[int]], low: int) -> tuple[list[Move], int]:
        """The moves of a player who meets someone twice that lower the cost most, and that
        change; a move of a player moved lately is barred unless it beats ``low``."""
        moves: list[Move] = []
        least = 0
        for round_, a in self.conflicted():
            barred, where, rested = tabu[round_], self.where[round_], self.rested[round_]
            candidates = [
                (self.swap_change(round_, a, b), b, False)
                for b in range(self.n)
                if where[b] >= 0 and where[b] != where[a]
            ]
            self.budget -= len(candidates)
            for b in self.sitting[round_]:
                if rested[b] == rested[a]:
                    candidates.append((self.exchange_change(round_, a, b), b, True))
                    self.budget -= self.rounds - round_
            for change, b, rest in candidates:
                if (barred[a] > step or barred[b] > step) and self.cost + change >= low:
                    continue
                if not moves or change < least:
                    moves, least = [(round_, a, b, rest)], change
                elif change == least:
                    moves.append((round_, a, b, rest))
        return moves, least

    def run(self) -> Plan:
        """The best plan found within the budget, by (largest meetings, repeated pairs)."""
        rng = self.rng
        self.budget = EVALUATIONS
        best_plan: Plan = []
        best_key = (0, 0)
        waited = 0
        while self.budget > 0 and waited < PATIENCE:
            waited += 1
            self.start()
            key = self.key()
            if not best_plan or key < best_key:
                best_plan, best_key, waited = self.snapshot(), key, 0
                if key <= self.bound():
                    break
            tabu = [[0] * self.n for _ in range(self.rounds)]
            low, step, stall = self.cost, 0, 0
            while self.budget > 0 and stall < STALL:
                self.budget -= 1
                step += 1
                stall += 1
                moves, change = self.best_moves(step, tabu, low)
                if not moves:
                    continue
                round_, a, b, rest = moves[rng.randrange(len(moves))]
                if rest:
                    self.exchange(round_, a, b)
                else:
                    self.swap(round_, a, b)
                self.cost += change
                tabu[round_][a] = tabu[round_][b] = step + rng.randint(*TENURE)
                if self.cost < low:
                    low, stall = self.cost, 0
                    key = self.key()
                    if key < best_key:
                        best_plan, best_key, waited = self.snapshot(), key, 0
                        if key <= self.bound():
                            return best_plan
        return best_plan
