"""A club's league, as ../shared/specs/league.md defines it: each player's part in a counted
game, the standings of a season, and the OpenSkill ratings.

Pure like the rest of the engine: the web app keeps these figures beside the games that
give them, and a test recomputes them from the records alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import pairwise
from math import exp, sqrt
from typing import Protocol

from openskill.models import PlackettLuce

from .auction import SEATS
from .errors import RulesError, gettext_noop
from .game import GameResult
from .settlement import breakdown_of
from .sheets import csv_cell, csv_text

DEFAULT_POINTS = (3, 2, 1, 0)
"""League points for ranks 1 to 4 at a table."""


def check_points(points: Sequence[int]) -> tuple[int, ...]:
    """League points for ranks 1 to 4: four whole numbers, none negative, none above the one
    before (a better rank never earns less)."""
    values = tuple(points)
    if len(values) != SEATS or any(
        not isinstance(value, int) or isinstance(value, bool) or value < 0 for value in values
    ):
        raise RulesError(
            gettext_noop("league points must be four numbers from 0 up, not {points}"),
            points=", ".join(str(value) for value in values),
        ).at("points")
    if any(later > earlier for earlier, later in pairwise(values)):
        raise RulesError(
            gettext_noop("league points must not grow with the rank: {points}"),
            points=", ".join(str(value) for value in values),
        ).at("points")
    return values


class Source(Enum):
    """Where a statistic's figure for one game comes from."""

    GAMES = "games"
    """One for each counted game he played."""
    WINS = "wins"
    """One for a game he won."""
    LEAGUE_POINTS = "league points"
    """The season's league points for his rank."""
    POINTS = "points"
    """His final total."""
    COUNT = "count"
    """Its own count of what the game says of him (:attr:`Statistic.count`), kept beside
    the game: a column of the club's results."""


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What a won game says of one seat: each statistic counts its figure from these."""

    seat: int
    rank: int
    total: int
    won: bool
    boites: int
    """His boîtes, a missed boulmous included."""
    boulmous_made: int
    boulmous_missed: int
    units: int
    """His balance in stakes, per the game record's money rules."""
    contracts: tuple[tuple[int, str, bool], ...]
    """The contracts he took: bid, trump and whether he made it."""


@dataclass(frozen=True, slots=True)
class Statistic:
    """One figure of the league, declared once: the club's stored results, the standings'
    sums, standings.csv, the season, print and player pages and the PDF follow from it."""

    name: str
    """Its name everywhere: the result's column, the standing's figure, the CSV's column."""
    label: str
    """What the pages call it, in English; translated where shown."""
    short: str
    """Its heading in a narrow column (the PDF)."""
    source: Source = Source.COUNT
    count: Callable[[SeatFacts], int] | None = None
    """For :attr:`Source.COUNT`: his figure in one game."""
    signed: bool = False
    """It may be below zero (money): shown with its sign."""
    in_csv: bool = True
    """A column of standings.csv, whose columns are a contract (league.md)."""
    share_of: str | None = None
    """Shown with its percentage of that statistic (contracts made, of those taken)."""
    share_in_table: bool = True
    """The percentage is shown in the standings' table too, not only on the player page."""
    on_player_page: bool = True
    per_game: str | None = None
    """On the player page, shown per game, under this label."""
    money: bool = False
    """In stakes: the amount in the club's currency is shown beside it."""
    emphasis: bool = False
    """What the standings are ordered by first: in bold."""
    on_phone: bool = False
    """Kept in view in the standings on a phone's narrow screen, beside the rank, the
    player and the rating; the other columns are a tap away there."""

    def __post_init__(self) -> None:
        if (self.source is Source.COUNT) != (self.count is not None):
            raise ValueError(f"{self.name}: a count is given for Source.COUNT, and only then")


def _taken(facts: SeatFacts) -> int:
    return len(facts.contracts)


def _made(facts: SeatFacts) -> int:
    return sum(made for _, _, made in facts.contracts)


STATISTICS: tuple[Statistic, ...] = (
    Statistic("games", gettext_noop("Games"), gettext_noop("Games"), Source.GAMES, on_phone=True),
    Statistic(
        "wins",
        gettext_noop("Wins"),
        gettext_noop("Wins"),
        Source.WINS,
        share_of="games",
        share_in_table=False,
    ),
    Statistic(
        "league_points",
        gettext_noop("League points"),
        gettext_noop("League points"),
        Source.LEAGUE_POINTS,
        on_player_page=False,
        emphasis=True,
        on_phone=True,
    ),
    Statistic(
        "points",
        gettext_noop("Points"),
        gettext_noop("Points"),
        Source.POINTS,
        signed=True,
        per_game=gettext_noop("Points per game"),
    ),
    Statistic(
        "taken",
        gettext_noop("Contracts taken"),
        gettext_noop("Taken"),
        count=_taken,
        on_player_page=False,
    ),
    Statistic(
        "made",
        gettext_noop("Contracts made"),
        gettext_noop("Made"),
        count=_made,
        share_of="taken",
    ),
    Statistic("boites", gettext_noop("Boîtes"), gettext_noop("Boîtes"), count=lambda f: f.boites),
    Statistic(
        "boulmous_made",
        gettext_noop("Boulmous made"),
        gettext_noop("Boulmous made"),
        count=lambda f: f.boulmous_made,
    ),
    Statistic(
        "boulmous_missed",
        gettext_noop("Boulmous missed"),
        gettext_noop("Boulmous missed"),
        count=lambda f: f.boulmous_missed,
    ),
    Statistic(
        "units",
        gettext_noop("Money"),
        gettext_noop("Units"),
        count=lambda f: f.units,
        signed=True,
        money=True,
    ),
    Statistic(
        "no_trump_taken",
        gettext_noop("No-trump contracts taken"),
        gettext_noop("NT taken"),
        count=lambda f: sum(trump == "NT" for _, trump, _ in f.contracts),
        in_csv=False,
        on_player_page=False,
    ),
    Statistic(
        "no_trump_made",
        gettext_noop("No-trump contracts made"),
        gettext_noop("NT made"),
        count=lambda f: sum(trump == "NT" and made for _, trump, made in f.contracts),
        in_csv=False,
        share_of="no_trump_taken",
    ),
)
"""The league's statistics, in the order pages show them; those in standings.csv in its
order."""

STATISTIC = {statistic.name: statistic for statistic in STATISTICS}
COUNTS = tuple(statistic.name for statistic in STATISTICS)
"""What a standing adds up over a player's games."""
COUNTED = tuple(statistic for statistic in STATISTICS if statistic.source is Source.COUNT)
"""The statistics counted from each game's facts and kept beside it."""
CSV_HEADER = (
    "rank",
    "player",
    *(statistic.name for statistic in STATISTICS if statistic.in_csv),
    "rating_mu",
    "rating_sigma",
    "rating",
)


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's part in one counted (won) game: its facts and each counted statistic's
    figure (``placing.taken``, ``placing.boites``…)."""

    facts: SeatFacts
    counts: Mapping[str, int]

    def __getattr__(self, name: str) -> int:
        # Asked only for what is not a field: a counted statistic's figure.
        if name not in COUNTS:
            raise AttributeError(name)
        return self.counts[name]

    @property
    def seat(self) -> int:
        return self.facts.seat

    @property
    def rank(self) -> int:
        return self.facts.rank

    @property
    def total(self) -> int:
        return self.facts.total

    @property
    def won(self) -> bool:
        return self.facts.won

    @property
    def contracts(self) -> tuple[tuple[int, str, bool], ...]:
        return self.facts.contracts


_COUNTERS = tuple(
    (statistic.name, statistic.count) for statistic in COUNTED if statistic.count is not None
)
"""Each counted statistic's name and its count (every one has a count: checked when
declared), called directly for a club's tens of thousands of placings."""


def placing_of(facts: SeatFacts) -> Placing:
    """A seat's placing: every counted statistic's figure from its facts."""
    return Placing(facts, {name: count(facts) for name, count in _COUNTERS})


def placings(result: GameResult) -> tuple[Placing, ...]:
    """Each seat's part in a won game, by seat."""
    if result.winner is None:
        raise RulesError(gettext_noop("a game counts in the league only once it is won"))
    # Each counted over the hands once, for the four seats.
    ranks, counts = result.ranks, result.taker_counts()
    # The balances only: the transfers that would settle them are not kept.
    units = [part.total for part in breakdown_of(result, counts.boites)]
    return tuple(
        placing_of(
            SeatFacts(
                seat=seat,
                rank=ranks[seat],
                total=result.totals[seat],
                won=seat == result.winner,
                boites=counts.boites[seat],
                boulmous_made=counts.boulmous_made[seat],
                boulmous_missed=counts.boulmous_missed[seat],
                units=units[seat],
                contracts=counts.contracts[seat],
            )
        )
        for seat in range(SEATS)
    )


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's OpenSkill rating: ``mu`` his estimated skill, ``sigma`` the doubt about it."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The rating a club shows: ``mu - 3 sigma``, a skill he very probably has at least."""
        return self.mu - 3 * self.sigma


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


@cache
def first_rating() -> Rating:
    """The rating a player starts from: the model's defaults (mu 25, sigma 25/3)."""
    start = _model().rating()
    return Rating(start.mu, start.sigma)


@cache
def _constants() -> tuple[float, float, float]:
    """The model's tau², beta² and kappa, as its update computes them."""
    model = _model()
    return model.tau * model.tau, model.beta**2, model.kappa


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> tuple[Rating, ...]:
    """The players' ratings after one game: one Plackett-Luce update, seats in order, one
    player a team.

    ``PlackettLuce().rate([[p0], [p1], [p2], [p3]], ranks=...)`` computed directly: the same
    float operations in the same order (openskill 6's ``rate`` and ``_compute``: sigma
    widened by tau, the teams sorted by rank, stably, and put back), so the same bits, without
    its objects, copies and checks (tests/engine/test_league.py holds it to openskill's).
    Weights of 1 and a team of one make some of its steps exact no-ops (``x * 1.0``, a sum of
    one), left out."""
    tau_squared, beta_squared, kappa = _constants()
    order = sorted(range(len(before)), key=ranks.__getitem__)
    rank = [int(ranks[index]) for index in order]
    mu = [before[index].mu for index in order]
    sigma = [sqrt(before[index].sigma * before[index].sigma + tau_squared) for index in order]
    squared = [value**2 for value in sigma]
    collective = 0.0
    for value in squared:
        collective += value + beta_squared
    c = sqrt(collective)
    teams = range(len(order))
    exps = [exp(value / c) for value in mu]
    sum_q: list[float] = []
    tied: list[int] = []
    for q in teams:
        summed = 0.0
        first = True
        for i in teams:
            if rank[i] >= rank[q]:
                summed = exps[i] if first else summed + exps[i]
                first = False
        sum_q.append(summed)
        tied.append(sum(other == rank[q] for other in rank))
    after = list(before)
    for i in teams:
        omega = 0.0
        delta = 0.0
        for q in teams:
            share = exps[i] / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        omega *= squared[i] / c
        delta *= squared[i] / c**2
        delta *= sqrt(squared[i]) / c
        part = sigma[i] ** 2 / squared[i]
        new_mu = mu[i] + part * omega
        new_sigma = sigma[i] * sqrt(max(1 - part * delta, kappa))
        if tied[i] > 1:
            # openskill averages the change of tied teams' mu over a rating it has already
            # changed in place: it adds 0.0.
            new_mu = new_mu + 0.0
        after[order[i]] = Rating(new_mu, new_sigma)
    return tuple(after)


def replay(
    games: Iterable[tuple[Sequence[str], Sequence[int]]],
    start: dict[str, Rating] | None = None,
) -> list[tuple[Rating, ...]]:
    """The ratings after each game, for games in the order they finished, each given as
    its players (any hashable key) and ranks; ``start`` holds ratings from earlier games."""
    current = dict(start or {})
    after_each = []
    first = first_rating()
    for players, game_ranks in games:
        before = [current.get(player) or first for player in players]
        after = rate(before, game_ranks)
        current.update(zip(players, after, strict=True))
        after_each.append(after)
    return after_each


class Standing:
    """One player's line in a season's standings: each statistic's sum (``line.wins``…),
    his rating and his rank."""

    __slots__ = ("counts", "extra", "player", "rank", "rating")

    def __init__(
        self, player: str, *, rating: Rating | None = None, rank: int = 0, **counts: int
    ) -> None:
        unknown = set(counts) - set(COUNTS)
        if unknown:
            raise TypeError(f"no such statistic: {', '.join(sorted(unknown))}")
        self.player = player
        self.counts: dict[str, int] = dict.fromkeys(COUNTS, 0) | counts
        self.rating = rating
        self.rank = rank
        self.extra: dict[str, object] = {}
        """What a page adds to the line (a link, a member's id); not part of the contract."""

    def __getattr__(self, name: str) -> int:
        # Asked only for what is not a slot: a statistic's sum.
        if name not in COUNTS:
            raise AttributeError(name)
        return self.counts[name]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Standing):
            return NotImplemented
        return (self.player, self.counts, self.rating, self.rank, self.extra) == (
            other.player,
            other.counts,
            other.rating,
            other.rank,
            other.extra,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        return f"Standing({self.player!r}, rank={self.rank}, {self.counts}, {self.rating})"

    def add(self, placing: Placing, points: Sequence[int]) -> None:
        for statistic in STATISTICS:
            self.counts[statistic.name] += figure(statistic, placing, points)

    @property
    def order(self) -> tuple[int, int, int]:
        """What decides the rank: league points, then wins, then points."""
        return (self.counts["league_points"], self.counts["wins"], self.counts["points"])


class Part(Protocol):
    """A player's part in one counted game, as the statistics read it: a placing, or the
    row a club keeps of it."""

    @property
    def rank(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def counts(self) -> Mapping[str, int]: ...


def figure(statistic: Statistic, placing: Part, points: Sequence[int]) -> int:
    """The statistic's figure for one game, with the season's league ``points`` by rank."""
    if statistic.source is Source.COUNT:
        return placing.counts[statistic.name]
    return _FIGURES[statistic.source](placing, points)


_FIGURES: dict[Source, Callable[[Part, Sequence[int]], int]] = {
    Source.GAMES: lambda placing, points: 1,
    Source.WINS: lambda placing, points: int(placing.won),
    Source.LEAGUE_POINTS: lambda placing, points: points[placing.rank - 1],
    Source.POINTS: lambda placing, points: placing.total,
}


def ranked(lines: Iterable[Standing]) -> list[Standing]:
    """The lines in the spec's order, each given its rank; equal lines share one."""
    ordered = sorted(lines, key=lambda line: (*(-value for value in line.order), line.player))
    for position, line in enumerate(ordered):
        previous = ordered[position - 1] if position else None
        line.rank = previous.rank if previous and previous.order == line.order else position + 1
    return ordered


def standings(
    games: Iterable[tuple[Sequence[str], Sequence[Placing]]],
    points: Sequence[int] = DEFAULT_POINTS,
    ratings: dict[str, Rating] | None = None,
) -> list[Standing]:
    """A season's standings from its counted games (players by seat and their placings),
    with each player's rating where ``ratings`` has it."""
    lines: dict[str, Standing] = {}
    for players, game in games:
        for player, placing in zip(players, game, strict=True):
            lines.setdefault(player, Standing(player)).add(placing, points)
    for player, line in lines.items():
        line.rating = (ratings or {}).get(player)
    return ranked(lines.values())


Value = int | str | float | None
"""A standing's value in one of standings.csv's columns."""


def standing_values(line: Standing) -> dict[str, Value]:
    """A line of ``standings.csv`` as values, by the CSV's column names, in its order: the
    rank and the counts as integers, the ratings as the numbers the CSV writes (six
    decimals; None where the CSV leaves them empty), the player's name as it is. The CSV
    and the read API (docs/api.md) both write these."""
    ratings = (line.rating.mu, line.rating.sigma, line.rating.shown) if line.rating else (None,) * 3
    values: list[Value] = [
        line.rank,
        line.player,
        *(line.counts[statistic.name] for statistic in STATISTICS if statistic.in_csv),
        *(None if rating is None else float(f"{rating:.6f}") for rating in ratings),
    ]
    return dict(zip(CSV_HEADER, values, strict=True))


def csv_line(line: Standing) -> list[str]:
    """A line of ``standings.csv``: ratings with six decimals, ``.`` as the decimal point;
    a name that starts as a formula does after a single quote (:func:`~.sheets.csv_cell`)."""
    return [
        csv_cell(
            "" if value is None else f"{value:.6f}" if isinstance(value, float) else str(value)
        )
        for value in standing_values(line).values()
    ]


def standings_csv(lines: Iterable[Standing]) -> str:
    """``standings.csv`` as the spec writes it: a header, a line per player, lines ended as
    RFC 4180 ends them (CRLF); a name that a spreadsheet would run is written as text
    (:func:`~.sheets.csv_cell`)."""
    return csv_text([CSV_HEADER, *(csv_line(line) for line in lines)])
