"""What the game page shows, laid out from the engine's result: no rules here."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine import SEATS, GameResult, HandResult, Trump
from .models import Change
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
    rows = [_row(hand, names) for hand in result.hands]
    return Sheet(
        players=players,
        rows=rows,
        chart=chart,
        next_number=len(result.hands) + 1,
        dealer=None if result.next_dealer is None else names[result.next_dealer],
        speaker=None if result.next_speaker is None else names[result.next_speaker],
        winner=None if result.winner is None else names[result.winner],
        undo_number=len(result.hands) or None,
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


def _row(hand: HandResult, names: Sequence[str]) -> Row:
    contract = hand.hand.contract
    return Row(
        number=hand.number,
        dealer=names[hand.dealer],
        result=hand,
        taker="" if contract is None else names[contract.taker],
        bid=None if contract is None else contract.bid,
        trump="" if contract is None else TRUMP_SYMBOLS[contract.trump],
        red=contract is not None and contract.trump in (Trump.HEARTS, Trump.DIAMONDS),
        cells=[
            Cell(tricks, points, total)
            for tricks, points, total in zip(
                hand.hand.tricks or (0,) * SEATS, hand.points, hand.totals, strict=True
            )
        ],
    )


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
    winner: str | None
    created_at: datetime


def game_summaries(states: Sequence[GameState]) -> list[Summary]:
    return [
        Summary(
            pk=state.game.pk,
            scores=list(zip(state.names, state.result.totals, strict=True)),
            hands=len(state.hands),
            finished=state.result.finished,
            winner=None if state.result.winner is None else state.names[state.result.winner],
            created_at=state.game.created_at,
        )
        for state in states
    ]
