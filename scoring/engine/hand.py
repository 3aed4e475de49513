"""Scoring one hand: made or missed, points, boîte, boulmous."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .auction import SEATS, Contract
from .errors import RulesError, gettext_noop
from .rules import FailedTaker, Rules

TRICKS_PER_HAND = 6


def check_tricks(tricks: object) -> tuple[int, ...]:
    """Tricks won by seat: four integers from 0 to 6 adding up to 6."""
    # Asked three times a hand (read, kept, scored): four plain ints adding up to 6 pass at
    # once; anything else goes through the checks below, which say what is wrong.
    if isinstance(tricks, list | tuple) and len(tricks) == SEATS:
        first, second, third, fourth = tricks
        if (
            type(first) is type(second) is type(third) is type(fourth) is int
            and min(tricks) >= 0
            and first + second + third + fourth == TRICKS_PER_HAND
        ):
            return tricks if type(tricks) is tuple else tuple(tricks)
    if not isinstance(tricks, list | tuple) or len(tricks) != SEATS:
        raise RulesError(gettext_noop("tricks: four numbers expected, one per seat"))
    counted: list[int] = []
    for seat, count in enumerate(tricks):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RulesError(
                gettext_noop("tricks: seat {seat} has {count!r}, not a whole number from 0 to 6"),
                seat=seat,
                count=count,
            )
        counted.append(count)
    if sum(counted) != TRICKS_PER_HAND:
        raise RulesError(gettext_noop("tricks add up to {total}, not 6"), total=sum(counted))
    return tuple(counted)


def fill_tricks(counts: Sequence[int | None]) -> tuple[int | None, ...]:
    """The tricks by seat with the blanks filled where the six tricks decide them.

    Once the tricks given make six (or more: ``check_tricks`` then says by how much),
    every blank is 0; with one blank left, it is what the others leave of the six.
    Otherwise the blanks stay None.
    """
    given = sum(count for count in counts if count is not None)
    blanks = [seat for seat, count in enumerate(counts) if count is None]
    if given >= TRICKS_PER_HAND:
        return tuple(0 if count is None else count for count in counts)
    if len(blanks) == 1:
        return tuple(TRICKS_PER_HAND - given if count is None else count for count in counts)
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class HandScore:
    made: bool
    points: tuple[int, ...]

    @property
    def boite(self) -> bool:
        """A missed contract is a *boîte*."""
        return not self.made


def score_hand(contract: Contract, tricks: Sequence[int], rules: Rules) -> HandScore:
    """Made: everyone scores his tricks. Missed: the others score theirs, the taker loses
    (what he keeps of his tricks is ``rules.failed_taker``); a boulmous made scores twice
    its tricks where ``rules.boulmous_doubled``."""
    tricks = check_tricks(tricks)
    taken = tricks[contract.taker]
    made = taken >= contract.bid
    points = list(tricks)
    if not made:
        kept = taken if rules.failed_taker is FailedTaker.TRICKS_MINUS_BID else 0
        points[contract.taker] = kept - contract.bid
    elif contract.is_boulmous and rules.boulmous_doubled:
        points[contract.taker] = 2 * taken  # twice his six tricks: 12
    return HandScore(made=made, points=tuple(points))
