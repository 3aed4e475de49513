"""A club's league, as ../shared/specs/league.md defines it: each player's part in a counted
game, the standings of a season, and the OpenSkill ratings.

Pure like the rest of the engine: the web app keeps these figures beside the games that
give them, and a test recomputes them from the records alone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

from openskill.models import PlackettLuce

from .auction import SEATS
from .errors import RulesError, gettext_noop
from .game import GameResult
from .settlement import settle

DEFAULT_POINTS = (3, 2, 1, 0)
"""League points for ranks 1 to 4 at a table."""

CSV_HEADER = (
    "rank",
    "player",
    "games",
    "wins",
    "league_points",
    "points",
    "taken",
    "made",
    "boites",
    "boulmous_made",
    "boulmous_missed",
    "units",
    "rating_mu",
    "rating_sigma",
    "rating",
)


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


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's part in one counted (won) game."""

    seat: int
    rank: int
    total: int
    won: bool
    taken: int
    """Contracts he took, void deals excluded."""
    made: int
    boites: int
    """His boîtes, a missed boulmous included."""
    boulmous_made: int
    boulmous_missed: int
    units: int
    """His balance in stakes, per the game record's money rules."""
    contracts: tuple[tuple[int, str, bool], ...] = ()
    """The contracts he took: bid, trump and whether he made it, for his statistics."""


def placings(result: GameResult) -> tuple[Placing, ...]:
    """Each seat's part in a won game, by seat."""
    if result.winner is None:
        raise RulesError(gettext_noop("a game counts in the league only once it is won"))
    contracts: list[list[tuple[int, str, bool]]] = [[] for _ in range(SEATS)]
    for hand in result.hands:
        contract = hand.hand.contract
        if contract is not None and hand.score is not None:
            contracts[contract.taker].append((contract.bid, contract.trump.value, hand.score.made))
    units = settle(result).units
    return tuple(
        Placing(
            seat=seat,
            rank=result.ranks[seat],
            total=result.totals[seat],
            won=seat == result.winner,
            taken=len(contracts[seat]),
            made=sum(made for _, _, made in contracts[seat]),
            boites=result.boites[seat],
            boulmous_made=result.boulmous_made[seat],
            boulmous_missed=result.boulmous_missed[seat],
            units=units[seat],
            contracts=tuple(contracts[seat]),
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


def first_rating() -> Rating:
    """The rating a player starts from: the model's defaults (mu 25, sigma 25/3)."""
    start = _model().rating()
    return Rating(start.mu, start.sigma)


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> tuple[Rating, ...]:
    """The four players' ratings after one game: one Plackett-Luce update, seats in order."""
    model = _model()
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = model.rate(teams, ranks=list(ranks))
    return tuple(Rating(team[0].mu, team[0].sigma) for team in after)


def replay(
    games: Iterable[tuple[Sequence[str], Sequence[int]]],
    start: dict[str, Rating] | None = None,
) -> list[tuple[Rating, ...]]:
    """The ratings after each game, for games in the order they finished, each given as
    its players (any hashable key) and ranks; ``start`` holds ratings from earlier games."""
    current = dict(start or {})
    after_each = []
    for players, game_ranks in games:
        before = [current.get(player) or first_rating() for player in players]
        after = rate(before, game_ranks)
        current.update(zip(players, after, strict=True))
        after_each.append(after)
    return after_each


COUNTS = (
    "games",
    "wins",
    "league_points",
    "points",
    "taken",
    "made",
    "boites",
    "boulmous_made",
    "boulmous_missed",
    "units",
)
"""What a standing adds up over a player's games, in the CSV's order."""


@dataclass(slots=True)
class Standing:
    """One player's line in a season's standings."""

    player: str
    games: int = 0
    wins: int = 0
    league_points: int = 0
    points: int = 0
    taken: int = 0
    made: int = 0
    boites: int = 0
    boulmous_made: int = 0
    boulmous_missed: int = 0
    units: int = 0
    rating: Rating | None = None
    rank: int = 0
    extra: dict[str, object] = field(default_factory=dict)
    """What a page adds to the line (a link, a member's id); not part of the contract."""

    def add(self, placing: Placing, points: Sequence[int]) -> None:
        self.games += 1
        self.wins += placing.won
        self.league_points += points[placing.rank - 1]
        self.points += placing.total
        self.taken += placing.taken
        self.made += placing.made
        self.boites += placing.boites
        self.boulmous_made += placing.boulmous_made
        self.boulmous_missed += placing.boulmous_missed
        self.units += placing.units

    @property
    def order(self) -> tuple[int, int, int]:
        """What decides the rank: league points, then wins, then points."""
        return (self.league_points, self.wins, self.points)


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


def csv_line(line: Standing) -> list[str]:
    """A line of ``standings.csv``: ratings with six decimals, ``.`` as the decimal point."""
    rating = (
        [f"{line.rating.mu:.6f}", f"{line.rating.sigma:.6f}", f"{line.rating.shown:.6f}"]
        if line.rating
        else ["", "", ""]
    )
    return [
        str(line.rank),
        line.player,
        *(str(getattr(line, name)) for name in COUNTS),
        *rating,
    ]


def standings_csv(lines: Iterable[Standing]) -> str:
    """``standings.csv`` as the spec writes it: a header, a line per player, lines ended as
    RFC 4180 ends them (CRLF)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    writer.writerows(csv_line(line) for line in lines)
    return out.getvalue()
