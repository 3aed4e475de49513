"""The fewest transfers for any number of players (a club night's money): exact where it is
affordable, at most one fewer than the balances beyond, checked against a search written
here."""

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import EXACT_LIMIT, Transfer, fewest_transfers, settles_exactly
from scoring.engine.draw import MAX_PLAYERS
from tests.engine.fewest import fewest_possible

PROPERTY = settings(max_examples=200, deadline=None)


def balances(*, most: int, size: int) -> st.SearchStrategy[list[int]]:
    """Balances adding up to zero, some of them zero; small values cancel out often."""

    def closed(first: list[int]) -> st.SearchStrategy[list[int]]:
        return st.permutations([*first, -sum(first)])

    return st.lists(st.integers(-size, size), max_size=most - 1).flatmap(closed)


def check(units: Sequence[int], transfers: Sequence[Transfer]) -> None:
    left = list(units)
    for transfer in transfers:
        assert transfer.units > 0
        assert units[transfer.payer] < 0 < units[transfer.payee]
        left[transfer.payer] += transfer.units
        left[transfer.payee] -= transfer.units
    assert left == [0] * len(units)
    owing = sum(1 for balance in units if balance)
    assert len(transfers) <= max(owing - 1, 0)


@PROPERTY
@given(st.one_of(balances(most=10, size=3), balances(most=10, size=40)))
def test_up_to_ten_players_settle_in_the_fewest_transfers(units):
    transfers = fewest_transfers(units)

    check(units, transfers)
    assert settles_exactly(units)
    assert len(transfers) == fewest_possible(units)


@PROPERTY
@given(
    st.one_of(
        balances(most=40, size=4),
        balances(most=MAX_PLAYERS, size=30),
        # A night's money in cents, at 0.50 a stake.
        balances(most=MAX_PLAYERS, size=12).map(lambda units: [50 * unit for unit in units]),
    )
)
def test_any_number_of_players_settle_in_fewer_transfers_than_balances(units):
    check(units, fewest_transfers(units))


@PROPERTY
@given(balances(most=EXACT_LIMIT, size=1000))
def test_the_exact_split_is_as_good_as_trying_every_pairing_first(units):
    # Large values rarely cancel out: all EXACT_LIMIT balances reach the split's search.
    transfers = fewest_transfers(units)

    check(units, transfers)
    assert settles_exactly(units)
    if len(units) <= 11:
        assert len(transfers) == fewest_possible(units)


def test_exact_opposites_pay_each_other():
    units = [5, -5, 3, 2, -3, -2]

    assert fewest_transfers(units) == (Transfer(1, 0, 5), Transfer(4, 2, 3), Transfer(5, 3, 2))


def test_opposites_with_equal_balances_pair_off_in_seat_order():
    units = [2, 2, -2, -2, 1, -1]

    assert fewest_transfers(units) == (Transfer(2, 0, 2), Transfer(3, 1, 2), Transfer(5, 4, 1))


def test_groups_that_cancel_out_settle_among_themselves():
    # {0, 1, 3} and {2, 4, 5} each add up to zero: four transfers, not five.
    units = [3, 4, -1, -7, -2, 3]

    assert fewest_transfers(units) == (
        Transfer(3, 1, 4),
        Transfer(3, 0, 3),
        Transfer(4, 5, 2),
        Transfer(2, 5, 1),
    )
    assert len(fewest_transfers(units)) == fewest_possible(units)


def test_beyond_the_exact_limit_the_largest_debtor_pays_the_largest_creditor():
    # 17 balances, none cancelling out with another: the greedy settlement.
    units = [*range(1, 17), -sum(range(1, 17))]
    assert not settles_exactly(units)

    transfers = fewest_transfers(units)

    check(units, transfers)
    assert transfers[:2] == (Transfer(16, 15, 16), Transfer(16, 14, 15))
    assert len(transfers) == 16


def test_beyond_the_exact_limit_debts_are_split_between_creditors():
    units = [10, 10, 10] + [-1] * 30
    assert not settles_exactly(units)

    transfers = fewest_transfers(units)

    check(units, transfers)
    assert len(transfers) == 30
    assert transfers[0] == Transfer(3, 0, 1)


def test_a_debtor_larger_than_every_creditor_pays_several():
    units = [-20] + [1] * 20
    assert not settles_exactly(units)

    assert fewest_transfers(units) == tuple(Transfer(0, seat, 1) for seat in range(1, 21))


@pytest.mark.parametrize(
    ("units", "exact"),
    [
        ([], True),
        ([*range(1, EXACT_LIMIT), -sum(range(1, EXACT_LIMIT))], True),
        ([*range(1, EXACT_LIMIT + 1), -sum(range(1, EXACT_LIMIT + 1))], False),
        # Opposites paired off first leave few enough for the exact split.
        ([*range(1, 40), *range(-1, -40, -1)], True),
    ],
)
def test_settles_exactly_says_where_the_fewest_transfers_are_given(units, exact):
    assert settles_exactly(units) is exact
