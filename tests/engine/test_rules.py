"""The house-rule options, declared once (scoring/engine/rules.py): the rules, the record's
``rules`` and what reads them follow from the registry."""

import dataclasses
import json

import pytest

from scoring.engine import (
    OPTIONS,
    PASS,
    Contract,
    Kind,
    RecordError,
    Rules,
    RulesError,
    Trump,
    all_pass_allowed,
    auction_taker,
    legal_calls,
    parse_record,
    record_to_dict,
    score_hand,
)
from scoring.engine.cli import main
from scoring.engine.rules import yes_no

PLAYERS = ["Amina", "Bilal", "Chafik", "Dalila"]


def record_with(
    rules: dict[str, object], hands: list[dict[str, object]] | None = None
) -> dict[str, object]:
    return {
        "format": "boulmous/1",
        "players": PLAYERS,
        "rules": rules,
        "hands": hands or [{"taker": 0, "bid": 4, "trump": "H", "tricks": [4, 1, 1, 0]}],
    }


def test_rules_have_one_field_per_option_in_the_registrys_order():
    assert [field.name for field in dataclasses.fields(Rules)] == sorted(
        (option.name for option in OPTIONS),
        key=[field.name for field in dataclasses.fields(Rules)].index,
    )
    assert {field.name for field in dataclasses.fields(Rules)} == {o.name for o in OPTIONS}


def test_rules_defaults_are_the_options_defaults():
    assert Rules().to_data() == {option.name: option.to_data(option.default) for option in OPTIONS}


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_parse_record_reads_an_option_left_out_as_its_default(option):
    given = {other.name: other.to_data(other.default) for other in OPTIONS if other is not option}

    record = parse_record(record_with(given))

    assert getattr(record.rules, option.name) == option.default


def test_record_to_dict_writes_the_specs_keys_and_reads_back_the_same_rules():
    record = parse_record(
        record_with({"failed_taker": "minus_bid", "stake": "0.500", "currency": "TND"})
    )
    written = record_to_dict(record)["rules"]

    assert written == {
        "target": 21,
        "failed_taker": "minus_bid",
        "stake": "0.500",
        "currency": "TND",
    }
    assert parse_record(record_to_dict(record)).rules == record.rules


def test_rules_from_data_and_to_data_are_each_others_reading():
    rules = Rules(target=11, failed_taker="minus_bid", stake="2", currency="JPY")

    assert Rules.from_data(rules.to_data()) == rules


@pytest.mark.parametrize("value", [1, "yes", None])
def test_yes_no_option_refuses_what_is_not_true_or_false(value):
    with pytest.raises(RulesError) as error:
        yes_no("some_rule")(value, {})

    assert str(error.value) == f"some_rule {json.dumps(value)} is not true or false"


@pytest.mark.parametrize("value", [True, False])
def test_yes_no_option_reads_true_and_false(value):
    assert yes_no("some_rule")(value, {}) is value


def test_every_option_has_a_label_and_a_kind():
    assert all(option.label and isinstance(option.kind, Kind) for option in OPTIONS)


def test_score_hand_takes_the_rules():
    assert score_hand(Contract(0, 4, Trump.SPADES), [2, 2, 1, 1], Rules()).points == (-2, 2, 1, 1)


def test_seed_auction_lets_the_dealer_pass_after_three_passes():
    assert (
        PASS in legal_calls([PASS] * 3, Rules()),
        all_pass_allowed(Rules()),
        auction_taker([PASS] * 4, 0, Rules()),
    ) == (True, True, None)


def test_a_choice_options_words_are_found_by_its_value():
    failed_taker = next(option for option in OPTIONS if option.name == "failed_taker")

    assert failed_taker.choice("minus_bid").phrase == "a failed taker scores minus his bid"


# --- The dealer must bid ----------------------------------------------------------------

MUST_BID = Rules(dealer_must_bid=True)


def test_dealer_must_bid_leaves_the_dealer_no_pass_after_three_passes():
    assert (legal_calls([PASS] * 3, MUST_BID), legal_calls([PASS, 4, PASS], MUST_BID)) == (
        (3, 4, 5, 6),
        (PASS, 5, 6),
    )


def test_dealer_must_bid_refuses_the_dealers_pass_in_the_auction():
    with pytest.raises(RulesError) as error:
        auction_taker([PASS] * 4, 2, MUST_BID)

    assert (str(error.value), all_pass_allowed(MUST_BID)) == (
        "calls: the dealer must bid when the three others pass",
        False,
    )


def test_dealer_must_bid_game_refuses_a_void_deal_and_scores_the_dealers_bid():
    hands = [{"calls": ["pass", "pass", "pass", 3], "trump": "S", "tricks": [3, 1, 1, 1]}]
    record = parse_record(record_with({"dealer_must_bid": True}, hands))

    with pytest.raises(RecordError) as error:
        parse_record(record_with({"dealer_must_bid": True}, [{"calls": ["pass"] * 4}]))

    assert (record.score().totals, str(error.value)) == (
        (3, 1, 1, 1),
        "hand 1: calls: the dealer must bid when the three others pass",
    )


def test_dealer_must_bid_is_written_in_the_record_only_when_on():
    on = parse_record(record_with({"dealer_must_bid": True}))
    off = parse_record(record_with({"dealer_must_bid": False}))

    assert (
        record_to_dict(on)["rules"].get("dealer_must_bid"),
        "dealer_must_bid" in record_to_dict(off)["rules"],
    ) == (True, False)


def test_boulmous_score_cli_scores_a_game_where_the_dealer_must_bid(tmp_path, capsys):
    path = tmp_path / "game.json"
    hands = [{"calls": ["pass", "pass", "pass", 4], "trump": "H", "tricks": [4, 1, 1, 0]}]
    path.write_text(json.dumps(record_with({"dealer_must_bid": True}, hands)))
    void = tmp_path / "void.json"
    void.write_text(json.dumps(record_with({"dealer_must_bid": True}, [{"calls": ["pass"] * 4}])))

    status = main([str(path)])
    scored = json.loads(capsys.readouterr().out)
    refused = main([str(void)])

    assert (status, scored["totals"], refused, capsys.readouterr().err) == (
        0,
        [4, 1, 1, 0],
        1,
        "hand 1: calls: the dealer must bid when the three others pass\n",
    )


# --- A boulmous made scores 12 ----------------------------------------------------------

DOUBLED = Rules(boulmous_doubled=True)
BOULMOUS_HEARTS = Contract(2, 6, Trump.HEARTS)


def test_boulmous_doubled_scores_a_boulmous_made_12_and_nothing_else_changes():
    assert (
        score_hand(BOULMOUS_HEARTS, [0, 0, 6, 0], DOUBLED).points,
        score_hand(BOULMOUS_HEARTS, [0, 1, 5, 0], DOUBLED).points,
        score_hand(Contract(2, 5, Trump.HEARTS), [0, 0, 6, 0], DOUBLED).points,
        score_hand(BOULMOUS_HEARTS, [0, 0, 6, 0], Rules()).points,
    ) == ((0, 0, 12, 0), (0, 1, -1, 0), (0, 0, 6, 0), (0, 0, 6, 0))


def test_boulmous_doubled_is_written_in_the_record_only_when_on():
    on = parse_record(record_with({"boulmous_doubled": True}))
    off = parse_record(record_with({}))

    assert (
        record_to_dict(on)["rules"].get("boulmous_doubled"),
        "boulmous_doubled" in record_to_dict(off)["rules"],
    ) == (True, False)


def test_boulmous_score_cli_scores_a_boulmous_made_12_where_it_is_doubled(tmp_path, capsys):
    path = tmp_path / "game.json"
    hands = [
        {"taker": 1, "bid": "boulmous", "trump": "NT", "tricks": [0, 6, 0, 0]},
        {"taker": 1, "bid": 4, "trump": "S", "tricks": [1, 4, 1, 0]},
        {"taker": 2, "bid": 5, "trump": "D", "tricks": [0, 5, 1, 0]},
    ]
    path.write_text(json.dumps(record_with({"boulmous_doubled": True}, hands)))

    status = main([str(path)])
    scored = json.loads(capsys.readouterr().out)

    # 12 + 4 + 5 = 21: Bilal wins at hand 3, where six tricks for the boulmous would not.
    assert (status, scored["hands"][0]["points"], scored["totals"], scored["winner"]) == (
        0,
        [0, 12, 0, 0],
        [1, 21, -3, 0],
        1,
    )
