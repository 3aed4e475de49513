"""What the settlement page and its PDF show: standings, balances and payments."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from ...common.words import format_money, isolate, left_to_right, rules_sentence, say_time
from ...engine import SEATS, Ending, settle
from ..confirming import Settled
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


@dataclass(frozen=True)
class SettlementAgreed:
    """What the settlement page, its print and its PDF say of the players' agreement to it
    (issue 40.4), and what this phone may do about it."""

    text: str
    """``Agreed by Amina, Bilal, Chafik and Dalila at 22:41.``, or who has not yet."""
    stale: str
    """Whose agreement no longer counts, the hands having changed since; else empty."""
    complete: bool
    key: str
    """The settlement's content, which the agreeing form sends back."""
    seat: int | None = None
    """The seat this phone holds, if it has not agreed yet: it may agree here."""
    passed: Sequence[tuple[int, str]] = ()
    """On the scorer's phone: each seat still to agree, and its player, to agree with the
    seat's short code typed."""


def names_and(seats: Sequence[int], names: Sequence[str]) -> str:
    """``Amina``, ``Amina and Bilal``, ``Amina, Bilal and Chafik``: each name isolated,
    the list's comma the language's."""
    shown = [isolate(names[seat]) for seat in seats]
    if len(shown) < 2:
        return "".join(shown)
    some = gettext(", ").join(shown[:-1])
    return gettext("%(some)s and %(last)s") % {"some": some, "last": shown[-1]}


def settlement_agreed(
    state: GameState, settled: Settled | None, seat: int | None = None, can_score: bool = False
) -> SettlementAgreed | None:
    """The line for a game played for money once it is over (None otherwise): who agreed
    and when, or who has not yet; ``seat``: the seat this phone holds; ``can_score``: the
    scorer's phone, where the others agree with their seat's code."""
    if settled is None:
        return None
    names = state.names
    done = sorted(settled.agreed)  # in seat order, as the sheet lists the players
    waiting = settled.waiting_for
    if settled.by_itself is not None:
        text = gettext("Agreed by itself at %(time)s: the time to agree ran out.") % {
            "time": say_time(settled.by_itself)
        }
    elif settled.night_end is not None and waiting == () and len(done) < SEATS:
        text = gettext("Agreed by itself at the night’s end, at %(time)s.") % {
            "time": say_time(settled.night_end.at)
        }
    elif not waiting:
        at = settled.at
        assert at is not None
        text = gettext("Agreed by %(names)s at %(time)s.") % {
            "names": names_and(done, names),
            "time": say_time(at),
        }
    elif done:
        text = gettext("Agreed by %(agreed)s; not yet agreed by %(waiting)s.") % {
            "agreed": names_and(done, names),
            "waiting": names_and(waiting, names),
        }
    else:
        text = gettext("Not yet agreed by %(names)s.") % {"names": names_and(waiting, names)}
    stale = ""
    if settled.stale:
        stale = ngettext(
            "The hands changed after %(names)s agreed: that agreement no longer counts.",
            "The hands changed after %(names)s agreed: their agreements no longer count.",
            len(settled.stale),
        ) % {"names": names_and(settled.stale, names)}
    return SettlementAgreed(
        text=text,
        stale=stale,
        complete=settled.complete,
        key=settled.key,
        seat=seat if seat is not None and seat in waiting else None,
        passed=[(one, names[one]) for one in waiting] if can_score else (),
    )
