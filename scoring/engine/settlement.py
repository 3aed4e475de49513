"""The money: balances in stakes, and the fewest transfers that settle them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .auction import SEATS
from .errors import RulesError, gettext_noop
from .game import GameResult, HandResult
from .money import amount


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int
    payee: int
    units: int
    """How many stakes; always positive."""


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One player's balance in stakes, by what it comes from."""

    game: int
    """Collected as the winner (+3), or paid to him (-1)."""
    boulmous: int
    """Paid at once for every boulmous made or missed, his own or another's."""
    boites: int
    """His boîtes paid to the winner, or the others' collected by the winner."""

    @property
    def total(self) -> int:
        return self.game + self.boulmous + self.boites


@dataclass(frozen=True, slots=True)
class Settlement:
    stake: Decimal
    currency: str
    breakdown: tuple[Breakdown, ...]
    transfers: tuple[Transfer, ...]

    @property
    def units(self) -> tuple[int, ...]:
        return tuple(part.total for part in self.breakdown)

    @property
    def balances(self) -> tuple[Decimal, ...]:
        return tuple(amount(units, self.stake, self.currency) for units in self.units)

    def amount(self, units: int) -> Decimal:
        return amount(units, self.stake, self.currency)


def settle(game: GameResult) -> Settlement:
    """The seed's money rules, in stakes (:func:`breakdown_of`), and the fewest transfers
    that settle them."""
    breakdown = breakdown_of(game)
    units = [part.total for part in breakdown]
    return Settlement(game.rules.stake, game.rules.currency, breakdown, fewest_transfers(units))


def breakdown_of(game: GameResult) -> tuple[Breakdown, ...]:
    """Each player's balance in stakes, by the seed's money rules.

    A boulmous made: each other player pays the taker one stake at once; missed:
    the taker pays each other player one. The winner collects one stake from each
    player, and one more for each boîte a loser made. A game not won settles the
    boulmous payments alone.
    """
    boulmous = [0] * SEATS
    for hand in game.hands:
        for seat, paid in enumerate(boulmous_payments(hand)):
            boulmous[seat] += paid
    won = [0] * SEATS
    boites = [0] * SEATS
    if game.winner is not None:
        _collect(won, game.winner, 1)
        for seat, count in enumerate(game.boites):
            if seat != game.winner:
                boites[seat] -= count
                boites[game.winner] += count
    return tuple(
        Breakdown(game=won[seat], boulmous=boulmous[seat], boites=boites[seat])
        for seat in range(SEATS)
    )


def boulmous_payments(hand: HandResult) -> tuple[int, ...]:
    """What a hand pays at once, in stakes by seat: a boulmous made or missed; else nothing."""
    units = [0] * SEATS
    contract = hand.hand.contract
    if contract is not None and contract.is_boulmous and hand.score is not None:
        _collect(units, contract.taker, 1 if hand.score.made else -1)
    return tuple(units)


def _collect(units: list[int], seat: int, each: int) -> None:
    """``seat`` receives ``each`` stakes from every other player."""
    for other in range(SEATS):
        units[other] += each * ((SEATS - 1) if other == seat else -1)


def fewest_transfers(units: Sequence[int]) -> tuple[Transfer, ...]:
    """Transfers that settle ``units`` (adding up to zero), as few as possible.

    A group of players whose balances cancel out settles within itself in one
    transfer fewer than its size, so the fewest transfers come from splitting
    the players with a balance into as many such groups as possible.
    """
    if sum(units) != 0:
        raise RulesError(gettext_noop("balances {units} do not add up to zero"), units=list(units))
    owing = tuple(seat for seat, balance in enumerate(units) if balance)
    groups = max(_zero_sum_partitions(owing, units), key=len, default=())
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_settle_group(group, units))
    return tuple(transfers)


def _zero_sum_partitions(
    seats: tuple[int, ...], units: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every split of ``seats`` into groups whose balances add up to zero."""
    if not seats:
        yield ()
        return
    first, rest = seats[0], seats[1:]
    for mask in range(1 << len(rest)):
        group = (first, *(seat for bit, seat in enumerate(rest) if mask >> bit & 1))
        if sum(units[seat] for seat in group):
            continue
        remaining = tuple(seat for seat in rest if seat not in group)
        for partition in _zero_sum_partitions(remaining, units):
            yield (group, *partition)


def _settle_group(group: tuple[int, ...], units: Sequence[int]) -> Iterator[Transfer]:
    """The largest debtor pays the largest creditor until the group is settled.

    Each transfer clears at least one player, and the last clears two, so a group
    of n settles in n - 1 transfers.
    """
    left = {seat: units[seat] for seat in group}
    while any(left.values()):
        payer = min(left, key=lambda seat: (left[seat], seat))
        payee = max(left, key=lambda seat: (left[seat], -seat))
        paid = min(-left[payer], left[payee])
        left[payer] += paid
        left[payee] -= paid
        yield Transfer(payer, payee, paid)
