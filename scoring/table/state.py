"""Between the database and the engine: a game's rows as an engine record, and back.

This module reads and maps; it writes nothing. Every page and every write sees a
game as a :class:`GameState`: its rows, its record, and the engine's verdict.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.db.models import JSONField, Prefetch, QuerySet

from ..engine import (
    SEATS,
    About,
    Ending,
    GameResult,
    Record,
    Rules,
    all_pass_allowed,
    dealer_of,
    format_call,
    hand_from_dict,
    hand_to_dict,
    score_game,
)
from ..engine import Hand as EngineHand
from . import hooks
from .models import Game, Hand, Seat


@dataclass(frozen=True)
class GameState:
    """A game with its seats and hands, and the engine's result for them."""

    game: Game
    names: tuple[str, ...]
    hands: tuple[Hand, ...]
    record: Record
    result: GameResult

    @property
    def ending(self) -> Ending:
        return self.result.ending(abandoned=self.game.abandoned_at is not None)

    @property
    def next_number(self) -> int:
        return len(self.hands) + 1

    @property
    def all_pass_allowed(self) -> bool:
        """Whether the game's rules let a deal end with all four passing: the page then
        offers its All passed tap."""
        return all_pass_allowed(self.record.rules)


def finish_of(state: "GameState") -> datetime:
    """When a won game finished: first won (:attr:`Game.finished_at`), else, for a game won
    before that was kept, when its last hand was recorded."""
    return state.game.finished_at or state.hands[-1].recorded_at


@dataclass(frozen=True)
class GameRows:
    """A game's rows read and turned into an engine record, not yet scored."""

    game: Game
    names: tuple[str, ...]
    hands: tuple[Hand, ...]
    record: Record

    @property
    def next_number(self) -> int:
        return len(self.hands) + 1

    def scored(self) -> GameState:
        return GameState(self.game, self.names, self.hands, self.record, score(self.record))


def score(record: Record, *, drop_after_end: bool = False) -> GameResult:
    """The engine's result for a record: the one scoring of a request goes through here."""
    return score_game(
        record.hands,
        first_dealer=record.first_dealer,
        rules=record.rules,
        drop_after_end=drop_after_end,
    )


def read_game(game: Game) -> GameRows:
    """Seats and hands in two queries, read by the engine but not scored."""
    return rows_of(game, game.seats.select_related("player"), game.hands.all())


def lock_game(public_id: str) -> GameRows:
    """The game locked for one writer, with its seats, then its hands: two queries.

    Raises Game.DoesNotExist for a game that does not exist.
    """
    seats = list(
        Seat.objects.select_related(
            "game", "player", *(f"game__{name}" for name in hooks.loaded_with_game)
        )
        .select_for_update(of=("game",))
        .filter(game__public_id=public_id)
        .order_by("position")
    )
    if not seats:
        raise Game.DoesNotExist(public_id)
    game = seats[0].game
    return rows_of(game, seats, Hand.objects.filter(game_id=game.pk))


def summary_of(state: GameState) -> dict[str, Any]:
    """The game's summary row, as the engine's result gives it: what lists show."""
    return summary_for(
        state.names, state.result, len(state.hands), abandoned=state.game.abandoned_at is not None
    )


SUMMARY_COLUMNS = ("names", "totals", "leaders", "status", "hands", "winner")
"""The fields of a summary row that :func:`summary_for` gives."""


def summary_for(
    names: Sequence[str], result: GameResult, hands: int, *, abandoned: bool
) -> dict[str, Any]:
    """:func:`summary_of` a game of ``hands`` hands, told without its rows (a bulk import's)."""
    return {
        "names": list(names),
        "totals": list(result.totals),
        "leaders": list(result.leading),
        "status": result.ending(abandoned=abandoned).value,
        "hands": hands,
        "winner": result.winner,
    }


def load_game(game: Game) -> GameState:
    """Seats and hands in two queries, scored once by the engine."""
    return read_game(game).scored()


def load_games(games: QuerySet[Game]) -> list[GameState]:
    """Many games in three queries."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return [
        rows_of(game, game.seats.all(), game.hands.all()).scored()
        for game in games.prefetch_related(seats, "hands")
    ]


def rows_of(game: Game, seats: Iterable[Seat], hands: Iterable[Hand]) -> GameRows:
    names = tuple(seat.player.name for seat in seats)
    rows = tuple(hands)
    return GameRows(game, names, rows, record_of(game, names, rows))


def rules_of(game: Game) -> Rules:
    return game.rules


def about_of(game: Game, hands: Sequence[Hand] = ()) -> About:
    """What the record says of the game beyond its rules.

    ``finished_at`` is when the game was first won (:attr:`Game.finished_at`; for a game
    from before it was kept, when its last hand was recorded): the caller, which knows
    whether it was won, passes the hands only then.
    """
    return About(
        id=game.record_id,
        place=game.place or None,
        started_at=game.created_at,
        finished_at=(game.finished_at or hands[-1].recorded_at) if hands else None,
        abandoned=game.abandoned_at is not None,
        club=game.club_label or None,
        season=game.season_label or None,
    )


class HandFacts(Protocol):
    """What a hand's row says (:data:`HAND_COLUMNS`): a :class:`Hand`, or its values read
    without making one (a league's rebuild reads a club's every hand)."""

    @property
    def taker(self) -> int | None: ...
    @property
    def bid(self) -> int | None: ...
    @property
    def trump(self) -> str: ...
    @property
    def tricks(self) -> Any: ...
    @property
    def calls(self) -> Any: ...
    @property
    def plays(self) -> Any: ...


def record_of(game: Game, names: Sequence[str], hands: Sequence[HandFacts]) -> Record:
    """The game as an engine record; every hand is read again by the engine."""
    return record_from(
        game,
        names,
        [
            engine_hand(hand, dealer_of(index, game.first_dealer))
            for index, hand in enumerate(hands)
        ],
    )


def record_from(game: Game, names: Sequence[str], hands: Sequence[EngineHand]) -> Record:
    """The game as an engine record, its hands read already (:func:`engine_hand`)."""
    return Record(
        players=tuple(names),
        first_dealer=game.first_dealer,
        rules=rules_of(game),
        hands=tuple(hands),
    )


def engine_hand(hand: HandFacts, dealer: int) -> EngineHand:
    """A stored hand read again by the engine, as dealt by ``dealer``."""
    return hand_from_dict(hand_dict(hand), dealer=dealer)


def exported(state: GameState) -> Record:
    """The record as exported: with what is known of the game beyond its hands."""
    finished = state.hands if state.result.finished else ()
    return Record(
        players=state.record.players,
        first_dealer=state.record.first_dealer,
        rules=state.record.rules,
        hands=state.record.hands,
        about=about_of(state.game, finished),
    )


def hand_dict(hand: HandFacts) -> dict[str, Any]:
    """A stored hand in the game record's form."""
    if not hand.trump:
        return {"calls": ["pass"] * SEATS}
    data: dict[str, Any] = (
        {"calls": hand.calls} if hand.calls else {"taker": hand.taker, "bid": hand.bid}
    )
    data["trump"] = hand.trump
    if hand.plays:
        data["plays"] = hand.plays
    else:
        data["tricks"] = hand.tricks
    return data


HAND_COLUMNS = ("taker", "bid", "tricks", "calls", "plays", "trump")
"""The fields of a hand's row that :func:`columns` gives."""
HAND_JSON_COLUMNS = frozenset(
    name for name in HAND_COLUMNS if isinstance(Hand._meta.get_field(name), JSONField)
)
"""Those of :data:`HAND_COLUMNS` that hold JSON."""


def columns(hand: EngineHand) -> dict[str, Any]:
    """An engine hand as model fields: what happened, nothing that follows from it.

    A contract given by its auction keeps the calls, not the taker and bid they
    give; a hand played card by card keeps the cards, not the tricks they give.
    """
    return dict(zip(HAND_COLUMNS, column_values(hand), strict=True))


def column_values(hand: EngineHand) -> tuple[Any, ...]:
    """:func:`columns`' values, in the order of :data:`HAND_COLUMNS`: what a bulk import
    writes, a quarter of a million hands at a time."""
    contract = hand.contract
    if contract is None:
        return (None, None, None, None, None, "")
    if hand.calls is not None:
        taker, bid, calls = None, None, [format_call(call) for call in hand.calls]
    else:
        taker, bid, calls = contract.taker, contract.bid, None
    if hand.plays is not None:
        tricks, plays = None, [[str(card) for card in trick] for trick in hand.plays]
    else:
        tricks, plays = list(hand.tricks or ()), None
    return (taker, bid, tricks, calls, plays, contract.trump.value)


def snapshot(hand: EngineHand) -> dict[str, Any]:
    """A hand as the history shows it (its contract and tricks, as the engine reads them),
    and as it was recorded, in the game record's form, so that an undo can be redone."""
    if hand.contract is None:
        return {"taker": None, "record": hand_to_dict(hand)}
    return {
        "taker": hand.contract.taker,
        "bid": hand.contract.bid,
        "trump": hand.contract.trump.value,
        "tricks": list(hand.tricks or ()),
        "by_card": hand.plays is not None,
        "record": hand_to_dict(hand),
    }
