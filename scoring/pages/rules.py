"""What the rules page (and the home page's card order) show: cards as the language names them."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..engine import Card, Suit, Trump, plain_orders, trump_order
from ..words import card_label


@dataclass(frozen=True)
class ShownCard:
    label: str
    colour: str
    """``red`` or ``black``, for the stylesheet."""


class CardOrder(NamedTuple):
    """The card order under one trump: the trumps, then each other suit, strongest first."""

    trump: Trump
    trumps: Sequence[ShownCard]
    plain: Sequence[tuple[Suit, Sequence[ShownCard]]]


def shown(cards: Sequence[Card]) -> list[ShownCard]:
    return [ShownCard(card_label(card), card.suit.colour.value) for card in cards]


def card_orders() -> list[CardOrder]:
    return [
        CardOrder(
            trump,
            shown(trump_order(trump)),
            [(suit, shown(cards)) for suit, cards in plain_orders(trump)],
        )
        for trump in Trump
    ]
