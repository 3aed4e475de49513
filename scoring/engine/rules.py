"""A game's rules: every house-rule option declared once, in :data:`OPTIONS`.

Where the seed leaves a choice open, a game settles it when it is created. Each option is
declared here with its name (the attribute of :class:`Rules`, the record's key in
``rules``, the Club's and Game's column, the form's field, the API's key), its kind, its
default, the values it allows and its words; the columns, the forms, the record, the API
schema, the rules page and the one sentence that says a game's rules follow from it.

The words are English msgids marked with :func:`~.errors.gettext_noop` (the engine stays
free of Django), translated where they are shown, as the statistics' labels are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any

from .errors import RulesError, gettext_noop
from .money import check_currency, parse_stake

DEFAULT_TARGET = 21


class FailedTaker(Enum):
    """What a taker who misses his bid scores for the hand."""

    TRICKS_MINUS_BID = "tricks_minus_bid"
    """His tricks count, then he deducts his bid (the seed's literal reading)."""
    MINUS_BID = "minus_bid"
    """His tricks do not count: he scores minus his bid."""

    @classmethod
    def parse(cls, value: object) -> FailedTaker:
        for option in cls:
            if value == option.value:
                return option
        raise RulesError(
            gettext_noop('failed_taker {value!r} is not "tricks_minus_bid" or "minus_bid"'),
            value=value,
        )


class Confirmation(Enum):
    """Who agrees that a game's hands stand, before its result is final (confirmation.py)."""

    OFF = "off"
    """Nobody: a finished game's result is final."""
    EACH_HAND = "each_hand"
    """Each hand, by a player of another seat than the one that entered it."""
    WHOLE_GAME = "whole_game"
    """The whole game, signed at its end by all four."""

    @classmethod
    def parse(cls, value: object) -> Confirmation:
        for option in cls:
            if value == option.value:
                return option
        raise RulesError(
            gettext_noop('confirmation {value!r} is not "off", "each_hand" or "whole_game"'),
            value=value,
        )


class Kind(Enum):
    """What an option holds, which says its column, its form field and how it is said."""

    NUMBER = "number"
    """A whole number."""
    CHOICE = "choice"
    """One of its :attr:`Option.choices`."""
    MONEY = "money"
    """The stake: an amount in the currency's unit, 0 for a game without money."""
    CURRENCY = "currency"
    """An ISO 4217 code, said with the stake."""
    YES_NO = "yes_no"
    """On or off."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a :attr:`Kind.CHOICE` option allows, and its words."""

    value: str
    meaning: str
    """What the forms and the rules page say of it."""
    phrase: str
    """Its part of the sentence that says a game's rules."""


Chosen = Mapping[str, Any]
"""The options read so far, by name: the stake is read in the currency's unit."""


@dataclass(frozen=True, slots=True)
class Option:
    """One house-rule option."""

    name: str
    kind: Kind
    default: Any
    parse: Callable[[object, Chosen], Any]
    """Its value from what a record, a form or a column gives, or a :class:`RulesError`."""
    label: str
    """Its name on the forms and the rules page."""
    phrase: str = ""
    """Its part of the sentence that says a game's rules, with ``%(<name>)s`` for its value
    as shown; empty: it says nothing there."""
    phrase_default: str | None = None
    """Its part of the sentence at its default (None: :attr:`phrase` as for any value)."""
    meaning: str = ""
    """What the rules page says of it, as :attr:`phrase`."""
    meaning_default: str | None = None
    """What the rules page says of it at its default (None: :attr:`meaning`)."""
    help: str = ""
    """Said beside its form field."""
    choices: tuple[Choice, ...] = ()
    needs: tuple[str, ...] = ()
    """The options it is read in the terms of (the stake, its currency's): read before it."""
    least: int = 0
    """For :attr:`Kind.NUMBER`: the smallest value."""
    in_spec: bool = False
    """A key game-record.md lists: always written. Any other is written only when it is
    not its default, so that a game played without it keeps a record every boulmous/1
    reader takes (a reader refuses keys it does not know)."""
    changes: str = ""
    """The engine rule it changes, for the reader of this registry."""

    def choice(self, value: object) -> Choice:
        return next(choice for choice in self.choices if choice.value == value)

    def to_data(self, value: Any) -> Any:
        """Its value as the record, the API and the columns write it."""
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, Decimal) and self.kind is Kind.MONEY:
            return str(value)
        return value


def _target(value: object, chosen: Chosen) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RulesError(
            gettext_noop("target {value!r} is not a whole number of 1 or more"), value=value
        )
    return value


def _currency(value: object, chosen: Chosen) -> str:
    return check_currency(value)


def _stake(value: object, chosen: Chosen) -> Decimal:
    # A decimal string, as a record writes it (a JSON number is refused).
    return parse_stake(value, chosen["currency"])


def yes_no(name: str) -> Callable[[object, Chosen], bool]:
    """The parse of a :attr:`Kind.YES_NO` option: true or false."""

    def parse(value: object, chosen: Chosen) -> bool:
        if not isinstance(value, bool):
            raise RulesError(
                gettext_noop("{name} {value!r} is not true or false"), name=name, value=value
            )
        return value

    return parse


def _failed_taker(value: object, chosen: Chosen) -> FailedTaker:
    return value if isinstance(value, FailedTaker) else FailedTaker.parse(value)


def _confirmation(value: object, chosen: Chosen) -> Confirmation:
    return value if isinstance(value, Confirmation) else Confirmation.parse(value)


def _confirmation_minutes(value: object, chosen: Chosen) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 999:
        raise RulesError(
            gettext_noop("confirmation_minutes {value!r} is not a whole number from 1 to 999"),
            value=value,
        )
    return value


DEFAULT_CONFIRMATION_MINUTES = 15

OPTIONS: tuple[Option, ...] = (
    Option(
        "target",
        Kind.NUMBER,
        DEFAULT_TARGET,
        _target,
        gettext_noop("Points to win"),
        phrase=gettext_noop("%(target)s points to win"),
        meaning=gettext_noop(
            "The first player alone at the top with %(target)s points or more wins."
        ),
        least=1,
        in_spec=True,
        changes="game.winner_of",
    ),
    Option(
        "failed_taker",
        Kind.CHOICE,
        FailedTaker.TRICKS_MINUS_BID,
        _failed_taker,
        gettext_noop("A taker who misses his bid"),
        choices=(
            Choice(
                FailedTaker.TRICKS_MINUS_BID.value,
                gettext_noop("His tricks count, minus his bid: 2 tricks on a bid of 4 score −2."),
                gettext_noop("a failed taker scores his tricks minus his bid"),
            ),
            Choice(
                FailedTaker.MINUS_BID.value,
                gettext_noop(
                    "His tricks do not count, he scores minus his bid: a missed 4 scores −4."
                ),
                gettext_noop("a failed taker scores minus his bid"),
            ),
        ),
        in_spec=True,
        changes="hand.score_hand",
    ),
    Option(
        "stake",
        Kind.MONEY,
        Decimal(0),
        _stake,
        gettext_noop("Stake"),
        phrase=gettext_noop("stake %(stake)s"),
        phrase_default=gettext_noop("no money: counted in stakes"),
        meaning="%(stake)s",
        meaning_default=gettext_noop("no money"),
        help=gettext_noop("Leave empty to play without money."),
        needs=("currency",),
        in_spec=True,
        changes="settlement.settle",
    ),
    Option(
        "currency",
        Kind.CURRENCY,
        "EUR",
        _currency,
        gettext_noop("Currency"),
        in_spec=True,
        changes="settlement.settle",
    ),
    Option(
        "dealer_must_bid",
        Kind.YES_NO,
        False,
        yes_no("dealer_must_bid"),
        gettext_noop("The dealer must bid"),
        phrase=gettext_noop("the dealer must bid"),
        phrase_default="",
        meaning=gettext_noop(
            "When the three others pass, the dealer may not pass: he must bid, so no deal is void."
        ),
        meaning_default=gettext_noop(
            "When all four pass, the deal is void and passes to the next dealer."
        ),
        help=gettext_noop("When the three others pass, the dealer may not pass: no deal is void."),
        changes="auction.legal_calls",
    ),
    Option(
        "boulmous_doubled",
        Kind.YES_NO,
        False,
        yes_no("boulmous_doubled"),
        gettext_noop("A boulmous made scores 12"),
        phrase=gettext_noop("a boulmous made scores 12"),
        phrase_default="",
        meaning=gettext_noop("A boulmous made scores 12 for its taker, twice its six tricks."),
        meaning_default=gettext_noop(
            "A boulmous made scores its six tricks, as any contract made does."
        ),
        help=gettext_noop("Twice its six tricks, for the taker who makes it."),
        changes="hand.score_hand",
    ),
    Option(
        "confirmation",
        Kind.CHOICE,
        Confirmation.OFF,
        _confirmation,
        gettext_noop("Confirmation"),
        choices=(
            Choice(
                Confirmation.OFF.value,
                gettext_noop("None: the scorer’s word is final."),
                "",
            ),
            Choice(
                Confirmation.EACH_HAND.value,
                gettext_noop("Each hand, by a player of another seat than the one who entered it."),
                gettext_noop("each hand confirmed by another seat"),
            ),
            Choice(
                Confirmation.WHOLE_GAME.value,
                gettext_noop("The whole game, signed at its end by all four players."),
                gettext_noop("the result signed by all four"),
            ),
        ),
        changes="confirmation.hand_states",
    ),
    Option(
        "confirmation_minutes",
        Kind.NUMBER,
        DEFAULT_CONFIRMATION_MINUTES,
        _confirmation_minutes,
        gettext_noop("Minutes to confirm"),
        phrase=gettext_noop("confirmed by itself after %(confirmation_minutes)s minutes"),
        phrase_default="",
        meaning=gettext_noop(
            "Where hands or the game are confirmed: what is not confirmed within "
            "%(confirmation_minutes)s minutes, or by the night’s end, is confirmed by itself."
        ),
        help=gettext_noop(
            "Only where hands or the game are confirmed: after this, or at the night’s end, "
            "what waits is confirmed by itself."
        ),
        least=1,
        changes="confirmation.hand_states",
    ),
)
"""Every option, in the order the forms, the rules page and the sentence give them."""

OPTION_NAMES = tuple(option.name for option in OPTIONS)

READING_ORDER = tuple(sorted(OPTIONS, key=lambda option: bool(option.needs)))
"""The options in the order they are read: those read in another's terms (the stake, in
its currency's) after the others."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A game's rules: one attribute per option of :data:`OPTIONS`, checked (and turned into
    its own type: a stake given as a string is a Decimal) when made."""

    target: int = DEFAULT_TARGET
    failed_taker: FailedTaker = FailedTaker.TRICKS_MINUS_BID
    stake: Decimal = Decimal(0)
    currency: str = "EUR"
    dealer_must_bid: bool = False
    boulmous_doubled: bool = False
    confirmation: Confirmation = Confirmation.OFF
    confirmation_minutes: int = DEFAULT_CONFIRMATION_MINUTES

    def __post_init__(self) -> None:
        chosen: dict[str, Any] = {}
        for option in READING_ORDER:
            value = getattr(self, option.name)
            if option.kind is Kind.MONEY and not isinstance(value, str):
                value = str(value)  # a stake given as a number: checked as its string
            chosen[option.name] = option.parse(value, chosen)
            object.__setattr__(self, option.name, chosen[option.name])

    @property
    def has_money(self) -> bool:
        return self.stake > 0

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Rules:
        """The rules from their data by option name (a record's ``rules``, the columns);
        an option not given is its default."""
        return cls(**{option.name: data.get(option.name, option.default) for option in OPTIONS})

    def to_data(self) -> dict[str, Any]:
        """Every option's value as data (:meth:`Option.to_data`), by name."""
        return {option.name: option.to_data(getattr(self, option.name)) for option in OPTIONS}
