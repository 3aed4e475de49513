"""Ratings people trust (../shared/specs/league.md, "Ratings people trust"): a rating's doubt
growing while its player is away, the provisional mark, the club's ratings list with its
ranked players and the others apart, and the place a player was expected to get at a table.

Pure like the rest of the engine. Each number is a club's setting, declared once in
:data:`RATING_SETTINGS` with the contract's default: the club's columns, its settings form,
its history and the API follow from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import date
from enum import Enum
from math import erfc, sqrt

from .errors import RulesError, gettext_noop
from .league import Rating, first_rating

START_SIGMA = 25 / 3
"""The doubt a player starts with, and the most idle growth gives him back."""
BETA = 25 / 6
"""The model's beta (openskill's default, ``sigma / 2``): the spread of one game's play."""


class SettingKind(Enum):
    YES_NO = "yes_no"
    WHOLE = "whole"
    DECIMAL = "decimal"


@dataclass(frozen=True, slots=True)
class RatingSetting:
    """One of a club's rating settings: its name (the column, the form field, the history's
    and the API's key), its kind, the values it may take, and its words."""

    name: str
    kind: SettingKind
    label: str
    help: str
    least: float = 0
    most: float = 0

    @property
    def default(self) -> bool | int | float:
        value: bool | int | float = getattr(RatingRules(), self.name)
        return value


RATING_SETTINGS: tuple[RatingSetting, ...] = (
    RatingSetting(
        "idle_growth",
        SettingKind.YES_NO,
        gettext_noop("The rating's doubt grows while a player is away"),
        gettext_noop(
            "Each day between two of a player's games adds to his σ (up to where he started), "
            "so that a player back after a pause is rated again quickly. Changing it rates "
            "every game again."
        ),
    ),
    RatingSetting(
        "idle_rate",
        SettingKind.DECIMAL,
        gettext_noop("Doubt added per day away (σ²)"),
        gettext_noop("0.04 a day: after 100 days, σ² has grown by 4."),
        least=0.0001,
        most=10,
    ),
    RatingSetting(
        "provisional_games",
        SettingKind.WHOLE,
        gettext_noop("A rating is provisional under this many games"),
        gettext_noop("Shown with “?” until then."),
        least=0,
        most=1000,
    ),
    RatingSetting(
        "provisional_sigma",
        SettingKind.DECIMAL,
        gettext_noop("A rating is provisional while σ is above"),
        gettext_noop("Players start at σ 8.33; it falls as they play."),
        least=0.1,
        most=START_SIGMA,
    ),
    RatingSetting(
        "ranked_games",
        SettingKind.WHOLE,
        gettext_noop("Games needed to be ranked"),
        gettext_noop("The ratings list ranks players with at least this many games."),
        least=0,
        most=10000,
    ),
    RatingSetting(
        "ranked_days",
        SettingKind.WHOLE,
        gettext_noop("Days since the last game to stay ranked"),
        gettext_noop("A player whose last game is older is listed apart, never penalised."),
        least=1,
        most=3650,
    ),
)


@dataclass(frozen=True, slots=True)
class RatingRules:
    """A club's rating settings; the defaults are the contract's."""

    idle_growth: bool = True
    idle_rate: float = 0.04
    provisional_games: int = 10
    provisional_sigma: float = 6.0
    ranked_games: int = 20
    ranked_days: int = 60

    def __post_init__(self) -> None:
        for setting in RATING_SETTINGS:
            check_setting(setting, getattr(self, setting.name))

    @property
    def growth(self) -> float | None:
        """The idle growth of sigma² per day, or None when the club has none."""
        return self.idle_rate if self.idle_growth else None

    def to_data(self) -> dict[str, bool | int | float]:
        return {field.name: getattr(self, field.name) for field in fields(self)}


def check_setting(setting: RatingSetting, value: object) -> None:
    """A setting's value, of its kind and between its least and most, or a RulesError that
    names it."""
    if setting.kind is SettingKind.YES_NO:
        if not isinstance(value, bool):
            raise RulesError(
                gettext_noop("{name} {value!r} is not true or false"),
                name=setting.name,
                value=value,
            ).at(setting.name)
        return
    whole = setting.kind is SettingKind.WHOLE
    kinds = (int,) if whole else (int, float)
    if (
        not isinstance(value, kinds)
        or isinstance(value, bool)
        or not setting.least <= value <= setting.most
    ):
        raise RulesError(
            gettext_noop("{name} must be a number from {least} to {most}, not {value!r}"),
            name=setting.name,
            least=setting.least,
            most=setting.most,
            value=value,
        ).at(setting.name)


def grown(rating: Rating, days: int, rate: float) -> Rating:
    """His rating before a game, ``days`` whole days after his previous one:
    ``sigma = min(25/3, sqrt(sigma² + rate * days))``; mu never changes with time."""
    if days < 0:
        raise RulesError(
            gettext_noop("a game cannot come {days} days after the next one"), days=-days
        ).at("days")
    return Rating(rating.mu, min(START_SIGMA, sqrt(rating.sigma * rating.sigma + rate * days)))


def is_provisional(games: int, sigma: float, rules: RatingRules) -> bool:
    """Whether a rating after ``games`` counted games, at ``sigma``, is provisional."""
    return games < rules.provisional_games or sigma > rules.provisional_sigma


def _phi(value: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * erfc(-value / sqrt(2))


def expected_places(before: Sequence[Rating]) -> tuple[float, ...]:
    """Each player's expected place at the table, from the ratings just before the game:
    ``1 + Σ_{j≠i} Φ((mu_j - mu_i) / sqrt(2 beta² + sigma_i² + sigma_j²))``."""
    twice_beta = 2 * BETA * BETA
    return tuple(
        1
        + sum(
            _phi((other.mu - mine.mu) / sqrt(twice_beta + mine.sigma**2 + other.sigma**2))
            for j, other in enumerate(before)
            if j != i
        )
        for i, mine in enumerate(before)
    )


Previous = tuple[Rating, int] | None
"""A player's rating after his previous counted game and the day (its ordinal) that game
finished on; None before his first."""


def before_game(previous: Sequence[Previous], day: int, growth: float | None) -> list[Rating]:
    """The table's ratings just before a game finished on ``day`` (an ordinal): each player's
    after his previous game, grown for the days since when the club has idle growth; the
    first rating for a newcomer."""
    first = first_rating()
    return [
        first
        if one is None
        else grown(one[0], day - one[1], growth)
        if growth is not None
        else one[0]
        for one in previous
    ]


@dataclass(frozen=True, slots=True)
class Explained:
    """Why his rating moved in one game: the place expected of him and the place he got, the
    change of his shown rating (``mu - 3 sigma``, from after his previous game), the part of
    it the pause made (sigma grown over ``days``), and whether a first place shared lowered
    his mu."""

    expected: float
    place: int
    change: float
    pause: float
    days: int
    shared_first_lowered: bool

    @property
    def game(self) -> float:
        """The part of the change the game itself made."""
        return self.change - self.pause


def explain(
    seat: int,
    previous: Sequence[Previous],
    day: int,
    ranks: Sequence[int],
    after: Rating,
    growth: float | None,
) -> Explained:
    """Why the rating of the player at ``seat`` moved in a game finished on ``day``, from the
    table's ratings after their previous games (:data:`Previous`), the ranks, and his rating
    after it."""
    before = before_game(previous, day, growth)
    mine = previous[seat]
    was = first_rating() if mine is None else mine[0]
    days = 0 if mine is None else day - mine[1]
    shared = sum(rank == 1 for rank in ranks) > 1
    return Explained(
        expected=expected_places(before)[seat],
        place=ranks[seat],
        change=after.shown - was.shown,
        pause=before[seat].shown - was.shown,
        days=days,
        shared_first_lowered=ranks[seat] == 1 and shared and after.mu < before[seat].mu,
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """A player in the ratings list: his rating after his last counted game up to the day,
    his counted games up to it, and the day his last one finished."""

    player: str
    rating: Rating
    games: int
    last_day: date
    member_id: int | None = None
    """What the club knows him by, for a link; not part of the contract."""


class Reason(Enum):
    GAMES = "games"
    """Fewer counted games than the club's ranked_games."""
    AWAY = "away"
    """His last game is older than the club's ranked_days."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A line of the ratings list: the player, his place among the ranked (None apart), and
    why he is apart (his games, or the days since his last game)."""

    entry: Entry
    place: int | None
    reason: Reason | None
    days: int
    """Days from his last game to the list's day."""
    provisional: bool


def ratings_list(
    entries: Iterable[Entry], day: date, rules: RatingRules
) -> tuple[list[Listed], list[Listed]]:
    """The club's ratings list on ``day``: the ranked players (at least ``ranked_games``
    counted games up to the day, the last at most ``ranked_days`` before it), then the others
    apart, each part by rating descending, then name."""
    ranked: list[Listed] = []
    apart: list[Listed] = []
    for entry in sorted(entries, key=lambda entry: (-entry.rating.shown, entry.player)):
        days = (day - entry.last_day).days
        reason = (
            Reason.GAMES
            if entry.games < rules.ranked_games
            else Reason.AWAY
            if days > rules.ranked_days
            else None
        )
        provisional = is_provisional(entry.games, entry.rating.sigma, rules)
        if reason is None:
            ranked.append(Listed(entry, len(ranked) + 1, None, days, provisional))
        else:
            apart.append(Listed(entry, None, reason, days, provisional))
    return ranked, apart
