"""Every write, each one transaction: lock the game, load it once, ask the engine once,
write, and return the game as it now stands.

Refusals are domain errors carrying that state, for the view to show: the rules
broken (:class:`RulesBroken`, :class:`EndsEarly`), or the game changed under the
player's feet (:class:`HandTaken`, :class:`GameClosed`).
"""

import json
import random
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ..common.names import name_key
from ..common.rights import NOBODY, Actor
from ..engine import (
    SEATS,
    GameOver,
    GameResult,
    Record,
    Rules,
    RulesError,
    dealer_of,
    hand_from_dict,
)
from ..engine import Confirmation as Mode
from ..engine import Hand as EngineHand
from ..infra.bulk import JsonText, insert_objects, insert_rows, values_found
from .access import Refusal, closed
from .confirming import Agreement, agreement_of, final_as_written, has_settlement, settled
from .hooks import game_changed
from .models import (
    Change,
    Confirmation,
    Decision,
    Dispute,
    Game,
    Hand,
    Player,
    Proposal,
    ScorerLink,
    Seat,
    SeatLink,
    SettlementAgreement,
    Summary,
    rules_columns,
)
from .state import (
    HAND_COLUMNS,
    HAND_JSON_COLUMNS,
    SUMMARY_COLUMNS,
    GameRows,
    GameState,
    column_values,
    columns,
    engine_hand,
    finish_of,
    lock_game,
    score,
    snapshot,
    summary_for,
    summary_of,
)


class WriteRefused(Exception):
    """A write the game as it now stands does not allow; ``state`` is that game."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        super().__init__(state.game.pk)


class AlreadyRecorded(WriteRefused):
    """This form was sent before (a double tap, a retry): it recorded hand ``number``."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class TokenReused(AlreadyRecorded):
    """This form's token recorded hand ``number``, but not this hand: the same token was sent
    with other facts (another hand). Nothing is recorded; a page treats it as the form sent
    before, the API says so (a 422)."""


class Proposed(WriteRefused):
    """Hand ``number`` is confirmed, and only the referee changes it now: the correction
    is proposed to the other seats (a :class:`Proposal`), and the hand stays as confirmed
    until a player of another seat confirms it."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class ConfirmedHand(WriteRefused):
    """Hand ``number`` is confirmed: only the referee may undo it now (a correction is
    proposed instead: :class:`Proposed`)."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class HandTaken(WriteRefused):
    """Someone else recorded, or took back, hand ``number`` first."""

    def __init__(self, state: GameState, number: int) -> None:
        self.number = number
        super().__init__(state)


class NotLastHand(HandTaken):
    """Hand ``number`` is not the game's last: only the last hand can be undone."""


class GameClosed(WriteRefused):
    """The game was abandoned: nothing changes until it is resumed."""


class Closed(WriteRefused):
    """The context keeping the game closed it to every scorer (a club night that ended):
    ``why`` says so (scoring/table/access.py ``CLOSED``)."""

    def __init__(self, state: GameState, why: Refusal) -> None:
        self.why = why
        super().__init__(state)


def _lock_open(public_id: str) -> GameRows:
    """The game locked (:func:`lock_game`), unless a context closed it to every scorer
    (Closed): asked of the game as locked, with its relations read (no query), so that no
    write slips in once it is closed."""
    rows = lock_game(public_id)
    why = closed(public_id, rows.game)
    if why is not None:
        raise Closed(rows.scored(), why)
    return rows


class GameWon(WriteRefused):
    """The game was won before this hand: it takes no more."""


class NothingToRedo(WriteRefused):
    """The game changed since the undo: the hand undone can no longer come back."""


class RulesBroken(Exception):
    """The engine refuses the hand in this game."""

    def __init__(self, error: RulesError) -> None:
        self.error = error
        super().__init__(str(error))


class EndsEarly(Exception):
    """With this edit the game is won at hand ``won_at``, before its last hand ``last``."""

    def __init__(self, won_at: int, last: int) -> None:
        self.won_at, self.last = won_at, last
        super().__init__(won_at, last)


def players_named(names: Sequence[str]) -> list[Player]:
    """The players of these names, whatever their case, created where new.

    Names are compared by their key (:func:`name_key`), in Python, the same in every
    database. New names are created in one order (by key), so that two games creating
    the same names in crossed seat order cannot deadlock.
    """
    keys = [name_key(name) for name in names]
    found: dict[str, Player] = {
        player.key: player for player in Player.objects.filter(key__in=keys)
    }
    for key, name in sorted(zip(keys, names, strict=True)):
        if key in found:
            continue
        try:
            with transaction.atomic():
                found[key] = Player.objects.create(name=name, key=key)
        except IntegrityError:  # created meanwhile by another game
            found[key] = Player.objects.get(key=key)
    return [found[key] for key in keys]


def _change(game: Game, by: Actor, action: str, **fields: Any) -> None:
    """A line of the game's history, saying who made the change."""
    Change.objects.create(
        game=game, action=action, by_user_id=by.user_id, by_device=by.device, **fields
    )


def _summarise(state: GameState, action: str) -> GameState:
    """The game's summary row following the change just made, and the change announced to
    other contexts (:data:`~scoring.table.hooks.game_changed`), in the same transaction. A
    game won for the first time keeps that moment as its finish, whatever is undone, redone
    or corrected after (:attr:`Game.finished_at`)."""
    game = state.game
    if state.result.finished and game.finished_at is None and state.hands:
        game.finished_at = state.hands[-1].recorded_at
        game.save(update_fields=["finished_at"])
    Summary.objects.filter(game=state.game).update(changed_at=timezone.now(), **summary_of(state))
    game_changed.send(sender=Game, state=state, action=action)
    return state


@transaction.atomic
def create_game(
    *,
    names: Sequence[str],
    rules: Rules,
    first_dealer: int | None,
    place: str = "",
    rematch_of: Game | None = None,
    owner_id: int | None = None,
    club_label: str = "",
    by: Actor = NOBODY,
) -> GameState:
    """A new game; ``first_dealer`` None draws the first dealer at random. ``club_label`` is
    the club its record names."""
    game = Game.objects.create(
        first_dealer=random.randrange(SEATS) if first_dealer is None else first_dealer,
        **rules_columns(rules),
        place=place,
        rematch_of=rematch_of,
        owner_id=owner_id,
        club_label=club_label,
    )
    players = players_named(names)
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=player) for position, player in enumerate(players)
    )
    _change(game, by, Change.Action.CREATED)
    record = Record(players=tuple(names), first_dealer=game.first_dealer, rules=rules)
    state = GameState(game, tuple(names), (), record, score(record))
    Summary.objects.create(game=game, changed_at=game.created_at, **summary_of(state))
    game_changed.send(sender=Game, state=state, action=Change.Action.CREATED)
    return state


def _aware(moment: datetime | None) -> datetime | None:
    """A record's date-time; one without an offset is taken as UTC."""
    if moment is None or timezone.is_aware(moment):
        return moment
    return timezone.make_aware(moment, UTC)


@transaction.atomic
def import_record(
    *,
    record: Record,
    owner_id: int | None = None,
    club_label: str | None = None,
    by: Actor = NOBODY,
) -> GameState:
    """A game from a validated ``boulmous/1`` record, hands, descriptive keys and all;
    ``club_label``, if given, in place of the club the record names."""
    about = record.about
    result = score(record)
    started = _aware(about.started_at) or timezone.now()
    ended = _aware(about.finished_at)
    game = Game.objects.create(
        first_dealer=record.first_dealer,
        **rules_columns(record.rules),
        place=about.place or "",
        created_at=started,
        club_label=about.club or "" if club_label is None else club_label,
        season_label=about.season or "",
        owner_id=owner_id,
    )
    if about.id and not Game.objects.filter(record_id=about.id).exists():
        game.record_id = about.id
    if about.abandoned and not result.finished:
        game.abandoned_at = ended or started
    last = len(record.hands)
    finished_at = ended if result.finished else None
    if result.finished:
        game.finished_at = finished_at or started
    game.save(update_fields=["record_id", "abandoned_at", "finished_at"])
    Seat.objects.bulk_create(
        Seat(game=game, position=position, player=player)
        for position, player in enumerate(players_named(record.players))
    )
    _change(game, by, Change.Action.IMPORTED)
    rows = Hand.objects.bulk_create(
        Hand(
            game=game,
            number=number,
            recorded_at=finished_at if number == last and finished_at else started,
            **columns(hand),
        )
        for number, hand in enumerate(record.hands, start=1)
    )
    state = GameState(game, record.players, tuple(rows), record, result)
    changed = rows[-1].recorded_at if rows else started
    Summary.objects.create(game=game, changed_at=changed, **summary_of(state))
    game_changed.send(sender=Game, state=state, action=Change.Action.IMPORTED)
    return state


@transaction.atomic
def record_hand(
    *,
    public_id: str,
    number: int,
    hand: EngineHand,
    token: uuid.UUID | None,
    by: Actor = NOBODY,
    seat: int | None = None,
) -> GameState:
    """Record hand ``number``, checked against the game as it now stands; ``seat``: the
    seat the scorer's phone holds, which then may not confirm it.

    A repeated token (a double tap, a retry) records nothing more. Two phones
    saving the same number: the first wins, the other gets HandTaken.
    """
    rows = _lock_open(public_id)
    for row in rows.hands:
        if token is not None and row.token == token:
            same = row.number == number and _facts(row) == columns(hand)
            raise (AlreadyRecorded if same else TokenReused)(rows.scored(), row.number)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if number != len(rows.hands) + 1:
        raise HandTaken(rows.scored(), number)
    record = rows.record.with_hand(number, hand)
    try:
        result = score(record)
    except GameOver:
        raise GameWon(rows.scored()) from None
    except RulesError as error:
        raise RulesBroken(error) from None
    row = Hand.objects.create(
        game=rows.game, number=number, token=token, entered_seat=seat, **columns(hand)
    )
    _change(rows.game, by, Change.Action.RECORDED, hand_number=number, after=snapshot(hand))
    return _summarise(
        GameState(rows.game, rows.names, (*rows.hands, row), record, result),
        Change.Action.RECORDED,
    )


def edit_hand(
    *,
    public_id: str,
    number: int,
    hand: EngineHand,
    discard_after_end: bool,
    by: Actor = NOBODY,
    seat: int | None = None,
    referee: bool = False,
) -> GameState:
    """:func:`_edit_hand`; a correction of a confirmed hand, written as proposed, raises
    :class:`Proposed` once its transaction is over (raised inside, it would undo it)."""
    state, proposed = _edit_hand(
        public_id=public_id,
        number=number,
        hand=hand,
        discard_after_end=discard_after_end,
        by=by,
        seat=seat,
        referee=referee,
    )
    if proposed:
        raise Proposed(state, number)
    return state


@transaction.atomic
def _edit_hand(
    *,
    public_id: str,
    number: int,
    hand: EngineHand,
    discard_after_end: bool,
    by: Actor = NOBODY,
    seat: int | None = None,
    referee: bool = False,
) -> tuple[GameState, bool]:
    """Replace hand ``number``'s facts; everything after is recomputed. A hand changed
    takes a new version, entered by ``seat`` now: its earlier confirmations count for
    nothing. A hand already confirmed is changed only by the ``referee``: another's
    correction is proposed (:class:`Proposed`), the hand left as it is.

    If the game would now end before its last recorded hand, EndsEarly says so;
    with ``discard_after_end`` the hands after the new end are discarded, each
    kept in the history.
    """
    rows = _lock_open(public_id)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if not 1 <= number <= len(rows.hands):
        raise HandTaken(rows.scored(), number)
    record = rows.record.with_hand(number, hand)
    try:
        result = score(record, drop_after_end=True)
    except RulesError as error:
        raise RulesBroken(error) from None
    won_at = len(result.hands)
    if won_at < len(record.hands) and not discard_after_end:
        raise EndsEarly(won_at, len(record.hands))
    changed = _facts(rows.hands[number - 1]) != columns(hand)
    # The referee asked last: a lazy answer (a view's ``may_later``) costs nothing here
    # for a game played without confirmation.
    if changed and _confirmed(rows, number) and not referee:
        _propose(rows, number, hand, discard_after_end, by, seat)
        return rows.scored(), True
    for row, facts in zip(rows.hands[won_at:], record.hands[won_at:], strict=True):
        _discard(rows.game, row, facts, Change.Action.DISCARDED, by)
    row = rows.hands[number - 1]
    if _facts(row) != columns(hand):  # sent unchanged, it keeps its confirmations
        row.version += 1
        row.entered_seat, row.entered_at = seat, timezone.now()
    for name, value in columns(hand).items():
        setattr(row, name, value)
    row.save()
    _change(
        rows.game,
        by,
        Change.Action.EDITED,
        hand_number=number,
        before=snapshot(rows.record.hands[number - 1]),
        after=snapshot(hand),
    )
    kept = Record(
        players=record.players,
        first_dealer=record.first_dealer,
        rules=record.rules,
        hands=record.hands[:won_at],
    )
    state = GameState(rows.game, rows.names, rows.hands[:won_at], kept, result)
    return _summarise(state, Change.Action.EDITED), False


def _confirmed(rows: GameRows, number: int) -> bool:
    """Whether hand ``number`` is confirmed (or decided by the referee), or the whole
    game's result signed by all four: only the referee changes it then. No query, and no
    scoring, for a game played without confirmation."""
    if rows.record.rules.confirmation is Mode.OFF:
        return False
    agreement = agreement_of(rows.scored())
    signed = agreement.signed is not None and agreement.signed.complete
    return signed or agreement.hands[number - 1].at is not None


def _propose(
    rows: GameRows,
    number: int,
    hand: EngineHand,
    discard_after_end: bool,
    by: Actor,
    seat: int | None,
) -> None:
    """The correction of a confirmed hand proposed, in the history (the hand before and as
    proposed); the game's version moves, so every phone shows it."""
    row = rows.hands[number - 1]
    Proposal.objects.create(
        game=rows.game,
        hand=row,
        hand_number=number,
        version=row.version,
        facts=columns(hand),
        discard_after_end=discard_after_end,
        seat=seat,
        by_user_id=by.user_id,
        by_device=by.device,
    )
    _change(
        rows.game,
        by,
        Change.Action.PROPOSED,
        hand_number=number,
        before=snapshot(rows.record.hands[number - 1]),
        after=snapshot(hand),
    )
    Summary.objects.filter(game=rows.game).update(changed_at=timezone.now())


def open_proposal(game: Game, row: Hand) -> Proposal | None:
    """The correction of this hand that waits to be confirmed: the latest proposed of it as
    it now stands, not confirmed."""
    found = Proposal.objects.filter(game=game, hand=row, version=row.version, confirmed_at=None)
    return found.order_by("-at", "-id").first()


@transaction.atomic
def confirm_proposal(
    *, public_id: str, number: int, seat: int, by: Actor = NOBODY, phone: str = ""
) -> GameState:
    """The player of ``seat`` confirms the correction proposed of hand ``number``: it
    replaces the hand (written through the one hand-edit path, in the proposer's name) and
    the hand as corrected is confirmed by him; the history says both. Sent twice, it
    changes nothing more. Refused (:class:`ConfirmRefused`) with no correction waiting, by
    the seat that proposed it, or for one the game no longer takes."""
    rows = _lock_open(public_id)
    state = rows.scored()
    if not 1 <= number <= len(rows.hands):
        raise ConfirmRefused(state, "gone", number)
    row = rows.hands[number - 1]
    proposal = open_proposal(rows.game, row)
    if proposal is None:
        done = Proposal.objects.filter(game=rows.game, hand=row, version=row.version - 1)
        if done.filter(confirmed_seat=seat).exclude(confirmed_at=None).exists():
            return state  # sent twice
        raise ConfirmRefused(state, "no_proposal", number)
    if seat == proposal.seat:
        raise ConfirmRefused(state, "own_proposal", number)
    hand = engine_hand(Hand(**proposal.facts), dealer_of(number - 1, rows.game.first_dealer))
    proposer = Actor(proposal.by_user_id, proposal.by_device)
    try:
        state = edit_hand(
            public_id=public_id,
            number=number,
            hand=hand,
            discard_after_end=proposal.discard_after_end,
            by=proposer,
            seat=proposal.seat,
            referee=True,
        )
    except (RulesBroken, EndsEarly):
        raise ConfirmRefused(state, "unfit", number) from None
    proposal.confirmed_at, proposal.confirmed_seat = timezone.now(), seat
    proposal.save(update_fields=["confirmed_at", "confirmed_seat"])
    now = state.hands[number - 1]
    Confirmation.objects.create(
        game=rows.game,
        hand=now,
        hand_number=number,
        version=now.version,
        seat=seat,
        by_user_id=by.user_id,
        by_device=by.device,
    )
    _change(
        rows.game,
        by,
        Change.Action.ACCEPTED,
        hand_number=number,
        after=_phone({"seat": seat}, phone),
    )
    return _summarise(state, Change.Action.ACCEPTED)


@transaction.atomic
def undo_hand(
    *, public_id: str, number: int, by: Actor = NOBODY, referee: bool = False
) -> GameState:
    """Delete hand ``number`` if it is the last one; a repeated tap finds it gone and
    changes nothing more. A hand confirmed is undone by the ``referee`` alone
    (:class:`ConfirmedHand`); a view asks it lazily, at no cost for a game played without
    confirmation."""
    rows = _lock_open(public_id)
    if rows.game.abandoned_at is not None:
        raise GameClosed(rows.scored())
    if number < 1 or number != len(rows.hands):
        if number == len(rows.hands) + 1:
            return rows.scored()  # already undone: a double tap
        if 1 <= number < len(rows.hands):
            raise NotLastHand(rows.scored(), number)
        raise HandTaken(rows.scored(), number)
    if _confirmed(rows, number) and not referee:
        raise ConfirmedHand(rows.scored(), number)
    _discard(rows.game, rows.hands[-1], rows.record.hands[-1], Change.Action.UNDONE, by)
    record = Record(
        players=rows.record.players,
        first_dealer=rows.record.first_dealer,
        rules=rows.record.rules,
        hands=rows.record.hands[:-1],
    )
    return _summarise(
        GameState(rows.game, rows.names, rows.hands[:-1], record, score(record)),
        Change.Action.UNDONE,
    )


@transaction.atomic
def redo_hand(*, public_id: str, number: int, by: Actor = NOBODY) -> GameState:
    """Record again hand ``number``, undone by the game's last change; a repeated tap finds
    it back and changes nothing more."""
    rows = _lock_open(public_id)
    last = rows.game.changes.first()
    if last is not None and last.action == Change.Action.REDONE and last.hand_number == number:
        return rows.scored()  # already redone: a double tap
    before = last.before if last is not None and last.action == Change.Action.UNDONE else None
    if not before or "record" not in before or last is None or last.hand_number != number:
        raise NothingToRedo(rows.scored())
    hand = hand_from_dict(before["record"], dealer_of(number - 1, rows.game.first_dealer))
    record = rows.record.with_hand(number, hand)
    result = score(record)  # it was legal where it stood, and nothing changed since
    row = Hand.objects.create(game=rows.game, number=number, **columns(hand))
    _change(rows.game, by, Change.Action.REDONE, hand_number=number, after=snapshot(hand))
    return _summarise(
        GameState(rows.game, rows.names, (*rows.hands, row), record, result),
        Change.Action.REDONE,
    )


def _facts(row: Hand) -> dict[str, Any]:
    """A stored hand's facts, as :func:`~scoring.table.state.columns` gives a hand's."""
    return {name: getattr(row, name) for name in HAND_COLUMNS}


def _discard(game: Game, row: Hand, facts: EngineHand, action: str, by: Actor) -> None:
    _change(game, by, action, hand_number=row.number, before=snapshot(facts))
    row.delete()


@transaction.atomic
def abandon_game(*, public_id: str, by: Actor = NOBODY) -> GameState:
    """The table stops before anyone has won: the game is settled as it stands."""
    state = _lock_open(public_id).scored()
    if state.ending.over:
        return state
    state.game.abandoned_at = timezone.now()
    state.game.save(update_fields=["abandoned_at"])
    _change(state.game, by, Change.Action.ABANDONED)
    return _summarise(state, Change.Action.ABANDONED)


@transaction.atomic
def resume_game(*, public_id: str, by: Actor = NOBODY) -> GameState:
    state = _lock_open(public_id).scored()
    if state.game.abandoned_at is None:
        return state
    state.game.abandoned_at = None
    state.game.save(update_fields=["abandoned_at"])
    _change(state.game, by, Change.Action.RESUMED)
    return _summarise(state, Change.Action.RESUMED)


class NotWon(WriteRefused):
    """The game is not won: it has no finish to move."""


@transaction.atomic
def move_finish(*, public_id: str, finished_at: datetime, by: Actor = NOBODY) -> GameState:
    """A won game's finish set to ``finished_at``, its start moved as much (the game was
    played on another date): the one write that moves it, asked on purpose (a club admin's
    edit of the game's date, scoring/clubs/edits.py); undo, redo and corrections keep it
    (:attr:`Game.finished_at`). NotWon for a game not won."""
    state = lock_game(public_id).scored()
    if not state.result.finished:
        raise NotWon(state)
    game = state.game
    was = {"started_at": game.created_at, "finished_at": finish_of(state)}
    game.created_at += finished_at - was["finished_at"]
    game.finished_at = finished_at
    game.save(update_fields=["created_at", "finished_at"])
    now = {"started_at": game.created_at, "finished_at": finished_at}
    _change(
        game,
        by,
        Change.Action.MOVED,
        before={key: moment.isoformat() for key, moment in was.items()},
        after={key: moment.isoformat() for key, moment in now.items()},
    )
    return _summarise(state, Change.Action.MOVED)


@transaction.atomic
def rematch(*, public_id: str, by: Actor = NOBODY) -> Game:
    """A new game with the same seats and rules, the deal passed on; asked twice, the same one."""
    state = lock_game(public_id).scored()
    existing = Game.objects.filter(rematch_of=state.game).first()
    if existing is not None:
        return existing
    return create_game(
        names=state.names,
        rules=state.record.rules,
        first_dealer=state.result.deal_passes_to,
        rematch_of=state.game,
        owner_id=state.game.owner_id,
        club_label=state.game.club_label,
        by=by,
    ).game


@transaction.atomic
def make_scorer_link(*, public_id: str) -> ScorerLink:
    """A new link that hands the scoring of the game to the phone that opens it."""
    return ScorerLink.objects.create(game=Game.objects.get(public_id=public_id))


@transaction.atomic
def hand_on_scorer_link(*, link_id: int, public_id: str, to: str) -> ScorerLink | None:
    """For the phone that holds this link of the game and started its rematch ``to``: a link
    of the rematch, revoked with this one (None if this one was revoked meanwhile)."""
    link = (
        ScorerLink.objects.select_for_update()
        .filter(pk=link_id, game__public_id=public_id, revoked_at=None)
        .first()
    )
    if link is None:
        return None
    rematch = Game.objects.get(public_id=to)
    handed, _ = ScorerLink.objects.get_or_create(game=rematch, handed_on_from=link, revoked_at=None)
    return handed


@transaction.atomic
def revoke_scorer_link(*, public_id: str, link_id: int) -> None:
    """The link stops working, and so do the rights of the phones it was handed to, and the
    links it was handed on as to the rematches they started, rematch after rematch."""
    now = timezone.now()
    links = list(
        ScorerLink.objects.select_for_update()
        .filter(pk=link_id, game__public_id=public_id)
        .values_list("pk", flat=True)
    )
    while links:
        ScorerLink.objects.filter(pk__in=links, revoked_at=None).update(revoked_at=now)
        links = list(
            ScorerLink.objects.select_for_update()
            .filter(handed_on_from__in=links)
            .values_list("pk", flat=True)
        )


def _noted(
    game: Game, by: Actor, action: str, after: dict[str, Any], hand_number: int | None = None
) -> None:
    """A change that leaves the hands as they are (a seat taken or its code revoked, a
    confirmation, a dispute, a decision), in the game's history; the game's version moves,
    so that every phone (the live view, the pages kept by version) shows it."""
    _change(game, by, action, hand_number=hand_number, after=after)
    Summary.objects.filter(game=game).update(changed_at=timezone.now())


def _phone(after: dict[str, Any], phone: str) -> dict[str, Any]:
    """A history line's facts, with the phone the change came from if it is known
    (scoring/table/access.py: ``seat``, ``account``, ``scorer``, ``referee``)."""
    return {**after, "phone": phone} if phone else after


@transaction.atomic
def make_seat_links(*, public_id: str) -> list[SeatLink]:
    """Each seat's live link, made for the seats that have none (asked twice, the same
    ones): the game locked, so that two owners asking at once make one per seat."""
    game = Game.objects.select_for_update().get(public_id=public_id)
    live = {link.seat: link for link in game.seat_links.filter(revoked_at=None)}
    for seat in range(SEATS):
        if seat not in live:
            live[seat] = _new_seat_link(game, seat)
    return [live[seat] for seat in range(SEATS)]


def _new_seat_link(game: Game, seat: int) -> SeatLink:
    """A link for the seat, its code drawn again in the rare case that a live one has it."""
    for _ in range(4):
        try:
            with transaction.atomic():
                return SeatLink.objects.create(game=game, seat=seat)
        except IntegrityError:
            continue
    return SeatLink.objects.create(game=game, seat=seat)


@transaction.atomic
def revoke_seat_link(*, public_id: str, seat: int, by: Actor = NOBODY) -> bool:
    """The seat's live link stops working: every phone that took it holds the seat no more
    (at its next request). Whether there was one to revoke (asked twice, nothing more)."""
    game = Game.objects.select_for_update().get(public_id=public_id)
    revoked = game.seat_links.filter(seat=seat, revoked_at=None).update(revoked_at=timezone.now())
    if revoked:
        _noted(game, by, Change.Action.UNSEATED, {"seat": seat})
    return bool(revoked)


@transaction.atomic
def take_seat(*, link_id: int, by: Actor = NOBODY) -> SeatLink | None:
    """A phone takes the seat of this link, in the game's history; None if the link was
    revoked meanwhile. The game is locked first, as its owner's revoking locks it: neither
    waits for the other holding what it wants."""
    game_id = SeatLink.objects.filter(pk=link_id).values_list("game_id", flat=True).first()
    game = None if game_id is None else Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        return None
    link = game.seat_links.filter(pk=link_id, revoked_at=None).first()
    if link is None:
        return None
    link.taken_at = timezone.now()
    link.save(update_fields=["taken_at"])
    _noted(game, by, Change.Action.SEATED, {"seat": link.seat})
    return link


class AgreementRefused(WriteRefused):
    """A confirmation, dispute or decision the game does not take: ``why`` says why, of
    hand ``number`` if it is about one."""

    def __init__(self, state: GameState, why: str, number: int | None = None) -> None:
        self.why = why
        self.number = number
        super().__init__(state)


class ConfirmRefused(AgreementRefused):
    """A confirmation the game does not take: ``why`` says it (a hand changed since, or
    entered from the seat that would confirm it, or no confirmation under its rules)."""


@transaction.atomic
def confirm_hand(
    *,
    public_id: str,
    number: int,
    version: int,
    seat: int,
    by: Actor = NOBODY,
    phone: str = "",
    token: uuid.UUID | None = None,
) -> GameState:
    """The player of ``seat`` confirms hand ``number`` as he saw it (its ``version``). Sent
    twice, or for a hand already confirmed, it changes nothing more; its ``token`` sent
    again (a phone's queue replaying it) finds it written, whatever changed since. Refused
    (:class:`ConfirmRefused`) for a hand changed since, one this seat entered, one no longer
    there, or a game that confirms no hand."""
    rows = lock_game(public_id)
    state = rows.scored()
    if token is not None and Confirmation.objects.filter(game=rows.game, token=token).exists():
        return state  # sent before: a replay
    if state.record.rules.confirmation is not Mode.EACH_HAND:
        raise ConfirmRefused(state, "off")
    if not 1 <= number <= len(rows.hands):
        raise ConfirmRefused(state, "gone", number)
    row = rows.hands[number - 1]
    if row.version != version:
        raise ConfirmRefused(state, "changed", number)
    agreement = agreement_of(state)
    if not agreement.hands[number - 1].waiting:
        return state  # already confirmed: a double tap, or another seat first
    if seat == row.entered_seat:
        raise ConfirmRefused(state, "own", number)
    Confirmation.objects.create(
        game=rows.game,
        hand=row,
        hand_number=number,
        version=version,
        seat=seat,
        by_user_id=by.user_id,
        by_device=by.device,
        token=token,
    )
    _noted(rows.game, by, Change.Action.CONFIRMED, _phone({"seat": seat}, phone), number)
    return _summarise(state, Change.Action.CONFIRMED)


@transaction.atomic
def sign_game(*, public_id: str, seat: int, by: Actor = NOBODY, phone: str = "") -> GameState:
    """The player of ``seat`` signs the game's result, once it is over. Sent twice, it
    changes nothing more. Refused (:class:`ConfirmRefused`) while the game is played, or
    for a game whose result is not signed."""
    rows = lock_game(public_id)
    state = rows.scored()
    if state.record.rules.confirmation is not Mode.WHOLE_GAME:
        raise ConfirmRefused(state, "off")
    if not state.ending.over:
        raise ConfirmRefused(state, "playing")
    agreement = agreement_of(state)
    if agreement.signed is None or seat not in agreement.signed.waiting_for:
        return state  # signed already, or by itself
    Confirmation.objects.create(
        game=rows.game, seat=seat, by_user_id=by.user_id, by_device=by.device
    )
    _noted(rows.game, by, Change.Action.SIGNED, _phone({"seat": seat}, phone))
    return _summarise(state, Change.Action.SIGNED)


@transaction.atomic
def confirm_waiting(*, public_id: str, by: Actor = NOBODY) -> Agreement:
    """The night's end: every hand still waiting, and the result if it waits for
    signatures, is confirmed by itself now, in the game's history. Asked again, nothing
    more."""
    rows = lock_game(public_id)
    state = rows.scored()
    agreement = agreement_of(state)
    if agreement.final or agreement.mode is Mode.OFF:
        return agreement
    waiting = agreement.waiting
    for hand in waiting:
        row = rows.hands[hand.number - 1]
        Confirmation.objects.create(
            game=rows.game, hand=row, hand_number=row.number, version=row.version
        )
    signs = agreement.signed is not None and state.ending.over and not agreement.signed.complete
    if signs:
        Confirmation.objects.create(game=rows.game)
    settlement = agreement.settlement
    settles = settlement is not None and not settlement.complete and not agreement.disputed
    if settlement is not None and settles:
        SettlementAgreement.objects.create(
            game=rows.game, content=settlement.key, hands=len(state.hands)
        )
    if waiting or signs or settles:
        numbers = [hand.number for hand in waiting]
        _change(rows.game, by, Change.Action.NIGHT_CONFIRMED, after={"hands": numbers})
        _summarise(state, Change.Action.NIGHT_CONFIRMED)
    return agreement_of(state)


COUNTED_DUE = "due"
"""The action :func:`count_due` announces (:data:`~scoring.table.hooks.game_changed`): no
line of the game's history, which says the confirmation by itself already."""


def due_games(since: datetime) -> QuerySet[Game]:
    """The games that may have become final by time alone since their last change: won,
    under a confirmation rule, changed since ``since`` (one query when read)."""
    return Game.objects.exclude(confirmation=Mode.OFF.value).filter(
        summary__status=Summary.Status.WON, summary__changed_at__gte=since
    )


@transaction.atomic
def count_due(*, public_id: str) -> bool:
    """A won game whose result became final by time alone (a hand, the signatures or the
    settlement confirmed by its minutes since the game's last change): its summary follows
    now, and every context that counts final results (a club's league) counts it, as after
    a change; nothing is written of the game's facts, nor in its history. True if it did;
    asked again, nothing more (``manage.py confirm_due``)."""
    rows = lock_game(public_id)
    state = rows.scored()
    if not state.result.finished or state.record.rules.confirmation is Mode.OFF:
        return False
    if final_as_written(state) or not agreement_of(state).final:
        return False
    _summarise(state, COUNTED_DUE)
    return True


class SettleRefused(WriteRefused):
    """An agreement to the settlement the game does not take: ``why`` says it (``free``:
    played for no money; ``playing``: not over; ``disputed``: hands ``numbers`` wait for the
    referee; ``waiting``: hands ``numbers`` wait for confirmation; ``changed``: the
    settlement changed since the player saw it; ``not_his``: the code typed is not that
    seat's)."""

    def __init__(self, state: GameState, why: str, numbers: Sequence[int] = ()) -> None:
        self.why = why
        self.numbers = tuple(numbers)
        super().__init__(state)


@transaction.atomic
def agree_settlement(
    *,
    public_id: str,
    seat: int,
    content: str | None = None,
    code: str | None = None,
    by: Actor = NOBODY,
) -> GameState:
    """The player of ``seat`` agrees to the game's settlement as he saw it (its
    ``content``, :func:`~.confirming.settlement_key`; None: as it stands), on his own phone
    holding the seat, or on the scorer's phone passed round with his seat's short ``code``
    (checked here, with the game locked: the seat's live code, not another seat's). Under
    ``whole_game`` it signs the result for his seat as well. Sent twice, it changes nothing
    more. Refused (:class:`SettleRefused`) for a game played for no money or not over, while
    a hand is disputed or waits for confirmation (the settlement would not be final), for a
    settlement changed since, or a code that is not the seat's."""
    rows = lock_game(public_id)
    state = rows.scored()
    if not has_settlement(rows.game):
        raise SettleRefused(state, "free")
    if code is not None:
        live = SeatLink.objects.filter(game=rows.game, seat=seat, code=code, revoked_at=None)
        if not live.exists():
            raise SettleRefused(state, "not_his")
    if not state.ending.over:
        raise SettleRefused(state, "playing")
    agreement = agreement_of(state)
    if agreement.disputed:
        raise SettleRefused(state, "disputed", [hand.number for hand in agreement.disputed])
    if agreement.waiting:
        raise SettleRefused(state, "waiting", [hand.number for hand in agreement.waiting])
    current = settled(state)
    assert current is not None  # played for money, and over
    if content is not None and content != current.key:
        raise SettleRefused(state, "changed")
    signs = (
        agreement.mode is Mode.WHOLE_GAME
        and agreement.signed is not None
        and seat in agreement.signed.waiting_for
    )
    if seat in current.agreed and not signs:
        return state  # agreed already: a double tap, a page sent again
    if seat not in current.agreed:
        SettlementAgreement.objects.create(
            game=rows.game,
            seat=seat,
            content=current.key,
            hands=len(state.hands),
            passed=code is not None,
            by_user_id=by.user_id,
            by_device=by.device,
        )
        after = {"seat": seat, "passed": code is not None, "hands": len(state.hands)}
        _noted(rows.game, by, Change.Action.AGREED, after)
    if signs:  # agreeing to the money is signing the result it comes from
        Confirmation.objects.create(
            game=rows.game, seat=seat, by_user_id=by.user_id, by_device=by.device
        )
        _noted(rows.game, by, Change.Action.SIGNED, {"seat": seat})
    return _summarise(state, Change.Action.AGREED)


class DisputeRefused(AgreementRefused):
    """A dispute or a decision the game does not take: ``why`` says it (``off``: no
    confirmation under its rules; ``gone``, ``changed``: the hand is no longer there, or
    changed since; ``confirmed``: confirmed already; ``none``: no dispute to decide)."""


@transaction.atomic
def dispute_hand(
    *,
    public_id: str,
    number: int,
    version: int,
    seat: int,
    reason: str,
    by: Actor = NOBODY,
    phone: str = "",
    token: uuid.UUID | None = None,
) -> GameState:
    """The player of ``seat`` disputes hand ``number`` as he saw it (its ``version``),
    saying why: the hand then waits for the referee, and the game is not final until he
    decides it. Sent twice (or a second seat disputing the same hand), it changes nothing
    more; its ``token`` sent again (a phone's queue replaying it) finds it written, whatever
    changed since (decided, corrected). Refused (:class:`DisputeRefused`) for a game that
    confirms nothing, a hand gone or changed since, or one confirmed already (then only the
    referee may change it)."""
    rows = lock_game(public_id)
    state = rows.scored()
    if token is not None and Dispute.objects.filter(game=rows.game, token=token).exists():
        return state  # sent before: a replay
    if state.record.rules.confirmation is Mode.OFF:
        raise DisputeRefused(state, "off")
    if not 1 <= number <= len(rows.hands):
        raise DisputeRefused(state, "gone", number)
    row = rows.hands[number - 1]
    if row.version != version:
        raise DisputeRefused(state, "changed", number)
    agreement = agreement_of(state)
    hand = agreement.hands[number - 1]
    if hand.disputed:
        return state  # sent twice, or disputed by another seat first
    signed = agreement.signed is not None and agreement.signed.complete
    if hand.at is not None or signed:
        raise DisputeRefused(state, "confirmed", number)
    Dispute.objects.create(
        game=rows.game,
        hand=row,
        hand_number=number,
        version=version,
        seat=seat,
        reason=reason,
        by_user_id=by.user_id,
        by_device=by.device,
        token=token,
    )
    after = _phone({"seat": seat, "reason": reason}, phone)
    _noted(rows.game, by, Change.Action.DISPUTED, after, number)
    return _summarise(state, Change.Action.DISPUTED)


@transaction.atomic
def decide_dispute(
    *,
    public_id: str,
    number: int,
    reason: str,
    hand: EngineHand | None = None,
    by: Actor = NOBODY,
    phone: str = "",
) -> GameState:
    """The referee decides the open dispute of hand ``number``, with a reason: the hand
    confirmed as it stands (``hand`` None), or corrected to ``hand`` through the one
    hand-edit path (:func:`edit_hand`, in his name, so the history says it) and then
    confirmed. Sent twice, it decides once. Refused (:class:`DisputeRefused`) if the hand
    has no dispute; a correction the game does not take is refused as any edit is."""
    rows = lock_game(public_id)
    state = rows.scored()
    dispute = (
        Dispute.objects.filter(game=rows.game, hand_number=number)
        .select_related("decision")
        .order_by("-at", "-id")
        .first()
    )
    if dispute is not None and hasattr(dispute, "decision"):
        return state  # decided already: sent twice
    hands = agreement_of(state).hands
    if dispute is None or not 1 <= number <= len(hands) or not hands[number - 1].disputed:
        raise DisputeRefused(state, "none", number)
    outcome = Decision.Outcome.CONFIRMED
    if hand is not None:
        state = edit_hand(
            public_id=public_id,
            number=number,
            hand=hand,
            discard_after_end=False,
            by=by,
            referee=True,
        )
        outcome = Decision.Outcome.CORRECTED
    Decision.objects.create(
        dispute=dispute,
        game=rows.game,
        hand_number=number,
        outcome=outcome,
        reason=reason,
        by_user_id=by.user_id,
        by_device=by.device,
    )
    after = _phone({"outcome": outcome.value, "reason": reason}, phone)
    _noted(rows.game, by, Change.Action.DECIDED, after, number)
    return _summarise(state, Change.Action.DECIDED)


def record_ids(games: QuerySet[Game], ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` these games already have."""
    return values_found(games, "record_id", ids)


def _imported_game(
    record: Record, result: GameResult, owner_id: int | None, club_label: str
) -> Game:
    """A game's row as :func:`import_record` writes it, its record id not yet chosen."""
    about = record.about
    started = _aware(about.started_at) or timezone.now()
    abandoned = about.abandoned and not result.finished
    finished = result.finished and bool(record.hands)
    return Game(
        first_dealer=record.first_dealer,
        **rules_columns(record.rules),
        place=about.place or "",
        created_at=started,
        club_label=club_label,
        season_label=about.season or "",
        owner_id=owner_id,
        abandoned_at=(_aware(about.finished_at) or started) if abandoned else None,
        finished_at=(_aware(about.finished_at) or started) if finished else None,
    )


@dataclass(frozen=True)
class Imported:
    """A game of a bulk import, as written: its row, its players (as the record names them),
    its record and the engine's result, and when its last hand was recorded (None without
    hands)."""

    game: Game
    record: Record
    result: GameResult
    last_recorded_at: datetime | None


_HAND_FIELDS = (
    "game_id",
    "number",
    "recorded_at",
    "entered_at",
    "version",
    "token",
    *HAND_COLUMNS,
)
_CHANGE_FIELDS = (
    "game_id",
    "at",
    "action",
    "by_user_id",
    "by_device",
    "hand_number",
    "before",
    "after",
)
_SUMMARY_FIELDS = ("game_id", "changed_at", *SUMMARY_COLUMNS)


def import_many(
    *,
    records: Sequence[Record],
    results: Sequence[GameResult],
    owner_id: int | None,
    club_label: str,
    by: Actor = NOBODY,
) -> list[Imported]:
    """Many games from records already scored by the engine (``results``), in bulk, so that
    thousands take seconds: the games, their seats, hands, history and summaries inserted a
    batch at a time, each row as :func:`import_record` writes it: each hand recorded when
    the game started, but the last hand of a won game, recorded when it finished. Inside
    the caller's transaction; nothing is announced, the caller (a club's import) rebuilding
    what follows from these games once, after the last.

    Only the games are made model objects (their ids are needed: :func:`insert_objects`);
    the rows that point to them go as values (:func:`~scoring.infra.bulk.insert_rows`)."""
    ids = [record.about.id for record in records if record.about.id]
    first: dict[str, str] = {}
    for record in records:
        for name in record.players:
            first.setdefault(name_key(name), name)
    players = {player.key: player.pk for player in players_named(list(first.values()))}
    used = record_ids(Game.objects.all(), ids)
    games: list[Game] = []
    for record, result in zip(records, results, strict=True):
        game = _imported_game(record, result, owner_id, club_label)
        if record.about.id and record.about.id not in used:
            game.record_id = record.about.id
        used.add(game.record_id)
        games.append(game)
    insert_objects(games)
    imported = [
        Imported(
            game,
            record,
            result,
            ((_aware(record.about.finished_at) if result.finished else None) or game.created_at)
            if record.hands
            else None,
        )
        for game, record, result in zip(games, records, results, strict=True)
    ]
    insert_rows(
        Seat,
        ("game_id", "position", "player_id"),
        (
            (one.game.pk, position, players[name_key(name)])
            for one in imported
            for position, name in enumerate(one.record.players)
        ),
    )
    written: dict[int, tuple[Any, ...]] = {}
    texts: dict[tuple[Any, ...], JsonText] = {}
    insert_rows(
        Hand, _HAND_FIELDS, (row for one in imported for row in _hand_rows(one, written, texts))
    )
    now = timezone.now()
    insert_rows(
        Change,
        _CHANGE_FIELDS,
        (
            (game.pk, now, Change.Action.IMPORTED.value, by.user_id, by.device, None, None, None)
            for game in games
        ),
    )
    insert_rows(
        Summary,
        _SUMMARY_FIELDS,
        (
            (one.game.pk, one.last_recorded_at or one.game.created_at, *_summary_values(one))
            for one in imported
        ),
    )
    return imported


def _summary_values(one: Imported) -> Iterator[Any]:
    """The game's summary as the values of :data:`SUMMARY_COLUMNS`."""
    fields = summary_for(
        one.record.players,
        one.result,
        len(one.record.hands),
        abandoned=one.game.abandoned_at is not None,
    )
    return (fields[name] for name in SUMMARY_COLUMNS)


def _json_text(value: list[Any], texts: dict[tuple[Any, ...], JsonText]) -> JsonText:
    """``value`` (a hand's tricks, calls or cards: a list of numbers or strings, or of
    lists of strings) as JSON, written once for the hands that share it: many do."""
    key = tuple(tuple(item) if type(item) is list else item for item in value)
    text = texts.get(key)
    if text is None:
        text = texts[key] = JsonText(json.dumps(value))
    return text


def _hand_rows(
    one: Imported, written: dict[int, tuple[Any, ...]], texts: dict[tuple[Any, ...], JsonText]
) -> Iterator[tuple[Any, ...]]:
    """A record's hands as the values of :data:`_HAND_FIELDS`. ``written`` keeps each hand's
    columns, their JSON written, by the hand: the engine gives one object for a hand read
    many times (scoring/engine/record.py ``_read_hand``), and the records, alive until the
    import ends, keep each object and so its id."""
    started, last = one.game.created_at, len(one.record.hands)
    for number, hand in enumerate(one.record.hands, start=1):
        recorded_at = one.last_recorded_at if number == last else started
        columns = written.get(id(hand))
        if columns is None:
            columns = tuple(
                _json_text(value, texts)
                if name in HAND_JSON_COLUMNS and value is not None
                else value
                for name, value in zip(HAND_COLUMNS, column_values(hand), strict=True)
            )
            written[id(hand)] = columns
        yield (one.game.pk, number, recorded_at, recorded_at, 1, None, *columns)
