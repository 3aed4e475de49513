"""Scoring one hand: made or missed, points, boîte, boulmous."""

import pytest

from scoring.engine import (
    TRICKS_PER_HAND,
    Contract,
    FailedTaker,
    HandScore,
    Rules,
    RulesError,
    Trump,
    check_tricks,
    fill_tricks,
    score_hand,
)

TMB = FailedTaker.TRICKS_MINUS_BID
MB = FailedTaker.MINUS_BID


@pytest.mark.parametrize(("value", "option"), [("tricks_minus_bid", TMB), ("minus_bid", MB)])
def test_failed_taker_parse_accepts_the_two_options(value, option):
    assert FailedTaker.parse(value) == option


@pytest.mark.parametrize(
    ("value", "shown"),
    [("minus", '"minus"'), ("MINUS_BID", '"MINUS_BID"'), ("", '""'), (None, "null"), (1, "1")],
)
def test_failed_taker_parse_refuses_anything_else(value, shown):
    with pytest.raises(RulesError) as error:
        FailedTaker.parse(value)
    assert str(error.value) == f'failed_taker {shown} is not "tricks_minus_bid" or "minus_bid"'


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        ([6, 0, 0, 0], (6, 0, 0, 0)),
        ([1, 2, 3, 0], (1, 2, 3, 0)),
        ((0, 0, 0, 6), (0, 0, 0, 6)),
        ([2, 2, 1, 1], (2, 2, 1, 1)),
    ],
)
def test_check_tricks_accepts_four_counts_adding_up_to_six(tricks, expected):
    assert check_tricks(tricks) == expected


class Count(int):
    """A whole number that is not a plain int: read as one all the same."""


def test_check_tricks_accepts_whole_numbers_of_another_int_type():
    tricks = check_tricks([Count(3), 1, Count(1), 1])

    assert (tricks, [type(count) for count in tricks]) == ((3, 1, 1, 1), [Count, int, Count, int])


@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        (None, "tricks: four numbers expected, one per seat"),
        ("1230", "tricks: four numbers expected, one per seat"),
        ({"0": 6}, "tricks: four numbers expected, one per seat"),
        ([2, 2, 2], "tricks: four numbers expected, one per seat"),
        ([1, 1, 1, 1, 2], "tricks: four numbers expected, one per seat"),
        ([7, -1, 0, 0], "tricks: seat 1 has -1, not a whole number from 0 to 6"),
        ([1.5, 1.5, 1, 2], "tricks: seat 0 has 1.5, not a whole number from 0 to 6"),
        ([3, 3, True, 0], "tricks: seat 2 has true, not a whole number from 0 to 6"),
        ([3, 2, 0, "1"], 'tricks: seat 3 has "1", not a whole number from 0 to 6'),
        ([1, 1, 1, 2], "tricks add up to 5, not 6"),
        ([7, 0, 0, 0], "tricks add up to 7, not 6"),
        ([0, 0, 0, 0], "tricks add up to 0, not 6"),
    ],
)
def test_check_tricks_refuses_bad_counts(tricks, message):
    with pytest.raises(RulesError) as error:
        check_tricks(tricks)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("taker", "bid", "tricks", "failed_taker", "made", "points"),
    [
        # Made, exactly or with more: everyone scores his tricks.
        (0, 3, [3, 1, 1, 1], TMB, True, (3, 1, 1, 1)),
        (0, 3, [3, 1, 1, 1], MB, True, (3, 1, 1, 1)),
        (2, 4, [0, 1, 5, 0], TMB, True, (0, 1, 5, 0)),
        (3, 5, [0, 0, 1, 5], MB, True, (0, 0, 1, 5)),
        # Missed by one, tricks_minus_bid: the taker keeps his tricks less his bid.
        (2, 4, [1, 1, 3, 1], TMB, False, (1, 1, -1, 1)),
        # Missed by one, minus_bid: his tricks do not count.
        (2, 4, [1, 1, 3, 1], MB, False, (1, 1, -4, 1)),
        # Missed with no trick: the same either way.
        (1, 3, [2, 0, 2, 2], TMB, False, (2, -3, 2, 2)),
        (1, 3, [2, 0, 2, 2], MB, False, (2, -3, 2, 2)),
        (0, 5, [4, 2, 0, 0], TMB, False, (-1, 2, 0, 0)),
        (0, 5, [4, 2, 0, 0], MB, False, (-5, 2, 0, 0)),
        # Boulmous (6): made only with all six tricks.
        (1, 6, [0, 6, 0, 0], TMB, True, (0, 6, 0, 0)),
        (1, 6, [0, 6, 0, 0], MB, True, (0, 6, 0, 0)),
        (1, 6, [1, 5, 0, 0], TMB, False, (1, -1, 0, 0)),
        (1, 6, [1, 5, 0, 0], MB, False, (1, -6, 0, 0)),
        (3, 6, [2, 2, 2, 0], TMB, False, (2, 2, 2, -6)),
    ],
)
def test_score_hand_made_and_missed(taker, bid, tricks, failed_taker, made, points):
    contract = Contract(taker, bid, Trump.HEARTS)

    result = score_hand(contract, tricks, Rules(failed_taker=failed_taker))

    assert result == HandScore(made=made, points=points)


@pytest.mark.parametrize(("made", "boite"), [(True, False), (False, True)])
def test_hand_score_boite_is_a_missed_contract(made, boite):
    assert HandScore(made=made, points=(0, 0, 0, 0)).boite == boite


def test_score_hand_checks_the_tricks():
    with pytest.raises(RulesError) as error:
        score_hand(Contract(0, 3, Trump.SPADES), [3, 3, 1, 0], Rules(failed_taker=TMB))
    assert (TRICKS_PER_HAND, str(error.value)) == (6, "tricks add up to 7, not 6")


@pytest.mark.parametrize(
    ("counts", "filled"),
    [
        ((1, 4, 0, None), (1, 4, 0, 1)),
        ((None, 2, 2, 2), (0, 2, 2, 2)),
        ((6, None, None, None), (6, 0, 0, 0)),
        ((3, 3, None, None), (3, 3, 0, 0)),
        ((4, 3, None, None), (4, 3, 0, 0)),
        ((2, None, 1, None), (2, None, 1, None)),
        ((None, None, None, None), (None, None, None, None)),
        ((1, 1, 1, 1), (1, 1, 1, 1)),
        ((5, 0, 0, None), (5, 0, 0, 1)),
    ],
)
def test_fill_tricks_fills_what_the_six_tricks_decide(counts, filled):
    assert fill_tricks(counts) == filled
