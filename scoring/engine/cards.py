"""Cards, trump, card order, trick winners and legal plays."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from .errors import RulesError, gettext_noop


class Colour(Enum):
    BLACK = "black"
    RED = "red"


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons: hash them by identity, in C, for speed.
    __hash__ = object.__hash__

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour."""
        return _PARTNERS[self]

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @classmethod
    def parse(cls, text: object) -> Suit:
        try:
            return cls(str(text).strip().upper())
        except ValueError:
            raise RulesError(
                gettext_noop("suit {text!r} is not one of S H D C"), text=text
            ) from None


_PARTNERS = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(Enum):
    """Ranks in their natural order, lowest first."""

    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    # Members are singletons: hash them by identity, in C, for speed.
    __hash__ = object.__hash__

    @property
    def label(self) -> str:
        return "10" if self is Rank.TEN else self.value


_SUIT_INDEX = {suit: index for index, suit in enumerate(Suit)}
_RANK_INDEX = {rank: index for index, rank in enumerate(Rank)}


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """The card's place in DECK, 0 to 23: tables of the card order are lists by index,
    which spares hashing cards in the loops of a trick-by-trick hand."""

    def __post_init__(self) -> None:
        index = _SUIT_INDEX[self.suit] * len(_RANK_INDEX) + _RANK_INDEX[self.rank]
        object.__setattr__(self, "index", index)

    @classmethod
    def parse(cls, text: str, *, exact: bool = False) -> Card:
        """Parse ``JD``, ``TS`` or ``10S``: case and spaces are ignored unless ``exact``,
        as a game record wants them."""
        card = _CARDS_BY_TEXT.get(text) if isinstance(text, str) else None
        if card is not None:  # written as this module writes it: the common case
            return card
        if not isinstance(text, str):
            raise RulesError(gettext_noop('card {text!r} is not a string like "JD"'), text=text)
        card = _CARDS_BY_TEXT.get(text.strip().upper().replace("10", "T", 1))
        if card is not None:
            if exact and text != card.rank.label + card.suit.value:
                raise RulesError(
                    gettext_noop("card {text!r} must be written {written!r}"),
                    text=text,
                    written=str(card),
                )
            return card
        raise RulesError(
            gettext_noop("card {text!r} is not a card: a rank 9 T J Q K A then a suit S H D C"),
            text=text,
        )

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    @property
    def label(self) -> str:
        """``J♦``, ``10♠``: for people."""
        return self.rank.label + self.suit.symbol


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_CARDS_BY_TEXT = {str(card): card for card in DECK}


class Trump(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMP = "NT"

    # Members are singletons: hash them by identity, in C, for speed.
    __hash__ = object.__hash__

    @property
    def suit(self) -> Suit | None:
        return _TRUMP_SUITS[self]

    @classmethod
    def parse(cls, text: object, *, exact: bool = False) -> Trump:
        """``S H D C NT``: case and spaces are ignored unless ``exact``, as a game record wants."""
        written = _TRUMPS_WRITTEN.get(text) if isinstance(text, str) else None
        if written is not None:  # as the record writes it: every hand of a file
            return written
        if isinstance(text, str):
            try:
                trump = cls(text.strip().upper())
            except ValueError:
                pass
            else:
                if exact and text != trump.value:
                    raise RulesError(
                        gettext_noop("trump {text!r} must be written {written!r}"),
                        text=text,
                        written=trump.value,
                    )
                return trump
        raise RulesError(gettext_noop("trump {text!r} is not one of S H D C NT"), text=text)


_TRUMPS_WRITTEN = {trump.value: trump for trump in Trump}
_TRUMP_SUITS = {trump: None if trump is Trump.NO_TRUMP else Suit(trump.value) for trump in Trump}


def effective_suit(card: Card, trump: Trump) -> Suit:
    """The suit a card belongs to in play: the other jack of the trump's colour is a trump."""
    return _table(trump)[card.index][0]


def effective_suits(trump: Trump) -> tuple[Suit, ...]:
    """Every card's effective suit under ``trump``, by ``card.index``, for loops."""
    return _suits(trump)


def is_trump(card: Card, trump: Trump) -> bool:
    return trump.suit is not None and effective_suit(card, trump) is trump.suit


def suit_order(suit: Suit, trump: Trump) -> tuple[Card, ...]:
    """The cards playing as ``suit``, strongest first."""
    cards = [card for card in DECK if effective_suit(card, trump) is suit]
    return tuple(sorted(cards, key=lambda card: -_table(trump)[card.index][1]))


def trump_order(trump: Trump) -> tuple[Card, ...]:
    """The trumps, strongest first; empty at no trump."""
    return () if trump.suit is None else suit_order(trump.suit, trump)


def plain_orders(trump: Trump) -> tuple[tuple[Suit, tuple[Card, ...]], ...]:
    """Each suit that is not trump with its cards, strongest first, under ``trump``."""
    return tuple((suit, suit_order(suit, trump)) for suit in Suit if suit is not trump.suit)


_PLAIN_POWER = {rank: power for power, rank in enumerate(Rank)}


@cache
def _table(trump: Trump) -> list[tuple[Suit, int]]:
    """Each card's effective suit and its power within that suit."""
    table = [(card.suit, _PLAIN_POWER[card.rank]) for card in DECK]
    trump_suit = trump.suit
    if trump_suit is not None:
        table[Card(Rank.JACK, trump_suit).index] = (trump_suit, 11)
        table[Card(Rank.JACK, trump_suit.partner).index] = (trump_suit, 10)
    return table


@cache
def _suits(trump: Trump) -> tuple[Suit, ...]:
    return tuple(suit for suit, _power in _table(trump))


def trick_winner(cards: Sequence[Card], trump: Trump) -> int:
    """The index, in play order, of the card that wins these (one to four) cards."""
    if not 1 <= len(cards) <= 4:
        raise RulesError(gettext_noop("a trick has 1 to 4 cards, not {count}"), count=len(cards))
    if len({card.index for card in cards}) != len(cards):
        raise RulesError(gettext_noop("a trick cannot hold the same card twice"))
    table = _table(trump)
    led = table[cards[0].index][0]
    trump_suit = trump.suit
    best, best_key = 0, (1, 0)
    for index, card in enumerate(cards):
        suit, power = table[card.index]
        if suit is trump_suit:
            key = (2, power)
        elif suit is led:
            key = (1, power)
        else:
            continue
        if key > best_key:
            best, best_key = index, key
    return best


def legal_cards(hand: Collection[Card], led: Suit | None, trump: Trump) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    A player must follow the suit led when he can; holding none, he may play
    any card (trump or discard). ``led`` is None for the lead itself.
    """
    if led is None:
        return frozenset(hand)
    following = frozenset(card for card in hand if effective_suit(card, trump) is led)
    return following or frozenset(hand)
