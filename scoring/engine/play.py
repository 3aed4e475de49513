"""A hand played trick by trick: leaders, winners, tricks won and revokes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .auction import SEATS
from .cards import DECK, Card, Suit, Trump, effective_suits, trick_winner
from .errors import RulesError, gettext_noop
from .hand import TRICKS_PER_HAND


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    leader: int
    cards: tuple[Card, ...]
    """In the order played, the leader's first."""
    winner: int

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % SEATS

    def card_of(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) % SEATS]


@dataclass(frozen=True, slots=True)
class Revoke:
    """A failure to follow suit, proved by the cards the player still held."""

    trick: int
    """1-based."""
    seat: int
    card: Card
    led: Suit
    held: tuple[Card, ...]
    """The cards of the suit led he held and could have played."""


@dataclass(frozen=True, slots=True)
class PlayOut:
    tricks: tuple[PlayedTrick, ...]
    revokes: tuple[Revoke, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(trick.winner for trick in self.tricks)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        counts = Counter(self.winners)
        return tuple(counts[seat] for seat in range(SEATS))


def parse_plays(plays: object) -> tuple[tuple[Card, ...], ...]:
    """Six tricks of four cards each, as written in a record."""
    if not isinstance(plays, list | tuple) or len(plays) != TRICKS_PER_HAND:
        raise RulesError(gettext_noop("plays: six tricks expected"))
    tricks: list[tuple[Card, ...]] = []
    for number, trick in enumerate(plays, start=1):
        try:
            if not isinstance(trick, list | tuple) or len(trick) != SEATS:
                raise RulesError(gettext_noop("four cards expected"))
            tricks.append(tuple(Card.parse(text) for text in trick))
        except RulesError as error:
            raise error.at(gettext_noop("plays: trick {number}"), number=number) from None
    return tuple(tricks)


def play_out(taker: int, trump: Trump, tricks: Sequence[Sequence[Card]]) -> PlayOut:
    """Play six complete tricks: the taker leads the first, each winner the next."""
    _check_deck(tricks)
    played: list[PlayedTrick] = []
    leader = taker
    for cards in tricks:
        winner = (leader + trick_winner(cards, trump)) % SEATS
        played.append(PlayedTrick(leader, tuple(cards), winner))
        leader = winner
    # Each player's hand is the six cards he played, so what he held at a trick
    # is what he plays from then on.
    suit_of = effective_suits(trump)
    suits_played = [
        [suit_of[trick.card_of(seat).index] for trick in played] for seat in range(SEATS)
    ]
    revokes: list[Revoke] = []
    for number, trick in enumerate(played):
        led = suit_of[trick.cards[0].index]
        for index in range(1, SEATS):
            seat = trick.seat_of(index)
            later = suits_played[seat][number + 1 :]
            if suits_played[seat][number] is not led and led in later:
                held = tuple(
                    played[number + 1 + offset].card_of(seat)
                    for offset, suit in enumerate(later)
                    if suit is led
                )
                revokes.append(Revoke(number + 1, seat, trick.cards[index], led, held))
    return PlayOut(tuple(played), tuple(revokes))


def _check_deck(tricks: Sequence[Sequence[Card]]) -> None:
    if len(tricks) != TRICKS_PER_HAND or any(len(cards) != SEATS for cards in tricks):
        raise RulesError(gettext_noop("plays: six tricks of four cards expected"))
    seen = Counter(card.index for cards in tricks for card in cards)
    if len(seen) != len(DECK):
        twice = [str(card) for card in DECK if seen[card.index] > 1]
        raise RulesError(
            gettext_noop("plays: {cards} played more than once"), cards=" ".join(twice)
        )
