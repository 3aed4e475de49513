"""What the game page shows, laid out from the engine's result: no rules here."""

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ...common.words import (
    contract_words,
    describe_hand,
    format_money,
    is_red,
    isolate,
    trump_symbol,
)
from ...engine import (
    SEATS,
    Ending,
    GameResult,
    Hand,
    HandResult,
    Settlement,
    boulmous_payments,
    format_cards,
    settle,
)
from ...engine.names import tellable_names
from ..hooks import zone_of
from ..models import Change, Decision, Game
from ..state import GameState

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def version_of(changed_at: datetime) -> str:
    """The version of a game the pages show and the live view compares: its summary's
    ``changed_at``, which every change of the game writes, as microseconds since 1970."""
    return str((changed_at - EPOCH) // timedelta(microseconds=1))


def game_clock(game: Game) -> AbstractContextManager[object]:
    """The game's times drawn in its zone: the one its context gives (a club game's club's,
    hooks.time_zones), else the phone's, already current (scoring/common/clock.py)."""
    zone = zone_of(game)
    return timezone.override(zone) if zone else nullcontext()


SEAT_COLOURS = ("#1f6feb", "#c2410c", "#15803d", "#7e22ce")
# Dashes tell the lines apart in black and white, on paper.
SEAT_DASHES = ("", "6 3", "2 3", "8 3 2 3")


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
    label: str = ""
    """The name as the phone's narrow places show it, told from the others' (a key)."""


@dataclass(frozen=True)
class Cell:
    tricks: int
    points: int
    total: int


@dataclass(frozen=True)
class Event:
    at: datetime
    text: str
    who: str
    """The account, or the phone, that made the change."""


@dataclass(frozen=True)
class Row:
    number: int
    dealer: str
    void: bool
    taker: str
    bid: int | None
    trump: str
    red: bool
    boite: bool
    boulmous: bool
    cells: Sequence[Cell]
    paid: str
    """What a boulmous paid at once, in words; empty for other hands."""
    by_card: bool
    revokes: int


@dataclass(frozen=True)
class Chart:
    label_x: int
    label_y: float
    width: int
    height: int
    target: int
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
    playing: bool
    abandoned: bool
    undo_number: int | None
    """The last hand, which can be undone."""
    redo_number: int | None
    """The hand just undone, which can come back while nothing else has changed."""
    last: str
    """The last hand in one line, ``Hand 5: Chafik 4♥ made``; empty before the first."""
    tie: str
    """Why play goes on at or above the target with a tie at the top; empty otherwise."""
    money: Sequence[tuple[str, str]]
    """Each player's money so far, formatted, for a game with a stake."""
    history: Sequence[Event]
    dealer_label: str | None = None
    speaker_label: str | None = None
    """The dealer and the first to speak as the hand's header shows them: their labels."""
    last_shown: str = ""
    """``last`` with the players' labels, as the line under the totals shows it."""


def score_sheet(state: GameState, changes: Sequence[Change] = ()) -> Sheet:
    """The game page's content; ``changes`` are the newest first, for the history."""
    result, names = state.result, state.names
    labels = tellable_names(names)
    chart, lines = _chart(result)
    leading, boites = result.leading, result.boites
    players = [
        PlayerLine(
            seat=seat,
            name=names[seat],
            total=result.totals[seat],
            leading=seat in leading,
            boites=boites[seat],
            colour=SEAT_COLOURS[seat],
            dash=SEAT_DASHES[seat],
            points=lines[seat],
            label=labels[seat],
        )
        for seat in range(SEATS)
    ]
    settlement = settle(result)
    rows = [_row(hand, names, settlement) for hand in result.hands]
    ending = state.ending
    return Sheet(
        players=players,
        rows=rows,
        chart=chart,
        next_number=state.next_number,
        dealer=None if result.next_dealer is None else names[result.next_dealer],
        speaker=None if result.next_speaker is None else names[result.next_speaker],
        winner=None if result.winner is None else names[result.winner],
        playing=ending is Ending.PLAYING,
        abandoned=ending is Ending.ABANDONED,
        undo_number=len(result.hands) or None,
        redo_number=_redo_number(state, changes),
        last=_last_hand(result.hands[-1], names) if result.hands else "",
        tie=_tie(result, names),
        money=[
            (name, format_money(balance, settlement.currency))
            for name, balance in zip(names, settlement.balances, strict=True)
        ]
        if settlement.stake
        else [],
        history=[_event(change, names) for change in changes],
        dealer_label=None if result.next_dealer is None else labels[result.next_dealer],
        speaker_label=None if result.next_speaker is None else labels[result.next_speaker],
        last_shown=_last_hand(result.hands[-1], labels) if result.hands else "",
    )


SEAT_CHANGES = frozenset({Change.Action.SEATED, Change.Action.UNSEATED})
"""Changes of who holds a seat, not of the hands: an undo stays redoable past them."""
CONFIRMATIONS = frozenset(
    {
        Change.Action.CONFIRMED,
        Change.Action.SIGNED,
        Change.Action.NIGHT_CONFIRMED,
        Change.Action.DISPUTED,
        Change.Action.DECIDED,
        Change.Action.ACCEPTED,
        Change.Action.AGREED,
    }
)
"""Changes of who agrees, not of the hands: an undo stays redoable past them too."""
PROPOSALS = frozenset({Change.Action.PROPOSED})
"""A correction proposed leaves the hands as they are: an undo stays redoable past it."""


def _redo_number(state: GameState, changes: Sequence[Change]) -> int | None:
    latest = next(
        (
            change
            for change in changes
            if change.action not in SEAT_CHANGES
            and change.action not in CONFIRMATIONS
            and change.action not in PROPOSALS
        ),
        None,
    )
    if latest is None or latest.action != Change.Action.UNDONE or state.ending.over:
        return None
    return latest.hand_number if latest.hand_number == state.next_number else None


def _last_hand(hand: HandResult, names: Sequence[str]) -> str:
    """``Hand 5: Chafik 4♥ made``, ``Hand 6: Amina 5♠ missed``, ``Hand 7: all passed``."""
    contract, score = hand.hand.contract, hand.score
    if contract is None or score is None:
        what = gettext("all passed")
    elif score.made:
        what = gettext("%(contract)s made") % {"contract": contract_words(contract, names)}
    else:
        what = gettext("%(contract)s missed") % {"contract": contract_words(contract, names)}
    return gettext("Hand %(number)s: %(what)s") % {"number": hand.number, "what": what}


def _tie(result: GameResult, names: Sequence[str]) -> str:
    tied = [isolate(names[seat]) for seat in result.tied_at_top]
    if not tied:
        return ""
    return gettext("%(names)s are tied at %(total)s: play on until one is alone at the top.") % {
        "names": _and(tied),
        "total": result.totals[result.tied_at_top[0]],
    }


def _and(names: Sequence[str]) -> str:
    """``Amina and Dalila``, ``Amina, Bilal and Dalila``."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _event(change: Change, names: Sequence[str]) -> Event:
    label = str(Change.Action(change.action).label)
    if change.action in CONFIRMATIONS:
        return Event(change.at, _confirmation_label(change, label, names), _who(change))
    if change.hand_number is not None:
        parts = [describe_hand(data, names) for data in (change.before, change.after) if data]
        if len(parts) == 2:
            # The arrow points the way the language reads: ← in Arabic.
            hand = gettext("%(before)s → %(after)s") % {
                "before": isolate(parts[0]),
                "after": isolate(parts[1]),
            }
        else:
            hand = "".join(parts)
        label = gettext("%(action)s, hand %(number)s: %(hand)s") % {
            "action": label,
            "number": change.hand_number,
            "hand": hand,
        }
    seat = change.after.get("seat") if isinstance(change.after, dict) else None
    if change.action in SEAT_CHANGES and isinstance(seat, int) and 0 <= seat < len(names):
        label = gettext("%(action)s: %(name)s") % {"action": label, "name": names[seat]}
    return Event(change.at, label, _who(change))


def _confirmation_label(change: Change, label: str, names: Sequence[str]) -> str:
    """``hand confirmed, hand 3: Bilal``, ``result signed: Chafik``, ``confirmed by itself
    at the night's end: hands 3, 4``."""
    after = change.after if isinstance(change.after, dict) else {}
    seat = after.get("seat")
    reason = str(after.get("reason", ""))
    if change.action == Change.Action.DECIDED:
        outcome = str(after.get("outcome", ""))
        said = Decision.Outcome(outcome).label if outcome in Decision.Outcome.values else ""
        return gettext("%(action)s, hand %(number)s: %(outcome)s — %(reason)s") % {
            "action": label,
            "number": change.hand_number,
            "outcome": said,
            "reason": reason,
        }
    if change.action == Change.Action.AGREED:
        return _agreed_label(after, seat, names)
    if change.action == Change.Action.DISPUTED and isinstance(seat, int) and seat < len(names):
        return gettext("%(action)s, hand %(number)s: %(name)s — %(reason)s") % {
            "action": label,
            "number": change.hand_number,
            "name": names[seat],
            "reason": reason,
        }
    if isinstance(seat, int) and 0 <= seat < len(names):
        if change.hand_number is not None:
            return gettext("%(action)s, hand %(number)s: %(name)s") % {
                "action": label,
                "number": change.hand_number,
                "name": names[seat],
            }
        return gettext("%(action)s: %(name)s") % {"action": label, "name": names[seat]}
    hands = after.get("hands")
    if isinstance(hands, list) and hands:
        numbers = ", ".join(str(number) for number in hands)
        return gettext("%(action)s: hands %(numbers)s") % {"action": label, "numbers": numbers}
    return label


PHONE_WORDS: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "seat": (
        lambda: gettext("%(who)s, the seat’s own phone (its code)"),
        lambda: gettext("the seat’s own phone (its code)"),
    ),
    "account": (
        lambda: gettext("%(who)s, the seat’s player signed in"),
        lambda: gettext("the seat’s player signed in"),
    ),
    "scorer": (
        lambda: gettext("%(who)s, the scorer’s phone"),
        lambda: gettext("the scorer’s phone"),
    ),
    "referee": (
        lambda: gettext("%(who)s, the referee"),
        lambda: gettext("the referee"),
    ),
}
"""Which phone a confirmation, a signature, a dispute or a decision came from, as its
history line says it (its ``after``'s ``phone``: scoring/table/access.py), with the account
or the phone's name where there is one, and without."""


def phone_said(phone: str) -> str:
    """Which phone, as a history says it (``seat``, ``account``, ``scorer``, ``referee``);
    empty for another word."""
    return PHONE_WORDS[phone][1]() if phone in PHONE_WORDS else ""


def _agreed_label(after: dict[str, object], seat: object, names: Sequence[str]) -> str:
    """``settlement agreed: Bilal (12 hands)``, on his phone or on the scorer's with his
    seat's code; ``settlement agreed by itself at the night's end``."""
    hands = after.get("hands")
    count = hands if isinstance(hands, int) else 0
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        return gettext("settlement agreed by itself at the night’s end")
    if after.get("passed"):
        words = ngettext(
            "settlement agreed: %(name)s, with his seat’s code on the scorer’s phone "
            "(%(count)s hand)",
            "settlement agreed: %(name)s, with his seat’s code on the scorer’s phone "
            "(%(count)s hands)",
            count,
        )
    else:
        words = ngettext(
            "settlement agreed: %(name)s, on his phone (%(count)s hand)",
            "settlement agreed: %(name)s, on his phone (%(count)s hands)",
            count,
        )
    return words % {"name": isolate(names[seat]), "count": count}


def _who(change: Change) -> str:
    """Who made the change: the account, else the phone's name; for a confirmation, a
    signature, a dispute or a decision, which phone too (the seat's own, by its code or
    through its player's account, the scorer's passed round, or the referee's)."""
    phone = change.after.get("phone") if isinstance(change.after, dict) else None
    if phone in PHONE_WORDS:
        named, unnamed = PHONE_WORDS[phone]
        who = _named(change)
        return named() % {"who": isolate(who)} if who else unnamed()
    return _named(change) or _unnamed(change)


def _named(change: Change) -> str:
    if change.by_user is not None:
        return change.by_user.get_username()
    return change.by_device


def _unnamed(change: Change) -> str:
    if change.action == Change.Action.AGREED:
        after = change.after if isinstance(change.after, dict) else {}
        if after.get("seat") is None:
            return gettext("the night’s end")
        if after.get("passed"):
            return gettext("the scorer’s phone")
        return gettext("a player’s phone")
    if change.action == Change.Action.IMPORTED:
        return gettext("the phone that imported it")
    if change.action in (
        Change.Action.SEATED,
        Change.Action.CONFIRMED,
        Change.Action.SIGNED,
        Change.Action.DISPUTED,
        Change.Action.ACCEPTED,
    ):
        return gettext("a player’s phone")
    if change.action == Change.Action.NIGHT_CONFIRMED:
        return gettext("the night’s end")
    return gettext("the phone that started the game")


def _row(hand: HandResult, names: Sequence[str], settlement: Settlement) -> Row:
    contract, score = hand.hand.contract, hand.score
    play = hand.hand.play
    return Row(
        number=hand.number,
        dealer=names[hand.dealer],
        void=contract is None,
        taker="" if contract is None else names[contract.taker],
        bid=None if contract is None else contract.bid,
        trump="" if contract is None else trump_symbol(contract.trump),
        red=contract is not None and is_red(contract.trump),
        boite=score is not None and score.boite,
        boulmous=contract is not None and contract.is_boulmous,
        cells=tuple(
            Cell(tricks, points, total)
            for tricks, points, total in zip(
                hand.hand.tricks or (0,) * SEATS, hand.points, hand.totals, strict=True
            )
        ),
        paid=_paid_at_once(hand, names, settlement),
        by_card=play is not None,
        revokes=0 if play is None else len(play.revokes),
    )


def _paid_at_once(hand: HandResult, names: Sequence[str], settlement: Settlement) -> str:
    payments = boulmous_payments(hand)
    if not any(payments) or hand.hand.contract is None:
        return ""
    taker = isolate(names[hand.hand.contract.taker])
    collects = payments[hand.hand.contract.taker] > 0
    if settlement.stake:
        amount = format_money(settlement.amount(1), settlement.currency)
        if collects:
            return gettext("%(name)s collects %(amount)s from each player") % {
                "name": taker,
                "amount": amount,
            }
        return gettext("%(name)s pays %(amount)s to each player") % {
            "name": taker,
            "amount": amount,
        }
    if collects:
        return gettext("%(name)s collects a stake from each player") % {"name": taker}
    return gettext("%(name)s pays a stake to each player") % {"name": taker}


def _chart(result: GameResult) -> tuple[Chart, list[str]]:
    """Running totals as polylines in a 320 by 160 box, hand 0 at the left."""
    width, height, pad = 320, 160, 8
    series = [(0,) * SEATS] + [hand.totals for hand in result.hands]
    target = result.rules.target
    top = max(target, *(max(totals) for totals in series))
    bottom = min(0, *(min(totals) for totals in series))
    step = (width - 2 * pad) / max(1, len(series) - 1)

    def y(value: int) -> float:
        return round(pad + (top - value) * (height - 2 * pad) / (top - bottom), 1)

    # Whole units, about a CSS pixel each on a phone: a long game's page stays light.
    lines = [
        " ".join(
            f"{round(pad + index * step)},{round(y(totals[seat]))}"
            for index, totals in enumerate(series)
        )
        for seat in range(SEATS)
    ]
    target_y = y(target)
    # The target's label sits above its line, or below it where the line runs along the top.
    label_y = target_y - 3 if target_y > 18 else target_y + 12
    chart = Chart(width - pad, label_y, width, height, target, target_y, y(0), top, bottom)
    return chart, lines


def replay_url(game: Game, number: int, hand: Hand) -> str | None:
    """The card-by-card page of a hand recorded card by card, to correct its play."""
    if hand.plays is None or hand.contract is None:
        return None
    contract = hand.contract
    query = {"taker": contract.taker, "bid": contract.bid, "trump": contract.trump.value}
    query["cards"] = format_cards([card for trick in hand.plays for card in trick])
    return reverse("play_hand", args=[game.public_id, number]) + "?" + urlencode(query)
