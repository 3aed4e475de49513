"""Bids, calls, the auction and the contract it makes."""

import pytest

from scoring.engine import (
    BOULMOUS,
    LOWEST_BID,
    PASS,
    Contract,
    RulesError,
    Trump,
    auction_taker,
    format_bid,
    format_call,
    legal_calls,
    parse_bid,
    parse_call,
    seats_from,
    speaking_order,
)
from scoring.engine.auction import check_seat

BID_MESSAGE = 'bid {} is not 3, 4, 5, 6 or "boulmous"'
CALL_MESSAGE = 'call {} is not "pass", a bid from 3 to 6 or "boulmous"'


def test_bid_constants_are_three_to_six_and_pass_is_none():
    assert (LOWEST_BID, BOULMOUS, PASS) == (3, 6, None)


@pytest.mark.parametrize(
    ("dealer", "order"),
    [(0, (1, 2, 3, 0)), (1, (2, 3, 0, 1)), (2, (3, 0, 1, 2)), (3, (0, 1, 2, 3))],
)
def test_speaking_order_starts_at_the_dealers_left_and_ends_with_him(dealer, order):
    assert speaking_order(dealer) == order


@pytest.mark.parametrize(
    ("value", "bid"),
    [(3, 3), (4, 4), (5, 5), (6, 6), ("boulmous", 6), ("Boulmous", 6), (" BOULMOUS ", 6)],
)
def test_parse_bid_accepts_three_to_six_and_boulmous(value, bid):
    assert parse_bid(value) == bid


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2, "2"),
        (7, "7"),
        (0, "0"),
        (-3, "-3"),
        ("3", '"3"'),
        (3.0, "3.0"),
        (True, "true"),
        (None, "null"),
        ("pass", '"pass"'),
        ("boulmouss", '"boulmouss"'),
    ],
)
def test_parse_bid_refuses_anything_else_naming_it(value, shown):
    with pytest.raises(RulesError) as error:
        parse_bid(value)
    assert str(error.value) == BID_MESSAGE.format(shown)


@pytest.mark.parametrize(
    ("value", "call"),
    [
        ("pass", None),
        ("PASS", None),
        (" Pass ", None),
        (3, 3),
        (5, 5),
        (6, 6),
        ("boulmous", 6),
    ],
)
def test_parse_call_accepts_pass_or_a_bid(value, call):
    assert parse_call(value) == call


@pytest.mark.parametrize(
    ("value", "shown"),
    [("passe", '"passe"'), (2, "2"), (7, "7"), (True, "true"), (None, "null"), ("", '""')],
)
def test_parse_call_refuses_anything_else_naming_it(value, shown):
    with pytest.raises(RulesError) as error:
        parse_call(value)
    assert str(error.value) == CALL_MESSAGE.format(shown)


@pytest.mark.parametrize(("bid", "text"), [(3, 3), (4, 4), (5, 5), (6, "boulmous")])
def test_format_bid_writes_six_as_boulmous(bid, text):
    assert format_bid(bid) == text


@pytest.mark.parametrize(("call", "text"), [(None, "pass"), (3, 3), (6, "boulmous")])
def test_format_call_writes_pass_and_boulmous(call, text):
    assert format_call(call) == text


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_check_seat_accepts_zero_to_three(seat):
    assert check_seat(seat) == seat


@pytest.mark.parametrize(
    ("seat", "shown"), [(-1, "-1"), (4, "4"), (True, "true"), ("1", '"1"'), (None, "null")]
)
def test_check_seat_refuses_anything_else(seat, shown):
    with pytest.raises(RulesError) as error:
        check_seat(seat)
    assert str(error.value) == f"seat {shown} is not 0, 1, 2 or 3"


@pytest.mark.parametrize(
    ("calls", "legal"),
    [
        ((), (None, 3, 4, 5, 6)),
        ((None,), (None, 3, 4, 5, 6)),
        ((None, None, None), (None, 3, 4, 5, 6)),
        ((3,), (None, 4, 5, 6)),
        ((None, 4), (None, 5, 6)),
        ((4, None, None), (None, 5, 6)),
        ((3, 5), (None, 6)),
        ((6,), (None,)),
        ((3, 4, 5), (None, 6)),
        ((None, None, None, None), ()),
        ((3, 4, 5, 6), ()),
    ],
)
def test_legal_calls_are_pass_or_a_bid_above_every_earlier_bid(calls, legal):
    assert legal_calls(calls) == legal


@pytest.mark.parametrize(
    ("calls", "dealer", "taken"),
    [
        # Four passes: a void deal.
        ((None, None, None, None), 0, None),
        ((None, None, None, None), 3, None),
        # The last (highest) bidder takes; speaking order starts at the dealer's left.
        ((None, 3, None, 4), 0, (0, 4)),
        ((None, 3, None, 4), 1, (1, 4)),
        ((None, 3, None, 4), 2, (2, 4)),
        ((None, 3, None, 4), 3, (3, 4)),
        ((3, None, None, None), 0, (1, 3)),
        ((3, None, None, None), 3, (0, 3)),
        ((None, None, None, 3), 0, (0, 3)),
        ((3, 4, 5, 6), 2, (2, 6)),
        ((6, None, None, None), 3, (0, 6)),
        ((None, 5, None, None), 1, (3, 5)),
        ((4, None, 5, None), 0, (3, 5)),
    ],
)
def test_auction_taker_is_the_last_bidder(calls, dealer, taken):
    assert auction_taker(calls, dealer) == taken


@pytest.mark.parametrize(
    ("calls", "dealer", "message"),
    [
        (
            (4, 3, None, None),
            0,
            "calls: call 2 (seat 2) bids 3, which must be higher than the 4 already bid",
        ),
        (
            (4, 4, None, None),
            1,
            "calls: call 2 (seat 3) bids 4, which must be higher than the 4 already bid",
        ),
        (
            (3, None, 5, 4),
            3,
            "calls: call 4 (seat 3) bids 4, which must be higher than the 5 already bid",
        ),
        (
            (None, 6, None, 6),
            2,
            "calls: call 4 (seat 2) bids 6, which must be higher than the 6 already bid",
        ),
        ((None, None, None), 0, "calls: one call per player expected, 4 in all, not 3"),
        ((None, None, None, None, None), 0, "calls: one call per player expected, 4 in all, not 5"),
        ((), 0, "calls: one call per player expected, 4 in all, not 0"),
        ((None, 7, None, None), 0, BID_MESSAGE.format(7)),
        ((None, 2, None, None), 0, BID_MESSAGE.format(2)),
    ],
)
def test_auction_taker_refuses_a_bid_not_higher_and_a_wrong_count(calls, dealer, message):
    with pytest.raises(RulesError) as error:
        auction_taker(calls, dealer)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("bid", "trump", "expected"),
    [
        (3, Trump.HEARTS, Contract(2, 3, Trump.HEARTS)),
        (6, Trump.NO_TRUMP, Contract(2, 6, Trump.NO_TRUMP)),
        # As a record writes them: "boulmous" is 6 and "h" is hearts.
        ("boulmous", "h", Contract(2, 6, Trump.HEARTS)),
        (5, "NT", Contract(2, 5, Trump.NO_TRUMP)),
    ],
)
def test_contract_stores_bid_and_trump_as_the_rules_compare_them(bid, trump, expected):
    contract = Contract(2, bid, trump)

    assert (contract, contract.bid, contract.trump) == (expected, expected.bid, expected.trump)


@pytest.mark.parametrize(("bid", "is_boulmous"), [(3, False), (5, False), (6, True)])
def test_contract_is_boulmous_with_a_bid_of_six(bid, is_boulmous):
    assert Contract(0, bid, Trump.SPADES).is_boulmous == is_boulmous


@pytest.mark.parametrize(
    ("taker", "bid", "trump", "message"),
    [
        (4, 3, Trump.HEARTS, "seat 4 is not 0, 1, 2 or 3"),
        (-1, 3, Trump.HEARTS, "seat -1 is not 0, 1, 2 or 3"),
        (0, 2, Trump.HEARTS, BID_MESSAGE.format(2)),
        (0, 7, Trump.HEARTS, BID_MESSAGE.format(7)),
        (0, 3, "X", 'trump "X" is not one of S H D C NT'),
        (0, 3, None, "trump null is not one of S H D C NT"),
    ],
)
def test_contract_refuses_a_bad_seat_bid_or_trump(taker, bid, trump, message):
    with pytest.raises(RulesError) as error:
        Contract(taker, bid, trump)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("first", "order"), [(0, (0, 1, 2, 3)), (1, (1, 2, 3, 0)), (3, (3, 0, 1, 2))]
)
def test_seats_from_goes_clockwise_from_the_first(first, order):
    assert seats_from(first) == order


def test_auction_taker_refusal_names_the_bidder_to_beat():
    with pytest.raises(RulesError) as refused:
        auction_taker((3, None, 5, 4), 3)

    assert refused.value.params == {"position": 4, "seat": 3, "bid": 4, "highest": 5, "by": 2}
