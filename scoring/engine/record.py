"""The portable game record, format ``boulmous/1``: parse, serialise, and score.

See docs/record-format.md. Every problem in a record is reported, each with its
place, and a record with any problem is refused as a whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .auction import (
    SEATS,
    Call,
    Contract,
    auction_taker,
    check_seat,
    format_bid,
    format_call,
    parse_bid,
    parse_call,
)
from .cards import Trump
from .errors import RecordError, RulesError, gettext_noop
from .game import DEFAULT_TARGET, GameResult, Hand, HandResult, Rules, dealer_of, score_game
from .hand import FailedTaker, check_tricks
from .money import check_currency, format_amount, parse_stake
from .play import parse_plays
from .settlement import Settlement, settle

FORMAT = "boulmous/1"

_RECORD_KEYS = {"format", "players", "first_dealer", "rules", "hands"}
_RULES_KEYS = {"target", "failed_taker", "stake", "currency"}
_HAND_KEYS = {"calls", "taker", "bid", "trump", "tricks", "plays", "dealer"}

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Record:
    players: tuple[str, ...]
    first_dealer: int = 0
    rules: Rules = field(default_factory=Rules)
    hands: tuple[Hand, ...] = ()

    def score(self) -> GameResult:
        return score_game(self.hands, first_dealer=self.first_dealer, rules=self.rules)


class _Problems:
    """Collects every problem of a record, each with its place."""

    def __init__(self) -> None:
        self.found: list[RulesError] = []

    def check(self, place: str, parse: Callable[[], T], **params: object) -> T | None:
        try:
            return parse()
        except RulesError as error:
            self.found.append(error.at(place, **params) if place else error)
            return None

    def add(self, place: str, message: str, **params: Any) -> None:
        self.found.append(RulesError(message, **params).at(place))


def loads(text: str | bytes) -> Record:
    """Parse a record from JSON text."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(
            [RulesError(gettext_noop("record: not JSON ({reason})"), reason=str(error))]
        ) from None
    return parse_record(data)


def parse_record(data: object) -> Record:
    """Parse and validate a decoded record; raise :class:`RecordError` listing every problem."""
    problems = _Problems()
    if not isinstance(data, dict):
        problems.add("record", gettext_noop("a JSON object is expected"))
        raise RecordError(problems.found)
    for key in sorted(set(data) - _RECORD_KEYS, key=str):
        problems.add("record", gettext_noop("unknown key {key!r}"), key=key)
    if data.get("format") != FORMAT:
        problems.add(
            "format", gettext_noop('{value!r} is not "boulmous/1"'), value=data.get("format")
        )
    players = problems.check("", lambda: check_players(data.get("players")))
    first_dealer = problems.check("first_dealer", lambda: check_seat(data.get("first_dealer", 0)))
    rules = _parse_rules(data.get("rules", {}), problems)
    hands = _parse_hands(data.get("hands"), first_dealer or 0, problems)
    if problems.found or players is None or first_dealer is None or rules is None:
        raise RecordError(problems.found)
    record = Record(players, first_dealer, rules, tuple(hands))
    problems.check("", record.score)
    if problems.found:
        raise RecordError(problems.found)
    return record


def check_players(value: object) -> tuple[str, ...]:
    """Four names in seat order, trimmed, different after trimming and case-folding."""
    if not isinstance(value, list) or len(value) != SEATS:
        raise RulesError(gettext_noop("players: four names expected, in seat order"))
    names = []
    for seat, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise RulesError(
                gettext_noop("players: seat {seat} needs a name, not {name!r}"),
                seat=seat,
                name=name,
            )
        names.append(name.strip())
    folded = [name.casefold() for name in names]
    for seat, name in enumerate(folded):
        if name in folded[:seat]:
            # The seats go with the error, for a form to show it beside the name.
            raise RulesError(
                gettext_noop("players: names must differ"), seat=seat, other=folded.index(name)
            )
    return tuple(names)


def _parse_rules(value: object, problems: _Problems) -> Rules | None:
    if not isinstance(value, dict):
        problems.add("rules", gettext_noop("a JSON object is expected"))
        return None
    found = len(problems.found)
    for key in sorted(set(value) - _RULES_KEYS, key=str):
        problems.add("rules", gettext_noop("unknown key {key!r}"), key=key)
    target = value.get("target", DEFAULT_TARGET)
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        problems.add(
            "rules",
            gettext_noop("target {value!r} is not a whole number of 1 or more"),
            value=target,
        )
    failed_taker = problems.check(
        "rules", lambda: FailedTaker.parse(value.get("failed_taker", "tricks_minus_bid"))
    )
    currency = problems.check("rules", lambda: check_currency(value.get("currency", "EUR")))
    stake = None
    if currency is not None:
        stake = problems.check("rules", lambda: parse_stake(value.get("stake", "0"), currency))
    if len(problems.found) > found or failed_taker is None or stake is None or currency is None:
        return None
    return Rules(target, failed_taker, stake, currency)


def _parse_hands(value: object, first_dealer: int, problems: _Problems) -> list[Hand]:
    if not isinstance(value, list):
        problems.add("hands", gettext_noop("a list of hands is expected"))
        return []
    hands = []
    for index, item in enumerate(value):
        found = len(problems.found)
        hand = _parse_hand(item, dealer_of(index, first_dealer), problems, index + 1)
        if hand is not None and len(problems.found) == found:
            hands.append(hand)
    return hands


def _parse_hand(item: object, dealer: int, problems: _Problems, number: int) -> Hand | None:
    place = gettext_noop("hand {number}")

    def check(parse: Callable[[], T]) -> T | None:
        return problems.check(place, parse, number=number)

    def add(message: str, **params: Any) -> None:
        problems.found.append(RulesError(message, **params).at(place, number=number))

    if not isinstance(item, dict):
        add(gettext_noop("a JSON object is expected"))
        return None
    for key in sorted(set(item) - _HAND_KEYS, key=str):
        add(gettext_noop("unknown key {key!r}"), key=key)
    if "dealer" in item:
        given = check(lambda: check_seat(item["dealer"]))
        if given is not None and given != dealer:
            add(
                gettext_noop("dealer is {given}, but the rotation gives {dealer}"),
                given=given,
                dealer=dealer,
            )

    calls: tuple[Call, ...] | None = None
    taken: tuple[int, int] | None = None
    if "calls" in item:
        if "taker" in item or "bid" in item:
            add(gettext_noop("give the calls, or the taker and bid, not both"))
            return None
        calls = check(lambda: _parse_calls(item["calls"]))
        if calls is None:
            return None
        try:
            taken = auction_taker(calls, dealer)
        except RulesError as error:
            # A refused auction is no void deal: report it alone.
            problems.found.append(error.at(place, number=number))
            return None
        if taken is None:
            # Unknown keys are reported above already.
            extra = sorted(item.keys() & _HAND_KEYS - {"calls", "dealer"})
            if extra:
                add(
                    gettext_noop("a void deal has only calls and dealer, not {keys}"),
                    keys=", ".join(extra),
                )
                return None
            return Hand(calls=calls)
    elif "taker" in item and "bid" in item:
        taker = check(lambda: check_seat(item["taker"]))
        bid = check(lambda: parse_bid(item["bid"]))
        if taker is None or bid is None:
            return None
        taken = (taker, bid)
    else:
        add(gettext_noop("a hand needs its calls, or its taker and bid"))
        return None

    if "trump" not in item:
        add(gettext_noop("trump is missing"))
        return None
    trump = check(lambda: Trump.parse(item["trump"]))
    plays = check(lambda: parse_plays(item["plays"])) if "plays" in item else None
    tricks = check(lambda: check_tricks(item["tricks"])) if "tricks" in item else None
    if "tricks" not in item and "plays" not in item:
        add(gettext_noop("a contract needs its tricks or its plays"))
        return None
    if trump is None or (item.keys() & {"plays", "tricks"}) - _given(plays=plays, tricks=tricks):
        return None
    return check(
        lambda: Hand(
            Contract(taker=taken[0], bid=taken[1], trump=trump),
            tricks=tricks,
            plays=plays,
            calls=calls,
        )
    )


def hand_from_dict(data: object, dealer: int, number: int = 1) -> Hand:
    """One hand in the record's form, dealt by ``dealer``; RecordError lists its problems."""
    problems = _Problems()
    hand = _parse_hand(data, dealer, problems, number)
    if problems.found or hand is None:
        raise RecordError(problems.found)
    return hand


def _given(**values: object) -> set[str]:
    return {name for name, value in values.items() if value is not None}


def _parse_calls(value: object) -> tuple[Call, ...]:
    if not isinstance(value, list):
        raise RulesError(gettext_noop("calls: a list of four calls is expected"))
    calls = []
    for position, call in enumerate(value, start=1):
        try:
            calls.append(parse_call(call))
        except RulesError as error:
            raise error.at(gettext_noop("calls: call {position}"), position=position) from None
    return tuple(calls)


def record_to_dict(record: Record) -> dict[str, Any]:
    """The record as JSON-ready data; ``parse_record`` reads it back unchanged."""
    return {
        "format": FORMAT,
        "players": list(record.players),
        "first_dealer": record.first_dealer,
        "rules": {
            "target": record.rules.target,
            "failed_taker": record.rules.failed_taker.value,
            "stake": str(record.rules.stake),
            "currency": record.rules.currency,
        },
        "hands": [hand_to_dict(hand) for hand in record.hands],
    }


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    if hand.contract is None:
        return {"calls": ["pass"] * SEATS}
    data: dict[str, Any]
    if hand.calls is not None:
        data = {"calls": [format_call(call) for call in hand.calls]}
    else:
        data = {"taker": hand.contract.taker, "bid": format_bid(hand.contract.bid)}
    data["trump"] = hand.contract.trump.value
    data["tricks"] = list(hand.tricks or ())
    if hand.plays is not None:
        data["plays"] = [[str(card) for card in trick] for trick in hand.plays]
    return data


def dumps(record: Record) -> str:
    return json.dumps(record_to_dict(record), ensure_ascii=False, indent=2)


def result_to_dict(result: GameResult) -> dict[str, Any]:
    """What the scorer reports for a scored game, as the record's spec lays it out."""
    settlement = settle(result)
    return {
        "hands": [_hand_result(hand_result) for hand_result in result.hands],
        "totals": list(result.totals),
        "finished": result.finished,
        "winner": result.winner,
        "next_dealer": result.next_dealer,
        "boites": list(result.boites),
        "boulmous": {"made": list(result.boulmous_made), "missed": list(result.boulmous_missed)},
        "settlement": _settlement_to_dict(settlement),
    }


def _hand_result(result: HandResult) -> dict[str, Any]:
    hand = result.hand
    contract = hand.contract
    data: dict[str, Any] = {
        "number": result.number,
        "dealer": result.dealer,
        "void": contract is None,
        "taker": None if contract is None else contract.taker,
        "bid": None if contract is None else contract.bid,
        "trump": None if contract is None else contract.trump.value,
        "tricks": list(hand.tricks or (0,) * SEATS),
        "made": None if result.score is None else result.score.made,
        "boite": result.score is not None and result.score.boite,
        "boulmous": contract is not None and contract.is_boulmous,
        "points": list(result.points),
        "totals": list(result.totals),
    }
    if hand.play is not None:
        data["trick_winners"] = list(hand.play.winners)
        data["revokes"] = [
            {
                "trick": revoke.trick,
                "seat": revoke.seat,
                "card": str(revoke.card),
                "led": revoke.led.value,
            }
            for revoke in hand.play.revokes
        ]
    return data


def _settlement_to_dict(settlement: Settlement) -> dict[str, Any]:
    return {
        "stake": format_amount(settlement.amount(1)),
        "currency": settlement.currency,
        "units": list(settlement.units),
        "balances": [format_amount(balance) for balance in settlement.balances],
        "transfers": [
            {
                "from": transfer.payer,
                "to": transfer.payee,
                "units": transfer.units,
                "amount": format_amount(settlement.amount(transfer.units)),
            }
            for transfer in settlement.transfers
        ],
    }


def score(record: Record) -> dict[str, Any]:
    """Score a record: the scorer's output."""
    return result_to_dict(record.score())
