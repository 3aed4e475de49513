"""An event's money (issue 41, item 5): the pool (its entry fee times its entries) and each
place's prize, a share of the pool rounded down to the currency's unit, or a fixed amount
(docs/events.md, "Entry fee and prizes"). The places are the final ones: the final's four
by its standing once its game is won, then the consolation final's, then the others in the
ranking's order; only those who may take the title (the attendance) take a prize. Fees and
prizes are kept apart from the games' stakes and from the league: nothing here reads or
writes a stake, a balance or a league point."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ...common.words import format_money
from ...engine.events import FinalLine, RankingLine, final_standing, places_after_finals
from ...engine.money import prize_amounts
from ..models import Event, EventFinal
from .facts import CARRY, EventFacts


@dataclass(frozen=True)
class PrizePlace:
    place: int
    member_id: int
    line: RankingLine
    amount: Decimal | None
    """None: no prize at this place."""


@dataclass(frozen=True)
class Prizes:
    currency: str
    fee: Decimal
    pool: Decimal
    amounts: Sequence[Decimal]
    """By place, from the first."""
    places: Sequence[PrizePlace]
    """Every entrant who may take the title, in his final place."""
    final_played: bool
    """Whether the final (if the event has one) decided the places: else they are the
    ranking's, for the time being."""
    finals: Sequence[tuple[str, Sequence[FinalLine]]]
    """Each final won (its kind and standing), the final first."""

    def said(self, amount: Decimal | None) -> str:
        """An amount as the page's language writes money (empty for none)."""
        return "" if amount is None else format_money(amount, self.currency)

    @property
    def by_member(self) -> Mapping[int, Decimal]:
        return {one.member_id: one.amount for one in self.places if one.amount is not None}

    @property
    def given(self) -> Decimal:
        return sum((one.amount for one in self.places if one.amount is not None), Decimal(0))


def _finals(
    facts: EventFacts, lines: Sequence[RankingLine]
) -> list[tuple[str, tuple[FinalLine, ...]]]:
    won = []
    order: dict[str, int] = {EventFinal.Kind.FINAL: 0, EventFinal.Kind.CONSOLATION: 1}
    for final in sorted(facts.finals, key=lambda one: order.get(one.kind, 2)):
        played = facts.final_played(final)
        if played is None:
            continue
        won.append(
            (final.kind, final_standing(lines, played, CARRY[facts.event.carry_over], facts.rules))
        )
    return won


def event_prizes(facts: EventFacts, lines: Sequence[RankingLine]) -> Prizes:
    """The event's money over ``lines`` (its ranking as this viewer sees it)."""
    event = facts.event
    pool, amounts = prize_amounts(
        Decimal(event.entry_fee),
        len(facts.entries),
        event.prizes,
        event.fee_currency,
        shares=event.prize_kind == Event.PrizeKind.SHARE,
    )
    finals = _finals(facts, lines)
    eligible = [line for line in lines if line.eligible]
    by_id = {line.entrant: line for line in eligible}
    standings = [standing for _, standing in finals]
    order = [one for one in places_after_finals(eligible, *standings) if one in by_id]
    places = [
        PrizePlace(
            place, member, by_id[member], amounts[place - 1] if place <= len(amounts) else None
        )
        for place, member in enumerate(order, start=1)
    ]
    played = event.final == Event.Final.NONE or any(
        kind == EventFinal.Kind.FINAL for kind, _ in finals
    )
    return Prizes(
        currency=event.fee_currency,
        fee=Decimal(event.entry_fee),
        pool=pool,
        amounts=amounts,
        places=places,
        final_played=played,
        finals=finals,
    )
