"""Whether the table agrees: each hand's confirmation, and whether a game's result is final.

A game's rules choose its :class:`~.rules.Confirmation`. Under ``each_hand`` a hand waits
until a player of another seat than the one that entered it confirms it; under
``whole_game`` the result waits until all four seats have signed it, once the game is over.
What is not confirmed within the rules' ``confirmation_minutes`` is confirmed by itself:
derived from time, so nothing has to run when the minutes pass. A confirmation given with
no seat (the night's end) confirms by itself at once.

Under either mode a player may dispute a hand before it is confirmed (issue 40.3): it is
then disputed, and confirmed by nothing (neither the minutes nor the night's end) until the
referee decides it, as it stands or corrected; a game with a disputed hand is not final.

Pure: the facts in (the hands as entered, the confirmations given, the moment asked),
the states out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from .auction import SEATS
from .rules import Confirmation, Rules


@dataclass(frozen=True, slots=True)
class Entered:
    """A hand as it now stands: its number, the seat of the phone that entered it (None:
    a phone that holds no seat), and when (its last correction's moment, if corrected)."""

    number: int
    seat: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Given:
    """A confirmation: of hand ``number`` as it now stands, or of the whole game (None); by
    the player of ``seat``, or by itself (None: the night's end)."""

    number: int | None
    seat: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Disputed:
    """A dispute of hand ``number`` as it stood at ``at``, by the player of ``seat``."""

    number: int
    seat: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Decided:
    """The referee's decision on hand ``number`` as it stands at ``at`` (after his
    correction, if he corrected it)."""

    number: int
    at: datetime


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand's confirmation at a moment."""

    number: int
    waiting_for: tuple[int, ...] = ()
    """The seats that may confirm it while it waits; empty once it is confirmed."""
    by: int | None = None
    """The seat that confirmed it; None if it was confirmed by itself or waits."""
    at: datetime | None = None
    """When it was confirmed (or decided); None while it waits or is disputed."""
    disputed_by: int | None = None
    """The seat that disputed it, if it was disputed (the dispute open, or decided)."""
    decided: bool = False
    """Whether the referee decided it (``at``: when)."""

    @property
    def waiting(self) -> bool:
        """Waiting for a player's confirmation (not for the referee's)."""
        return self.at is None and bool(self.waiting_for)

    @property
    def disputed(self) -> bool:
        """Disputed, waiting for the referee."""
        return self.at is None and self.disputed_by is not None

    @property
    def by_itself(self) -> bool:
        return self.at is not None and self.by is None


def may_confirm(entered_by: int | None) -> tuple[int, ...]:
    """The seats that may confirm a hand entered by ``entered_by``: every other one (all
    four for a hand entered by a phone that holds no seat)."""
    return tuple(seat for seat in range(SEATS) if seat != entered_by)


def _first(given: Iterable[Given]) -> Given | None:
    return min(given, key=lambda one: one.at, default=None)


_Fact = TypeVar("_Fact", Given, Disputed, Decided)


def _at_now(facts: Iterable[_Fact], now: datetime) -> dict[int, list[_Fact]]:
    by_number: dict[int, list[_Fact]] = {}
    for one in facts:
        if one.number is not None and one.at <= now:
            by_number.setdefault(one.number, []).append(one)
    return by_number


def _confirmed(rules: Rules, hand: Entered, given: Sequence[Given], now: datetime) -> HandState:
    """Hand's state as the players' confirmations make it."""
    if rules.confirmation is not Confirmation.EACH_HAND:
        return HandState(hand.number)
    allowed = may_confirm(hand.seat)
    found = [
        one for one in given if one.at >= hand.at and (one.seat is None or one.seat in allowed)
    ]
    first = _first(found)
    itself = hand.at + timedelta(minutes=rules.confirmation_minutes)
    if itself <= now and (first is None or itself < first.at):
        return HandState(hand.number, at=itself)
    if first is not None:
        return HandState(hand.number, by=first.seat, at=first.at)
    return HandState(hand.number, waiting_for=allowed)


def _refereed(
    hand: Entered, state: HandState, disputes: Sequence[Disputed], decisions: Sequence[Decided]
) -> HandState:
    """Hand's state once its disputes and the referee's decisions are read: decided by the
    first decision since it was entered as it stands; else disputed by a dispute of it as it
    stands given before it was confirmed; else as the confirmations make it."""
    since = (one for one in decisions if one.at >= hand.at)
    decision = min(since, key=lambda one: one.at, default=None)
    before = [one for one in disputes if decision is None or one.at <= decision.at]
    dispute = max(before, key=lambda one: one.at, default=None)
    if decision is not None:
        seat = None if dispute is None else dispute.seat
        return HandState(hand.number, at=decision.at, disputed_by=seat, decided=True)
    if dispute is None or dispute.at < hand.at or (state.at is not None and state.at <= dispute.at):
        return state
    return HandState(hand.number, disputed_by=dispute.seat)


def hand_states(
    rules: Rules,
    hands: Sequence[Entered],
    given: Iterable[Given],
    now: datetime,
    disputes: Iterable[Disputed] = (),
    decisions: Iterable[Decided] = (),
) -> tuple[HandState, ...]:
    """Each hand's state at ``now``: under ``each_hand``, confirmed by the first of the
    seats allowed to, or by itself (at its entry plus the rules' minutes, or a confirmation
    with no seat) if that came first; waiting otherwise. Under ``whole_game`` no hand waits:
    each is a plain :class:`HandState` with no one to wait for. Under either, a hand
    disputed before it was confirmed waits for the referee, until he decides it. Under
    ``off`` nothing is confirmed nor disputed."""
    if rules.confirmation is Confirmation.OFF:
        return tuple(HandState(hand.number) for hand in hands)
    confirmed = _at_now(given, now)
    disputed = _at_now(disputes, now)
    decided = _at_now(decisions, now)
    return tuple(
        _refereed(
            hand,
            _confirmed(rules, hand, confirmed.get(hand.number, []), now),
            disputed.get(hand.number, []),
            decided.get(hand.number, []),
        )
        for hand in hands
    )


@dataclass(frozen=True, slots=True)
class Signatures:
    """A game's result under ``whole_game``: the seats that signed it and when, and when
    it was signed by itself (None: it was not)."""

    signed: dict[int, datetime]
    by_itself: datetime | None = None

    @property
    def waiting_for(self) -> tuple[int, ...]:
        if self.by_itself is not None:
            return ()
        return tuple(seat for seat in range(SEATS) if seat not in self.signed)

    @property
    def complete(self) -> bool:
        return not self.waiting_for


def signatures(
    rules: Rules, over_at: datetime | None, given: Iterable[Given], now: datetime
) -> Signatures:
    """Who has signed the game's result at ``now`` (``over_at``: when the game ended, None
    while it is played: nothing is signed before). Signed by itself at the end plus the
    rules' minutes, or by a confirmation of the game with no seat, if all four have not
    signed first."""
    if over_at is None:
        return Signatures({})
    signed: dict[int, datetime] = {}
    itself: datetime | None = None
    if rules.confirmation is Confirmation.WHOLE_GAME:
        itself = over_at + timedelta(minutes=rules.confirmation_minutes)
    for one in sorted(given, key=lambda one: one.at):
        if one.number is not None or one.at > now or one.at < over_at:
            continue
        if one.seat is None:
            itself = one.at if itself is None else min(itself, one.at)
        else:
            signed.setdefault(one.seat, one.at)
    last = max(signed.values()) if len(signed) == SEATS else None
    if itself is not None and (itself > now or (last is not None and last <= itself)):
        itself = None
    return Signatures(signed, itself)


def is_final(
    rules: Rules, over: bool, states: Sequence[HandState], signed: Signatures | None = None
) -> bool:
    """Whether a game's result is final: over, no hand disputed and not yet decided, and
    under ``each_hand`` every hand confirmed, under ``whole_game`` signed by all four (or by
    itself)."""
    if not over or any(state.disputed for state in states):
        return False
    match rules.confirmation:
        case Confirmation.EACH_HAND:
            return not any(state.waiting for state in states)
        case Confirmation.WHOLE_GAME:
            return signed is not None and signed.complete
        case _:
            return True


def next_due(
    rules: Rules,
    hands: Sequence[Entered],
    states: Sequence[HandState],
    signed_from: datetime | None = None,
    signed: Signatures | None = None,
) -> datetime | None:
    """The next moment something is confirmed by itself, as :func:`hand_states` and
    :func:`signatures` read time: the earliest end of the minutes of a hand waiting (from
    its entry, ``hands`` and their ``states`` in the same order) and, under ``whole_game``,
    of the result's signatures while some wait (from ``signed_from``: when the result was
    last set). None when nothing waits for time. A page showing the game changes then,
    with nothing written."""
    minutes = timedelta(minutes=rules.confirmation_minutes)
    moments = [
        hand.at + minutes for hand, state in zip(hands, states, strict=True) if state.waiting
    ]
    if (
        rules.confirmation is Confirmation.WHOLE_GAME
        and signed_from is not None
        and signed is not None
        and signed.waiting_for
    ):
        moments.append(signed_from + minutes)
    return min(moments, default=None)
