"""The money of a game: balances in stakes and the fewest transfers settling them."""

from decimal import Decimal

import pytest

from scoring.engine import (
    Breakdown,
    Contract,
    Hand,
    Rules,
    RulesError,
    Settlement,
    Transfer,
    Trump,
    boulmous_payments,
    fewest_transfers,
    score_game,
    settle,
)

VOID = Hand(calls=(None, None, None, None))


def deal(taker: int, bid: int, *tricks: int) -> Hand:
    return Hand(Contract(taker, bid, Trump.SPADES), tricks=tuple(tricks))


# Won by seat 0 at target 6 in one hand: nothing but the game.
WON_PLAIN = [deal(0, 3, 6, 0, 0, 0)]

# Won by seat 0 at target 6; seat 1 made two boîtes, seat 2 one.
#   points [2, -2, 1, 1], [1, 1, -2, 1], [1, -2, 1, 3], [3, 1, 1, 1]
#   totals [2, -2, 1, 1], [3, -1, -1, 2], [4, -3, 0, 5], [7, -2, 1, 6]
WON_WITH_LOSERS_BOITES = [
    deal(1, 4, 2, 2, 1, 1),
    deal(2, 5, 1, 1, 3, 1),
    deal(1, 3, 1, 1, 1, 3),
    deal(0, 3, 3, 1, 1, 1),
]

# Won by seat 0 at target 6 after a boîte of his own: totals [-1,1,1,1], [5,1,1,1], [8,2,2,2].
WON_WITH_WINNERS_BOITE = [deal(0, 4, 3, 1, 1, 1), deal(0, 3, 6, 0, 0, 0), deal(0, 3, 3, 1, 1, 1)]

# Won by seat 3 at target 10: seat 1 makes a boulmous, seat 2 misses one (a boîte too).
#   totals [0, 6, 0, 0], [1, 6, -1, 0], [1, 6, -1, 6] (a tie below 10), [1, 6, -1, 12]
WON_WITH_BOULMOUS = [
    deal(1, 6, 0, 6, 0, 0),
    deal(2, 6, 1, 0, 5, 0),
    deal(3, 3, 0, 0, 0, 6),
    deal(3, 5, 0, 0, 0, 6),
]

# Not won (target 21): seat 1 makes a boulmous, seat 0 a boîte, which costs nothing yet.
UNFINISHED = [deal(1, 6, 0, 6, 0, 0), VOID, deal(0, 4, 3, 1, 1, 1)]


@pytest.mark.parametrize(
    ("hands", "target", "breakdown", "transfers"),
    [
        (
            [],
            21,
            ((0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)),
            (),
        ),
        (
            WON_PLAIN,
            6,
            ((3, 0, 0), (-1, 0, 0), (-1, 0, 0), (-1, 0, 0)),
            (Transfer(1, 0, 1), Transfer(2, 0, 1), Transfer(3, 0, 1)),
        ),
        (
            # Each loser's boîte costs him one more stake, paid to the winner.
            WON_WITH_LOSERS_BOITES,
            6,
            ((3, 0, 3), (-1, 0, -2), (-1, 0, -1), (-1, 0, 0)),
            (Transfer(1, 0, 3), Transfer(2, 0, 2), Transfer(3, 0, 1)),
        ),
        (
            # The winner's own boîte costs nothing.
            WON_WITH_WINNERS_BOITE,
            6,
            ((3, 0, 0), (-1, 0, 0), (-1, 0, 0), (-1, 0, 0)),
            (Transfer(1, 0, 1), Transfer(2, 0, 1), Transfer(3, 0, 1)),
        ),
        (
            # Boulmous made by 1: [-1, 3, -1, -1]; missed by 2: [1, 1, -3, 1].
            # Units [-1, 3, -6, 4]: seat 2 pays 4 to seat 3 and 2 to seat 1, seat 0 pays 1.
            WON_WITH_BOULMOUS,
            10,
            ((-1, 0, 0), (-1, 4, 0), (-1, -4, -1), (3, 0, 1)),
            (Transfer(2, 3, 4), Transfer(2, 1, 2), Transfer(0, 1, 1)),
        ),
        (
            # A game not won settles the boulmous alone.
            UNFINISHED,
            21,
            ((0, -1, 0), (0, 3, 0), (0, -1, 0), (0, -1, 0)),
            (Transfer(0, 1, 1), Transfer(2, 1, 1), Transfer(3, 1, 1)),
        ),
    ],
    ids=["no_hands", "won_plain", "losers_boites", "winners_boite", "boulmous", "unfinished"],
)
def test_settle_applies_the_seeds_money_rules(hands, target, breakdown, transfers):
    game = score_game(hands, rules=Rules(target=target))

    settlement = settle(game)

    assert (settlement.breakdown, settlement.transfers) == (
        tuple(Breakdown(*parts) for parts in breakdown),
        transfers,
    )


def test_settle_units_are_the_breakdown_totals():
    settlement = settle(score_game(WON_WITH_BOULMOUS, rules=Rules(target=10)))

    assert (settlement.units, [part.total for part in settlement.breakdown]) == (
        (-1, 3, -6, 4),
        [-1, 3, -6, 4],
    )


@pytest.mark.parametrize(
    ("stake", "currency", "balances", "amounts"),
    [
        ("0.50", "EUR", ("-0.50", "1.50", "-3.00", "2.00"), ("2.00", "1.00", "0.50")),
        ("0.250", "TND", ("-0.250", "0.750", "-1.500", "1.000"), ("1.000", "0.500", "0.250")),
        ("100", "JPY", ("-100", "300", "-600", "400"), ("400", "200", "100")),
        ("0", "EUR", ("0.00", "0.00", "0.00", "0.00"), ("0.00", "0.00", "0.00")),
    ],
)
def test_settlement_balances_and_amounts_in_the_currency(stake, currency, balances, amounts):
    rules = Rules(target=10, stake=Decimal(stake), currency=currency)

    settlement = settle(score_game(WON_WITH_BOULMOUS, rules=rules))

    assert (
        tuple(f"{balance:f}" for balance in settlement.balances),
        tuple(f"{settlement.amount(transfer.units):f}" for transfer in settlement.transfers),
        settlement.stake,
        settlement.currency,
    ) == (balances, amounts, Decimal(stake), currency)


def test_settlement_of_a_game_for_nothing_still_counts_units():
    settlement = settle(score_game(WON_PLAIN, rules=Rules(target=6)))

    assert (settlement.units, settlement.balances, len(settlement.transfers)) == (
        (3, -1, -1, -1),
        (Decimal("0.00"),) * 4,
        3,
    )


def test_settlement_is_a_plain_value():
    settlement = settle(score_game([]))

    assert settlement == Settlement(Decimal(0), "EUR", (Breakdown(0, 0, 0),) * 4, ())


@pytest.mark.parametrize(
    ("units", "transfers"),
    [
        ((0, 0, 0, 0), ()),
        ((1, -1, 0, 0), (Transfer(1, 0, 1),)),
        ((0, 0, -4, 4), (Transfer(2, 3, 4),)),
        ((3, -1, -1, -1), (Transfer(1, 0, 1), Transfer(2, 0, 1), Transfer(3, 0, 1))),
        ((-3, 1, 1, 1), (Transfer(0, 1, 1), Transfer(0, 2, 1), Transfer(0, 3, 1))),
        ((5, -3, -1, -1), (Transfer(1, 0, 3), Transfer(2, 0, 1), Transfer(3, 0, 1))),
        # Two pairs cancel out: two transfers, not three.
        ((2, -2, 1, -1), (Transfer(1, 0, 2), Transfer(3, 2, 1))),
        ((2, 2, -2, -2), (Transfer(2, 0, 2), Transfer(3, 1, 2))),
        ((-5, 3, 5, -3), (Transfer(0, 2, 5), Transfer(3, 1, 3))),
        # Three players among themselves, the fourth even.
        ((2, 0, -1, -1), (Transfer(2, 0, 1), Transfer(3, 0, 1))),
        # No group cancels out: three transfers, the largest debt first.
        ((3, 1, -2, -2), (Transfer(2, 0, 2), Transfer(3, 0, 1), Transfer(3, 1, 1))),
    ],
)
def test_fewest_transfers_settle_balances_in_as_few_payments_as_possible(units, transfers):
    assert fewest_transfers(units) == transfers


def test_fewest_transfers_refuses_balances_not_adding_up_to_zero():
    with pytest.raises(RulesError) as error:
        fewest_transfers([1, 0, 0, 0])
    assert str(error.value) == "balances [1, 0, 0, 0] do not add up to zero"


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [((0, 0, 6, 0), (-1, -1, 3, -1)), ((1, 0, 5, 0), (1, 1, -3, 1))],
)
def test_boulmous_payments_made_or_missed_are_paid_at_once(tricks, expected):
    game = score_game([Hand(Contract(2, 6, Trump.HEARTS), tricks=tricks)], rules=Rules(target=99))

    assert boulmous_payments(game.hands[0]) == expected


def test_boulmous_payments_other_contracts_and_void_deals_pay_nothing():
    game = score_game([Hand(Contract(2, 5, Trump.HEARTS), tricks=(0, 0, 6, 0)), Hand()])

    assert [boulmous_payments(hand) for hand in game.hands] == [(0, 0, 0, 0), (0, 0, 0, 0)]
