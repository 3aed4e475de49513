"""The fewest transfers that settle balances, found by a search: what the engine's
settlement of many players (tests/engine/test_settle_many.py) and a club night's money
(tests/clubs/test_night_money.py) are checked against."""

from collections.abc import Sequence
from functools import cache


@cache
def fewest_by_search(debts: tuple[int, ...]) -> int:
    if not debts:
        return 0
    first, rest = debts[0], debts[1:]
    return 1 + min(
        fewest_by_search(
            tuple(sorted(rest[:at] + ((first + other,) if first + other else ()) + rest[at + 1 :]))
        )
        for at, other in enumerate(rest)
        if (first < 0) != (other < 0)
    )


def fewest_possible(units: Sequence[int]) -> int:
    """The fewest transfers, by search: the first balance is cleared against each balance of
    the other sign in turn (some fewest settlement always clears it so)."""
    return fewest_by_search(tuple(sorted(balance for balance in units if balance)))
