"""What the settlement page and its PDF show: standings, balances and payments."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from ...common.words import format_money, isolate, left_to_right, rules_sentence
from ...engine import SEATS, Ending, settle
from ..state import GameState


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    total: int
    boites: int
    boulmous_made: int
    boulmous_missed: int
    game: str
    boulmous: str
    boites_paid: str
    balance: str
    units: int


@dataclass(frozen=True)
class SettleUp:
    status: str
    rules: str
    """The one sentence that says the game's rules (:func:`~...common.words.rules_sentence`)."""
    has_money: bool
    stake: str
    standings: Sequence[Standing]
    payments: Sequence[str]
    total_balance: str


def settle_up(state: GameState) -> SettleUp:
    """The end of the game in words and figures, from the engine's settlement."""
    result, names = state.result, state.names
    settlement = settle(result)
    has_money = bool(settlement.stake)

    def show(units: int) -> str:
        if has_money:
            return format_money(settlement.amount(units), settlement.currency)
        return ngettext("%(count)s stake", "%(count)s stakes", abs(units)) % {
            "count": left_to_right(f"{units:+d}")
        }

    ranks, counts = result.ranks, result.taker_counts()
    standings = []
    for seat in sorted(range(SEATS), key=lambda seat: ranks[seat]):
        part = settlement.breakdown[seat]
        standings.append(
            Standing(
                rank=ranks[seat],
                name=names[seat],
                total=result.totals[seat],
                boites=counts.boites[seat],
                boulmous_made=counts.boulmous_made[seat],
                boulmous_missed=counts.boulmous_missed[seat],
                game=show(part.game),
                boulmous=show(part.boulmous),
                boites_paid=show(part.boites),
                balance=show(part.total),
                units=part.total,
            )
        )
    payments = []
    for transfer in settlement.transfers:
        payer, payee = isolate(names[transfer.payer]), isolate(names[transfer.payee])
        if has_money:
            amount = format_money(settlement.amount(transfer.units), settlement.currency)
            text = gettext("%(payer)s pays %(payee)s %(amount)s") % {
                "payer": payer,
                "payee": payee,
                "amount": amount,
            }
        else:
            text = ngettext(
                "%(payer)s owes %(payee)s %(count)s stake",
                "%(payer)s owes %(payee)s %(count)s stakes",
                transfer.units,
            ) % {"payer": payer, "payee": payee, "count": transfer.units}
        payments.append(text)
    return SettleUp(
        status=_status(state),
        rules=rules_sentence(result.rules),
        has_money=has_money,
        stake=show(1) if has_money else "",
        standings=standings,
        payments=payments,
        total_balance=show(sum(part.total for part in settlement.breakdown)),
    )


def _status(state: GameState) -> str:
    result, hands = state.result, len(state.hands)
    if result.winner is not None:
        return gettext("%(name)s won at hand %(number)s.") % {
            "name": isolate(state.names[result.winner]),
            "number": hands,
        }
    if state.ending is Ending.ABANDONED:
        return gettext(
            "The game was abandoned at hand %(number)s: only the boulmous payments count."
        ) % {"number": hands}
    return gettext(
        "The game is still going, after %(number)s hands: so far only the boulmous payments count."
    ) % {"number": hands}
