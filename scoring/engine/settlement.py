"""The money: balances in stakes, and the fewest transfers that settle them."""

from __future__ import annotations

import heapq
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


def breakdown_of(game: GameResult, boites: Sequence[int] | None = None) -> tuple[Breakdown, ...]:
    """Each player's balance in stakes, by the seed's money rules.

    A boulmous made: each other player pays the taker one stake at once; missed:
    the taker pays each other player one. The winner collects one stake from each
    player, and one more for each boîte a loser made. A game not won settles the
    boulmous payments alone. ``boites`` are ``game.boites``, when the caller has them.
    """
    # Most hands pay nothing at once: only the others are added up, seat by seat.
    paying = [units for units in map(boulmous_payments, game.hands) if units is not _NOTHING]
    boulmous = [sum(seat) for seat in zip(*paying, strict=True)] if paying else [0] * SEATS
    won = [0] * SEATS
    paid = [0] * SEATS
    if game.winner is not None:
        _collect(won, game.winner, 1)
        for seat, count in enumerate(game.boites if boites is None else boites):
            if seat != game.winner:
                paid[seat] -= count
                paid[game.winner] += count
    return tuple(
        Breakdown(game=won[seat], boulmous=boulmous[seat], boites=paid[seat])
        for seat in range(SEATS)
    )


def boulmous_payments(hand: HandResult) -> tuple[int, ...]:
    """What a hand pays at once, in stakes by seat: a boulmous made or missed; else nothing."""
    contract = hand.hand.contract
    if contract is None or not contract.is_boulmous or hand.score is None:
        return _NOTHING  # most hands
    units = [0] * SEATS
    _collect(units, contract.taker, 1 if hand.score.made else -1)
    return tuple(units)


_NOTHING = (0,) * SEATS


def _collect(units: list[int], seat: int, each: int) -> None:
    """``seat`` receives ``each`` stakes from every other player."""
    for other in range(SEATS):
        units[other] += each * ((SEATS - 1) if other == seat else -1)


EXACT_LIMIT = 16
"""Up to this many non-zero balances (once exact opposites are paired off), the transfers
are the fewest possible; beyond it, at most one fewer than the non-zero balances."""


def fewest_transfers(units: Sequence[int]) -> tuple[Transfer, ...]:
    """Transfers that settle ``units`` (integers adding up to zero: stakes, or a night's
    money in the currency's smallest unit), as few as possible where that is affordable.

    A group of players whose balances cancel out settles within itself in one transfer
    fewer than its size, so the fewest transfers come from splitting the players with a
    balance into as many such groups as possible. Up to four (a game's seats), every split
    is tried (:func:`_zero_sum_partitions`), as a game's settlement always has been. Beyond
    that, exact opposites are paired off first (some best split always has such a pair as a
    group of its own), then the rest is split exactly by :func:`_most_groups` if no more
    than :data:`EXACT_LIMIT` are left, and otherwise settled by the largest debtor paying the
    largest creditor (:func:`_settle_greedily`), which is not always the fewest but never
    more than one fewer than the non-zero balances. Each transfer has a debtor pay a
    creditor: nobody both pays and is paid. The time is bounded whatever the number of
    players: the exact split is at most ``2**EXACT_LIMIT`` steps of a few operations.
    """
    if sum(units) != 0:
        raise RulesError(gettext_noop("balances {units} do not add up to zero"), units=list(units))
    owing = tuple(seat for seat, balance in enumerate(units) if balance)
    if len(owing) <= SEATS:
        groups = max(_zero_sum_partitions(owing, units), key=len, default=())
        return tuple(transfer for group in groups for transfer in _settle_group(group, units))
    paired, rest = _opposites(owing, units)
    transfers = [Transfer(payer, payee, units[payee]) for payer, payee in paired]
    if len(rest) <= EXACT_LIMIT:
        for group in _most_groups(rest, units):
            transfers.extend(_settle_group(group, units))
    else:
        transfers.extend(_settle_greedily(rest, units))
    return tuple(transfers)


def settles_exactly(units: Sequence[int]) -> bool:
    """Whether :func:`fewest_transfers` gives the fewest transfers possible for ``units``:
    always, unless more than :data:`EXACT_LIMIT` balances are left once exact opposites are
    paired off."""
    owing = tuple(seat for seat, balance in enumerate(units) if balance)
    return len(_opposites(owing, units)[1]) <= EXACT_LIMIT


def _opposites(
    seats: tuple[int, ...], units: Sequence[int]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """Debtors paired with creditors owed exactly what they owe, as (payer, payee), in the
    order of the payers' seats, each with the first such creditor not yet paired; and the
    seats left."""
    creditors: dict[int, list[int]] = {}
    for seat in seats:
        if units[seat] > 0:
            creditors.setdefault(units[seat], []).append(seat)
    for lowest_last in creditors.values():
        lowest_last.reverse()  # pop() then gives the lowest seat first
    pairs: list[tuple[int, int]] = []
    for seat in seats:
        waiting = creditors.get(-units[seat])
        if waiting:
            pairs.append((seat, waiting.pop()))
    paired = {seat for pair in pairs for seat in pair}
    return pairs, tuple(seat for seat in seats if seat not in paired)


def _most_groups(seats: tuple[int, ...], units: Sequence[int]) -> list[tuple[int, ...]]:
    """The split of ``seats`` into the most groups whose balances cancel out, by dynamic
    programming over the subsets of ``seats``.

    ``best[mask]`` is the most disjoint groups adding up to zero that ``mask`` holds. Taking
    a seat out of ``mask`` loses at most one of them, and keeps them all where some seat is
    in none, so ``best[mask]`` is the best of ``mask`` less one seat, plus one where
    ``mask`` itself adds up to zero. Then any seat will do (the groups of a mask adding up
    to zero can cover it, and taking a seat out breaks one); otherwise the best less one
    seat is at most one more than without its lowest seat, and the search stops there.
    ``2**len(seats)`` subsets, each looked at from at most each of its seats.
    """
    values = [units[seat] for seat in seats]
    size = 1 << len(seats)
    total = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        most = best[mask ^ low]
        if total[mask] == 0:
            best[mask] = most + 1
            continue
        rest = mask ^ low
        while rest:
            low = rest & -rest
            if best[mask ^ low] > most:
                most += 1
                break
            rest ^= low
        best[mask] = most
    # Back from the whole: the masks adding up to zero along the way cut it into the groups.
    groups: list[tuple[int, ...]] = []
    mask, cut = size - 1, size - 1
    while mask:
        wanted = best[mask] - (total[mask] == 0)
        rest = mask
        while best[mask ^ (rest & -rest)] != wanted:  # some seat of mask gives it
            rest &= rest - 1
        mask ^= rest & -rest
        if total[mask] == 0:
            groups.append(_seats_of(cut ^ mask, seats))
            cut = mask
    return groups


def _seats_of(mask: int, seats: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(seat for bit, seat in enumerate(seats) if mask >> bit & 1)


def _settle_greedily(seats: tuple[int, ...], units: Sequence[int]) -> Iterator[Transfer]:
    """The largest debtor pays the largest creditor (the lowest seat first on a tie) until
    everyone is settled, with two heaps: each transfer clears at least one of the two and
    the last clears both, so n balances settle in at most n - 1 transfers, in
    O(n log n) steps."""
    debtors = [(units[seat], seat) for seat in seats if units[seat] < 0]
    creditors = [(-units[seat], seat) for seat in seats if units[seat] > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    while debtors:
        owed, payer = heapq.heappop(debtors)
        due, payee = heapq.heappop(creditors)
        paid = min(-owed, -due)
        yield Transfer(payer, payee, paid)
        if owed + paid:
            heapq.heappush(debtors, (owed + paid, payer))
        if due + paid:
            heapq.heappush(creditors, (due + paid, payee))


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
