"""The portable game record, format ``boulmous/1``: parse, serialise, and score.

See docs/record-format.md. Every problem in a record is reported, each with its
place, and a record with any problem is refused as a whole. The record's words
("pass", "NT", "JD"...) are read exactly as the format writes them, where a form
reads what people type more loosely.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache, partial
from itertools import accumulate
from typing import Any, TypeVar, cast

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
from .cards import Card, Trump
from .errors import RecordError, RulesError, gettext_noop
from .game import GameResult, Hand, HandResult, dealer_of, score_game
from .hand import check_tricks
from .money import format_amount
from .names import check_name, check_text, look_alike, name_key
from .play import parse_plays, play_out
from .rules import OPTION_NAMES, OPTIONS, READING_ORDER, Rules
from .settlement import Settlement, settle

FORMAT = "boulmous/1"

_RECORD_KEYS = {"format", "players", "first_dealer", "rules", "hands"}  # and _ABOUT below
_RULES_KEYS = set(OPTION_NAMES)
_HAND_KEYS = {"calls", "taker", "bid", "trump", "tricks", "plays", "dealer"}

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class About:
    """What the record says of the game beyond its rules: kept, never scored."""

    id: str | None = None
    place: str | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    abandoned: bool = False
    club: str | None = None
    season: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    players: tuple[str, ...]
    first_dealer: int = 0
    rules: Rules = field(default_factory=Rules)
    hands: tuple[Hand, ...] = ()
    about: About = field(default_factory=About)

    def score(self) -> GameResult:
        return score_game(self.hands, first_dealer=self.first_dealer, rules=self.rules)

    def with_hand(self, number: int, hand: Hand) -> Record:
        """This record with hand ``number`` (from 1) replaced, or added after the last.

        Nothing is scored here: call :meth:`score` on the result, once.
        """
        if not 1 <= number <= len(self.hands) + 1:
            raise RulesError(
                gettext_noop("hand {number} is not a recorded hand or the next one"),
                number=number,
            )
        return replace(self, hands=(*self.hands[: number - 1], hand, *self.hands[number:]))


@dataclass(frozen=True, slots=True)
class Limits:
    """How much a reader takes in before it refuses a record: None is no limit.

    The format sets no limits; a site that reads records from strangers sets them, so
    that a large or hostile record is refused cheaply, before it is read in full.
    """

    max_bytes: int | None = None
    """The size of the text, in bytes (UTF-8 for a ``str``)."""
    max_depth: int | None = None
    """How deep lists and objects may nest; a valid record nests 5 deep."""
    max_hands: int | None = None
    """How many hands the record may have; counted before any hand is read."""
    max_problems: int | None = None
    """How many problems are kept; past it the hands left are not read."""


NO_LIMITS = Limits()


class TooManyProblems(RecordError):
    """A record refused with more problems than ``Limits.max_problems`` lets it list.

    ``problems`` are the first ones found; ``more`` counts those found after them.
    ``stopped`` says that the hands after them were not read, so there may be more.
    """

    def __init__(self, problems: list[RulesError], *, more: int, stopped: bool) -> None:
        super().__init__(problems)
        self.more = more
        self.stopped = stopped


class _Problems:
    """Collects every problem of a record, each with its place, up to ``limit`` kept.

    ``count`` counts them all, kept or not: a part of the record has a problem when
    the count has grown while it was read.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.found: list[RulesError] = []
        self.count = 0
        self.limit = limit

    @property
    def full(self) -> bool:
        """More problems found than are kept: the hands left are not read."""
        return self.limit is not None and self.count > self.limit

    def _keeps(self) -> bool:
        self.count += 1
        return self.limit is None or self.count <= self.limit

    def append(self, error: RulesError) -> None:
        if self._keeps():
            self.found.append(error)

    def check(self, place: str, parse: Callable[[], T], **params: object) -> T | None:
        try:
            return parse()
        except RulesError as error:
            if self._keeps():
                self.found.append(error.at(place, **params) if place else error)
            return None

    def add(self, place: str, message: str, **params: Any) -> None:
        if self._keeps():
            self.found.append(RulesError(message, **params).at(place))

    def error(self, *, stopped: bool = False) -> RecordError:
        more = self.count - len(self.found)
        if more:
            return TooManyProblems(self.found, more=more, stopped=stopped)
        return RecordError(self.found)


# A string, to its closing quote or to the end of a text that never closes it.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_NOT_BRACKETS_OR_STRINGS = bytes(byte for byte in range(256) if byte not in b'[]{}"\\')
_NESTING = tuple(1 if byte in b"[{" else -1 if byte in b"]}" else 0 for byte in range(256))


def _deeper_than(text: str, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` deep, strings left out.

    The JSON decoder recurses once per level, so this is checked before it runs, in
    passes that all run in C: the strings are taken out, then every byte but the
    brackets, and the deepest level is the highest running count of the brackets left.

    Most strings hold no bracket, quote or backslash: once every byte but those is taken
    out, each such string is two quotes side by side. Once those pairs are taken out in
    turn, a text whose strings are all such has no quote left, only its brackets outside
    strings (the first other string leaves at least its opening quote). Only a text with a
    quote left over is read string by string.
    """
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS_OR_STRINGS)
    brackets = kept.replace(b'""', b"")
    if b'"' in brackets:
        outside = _STRING.sub("", text).encode("utf-8", "surrogatepass")
        brackets = outside.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_NESTING.__getitem__, brackets)), default=0) > limit


def _refused(message: str, **params: Any) -> RecordError:
    return RecordError([RulesError(message, **params)])


def loads(text: str | bytes, *, limits: Limits = NO_LIMITS) -> Record:
    """Parse a record from JSON text, within ``limits`` (none by default)."""
    return loads_scored(text, limits=limits)[0]


def loads_scored(text: str | bytes, *, limits: Limits = NO_LIMITS) -> tuple[Record, GameResult]:
    """:func:`loads`, with the record's score: reading a record scores it once, to find the
    hands the rules refuse, and a caller that keeps the record need not score it again."""
    if limits.max_bytes is not None:
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
        if size > limits.max_bytes:
            raise _refused(
                gettext_noop("record: {size} bytes, more than the {limit} this site reads"),
                size=size,
                limit=limits.max_bytes,
            )
    try:
        if isinstance(text, bytes):
            # As json.loads does with bytes: UTF-8, -16 or -32, told by the first bytes.
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        too_deep = limits.max_depth is not None and _deeper_than(text, limits.max_depth)
        data = None if too_deep else json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _refused(gettext_noop("record: not JSON ({reason})"), reason=str(error)) from None
    if too_deep:
        raise _refused(
            gettext_noop("record: nested more than {limit} deep, deeper than this site reads"),
            limit=limits.max_depth,
        )
    return _parse_scored(data, limits)


def parse_record(data: object, *, limits: Limits = NO_LIMITS) -> Record:
    """Parse and validate a decoded record; raise :class:`RecordError` listing every problem.

    Of ``limits``, ``max_hands`` and ``max_problems`` apply here.
    """
    return _parse_scored(data, limits)[0]


def _parse_scored(data: object, limits: Limits) -> tuple[Record, GameResult]:
    problems = _Problems(limits.max_problems)
    if not isinstance(data, dict):
        problems.add("record", gettext_noop("a JSON object is expected"))
        raise problems.error()
    for key in sorted(set(data) - _RECORD_KEYS - _ABOUT.keys(), key=str):
        problems.add("record", gettext_noop("unknown key {key!r}"), key=key)
    if data.get("format") != FORMAT:
        problems.add(
            "format", gettext_noop('{value!r} is not "boulmous/1"'), value=data.get("format")
        )
    players = problems.check("", lambda: check_players(data.get("players")))
    first_dealer = problems.check("first_dealer", lambda: check_seat(data.get("first_dealer", 0)))
    rules = _parse_rules(data.get("rules", {}), problems)
    about = _parse_about(data, problems)
    hands, stopped = _parse_hands(data.get("hands"), first_dealer or 0, problems, limits.max_hands)
    if problems.count or players is None or first_dealer is None or rules is None:
        raise problems.error(stopped=stopped)
    record = Record(players, first_dealer, rules, tuple(hands), about)
    result = problems.check("", record.score)
    if result is None:
        raise problems.error()
    return record, result


def check_players(value: object) -> tuple[str, ...]:
    """Four names in seat order, each kept as :func:`~.names.check_name` keeps it (trimmed,
    NFC, no control or invisible character), that differ after case-folding and do not look
    alike (:func:`~.names.look_alike`)."""
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
        try:
            names.append(check_name(name))
        except RulesError as error:
            raise RulesError(
                gettext_noop(
                    "players: seat {seat}: character {position} is {char}, "
                    "a control or invisible character"
                ),
                seat=seat,
                **error.params,
            ) from None
    folded = [name_key(name) for name in names]
    for seat, name in enumerate(folded):
        if name in folded[:seat]:
            # The seats go with the error, for a form to show it beside the name.
            raise RulesError(
                gettext_noop("players: names must differ"), seat=seat, other=folded.index(name)
            )
    alike = look_alike(names)
    if alike is not None:
        name, like = alike
        raise RulesError(
            gettext_noop("players: {name!r} and {like!r} look alike"),
            name=name,
            like=like,
            seat=names.index(name),
            other=names.index(like),
        )
    return tuple(names)


def _parse_rules(value: object, problems: _Problems) -> Rules | None:
    if not isinstance(value, dict):
        problems.add("rules", gettext_noop("a JSON object is expected"))
        return None
    # A club's records give the same few rules thousands of times: each read once. The
    # type goes with each value, for JSON's 1 and true are equal in Python.
    try:
        rules = _rules_read(
            tuple(sorted((key, type(given), given) for key, given in value.items()))
        )
    except TypeError:  # a value that is not a scalar (a list, an object): said below
        rules = None
    return rules if rules is not None else _rules_parsed(value, problems)


@lru_cache(maxsize=256)
def _rules_read(given: tuple[tuple[str, type, object], ...]) -> Rules | None:
    """The rules of a record's ``rules`` object given as its sorted items, each with the type
    of its value; None when they are refused."""
    problems = _Problems()
    return _rules_parsed({key: value for key, _, value in given}, problems)


def _rules_parsed(value: dict[str, Any], problems: _Problems) -> Rules | None:
    found = problems.count
    for key in sorted(set(value) - _RULES_KEYS, key=str):
        problems.add("rules", gettext_noop("unknown key {key!r}"), key=key)
    chosen: dict[str, Any] = {}
    for option in READING_ORDER:
        if any(name not in chosen for name in option.needs):
            continue  # read in the terms of an option found wrong (the stake, its currency's)
        # An option the record does not give is its default: an old record reads as before.
        given = value.get(option.name, option.to_data(option.default))
        parsed = problems.check("rules", lambda: option.parse(given, chosen))  # noqa: B023
        if parsed is not None:
            chosen[option.name] = parsed
    if problems.count > found or len(chosen) < len(OPTIONS):
        return None
    return Rules(**chosen)


def _text(value: object) -> str:
    """Free text, kept as :func:`~.names.check_text` keeps it."""
    if isinstance(value, str):
        return check_text(value)
    raise RulesError(gettext_noop("{value!r} is not a string"), value=value)


def _date_time(value: object) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise RulesError(
        gettext_noop('{value!r} is not an ISO 8601 date-time such as "2025-05-01T20:30:00+01:00"'),
        value=value,
    )


def _flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise RulesError(gettext_noop("{value!r} is not true or false"), value=value)


# The descriptive keys of a record, in About's order, each with its reader.
_ABOUT: dict[str, Callable[[object], object]] = {
    "id": _text,
    "place": _text,
    "started_at": _date_time,
    "finished_at": _date_time,
    "abandoned": _flag,
    "club": _text,
    "season": _text,
}


def _parse_about(data: dict[str, Any], problems: _Problems) -> About:
    # A value refused is None here, and then the whole record is refused.
    values: dict[str, Any] = {
        key: problems.check(key, partial(read, data[key]))
        for key, read in _ABOUT.items()
        if key in data
    }
    return About(**values)


def _parse_hands(
    value: object, first_dealer: int, problems: _Problems, limit: int | None
) -> tuple[list[Hand], bool]:
    """The hands read, and whether reading stopped, with problems enough, before the last."""
    if not isinstance(value, list):
        problems.add("hands", gettext_noop("a list of hands is expected"))
        return [], False
    if limit is not None and len(value) > limit:
        problems.add(
            "hands",
            gettext_noop("{count} hands, more than the {limit} this site keeps"),
            count=len(value),
            limit=limit,
        )
        return [], False
    hands: list[Hand] = []
    for index, item in enumerate(value):
        if problems.full:
            return hands, True
        hand = _read_hand(item, dealer_of(index, first_dealer), problems, index + 1)
        if hand is not None:
            hands.append(hand)
    return hands, False


_READ_HANDS: dict[tuple[int, str], Hand] = {}
"""Hands read without a problem, by dealer and JSON value (see :func:`_read_hand`): a hand
is frozen, so one read serves every record, and every stored game, that gives it the same
way."""
_READ_HANDS_KEPT = 40_000
"""At most so many kept, then they are read afresh: about 20 MB. A club's import of 20,000
games (the most it takes) gives about 29,000 hands other than card by card, so that each
is read once."""


def _read_hand(item: object, dealer: int, problems: _Problems, number: int) -> Hand | None:
    """:func:`_parse_hand`, None if the hand has a problem. A hand given by its tricks (no
    plays) is one of a few thousand, read again and again (a club's records, a game's page):
    kept once read, under its dealer and its value's repr, which tells 1 from True and from
    1.0 as reading it does."""
    key = (dealer, repr(item)) if type(item) is dict and "plays" not in item else None
    kept = _READ_HANDS.get(key) if key is not None else None
    if kept is not None:
        return kept
    found = problems.count
    hand = _parse_hand(item, dealer, problems, number)
    if hand is None or problems.count != found:
        return None
    if key is not None:
        if len(_READ_HANDS) >= _READ_HANDS_KEPT:
            _READ_HANDS.clear()
        _READ_HANDS[key] = hand
    return hand


def _parse_hand(item: object, dealer: int, problems: _Problems, number: int) -> Hand | None:
    place = gettext_noop("hand {number}")
    found = problems.count

    def check(parse: Callable[[], T]) -> T | None:
        return problems.check(place, parse, number=number)

    def add(message: str, **params: Any) -> None:
        problems.append(RulesError(message, **params).at(place, number=number))

    if not isinstance(item, dict):
        add(gettext_noop("a JSON object is expected"))
        return None
    unknown = item.keys() - _HAND_KEYS
    for key in sorted(unknown, key=str) if unknown else ():
        add(gettext_noop("unknown key {key!r}"), key=key)
    if "dealer" in item:
        given = check(lambda: check_seat(item["dealer"]))
        if given is not None and given != dealer:
            add(
                gettext_noop("dealer is {given}, but the rotation gives {dealer}"),
                given=given,
                dealer=dealer,
            )

    # Each part is checked on its own, so that one run reports every problem of the
    # hand; what needs several parts (the auction's contract, tricks against plays)
    # waits until they are all sound.
    if "calls" in item:
        if "taker" in item or "bid" in item:
            add(gettext_noop("give the calls, or the taker and bid, not both"))
    elif "taker" not in item or "bid" not in item:
        add(gettext_noop("a hand needs its calls, or its taker and bid"))
    calls = check(lambda: _parse_calls(item["calls"])) if "calls" in item else None
    taker = check(lambda: check_seat(item["taker"])) if "taker" in item else None
    bid = check(lambda: parse_bid(item["bid"], exact=True)) if "bid" in item else None
    # Whether the hand has a contract: None while its calls or keys leave it unknown.
    has_contract: bool | None = None
    taken: tuple[int, int] | None = None
    if calls is not None:
        try:
            by_calls = auction_taker(calls, dealer)
        except RulesError as error:
            problems.append(error.at(place, number=number))
        else:
            if item.keys().isdisjoint({"taker", "bid"}):
                has_contract, taken = by_calls is not None, by_calls
    elif "calls" not in item and "taker" in item and "bid" in item:
        has_contract = True
        if taker is not None and bid is not None:
            taken = (taker, bid)

    if has_contract is False:
        # Unknown keys are reported above already.
        extra = sorted(item.keys() & _HAND_KEYS - {"calls", "dealer"})
        if extra:
            add(
                gettext_noop("a void deal has only calls and dealer, not {keys}"),
                keys=", ".join(extra),
            )
        return None if problems.count > found else Hand(calls=calls)

    trump = None
    if "trump" in item:
        trump = check(lambda: Trump.parse(item["trump"], exact=True))
    elif has_contract:
        add(gettext_noop("trump is missing"))
    plays = check(lambda: _parse_plays(item["plays"])) if "plays" in item else None
    tricks = check(lambda: check_tricks(item["tricks"])) if "tricks" in item else None
    has_result = "plays" in item or "tricks" in item
    if has_contract and not has_result:
        add(gettext_noop("a contract needs its tricks or its plays"))
    unread = ("plays" in item and plays is None) or ("tricks" in item and tricks is None)
    if taken is None or trump is None or not has_result or unread:
        if plays is not None:
            check(lambda: _check_deck(plays))
        return None
    hand = check(
        lambda: Hand(
            Contract(taker=taken[0], bid=taken[1], trump=trump),
            tricks=tricks,
            plays=plays,
            calls=calls,
        )
    )
    return None if problems.count > found else hand


def hand_from_dict(data: object, dealer: int, number: int = 1) -> Hand:
    """One hand in the record's form, dealt by ``dealer``; RecordError lists its problems.

    Its words are read exactly, as in a whole record (``"H"``, not ``"h"``).
    """
    problems = _Problems()
    hand = _read_hand(data, dealer, problems, number)
    if problems.count or hand is None:
        raise problems.error()
    return hand


def _parse_calls(value: object) -> tuple[Call, ...]:
    if not isinstance(value, list):
        raise RulesError(gettext_noop("calls: a list of four calls is expected"))
    calls = []
    for position, call in enumerate(value, start=1):
        try:
            calls.append(parse_call(call, exact=True))
        except RulesError as error:
            raise error.at(gettext_noop("calls: call {position}"), position=position) from None
    return tuple(calls)


def _parse_plays(value: object) -> tuple[tuple[Card, ...], ...]:
    plays = parse_plays(value)
    # parse_plays reads cards as people type them; a record writes each exactly.
    for number, trick in enumerate(cast("list[list[str]]", value), start=1):
        try:
            for text in trick:
                Card.parse(text, exact=True)
        except RulesError as error:
            raise error.at(gettext_noop("plays: trick {number}"), number=number) from None
    return plays


def _check_deck(plays: tuple[tuple[Card, ...], ...]) -> None:
    """Each of the 24 cards played once: play_out checks it first, whatever the contract."""
    play_out(0, Trump.NO_TRUMP, plays)


def record_to_dict(record: Record) -> dict[str, Any]:
    """The record as JSON-ready data; ``parse_record`` reads it back unchanged."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "players": list(record.players),
        "first_dealer": record.first_dealer,
        "rules": rules_to_dict(record.rules),
    }
    for key in _ABOUT:
        value = getattr(record.about, key)
        # What the record does not say is left out: None, and abandoned when false.
        if value is not None and value is not False:
            data[key] = value.isoformat() if isinstance(value, datetime) else value
    data["hands"] = [hand_to_dict(hand) for hand in record.hands]
    return data


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The record's ``rules``: game-record.md's keys always, any other option only when it
    is not its default (a boulmous/1 reader refuses keys it does not know)."""
    data = rules.to_data()
    return {
        option.name: data[option.name]
        for option in OPTIONS
        if option.in_spec or data[option.name] != option.to_data(option.default)
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


def fingerprint(record: Record) -> str:
    """What makes two records the same game when neither names its ``id``: the players
    (by their name keys, in seat order), the hands as the record writes them, and the
    finish (in UTC; none when the record gives none). Hex SHA-256, 64 characters."""
    return fingerprints((record,))[0]


def fingerprints(records: Sequence[Record]) -> list[str]:
    """:func:`fingerprint` of each record. The JSON of [players, hands, finish], each hand's
    part written once for all the records that hold it: a hand read is one object for every
    record that gives it the same way (:func:`_read_hand`), and most of a club's hands are
    one of a few thousand. The records are alive throughout, so their hands' ids stand for
    them: the same text as the whole list written at once."""
    written: dict[int, str] = {}
    found = []
    for record in records:
        finished = record.about.finished_at
        if finished is not None and finished.tzinfo is not None:
            finished = finished.astimezone(UTC)
        hands = []
        for hand in record.hands:
            text = written.get(id(hand))
            if text is None:
                text = written[id(hand)] = _fingerprint_json(hand_to_dict(hand))
            hands.append(text)
        players = _fingerprint_json([name_key(name) for name in record.players])
        finish = _fingerprint_json(finished.isoformat() if finished is not None else None)
        whole = f"[{players},[{','.join(hands)}],{finish}]"
        found.append(hashlib.sha256(whole.encode()).hexdigest())
    return found


# One encoder for every fingerprint: json.dumps given options makes a new one each call.
_fingerprint_json = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":")
).encode


def dumps(record: Record) -> str:
    return json.dumps(record_to_dict(record), ensure_ascii=False, indent=2)


def result_to_dict(result: GameResult) -> dict[str, Any]:
    """What the scorer reports for a scored game, as the record's spec lays it out."""
    settlement = settle(result)
    counts = result.taker_counts()
    return {
        "hands": [_hand_result(hand_result) for hand_result in result.hands],
        "totals": list(result.totals),
        "finished": result.finished,
        "winner": result.winner,
        "next_dealer": result.next_dealer,
        "boites": list(counts.boites),
        "boulmous": {"made": list(counts.boulmous_made), "missed": list(counts.boulmous_missed)},
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
