"""What the API answers, as typed schemas: ninja makes the OpenAPI document from them and
checks every answer against them. The standings' rows are made from standings.csv's
columns (scoring/engine/league.py ``CSV_HEADER``), a player's counts from the league's
statistics: a new statistic reaches both with no change here."""

from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Path, Schema
from pydantic import Field, create_model

from ..engine import OPTIONS, Kind, Option
from ..engine.league import CSV_HEADER, STATISTICS

Slug = Annotated[str, Path(pattern=r"^[-a-zA-Z0-9_]{1,40}$")]
"""A club's or a season's address (a SlugField of 40): anything else names nothing, and
is answered 404 before any query (a NUL byte, overlong, not UTF-8)."""
GameId = Annotated[str, Path(pattern=r"^[-a-zA-Z0-9_]{1,32}$")]
"""A game's public id (``token_urlsafe``, 32 at most)."""
Number = Annotated[int, Path(ge=1, le=2**31 - 1)]
"""A player's, night's or hand's number: beyond a database's integer, it names nothing."""


class FieldProblem(Schema):
    name: str
    problem: str


class ErrorBody(Schema):
    code: str
    """Stable: ``not_found``, ``unauthorized``, ``invalid_token``, ``forbidden``,
    ``csrf_failed``, ``invalid_request``, ``invalid_hand``, ``token_reused``, ``conflict``,
    ``won``, ``closed``, ``ends_early``, ``method_not_allowed``, ``server_error``."""
    message: str
    """In the request's language (Accept-Language: en, fr, ar)."""
    fields: list[FieldProblem] | None = None
    """For ``invalid_request`` and ``invalid_hand``: each field's problem, in the words of
    the game page's form for a hand (``hand`` names the hand as a whole)."""
    reason: str | None = None
    """For a write's ``forbidden``: ``revoked`` (the scorer link), ``ended`` (the account's
    right), ``none`` (never had one), as the game page's 403 says."""
    hand: int | None = None
    game: dict[str, Any] | None = None
    """For a 409: the game as it now stands (``id``, ``record``, ``report``)."""


class ErrorOut(Schema):
    error: ErrorBody


ERRORS: dict[int, type[Schema]] = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
"""The errors any club's endpoint may answer."""


_RULE_TYPES = {
    Kind.NUMBER: int,
    Kind.CHOICE: str,
    Kind.MONEY: str,
    Kind.CURRENCY: str,
    Kind.YES_NO: bool,
}


def _rule_field(option: Option) -> Any:
    """An option's key: its type, its name on the forms as its description (the words the
    rules page and a game's sentence use), and for a choice, the values it allows."""
    allowed = [choice.value for choice in option.choices]
    described = option.label + (": " + ", ".join(allowed) if allowed else "")
    return (_RULE_TYPES[option.kind], Field(description=described))


RulesOut = create_model(
    "RulesOut",
    __base__=Schema,
    __doc__="The rules a game is played with, one key per house-rule option, as a game "
    "record's ``rules`` gives them (docs/record-format.md).",
    **{option.name: _rule_field(option) for option in OPTIONS},
)


class SeasonOut(Schema):
    slug: str
    name: str
    first_day: date
    last_day: date
    points: list[int]
    standings: str
    """The season's standings in this API."""
    standings_csv: str
    page: str


class ClubLinks(Schema):
    page: str
    games: str
    nights: str
    records: str
    """records.jsonl: every counted game's record."""


class ClubOut(Schema):
    slug: str
    name: str
    time_zone: str
    public: bool
    rules: RulesOut  # type: ignore[valid-type]
    points: list[int]
    seasons: list[SeasonOut]
    links: ClubLinks


def _column_type(name: str) -> Any:
    if name == "player":
        return (str, ...)
    if name.startswith("rating"):
        return (float | None, ...)
    return (int, ...)


StandingRow = create_model(
    "StandingRow",
    __base__=Schema,
    __doc__="A line of standings.csv: its columns' names, integers as integers, ratings as "
    "numbers with six decimals.",
    **{name: _column_type(name) for name in CSV_HEADER},
    rating_provisional=(bool, ...),
)


class CupRowOut(Schema):
    """A line of a season's handicap cup (docs/league.md, "The handicap cup")."""

    rank: int
    player: str
    games: int
    league_points: int
    handicap: str
    """The handicaps taken off, one per game, added up: two decimals, as a string."""
    cup: str
    current_handicap: str


class StandingsOut(Schema):
    club: str
    season: str
    rows: list[StandingRow]  # type: ignore[valid-type]
    handicap_cup: list[CupRowOut] | None = None
    """The season's handicap cup (issue 42.5), for a season that holds one; else None."""
    provisional_games: int = 0
    """Games won in the season whose result is provisional, which the rows do not count
    yet (a hand waiting for confirmation or the referee, a settlement not agreed)."""


class RatedOut(Schema):
    """A line of the club's ratings list (docs/league.md, "Ratings people trust")."""

    place: int | None
    """His place among the ranked players; None for a player listed apart."""
    player: str
    player_id: int | None
    """His number in the club (his page's), when he is a member."""
    rating: float
    """His rating as the pages show it: mu − 3 sigma, after his last counted game."""
    mu: float
    sigma: float
    provisional: bool
    games: int
    """His counted games up to the day."""
    last_day: date
    """The day, in the club's zone, his last counted game finished."""
    apart: Literal["games", "away"] | None
    """Why he is apart: games short of the club's ranked games, or too long away."""
    days: int
    """Days from his last counted game to the list's day."""


class RatingsOut(Schema):
    club: str
    day: date
    ranked: list[RatedOut]
    apart: list[RatedOut]


class FederationRowOut(Schema):
    """A line of a federation's ranking.csv (docs/league.md, "A federation of clubs")."""

    rank: int
    player: str
    score: str
    """Two decimals, rounded half to even: a string, so that no float changes a digit."""
    nights: int
    mean: str
    best: str
    clubs: list[str]


class FederationOut(Schema):
    federation: str
    name: str
    day: date
    clubs: list[str]
    rows: list[FederationRowOut]


class GameLineOut(Schema):
    id: str
    players: list[str]
    totals: list[int]
    winner: str | None
    status: str
    finality: str | None = None
    """A won game's result: ``final`` (counted by the league) or ``provisional`` (waiting
    for a confirmation, the referee or the settlement's agreement); None for a game not won."""
    hands: int
    started_at: datetime
    finished_at: datetime | None
    night: int | None
    table: int | None
    url: str


class GamesOut(Schema):
    club: str
    count: int
    page: int
    pages: int
    games: list[GameLineOut]


class GameOut(Schema):
    id: str
    record: dict[str, Any]
    """The ``boulmous/1`` record (docs/record-format.md)."""
    report: dict[str, Any]
    """The engine's report of it, as the scorer writes it."""
    finality: str | None = None
    """A won game's result: ``final`` or ``provisional`` (scoring/table/confirming.py
    ``finality``); None for a game not won."""


class GameWritten(GameOut):
    """The game after a write, and what the write did."""

    status: str
    """``recorded``, ``duplicate`` (this ``token`` recorded the hand before: nothing
    more was), ``edited``, ``undone``."""
    hand: int
    next_hand: int | None
    """The number the next hand records with; None once the game is over."""


class HandFacts(Schema):
    """A hand, in the fields of the game page's form (scoring/table/forms.py ``HandForm``),
    which checks them: any problem is a 422 in its words."""

    dealer: int | str | None = None
    taker: int | str | None = None
    """The taker's seat, 0 to 3, in the order of the game's players."""
    bid: int | str | None = None
    """3 to 6 (6: boulmous)."""
    trump: str | None = None
    """``H``, ``D``, ``C``, ``S``."""
    tricks: list[int | str | None] = Field(default=[], max_length=4)
    """Tricks by seat; the fourth may be left out, it follows."""
    calls: list[str] = Field(default=[], max_length=4)
    """The auction, from the dealer's left: ``pass`` or a bid (optional)."""
    void: bool = False
    """An all-pass deal: no contract."""
    plays: str = ""
    """The 24 cards in the order played (``AH,9H,…``), for a hand played card by card."""


class HandIn(HandFacts):
    """A new hand: its number, and a token for the form sent once."""

    number: int
    """The hand this records: the game's next."""
    token: str | None = None
    """A UUID, one per hand sent: the same token sent again records nothing more."""


class EditIn(HandFacts):
    """A hand's new facts; its number is the address's."""

    discard_after_end: bool = False
    """With an edit that wins the game before its last hand: discard the hands after."""


Counts = create_model(
    "Counts",
    __base__=Schema,
    __doc__="Each statistic of the league, added up over the player's counted games.",
    **{statistic.name: _column_type(statistic.name) for statistic in STATISTICS},
)


class RatingOut(Schema):
    mu: float
    sigma: float
    rating: float
    provisional: bool
    """Fewer games than the club's provisional_games, or sigma above its provisional_sigma."""
    low: float
    """mu - 2 sigma."""
    high: float
    """mu + 2 sigma."""


class Contracts(Schema):
    taken: int
    made: int
    missed: int
    made_percent: int | None


class BidLine(Contracts):
    bid: int


class TrumpLine(Contracts):
    trump: str


class MeetingOut(Schema):
    player: int | None
    name: str
    games: int
    ahead: int
    behind: int
    level: int


class OpponentOut(Schema):
    name: str
    total: int
    rank: int


class RecentOut(Schema):
    game: str
    finished_at: datetime
    rank: int
    total: int
    won: bool
    rating: float
    expected_place: float | None
    """The place expected of him from the four ratings before the game."""
    change: float | None
    """His rating's change (mu - 3 sigma), from after his previous game."""
    pause: float | None
    """The part of the change the days away made (sigma grown)."""
    days_away: int | None
    """Days since his previous game (0 for his first)."""
    others: list[OpponentOut]


class PlayerOut(Schema):
    club: str
    id: int
    name: str
    counts: Counts  # type: ignore[valid-type]
    money: str
    rating: RatingOut
    by_bid: list[BidLine]
    by_trump: list[TrumpLine]
    head_to_head: list[MeetingOut]
    recent: list[RecentOut]


class NightLine(Schema):
    id: int
    date: date
    place: str
    rounds_planned: int | None
    rounds_drawn: int
    ended_at: datetime | None
    url: str


class NightsOut(Schema):
    club: str
    nights: list[NightLine]


class TableOut(Schema):
    number: int
    game: str
    players: list[str]
    first_dealer: int
    status: str
    winner: str | None


class RoundOut(Schema):
    number: int
    drawn_at: datetime
    closed_at: datetime | None
    tables: list[TableOut]
    sitting_out: list[str]


class NightOut(Schema):
    club: str
    id: int
    date: date
    place: str
    rounds_planned: int | None
    ended_at: datetime | None
    rounds: list[RoundOut]


class DetailOut(Schema):
    """A thing a change changed or set, as the history page says it."""

    words: str
    before: str | None
    """None for a thing the change made."""
    after: str


class ChangeOut(Schema):
    id: int
    at: datetime
    kind: str
    """The kind of change, stable: one of the history's (docs/league.md, "The club's
    history"), ``season_created``, ``member_renamed``…"""
    words: str
    """The kind as the history page says it, in the request's language."""
    subject: str
    """What it is about: a player by his name now (a merge, by the merged player's name
    then), a game by its players' names now, a season by its name then, a night by its day."""
    into: str | None
    """A merge's player kept, by his name now; None for any other kind."""
    by: str | None
    """The account that made it (its username); None for a command or an import."""
    details: list[DetailOut]
    before: Any
    """What it changed or removed, as the history keeps it (JSON): a deleted game as its
    ``boulmous/1`` record, a deleted season or night as it was."""
    after: Any


class ChangesOut(Schema):
    club: str
    count: int
    page: int
    pages: int
    changes: list[ChangeOut]


class EventLine(Schema):
    id: int
    name: str
    public: bool
    entrants: int
    rounds_published: int
    ended_at: datetime | None
    url: str


class EventsOut(Schema):
    club: str
    events: list[EventLine]


class EventNightOut(Schema):
    id: int
    date: date
    place: str
    rounds_planned: int | None


class EventTableOut(Schema):
    number: int
    game: str | None
    """Its game's id; None once the game was deleted."""
    players: list[str]
    """By seat: the first deals first."""
    status: str
    """``playing``, ``won``, ``abandoned``, ``settled`` or ``gone``."""
    hands: int
    totals: list[int] | None
    """The totals it counts with in the event (won, or settled); None while it does not."""
    settled_reason: str | None


class EventRoundOut(Schema):
    number: int
    night: int
    method: str
    version: str
    """The engine's seating version: the same inputs give the same tables."""
    published_at: datetime
    tables: list[EventTableOut]
    sitting_out: list[str]


class EventRankingLine(Schema):
    rank: int
    player: str
    rounds: int
    league_points: str
    """Exact, as a decimal string (``7.5``)."""
    points: int
    opponents: str
    """Three decimals, rounded half to even."""
    firsts: int
    nights: int
    eligible: bool
    reason: str | None
    """Why not eligible: ``attendance``."""
    decided_by: int | None
    """The tie-break step (2 to 6) that placed him; None when league points did."""
    night_points: list[str]
    counted_nights: list[int]
    """With best N nights, the nights (from 0) his league points count."""


class EventFinalLine(Schema):
    place: int
    player: str
    carried: str
    final: int
    total: str
    decided_by: str | None
    """``table`` or ``ranking`` when the totals tied."""


class EventFinalOut(Schema):
    kind: str
    standing: list[EventFinalLine]


class EventPrizeOut(Schema):
    place: int
    player: str
    amount: str | None


class EventMoneyOut(Schema):
    entry_fee: str
    currency: str
    pool: str
    prize_kind: str
    prize_list: list[str]
    """By place: shares of the pool in %, or amounts, as the event declares them."""
    prizes: list[EventPrizeOut]
    """Each eligible entrant in his final place, with his prize (None: none)."""


class EventOut(Schema):
    club: str
    id: int
    name: str
    public: bool
    ended_at: datetime | None
    points: list[int]
    sit_out_points: str
    best_nights: int | None
    min_attendance: str | None
    hide_last_rounds: int
    hidden_from: int | None
    """While its last rounds are hidden from this request: the first round left out."""
    final: str
    carry_over: str
    nights: list[EventNightOut]
    rounds: list[EventRoundOut]
    ranking: list[EventRankingLine]
    finals: list[EventFinalOut]
    money: EventMoneyOut
    links: dict[str, str]
