"""What the game page says of confirmation (issue 40.2): the hands waiting and for whom,
the result's signatures, and the lines the history gains from time (a hand confirmed by
itself is not written: it follows from the minutes, scoring/engine/confirmation.py)."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from ...common.words import describe_hand
from ...engine import Confirmation as Mode
from ...engine import dealer_of
from ...engine.confirmation import may_confirm
from ..confirming import Agreement
from ..models import Hand as HandRow
from ..state import GameState, engine_hand, snapshot
from .game import Event
from .settlement import settlement_agreed


@dataclass(frozen=True)
class WaitingHand:
    """A hand waiting for confirmation, as the page says it."""

    number: int
    text: SafeString
    version: int
    may_confirm: bool
    """Whether this phone's seat may confirm it (a button)."""
    may_dispute: bool = False
    """Whether this phone's seat may dispute it (a reason and a button)."""


@dataclass(frozen=True)
class DisputeLine:
    """A dispute as every phone shows it, and the referee's decision once given."""

    number: int
    text: SafeString
    decision: SafeString | None = None
    open: bool = True


@dataclass(frozen=True)
class ProposalLine:
    """A correction of a confirmed hand that waits for a player of another seat."""

    number: int
    text: SafeString
    may_confirm: bool
    """Whether this phone's seat may confirm it (a button)."""


@dataclass(frozen=True)
class Agreed:
    """The page's confirmation part."""

    waiting: Sequence[WaitingHand]
    signed: SafeString | None = None
    """Under ``whole_game``, once the game is over: who signed, who has not."""
    may_sign: bool = False
    final: bool = False
    disputes: Sequence[DisputeLine] = ()
    may_dispute: bool = False
    """Under ``whole_game``, before the result is signed by all: whether this phone's seat
    may dispute a hand (one form, its number typed)."""
    settled: str = ""
    """For a game played for money once it is over: who agreed to its settlement, or who
    has not yet (issue 40.4)."""
    proposals: Sequence[ProposalLine] = ()


def _names(seats: Sequence[int], names: Sequence[str], joined: str) -> SafeString:
    """The names of ``seats``, each isolated from the words round it (<bdi>), joined with
    commas and ``joined`` (``%(some)s or %(last)s``) before the last."""
    shown = [format_html("<bdi>{}</bdi>", names[seat]) for seat in seats]
    if len(shown) < 2:
        return SafeString("".join(shown))
    some = SafeString(gettext(", ").join(shown[:-1]))  # Arabic: "، "
    return format_html(joined, some=some, last=shown[-1])


def _or(seats: Sequence[int], names: Sequence[str]) -> SafeString:
    joined = gettext("%(some)s or %(last)s").replace("%(some)s", "{some}")
    return _names(seats, names, joined.replace("%(last)s", "{last}"))


def _and(seats: Sequence[int], names: Sequence[str]) -> SafeString:
    joined = gettext("%(some)s and %(last)s").replace("%(some)s", "{some}")
    return _names(seats, names, joined.replace("%(last)s", "{last}"))


def _words(text: str, **values: SafeString | int) -> SafeString:
    """A translated sentence with ``%(name)s`` holes filled with safe HTML."""
    for name in values:
        text = text.replace(f"%({name})s", "{" + name + "}")
    return format_html(text, **values)


def agreed(state: GameState, agreement: Agreement, seat: int | None) -> Agreed | None:
    """The page's confirmation part for a phone holding ``seat`` (None: none, or a scorer);
    None for a game played without confirmation."""
    if agreement.mode is Mode.OFF:
        return None
    names = state.names
    waiting = []
    for hand in agreement.waiting:
        text = _words(
            gettext("Hand %(number)s waits for %(names)s"),
            number=hand.number,
            names=_or(hand.waiting_for, names),
        )
        row = state.hands[hand.number - 1]
        allowed = seat is not None and seat in hand.waiting_for
        waiting.append(WaitingHand(hand.number, text, row.version, allowed, seat is not None))
    signed_text, may_sign = None, False
    signed = agreement.signed
    if agreement.mode is Mode.WHOLE_GAME and state.ending.over and signed is not None:
        done = sorted(signed.signed)
        if signed.by_itself is not None:
            signed_text = SafeString(gettext("The result was signed by itself: time ran out."))
        elif not signed.waiting_for:
            signed_text = _words(gettext("Signed by %(names)s."), names=_and(done, names))
        elif done:
            signed_text = _words(
                gettext("Signed by %(signed)s; waiting for %(waiting)s."),
                signed=_and(done, names),
                waiting=_and(signed.waiting_for, names),
            )
        else:
            signed_text = _words(
                gettext("The result waits for the signatures of %(waiting)s."),
                waiting=_and(signed.waiting_for, names),
            )
        may_sign = seat is not None and seat in signed.waiting_for
    whole = agreement.mode is Mode.WHOLE_GAME and not (signed is not None and signed.complete)
    may_dispute = whole and seat is not None and bool(state.hands)
    lines = dispute_lines(agreement, names)
    said = settlement_agreed(state, agreement.settlement)
    settled = "" if said is None else said.text
    proposed = proposal_lines(state, agreement, seat)
    return Agreed(
        waiting, signed_text, may_sign, agreement.final, lines, may_dispute, settled, proposed
    )


def proposal_lines(state: GameState, agreement: Agreement, seat: int | None) -> list[ProposalLine]:
    """Each correction of a confirmed hand waiting, as every phone shows it: ``Hand 3: a
    correction waits for Amina, Chafik or Dalila: Bilal 4♥, 4 tricks``, a button for a
    phone whose seat may confirm it."""
    lines = []
    for row in agreement.proposals:
        hand = engine_hand(
            HandRow(**row.facts), dealer_of(row.hand_number - 1, state.game.first_dealer)
        )
        seats = may_confirm(row.seat)
        text = _words(
            gettext("Hand %(number)s: a correction waits for %(names)s: %(hand)s"),
            number=row.hand_number,
            names=_or(seats, state.names),
            hand=format_html("<bdi>{}</bdi>", describe_hand(snapshot(hand), state.names)),
        )
        lines.append(ProposalLine(row.hand_number, text, seat is not None and seat in seats))
    return lines


def dispute_lines(agreement: Agreement, names: Sequence[str]) -> list[DisputeLine]:
    """Each dispute that still counts (open, or decided), as every phone shows it: ``Hand 3
    disputed by Bilal: he made 4``, then the referee's decision and his reason."""
    counting = {state.number for state in agreement.hands if state.disputed or state.decided}
    lines = []
    for row in agreement.disputes:
        if row.hand_number not in counting:
            continue
        text = _words(
            gettext("Hand %(number)s disputed by %(name)s: %(reason)s"),
            number=row.hand_number,
            name=format_html("<bdi>{}</bdi>", names[row.seat]),
            reason=format_html("<bdi>{}</bdi>", row.reason),
        )
        decision = row.decision if hasattr(row, "decision") else None
        said = None
        if decision is not None:
            words = (
                gettext("The referee confirmed it as it stands: %(reason)s")
                if decision.outcome == "confirmed"
                else gettext("The referee corrected it: %(reason)s")
            )
            said = _words(words, reason=format_html("<bdi>{}</bdi>", decision.reason))
        lines.append(DisputeLine(row.hand_number, text, said, decision is None))
    return lines


def history_lines(agreement: Agreement, minutes: int) -> list[Event]:
    """The history's lines that follow from time: each hand, or the result, confirmed by
    itself when its minutes ran out (a confirmation at the night's end is written)."""
    written = {(row.hand_number, row.at) for row in agreement.rows if row.seat is None}
    said = gettext("nobody: the time ran out")
    lines = [
        Event(
            hand.at,
            ngettext(
                "Hand %(number)s confirmed by itself after %(minutes)s minute",
                "Hand %(number)s confirmed by itself after %(minutes)s minutes",
                minutes,
            )
            % {"number": hand.number, "minutes": minutes},
            said,
        )
        for hand in agreement.hands
        if hand.by_itself and hand.at is not None and (hand.number, hand.at) not in written
    ]
    signed = agreement.signed
    if (
        signed is not None
        and signed.by_itself is not None
        and (None, signed.by_itself) not in written
    ):
        lines.append(
            Event(
                signed.by_itself,
                ngettext(
                    "Result signed by itself after %(minutes)s minute",
                    "Result signed by itself after %(minutes)s minutes",
                    minutes,
                )
                % {"minutes": minutes},
                said,
            )
        )
    settlement = agreement.settlement
    if settlement is not None and settlement.by_itself is not None:
        lines.append(
            Event(
                settlement.by_itself,
                ngettext(
                    "Settlement agreed by itself after %(minutes)s minute",
                    "Settlement agreed by itself after %(minutes)s minutes",
                    minutes,
                )
                % {"minutes": minutes},
                said,
            )
        )
    return lines


def with_history(history: Sequence[Event], lines: Sequence[Event], length: int) -> list[Event]:
    """The history, newest first, with the lines that follow from time among it."""
    merged = sorted([*history, *lines], key=lambda event: event.at, reverse=True)
    return merged[:length]
