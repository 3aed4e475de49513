"""What the game page shows, laid out from the engine's result: no rules here."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .engine import (
    SEATS,
    Colour,
    GameResult,
    HandResult,
    Settlement,
    Trump,
    boulmous_payments,
    settle,
)
from .models import Change
from .money import format_money
from .services import GameState

SEAT_COLOURS = ("#1f6feb", "#c2410c", "#15803d", "#7e22ce")
# Dashes tell the lines apart in black and white, on paper.
SEAT_DASHES = ("", "6 3", "2 3", "8 3 2 3")
TRUMP_SYMBOLS: dict[Trump, Any] = {
    Trump.SPADES: "♠",
    Trump.HEARTS: "♥",
    Trump.DIAMONDS: "♦",
    Trump.CLUBS: "♣",
    Trump.NO_TRUMP: _("NT"),
}


@dataclass(frozen=True)
class PlayerLine:
    seat: int
    name: str
    total: int
    leading: bool
    boites: int
    colour: str
    dash: str
    points: str
    """The chart's polyline, ``x,y x,y ...``."""


@dataclass(frozen=True)
class Cell:
    tricks: int
    points: int
    total: int


@dataclass(frozen=True)
class Event:
    at: datetime
    text: str


@dataclass(frozen=True)
class Row:
    number: int
    dealer: str
    result: HandResult
    taker: str
    bid: int | None
    trump: Any
    red: bool
    cells: Sequence[Cell]
    paid: str
    """What a boulmous paid at once, in words; empty for other hands."""
    by_card: bool
    revokes: int


@dataclass(frozen=True)
class Chart:
    label_x: int
    width: int
    height: int
    target_y: float
    zero_y: float
    top: int
    bottom: int


@dataclass(frozen=True)
class Sheet:
    players: Sequence[PlayerLine]
    rows: Sequence[Row]
    chart: Chart
    next_number: int
    dealer: str | None
    speaker: str | None
    winner: str | None
    undo_number: int | None
    """The last hand, which can be undone."""
    abandoned: bool
    money: Sequence[tuple[str, str]]
    """Each player's money so far, formatted, for a game with a stake."""
    history: Sequence[Event]


def score_sheet(state: GameState, changes: Iterable[Change] = ()) -> Sheet:
    result, names = state.result, state.names
    chart, lines = _chart(result)
    leaders = result.leaders
    players = [
        PlayerLine(
            seat=seat,
            name=names[seat],
            total=result.totals[seat],
            leading=seat in leaders and any(result.totals),
            boites=result.boites[seat],
            colour=SEAT_COLOURS[seat],
            dash=SEAT_DASHES[seat],
            points=lines[seat],
        )
        for seat in range(SEATS)
    ]
    settlement = settle(result)
    rows = [_row(hand, names, settlement) for hand in result.hands]
    return Sheet(
        players=players,
        rows=rows,
        chart=chart,
        next_number=len(result.hands) + 1,
        dealer=None if result.next_dealer is None else names[result.next_dealer],
        speaker=None if result.next_speaker is None else names[result.next_speaker],
        winner=None if result.winner is None else names[result.winner],
        undo_number=len(result.hands) or None,
        abandoned=state.game.abandoned_at is not None and not result.finished,
        money=[
            (name, format_money(balance, settlement.currency))
            for name, balance in zip(names, settlement.balances, strict=True)
        ]
        if settlement.stake
        else [],
        history=[_event(change, names) for change in changes],
    )


def _event(change: Change, names: Sequence[str]) -> Event:
    label = str(change.get_action_display())
    if change.hand_number is None:
        return Event(change.at, label)
    parts = [describe_hand(data, names) for data in (change.before, change.after) if data]
    text = gettext("%(action)s, hand %(number)s: %(hand)s") % {
        "action": label,
        "number": change.hand_number,
        "hand": " → ".join(parts),
    }
    return Event(change.at, text)


def describe_hand(snapshot: dict[str, Any], names: Sequence[str]) -> str:
    """A hand's snapshot in a few words: ``Bilal 4♥, tricks 1-0-2-3``."""
    if snapshot.get("taker") is None:
        return gettext("all passed")
    return gettext("%(taker)s %(bid)s%(trump)s, tricks %(tricks)s") % {
        "taker": names[snapshot["taker"]],
        "bid": snapshot["bid"],
        "trump": TRUMP_SYMBOLS[Trump(snapshot["trump"])],
        "tricks": "-".join(str(count) for count in snapshot["tricks"]),
    }


def _row(hand: HandResult, names: Sequence[str], settlement: Settlement) -> Row:
    contract = hand.hand.contract
    return Row(
        number=hand.number,
        dealer=names[hand.dealer],
        result=hand,
        taker="" if contract is None else names[contract.taker],
        bid=None if contract is None else contract.bid,
        trump="" if contract is None else TRUMP_SYMBOLS[contract.trump],
        red=contract is not None
        and contract.trump.suit is not None
        and contract.trump.suit.colour is Colour.RED,
        cells=[
            Cell(tricks, points, total)
            for tricks, points, total in zip(
                hand.hand.tricks or (0,) * SEATS, hand.points, hand.totals, strict=True
            )
        ],
        paid=_paid_at_once(hand, names, settlement),
        by_card=hand.hand.play is not None,
        revokes=0 if hand.hand.play is None else len(hand.hand.play.revokes),
    )


def _paid_at_once(hand: HandResult, names: Sequence[str], settlement: Settlement) -> str:
    payments = boulmous_payments(hand)
    if not any(payments) or hand.hand.contract is None:
        return ""
    taker = names[hand.hand.contract.taker]
    if settlement.stake:
        amount = format_money(settlement.amount(1), settlement.currency)
        if payments[hand.hand.contract.taker] > 0:
            return gettext("%(name)s collects %(amount)s from each player") % {
                "name": taker,
                "amount": amount,
            }
        return gettext("%(name)s pays %(amount)s to each player") % {
            "name": taker,
            "amount": amount,
        }
    if payments[hand.hand.contract.taker] > 0:
        return gettext("%(name)s collects a stake from each player") % {"name": taker}
    return gettext("%(name)s pays a stake to each player") % {"name": taker}


def _chart(result: GameResult) -> tuple[Chart, list[str]]:
    """Running totals as polylines in a 320 by 160 box, hand 0 at the left."""
    width, height, pad = 320, 160, 8
    series = [(0,) * SEATS] + [hand.totals for hand in result.hands]
    top = max(result.rules.target, *(max(totals) for totals in series))
    bottom = min(0, *(min(totals) for totals in series))
    step = (width - 2 * pad) / max(1, len(series) - 1)

    def y(value: int) -> float:
        return round(pad + (top - value) * (height - 2 * pad) / (top - bottom), 1)

    lines = [
        " ".join(
            f"{round(pad + index * step, 1)},{y(totals[seat])}"
            for index, totals in enumerate(series)
        )
        for seat in range(SEATS)
    ]
    chart = Chart(width - pad, width, height, y(result.rules.target), y(0), top, bottom)
    return chart, lines


@dataclass(frozen=True)
class Summary:
    pk: int
    scores: Sequence[tuple[str, int]]
    hands: int
    finished: bool
    """Won, or abandoned."""
    abandoned: bool
    winner: str | None
    created_at: datetime


def game_summaries(states: Sequence[GameState]) -> list[Summary]:
    return [
        Summary(
            pk=state.game.pk,
            scores=list(zip(state.names, state.result.totals, strict=True)),
            hands=len(state.hands),
            finished=state.result.finished or state.game.abandoned_at is not None,
            abandoned=not state.result.finished and state.game.abandoned_at is not None,
            winner=None if state.result.winner is None else state.names[state.result.winner],
            created_at=state.game.created_at,
        )
        for state in states
    ]


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
        return ngettext("%(count)+d stake", "%(count)+d stakes", abs(units)) % {"count": units}

    order = sorted(range(SEATS), key=lambda seat: -result.totals[seat])
    standings = []
    for position, seat in enumerate(order):
        tied = position and result.totals[seat] == result.totals[order[position - 1]]
        part = settlement.breakdown[seat]
        standings.append(
            Standing(
                rank=standings[-1].rank if tied else position + 1,
                name=names[seat],
                total=result.totals[seat],
                boites=result.boites[seat],
                boulmous_made=result.boulmous_made[seat],
                boulmous_missed=result.boulmous_missed[seat],
                game=show(part.game),
                boulmous=show(part.boulmous),
                boites_paid=show(part.boites),
                balance=show(part.total),
                units=part.total,
            )
        )
    payments = []
    for transfer in settlement.transfers:
        payer, payee = names[transfer.payer], names[transfer.payee]
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
            "name": state.names[result.winner],
            "number": hands,
        }
    if state.game.abandoned_at is not None:
        return gettext(
            "The game was abandoned at hand %(number)s: only the boulmous payments count."
        ) % {"number": hands}
    return gettext(
        "The game is still going, after %(number)s hands: so far only the boulmous payments count."
    ) % {"number": hands}
