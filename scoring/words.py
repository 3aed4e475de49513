"""How values are said to people: suits, money, a hand in a few words.

Every page and the PDF say these things through here, so that each is said one
way everywhere.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from babel.numbers import format_currency
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from .engine import Card, Colour, Contract, Trump

TRUMP_NAMES: dict[Trump, Promise] = {
    Trump.SPADES: _("spades"),
    Trump.HEARTS: _("hearts"),
    Trump.DIAMONDS: _("diamonds"),
    Trump.CLUBS: _("clubs"),
    Trump.NO_TRUMP: _("no trump"),
}


def trump_symbol(trump: Trump) -> str:
    """♠ ♥ ♦ ♣, or the language's short word for no trump."""
    return gettext("NT") if trump.suit is None else trump.suit.symbol


def is_red(trump: Trump) -> bool:
    return trump.suit is not None and trump.suit.colour is Colour.RED


def contract_words(contract: Contract, names: Sequence[str]) -> str:
    """``Chafik 4♥``."""
    return f"{names[contract.taker]} {contract.bid}{trump_symbol(contract.trump)}"


def format_money(amount: Decimal, currency: str) -> str:
    """``1,50 €`` in French, ``€1.50`` in English, ``1,500 TND`` with three decimals."""
    return format_currency(amount, currency, locale=to_locale(get_language() or "en"))


def describe_hand(snapshot: dict[str, Any], names: Sequence[str]) -> str:
    """A hand's snapshot in a few words: ``Bilal 4♥, tricks 1-0-2-3``."""
    if snapshot.get("taker") is None:
        return gettext("all passed")
    return gettext("%(taker)s %(bid)s%(trump)s, tricks %(tricks)s") % {
        "taker": names[snapshot["taker"]],
        "bid": snapshot["bid"],
        "trump": trump_symbol(Trump(snapshot["trump"])),
        "tricks": "-".join(str(count) for count in snapshot["tricks"]),
    }


def red_card(card: Card) -> bool:
    return card.suit.colour is Colour.RED
