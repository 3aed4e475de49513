"""Every write, each in one transaction, through keyword-only functions."""

import random
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet, Value
from django.db.models.functions import Lower
from django.utils import timezone

from .engine import GameOver, GameResult, Record, Rules, dealer_of, format_call
from .engine import Hand as EngineHand
from .models import Change, Game, Hand, Player, Seat
from .records import record_of


class HandTaken(Exception):
    """Someone else recorded this hand number first."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(number)


@dataclass(frozen=True)
class GameState:
    """A game with its seats and hands loaded, and the engine's verdict on them."""

    game: Game
    names: tuple[str, ...]
    hands: tuple[Hand, ...]
    record: Record
    result: GameResult


def load_game(game: Game) -> GameState:
    """Seats and hands in two queries, scored by the engine."""
    return state_of(game, game.seats.select_related("player"), game.hands.all())


def load_games(games: QuerySet[Game]) -> list[GameState]:
    """Many games in three queries."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return [
        state_of(game, game.seats.all(), game.hands.all())
        for game in games.prefetch_related(seats, "hands")
    ]


def state_of(game: Game, seats: Iterable[Seat], hands: Iterable[Hand]) -> GameState:
    names = tuple(seat.player.name for seat in seats)
    rows = tuple(hands)
    record = record_of(game, names, rows)
    return GameState(game, names, rows, record, record.score())


def _player(name: str) -> Player:
    """The player of that name, whatever its case; lowered by the database, like its index."""
    same_name = Player.objects.annotate(lower=Lower("name")).filter(lower=Lower(Value(name)))
    existing = same_name.first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:  # created meanwhile by another game
        return same_name.get()


@transaction.atomic
def create_game(
    *,
    names: Sequence[str],
    rules: Rules,
    first_dealer: int | None,
    place: str = "",
    rematch_of: Game | None = None,
) -> Game:
    """A new game; ``first_dealer`` None draws the first dealer at random."""
    game = Game.objects.create(
        first_dealer=random.randrange(4) if first_dealer is None else first_dealer,
        target=rules.target,
        failed_taker=rules.failed_taker.value,
        stake=rules.stake,
        currency=rules.currency,
        place=place,
        rematch_of=rematch_of,
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=_player(name))
        for position, name in enumerate(names)
    )
    Change.objects.create(game=game, action=Change.Action.CREATED)
    return game


@transaction.atomic
def import_record(*, record: Record) -> Game:
    """A game from a validated ``boulmous/1`` record, hands and all."""
    game = create_game(names=record.players, rules=record.rules, first_dealer=record.first_dealer)
    game.changes.update(action=Change.Action.IMPORTED)
    Hand.objects.bulk_create(
        Hand(game=game, number=number, **columns(hand))
        for number, hand in enumerate(record.hands, start=1)
    )
    return game


def columns(hand: EngineHand) -> dict[str, Any]:
    """An engine hand as model fields: what happened, nothing that follows from it.

    A contract given by its auction keeps the calls, not the taker and bid they
    give; a hand played card by card keeps the cards, not the tricks they give.
    """
    fields: dict[str, Any] = dict.fromkeys(("taker", "bid", "tricks", "calls", "plays"))
    fields["trump"] = ""
    if hand.contract is None:
        return fields
    fields["trump"] = hand.contract.trump.value
    if hand.calls is not None:
        fields["calls"] = [format_call(call) for call in hand.calls]
    else:
        fields.update(taker=hand.contract.taker, bid=hand.contract.bid)
    if hand.plays is not None:
        fields["plays"] = [[str(card) for card in trick] for trick in hand.plays]
    else:
        fields["tricks"] = list(hand.tricks or ())
    return fields


def snapshot(hand: EngineHand) -> dict[str, Any]:
    """A hand as the history shows it: its contract and tricks, as the engine reads them."""
    if hand.contract is None:
        return {"taker": None}
    return {
        "taker": hand.contract.taker,
        "bid": hand.contract.bid,
        "trump": hand.contract.trump.value,
        "tricks": list(hand.tricks or ()),
        "by_card": hand.plays is not None,
    }


@transaction.atomic
def record_hand(*, game: Game, number: int, hand: EngineHand, token: uuid.UUID | None) -> Hand:
    """Record hand ``number``, checked against the game as it now stands.

    A repeated token (a double tap, a retry) returns the hand it already recorded.
    Two phones saving the same number: the first wins, the other gets HandTaken.
    """
    Game.objects.select_for_update().filter(pk=game.pk).first()  # one writer per game
    if token is not None:
        done = game.hands.filter(token=token).first()
        if done is not None:
            return done
    state = load_game(game)
    if number != len(state.hands) + 1:
        raise HandTaken(number)
    replace(state.record, hands=(*state.record.hands, hand)).score()  # refused after the end
    try:
        with transaction.atomic():
            row = Hand.objects.create(game=game, number=number, token=token, **columns(hand))
    except IntegrityError:
        raise HandTaken(number) from None
    Change.objects.create(
        game=game, action=Change.Action.RECORDED, hand_number=number, after=snapshot(hand)
    )
    return row


@transaction.atomic
def edit_hand(*, game: Game, number: int, hand: EngineHand, discard_after_end: bool) -> Hand:
    """Replace hand ``number``'s facts; everything after is recomputed.

    If the game would now end before its last recorded hand, the engine says so
    (GameOver); with ``discard_after_end`` the hands after the new end are
    discarded, each kept in the history.
    """
    Game.objects.select_for_update().filter(pk=game.pk).first()
    state = load_game(game)
    row = state.hands[number - 1]
    hands = list(state.record.hands)
    hands[number - 1] = hand
    try:
        replace(state.record, hands=tuple(hands)).score()
    except GameOver as over:
        if not discard_after_end or over.won_at < number:
            raise
        for later, facts in zip(
            state.hands[over.won_at :], state.record.hands[over.won_at :], strict=True
        ):
            _discard(game, later, facts, Change.Action.DISCARDED)
    before = snapshot(state.record.hands[number - 1])
    for name, value in columns(hand).items():
        setattr(row, name, value)
    row.save()
    Change.objects.create(
        game=game,
        action=Change.Action.EDITED,
        hand_number=number,
        before=before,
        after=snapshot(hand),
    )
    return row


@transaction.atomic
def undo_hand(*, game: Game, number: int) -> bool:
    """Delete hand ``number`` if it is the last one; False if it no longer is (a repeated tap)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    state = load_game(game)
    if not state.hands or len(state.hands) != number:
        return False
    _discard(game, state.hands[-1], state.record.hands[-1], Change.Action.UNDONE)
    return True


def _discard(game: Game, row: Hand, facts: EngineHand, action: str) -> None:
    Change.objects.create(game=game, action=action, hand_number=row.number, before=snapshot(facts))
    row.delete()


@transaction.atomic
def abandon_game(*, game: Game) -> None:
    """The table stops before anyone has won: the game is settled as it stands."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    game.refresh_from_db()
    if game.abandoned_at is not None or load_game(game).result.finished:
        return
    game.abandoned_at = timezone.now()
    game.save(update_fields=["abandoned_at"])
    Change.objects.create(game=game, action=Change.Action.ABANDONED)


@transaction.atomic
def resume_game(*, game: Game) -> None:
    Game.objects.select_for_update().filter(pk=game.pk).first()
    game.refresh_from_db()
    if game.abandoned_at is None:
        return
    game.abandoned_at = None
    game.save(update_fields=["abandoned_at"])
    Change.objects.create(game=game, action=Change.Action.RESUMED)


@transaction.atomic
def rematch(*, game: Game) -> Game:
    """A new game with the same seats and rules, the deal passed on; asked twice, the same one."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    existing = Game.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    state = load_game(game)
    last_dealer = dealer_of(len(state.hands) - 1, game.first_dealer)
    return create_game(
        names=state.names,
        rules=state.record.rules,
        first_dealer=(last_dealer + 1) % 4,
        rematch_of=game,
    )
