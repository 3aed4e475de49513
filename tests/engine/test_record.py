"""The boulmous/1 game record: parse, serialise, score (the folders in tests/data do the rest)."""

import json
from decimal import Decimal

import pytest

from scoring.engine import (
    FORMAT,
    Card,
    Contract,
    FailedTaker,
    Hand,
    Record,
    RecordError,
    Rules,
    RulesError,
    Trump,
    check_players,
    dumps,
    hand_from_dict,
    hand_to_dict,
    loads,
    parse_record,
    record_to_dict,
    result_to_dict,
    score,
)

CLEAN_TEXT = [
    ["JH", "9H", "QH", "TH"],
    ["AH", "JD", "KH", "9D"],
    ["AC", "QC", "KC", "9C"],
    ["KD", "AD", "QD", "TD"],
    ["9S", "JS", "AS", "QS"],
    ["KS", "TC", "TS", "JC"],
]
CLEAN = tuple(tuple(Card.parse(text) for text in trick) for trick in CLEAN_TEXT)

# Dealers 1, 2, 3, 0. Hand 2: seats speak 3, 0, 1, 2; seat 3 bids 3, seat 1 bids 4.
# Totals [0,0,0,0], [1,4,1,0], [1,4,7,0], [4,6,8,0]: not won at target 10.
RECORD_DATA = {
    "format": "boulmous/1",
    "players": ["Amina", "Bilal", "Chafik", "Dalila"],
    "first_dealer": 1,
    "rules": {"target": 10, "failed_taker": "minus_bid", "stake": "0.50", "currency": "EUR"},
    "hands": [
        {"calls": ["pass", "pass", "pass", "pass"]},
        {"calls": [3, "pass", 4, "pass"], "trump": "S", "tricks": [1, 4, 1, 0]},
        {"taker": 2, "bid": "boulmous", "trump": "NT", "tricks": [0, 0, 6, 0]},
        {"taker": 0, "bid": 3, "trump": "H", "tricks": [3, 2, 1, 0], "plays": CLEAN_TEXT},
    ],
}
RECORD = Record(
    players=("Amina", "Bilal", "Chafik", "Dalila"),
    first_dealer=1,
    rules=Rules(10, FailedTaker.MINUS_BID, Decimal("0.50"), "EUR"),
    hands=(
        Hand(calls=(None, None, None, None)),
        Hand(Contract(1, 4, Trump.SPADES), tricks=(1, 4, 1, 0), calls=(3, None, 4, None)),
        Hand(Contract(2, 6, Trump.NO_TRUMP), tricks=(0, 0, 6, 0)),
        Hand(Contract(0, 3, Trump.HEARTS), plays=CLEAN),
    ),
)


def test_format_is_boulmous_1():
    assert FORMAT == "boulmous/1"


def test_parse_record_reads_every_kind_of_hand():
    assert parse_record(RECORD_DATA) == RECORD


def test_loads_reads_text_and_utf8_bytes():
    text = json.dumps(RECORD_DATA)

    assert (loads(text), loads(text.encode())) == (RECORD, RECORD)


def test_loads_applies_the_defaults_and_trims_names():
    text = (
        '{"format": "boulmous/1", "players": [" Élise ", "Bilal", "Chafik", "Dalila"], "hands": []}'
    )

    assert loads(text.encode()) == Record(("Élise", "Bilal", "Chafik", "Dalila"), 0, Rules(), ())


def test_loads_accepts_what_the_spec_allows_loosely():
    text = json.dumps(
        {
            "format": "boulmous/1",
            "players": ["A", "B", "C", "D"],
            "hands": [
                {
                    "calls": ["PASS", "boulmous", "pass", "pass"],
                    "trump": "nt",
                    "tricks": [0, 0, 6, 0],
                },
                {
                    "taker": 2,
                    "bid": 3,
                    "trump": "h",
                    "plays": [["10H" if c == "TH" else c for c in t] for t in CLEAN_TEXT],
                },
            ],
        }
    )

    # Dealer 0: seats speak 1, 2, 3, 0, so the boulmous is seat 2's.
    assert loads(text).hands == (
        Hand(Contract(2, 6, Trump.NO_TRUMP), tricks=(0, 0, 6, 0), calls=(None, 6, None, None)),
        Hand(Contract(2, 3, Trump.HEARTS), plays=CLEAN),
    )


def test_record_to_dict_writes_the_record_in_full():
    assert record_to_dict(RECORD) == {
        "format": "boulmous/1",
        "players": ["Amina", "Bilal", "Chafik", "Dalila"],
        "first_dealer": 1,
        "rules": {"target": 10, "failed_taker": "minus_bid", "stake": "0.50", "currency": "EUR"},
        "hands": [
            {"calls": ["pass", "pass", "pass", "pass"]},
            {"calls": [3, "pass", 4, "pass"], "trump": "S", "tricks": [1, 4, 1, 0]},
            {"taker": 2, "bid": "boulmous", "trump": "NT", "tricks": [0, 0, 6, 0]},
            {"taker": 0, "bid": 3, "trump": "H", "tricks": [3, 2, 1, 0], "plays": CLEAN_TEXT},
        ],
    }


def test_record_to_dict_writes_the_default_rules_in_full():
    assert record_to_dict(Record(("A", "B", "C", "D")))["rules"] == {
        "target": 21,
        "failed_taker": "tricks_minus_bid",
        "stake": "0",
        "currency": "EUR",
    }


def test_record_to_dict_writes_a_void_deal_without_calls_as_four_passes():
    record = Record(("A", "B", "C", "D"), hands=(Hand(),))

    assert record_to_dict(record)["hands"] == [{"calls": ["pass", "pass", "pass", "pass"]}]


def test_dumps_writes_indented_json_keeping_accents_that_loads_reads_back():
    record = Record(("Élise", "Bilal", "Chafik", "Dalila"), 1, hands=RECORD.hands)

    text = dumps(record)

    assert (text.splitlines()[:4], loads(text)) == (
        ["{", '  "format": "boulmous/1",', '  "players": [', '    "Élise",'],
        record,
    )


def test_score_reports_hands_totals_and_settlement_as_the_spec_lays_out():
    assert score(RECORD) == {
        "hands": [
            {
                "number": 1, "dealer": 1, "void": True, "taker": None, "bid": None,
                "trump": None, "tricks": [0, 0, 0, 0], "made": None, "boite": False,
                "boulmous": False, "points": [0, 0, 0, 0], "totals": [0, 0, 0, 0],
            },
            {
                "number": 2, "dealer": 2, "void": False, "taker": 1, "bid": 4,
                "trump": "S", "tricks": [1, 4, 1, 0], "made": True, "boite": False,
                "boulmous": False, "points": [1, 4, 1, 0], "totals": [1, 4, 1, 0],
            },
            {
                "number": 3, "dealer": 3, "void": False, "taker": 2, "bid": 6,
                "trump": "NT", "tricks": [0, 0, 6, 0], "made": True, "boite": False,
                "boulmous": True, "points": [0, 0, 6, 0], "totals": [1, 4, 7, 0],
            },
            {
                "number": 4, "dealer": 0, "void": False, "taker": 0, "bid": 3,
                "trump": "H", "tricks": [3, 2, 1, 0], "made": True, "boite": False,
                "boulmous": False, "points": [3, 2, 1, 0], "totals": [4, 6, 8, 0],
                "trick_winners": [0, 1, 1, 2, 0, 0], "revokes": [],
            },
        ],
        "totals": [4, 6, 8, 0],
        "finished": False,
        "winner": None,
        "next_dealer": 1,
        "boites": [0, 0, 0, 0],
        "boulmous": {"made": [0, 0, 1, 0], "missed": [0, 0, 0, 0]},
        "settlement": {
            # Not won: the boulmous of seat 2 alone, one stake from each.
            "stake": "0.50",
            "currency": "EUR",
            "units": [-1, -1, 3, -1],
            "balances": ["-0.50", "-0.50", "1.50", "-0.50"],
            "transfers": [
                {"from": 0, "to": 2, "units": 1, "amount": "0.50"},
                {"from": 1, "to": 2, "units": 1, "amount": "0.50"},
                {"from": 3, "to": 2, "units": 1, "amount": "0.50"},
            ],
        },
    }  # fmt: skip


def test_score_is_result_to_dict_of_the_scored_record():
    assert score(RECORD) == result_to_dict(RECORD.score())


def test_record_score_scores_its_hands_with_its_rules():
    result = RECORD.score()

    assert (result.first_dealer, result.rules, result.totals) == (1, RECORD.rules, (4, 6, 8, 0))


def test_loads_refuses_text_that_is_not_json():
    with pytest.raises(RecordError) as error:
        loads("{")
    assert str(error.value) == (
        "record: not JSON (Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1))"
    )


def test_loads_refuses_json_nested_too_deep_as_not_json():
    with pytest.raises(RecordError) as error:
        loads("[" * 100_000 + "]" * 100_000)
    assert (len(error.value.problems), str(error.value).partition(" (")[0]) == (
        1,
        "record: not JSON",
    )


@pytest.mark.parametrize("data", [[], None, "boulmous/1", 3, (1, 2)])
def test_parse_record_refuses_anything_but_an_object(data):
    with pytest.raises(RecordError) as error:
        parse_record(data)
    assert str(error.value) == "record: a JSON object is expected"


def test_parse_record_reports_a_refused_auction_alone():
    data = dict(
        RECORD_DATA,
        hands=[{"calls": ["pass", 4, 3, "pass"], "trump": "H", "tricks": [3, 1, 1, 1]}],
    )

    with pytest.raises(RecordError) as error:
        parse_record(data)
    assert str(error.value) == (
        "hand 1: calls: call 3 (seat 0) bids 3, which must be higher than the 4 already bid"
    )


def test_parse_record_reports_an_unknown_key_of_a_void_deal_once():
    data = dict(RECORD_DATA, hands=[{"calls": ["pass"] * 4, "note": "x", "trump": "S"}])

    with pytest.raises(RecordError) as error:
        parse_record(data)
    assert str(error.value).splitlines() == [
        'hand 1: unknown key "note"',
        "hand 1: a void deal has only calls and dealer, not trump",
    ]


# --- One hand at a time, as the web app stores them -----------------------------------


def test_hand_from_dict_reads_a_contract_given_by_its_calls():
    hand = hand_from_dict(
        {"calls": ["pass", 3, "pass", 4], "trump": "H", "tricks": [1, 0, 2, 3]}, 0
    )

    assert (hand.contract, hand.tricks) == (Contract(0, 4, Trump.HEARTS), (1, 0, 2, 3))


def test_hand_from_dict_lists_every_problem_of_the_hand():
    with pytest.raises(RecordError) as error:
        hand_from_dict({"taker": 0, "bid": 4, "trump": "H", "tricks": [1], "colour": 1}, 2, 5)

    assert str(error.value).splitlines() == [
        'hand 5: unknown key "colour"',
        "hand 5: tricks: four numbers expected, one per seat",
    ]


def test_hand_to_dict_round_trips_through_hand_from_dict():
    data = {"calls": ["pass", "boulmous", "pass", "pass"], "trump": "NT", "tricks": [0, 6, 0, 0]}

    assert hand_to_dict(hand_from_dict(data, 3)) == data


@pytest.mark.parametrize(
    ("names", "seat", "other"),
    [(["Amina", "Bilal", " amina ", "Dalila"], 2, 0), (["A", "B", "C", "b"], 3, 1)],
)
def test_check_players_names_the_seat_of_a_repeated_name(names, seat, other):
    with pytest.raises(RulesError) as error:
        check_players(names)

    assert (str(error.value), error.value.params) == (
        "players: names must differ",
        {"seat": seat, "other": other},
    )


def test_game_over_error_says_when_the_game_was_won():
    won = {"taker": 0, "bid": 6, "trump": "S", "tricks": [6, 0, 0, 0]}
    record = {"format": "boulmous/1", "players": ["A", "B", "C", "D"], "rules": {"target": 6}}

    with pytest.raises(RecordError) as error:
        parse_record({**record, "hands": [won, won, won]})

    assert [
        (str(problem), getattr(problem, "won_at", None)) for problem in error.value.problems
    ] == [("hand 2: the game was already won at hand 1", 1)]
