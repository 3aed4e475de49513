"""Bids, the auction, and the contract it makes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Trump
from .errors import RulesError, gettext_noop
from .rules import Rules

SEATS = 4
LOWEST_BID = 3
BOULMOUS = 6
"""A bid of six tricks, called *boulmous*."""

Call = int | None
"""A call in the auction: a bid (3 to 6) or ``None`` for a pass."""

PASS: Call = None


def parse_bid(value: object, *, exact: bool = False) -> int:
    """A bid: an integer 3 to 6, or ``"boulmous"`` (6), in any case unless ``exact``."""
    if isinstance(value, str) and value.strip().lower() == "boulmous":
        if exact and value != "boulmous":
            raise RulesError(
                gettext_noop("bid {value!r} must be written {written!r}"),
                value=value,
                written="boulmous",
            )
        return BOULMOUS
    if isinstance(value, int) and not isinstance(value, bool) and LOWEST_BID <= value <= BOULMOUS:
        return value
    raise RulesError(gettext_noop('bid {value!r} is not 3, 4, 5, 6 or "boulmous"'), value=value)


def format_bid(bid: int) -> int | str:
    return "boulmous" if bid == BOULMOUS else bid


def parse_call(value: object, *, exact: bool = False) -> Call:
    """``"pass"`` or a bid; the words in any case unless ``exact``, as a game record wants."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("pass", "boulmous"):
            if exact and value != word:
                raise RulesError(
                    gettext_noop("call {value!r} must be written {written!r}"),
                    value=value,
                    written=word,
                )
            return PASS if word == "pass" else BOULMOUS
    try:
        return parse_bid(value)
    except RulesError:
        raise RulesError(
            gettext_noop('call {value!r} is not "pass", a bid from 3 to 6 or "boulmous"'),
            value=value,
        ) from None


def format_call(call: Call) -> int | str:
    return "pass" if call is None else format_bid(call)


def check_seat(seat: object) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < SEATS:
        return seat
    raise RulesError(gettext_noop("seat {seat!r} is not 0, 1, 2 or 3"), seat=seat)


_SEATS_FROM = tuple(
    tuple((first + offset) % SEATS for offset in range(SEATS)) for first in range(SEATS)
)
"""Every seat's :func:`seats_from`, worked out once: it is asked for every call."""


def seats_from(first: int) -> tuple[int, ...]:
    """The four seats clockwise, ``first`` first: the order of play of a trick he leads."""
    return _SEATS_FROM[first % SEATS]


def speaking_order(dealer: int) -> tuple[int, ...]:
    """Seats in the order they speak: the dealer's left first, the dealer last."""
    return seats_from((dealer + 1) % SEATS)


def legal_calls(calls: Sequence[Call], rules: Rules | None = None) -> tuple[Call, ...]:
    """What the next player may say after ``calls``: a pass, or a bid above every bid so far.

    With ``rules``, as that game's house rules allow; without, as the seed's auction does
    (a form checks the calls it is given so, and the game's rules when it is scored).
    """
    if len(calls) >= SEATS:
        return ()
    highest = max((call for call in calls if call is not None), default=LOWEST_BID - 1)
    bids = tuple(range(highest + 1, BOULMOUS + 1))
    all_passed = len(calls) == SEATS - 1 and all(call is PASS for call in calls)
    if all_passed and rules is not None and rules.dealer_must_bid:
        return bids  # the dealer, after three passes, where he must bid
    return (PASS, *bids)


@dataclass(frozen=True, slots=True)
class Contract:
    """What the taker undertakes: at least ``bid`` tricks with ``trump``."""

    taker: int
    bid: int
    trump: Trump

    def __post_init__(self) -> None:
        check_seat(self.taker)
        # "boulmous" is 6, and "H" is Trump.HEARTS: store what the rules compare.
        object.__setattr__(self, "bid", parse_bid(self.bid))
        if not isinstance(self.trump, Trump):
            object.__setattr__(self, "trump", Trump.parse(self.trump))

    @property
    def is_boulmous(self) -> bool:
        return self.bid == BOULMOUS


def all_pass_allowed(rules: Rules) -> bool:
    """Whether a deal may end with all four passing (a void deal) under ``rules``."""
    return PASS in legal_calls((PASS,) * (SEATS - 1), rules)


def auction_taker(
    calls: Sequence[Call], dealer: int, rules: Rules | None = None
) -> tuple[int, int] | None:
    """The taker's seat and bid from a complete auction, or None if all passed.

    ``calls`` are in speaking order; each bid must be higher than every bid before it, each
    call one that :func:`legal_calls` allows under ``rules``.
    """
    if len(calls) != SEATS:
        raise RulesError(
            gettext_noop("calls: one call per player expected, 4 in all, not {count}"),
            count=len(calls),
        )
    result: tuple[int, int] | None = None
    for position, (seat, call) in enumerate(zip(speaking_order(dealer), calls, strict=True)):
        if call is None:
            if PASS not in legal_calls(calls[:position], rules):
                raise RulesError(
                    gettext_noop("calls: the dealer must bid when the three others pass")
                )
            continue
        parse_bid(call)
        if call not in legal_calls(calls[:position], rules):
            assert result is not None  # a bid is refused only above an earlier one
            raise RulesError(
                gettext_noop(
                    "calls: call {position} (seat {seat}) bids {bid}, "
                    "which must be higher than the {highest} already bid"
                ),
                position=position + 1,
                seat=seat,
                bid=call,
                highest=result[1],
                by=result[0],
            )
        result = (seat, call)
    return result
