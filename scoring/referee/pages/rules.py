"""What the rules page (and the home page's card order) show: cards as the language names them."""

from collections.abc import Sequence
from typing import NamedTuple

from ...common.words import ShownCard, shown
from ...engine import Suit, Trump, plain_orders, trump_order


class CardOrder(NamedTuple):
    """The card order under one trump: the trumps, then each other suit, strongest first."""

    trump: Trump
    trumps: Sequence[ShownCard]
    plain: Sequence[tuple[Suit, Sequence[ShownCard]]]


def card_orders() -> list[CardOrder]:
    return [
        CardOrder(
            trump,
            shown(trump_order(trump)),
            [(suit, shown(cards)) for suit, cards in plain_orders(trump)],
        )
        for trump in Trump
    ]
