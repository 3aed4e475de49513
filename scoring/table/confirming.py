"""A game's confirmations as the engine reads them (scoring/engine/confirmation.py): each
hand's state and the result's signatures at a moment, from the hands' rows and the
confirmations written; and the players' agreement to its settlement (issue 40.4). Reads
only; one query, and none for a game played without confirmation."""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import F, QuerySet
from django.utils import timezone

from ..engine import SEATS, Ending, GameResult
from ..engine import Confirmation as Mode
from ..engine.confirmation import (
    Decided,
    Disputed,
    Entered,
    Given,
    HandState,
    Signatures,
    hand_states,
    is_final,
    next_due,
    signatures,
)
from .models import (
    Confirmation,
    Decision,
    Dispute,
    Game,
    Hand,
    Proposal,
    SettlementAgreement,
    Summary,
)
from .state import GameState, HandFacts, finish_of, hand_dict, rules_of


def settlement_key(game: Game, hands: Sequence[HandFacts], ending: Ending) -> str:
    """What a player agrees to when he agrees to the settlement, as a digest: the hands as
    written, how the game ended (won or abandoned), its stake and currency. Any change of
    a hand (a correction, an undo, a hand more) gives another key; a hand undone then
    recorded again as it was gives the same one back."""
    rules = rules_of(game)
    facts = {
        "hands": [hand_dict(hand) for hand in hands],
        "ending": ending.value,
        "stake": str(rules.stake),
        "currency": rules.currency,
    }
    text = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Settled:
    """Who has agreed to a game's settlement as it now stands (issue 40.4)."""

    key: str
    """The settlement's content (:func:`settlement_key`)."""
    agreed: dict[int, SettlementAgreement]
    """Each seat's agreement to this settlement: the first."""
    night_end: SettlementAgreement | None = None
    """Agreed by itself at the club night's end, if it was before all four had."""
    stale: tuple[int, ...] = ()
    """The seats that agreed to an earlier settlement (the hands changed since) and not
    to this one: their agreement no longer counts."""
    by_itself: datetime | None = None
    """When it was agreed by itself, its minutes having run out before the four agreed."""
    itself: datetime | None = None
    """When it is agreed by itself if the four have not agreed first (None: never)."""

    @property
    def due(self) -> datetime | None:
        """When it will be agreed by itself, while some wait; None otherwise."""
        return self.itself if self.waiting_for else None

    @property
    def waiting_for(self) -> tuple[int, ...]:
        if self.night_end is not None or self.by_itself is not None:
            return ()
        return tuple(seat for seat in range(SEATS) if seat not in self.agreed)

    @property
    def complete(self) -> bool:
        return not self.waiting_for

    @property
    def at(self) -> datetime | None:
        """When the last of the four agreed (or the night ended, or the minutes ran out);
        None while one waits."""
        if self.by_itself is not None:
            return self.by_itself
        if self.night_end is not None:
            return self.night_end.at
        if not self.complete:
            return None
        return max(row.at for row in self.agreed.values())


def has_settlement(game: Game) -> bool:
    """Whether the game is played for money: its settlement is then agreed by the four."""
    return bool(game.stake)


def needs_settlement(game: Game) -> bool:
    """Whether the game's result is final only once its settlement is agreed: played for
    money, with confirmation (under ``off`` the scorer's word is final, as before)."""
    return has_settlement(game) and game.confirmation != Mode.OFF.value


def settled_of(
    rows: Sequence[SettlementAgreement],
    key: str,
    itself: datetime | None = None,
    now: datetime | None = None,
) -> Settled:
    """The agreements that count for the settlement of content ``key``, from a game's rows
    (oldest first); ``itself``: when it is agreed by itself if the four have not agreed
    first (its content's moment plus the minutes to confirm), as of ``now``."""
    agreed: dict[int, SettlementAgreement] = {}
    night_end = None
    earlier: set[int] = set()
    for row in rows:
        if row.content != key:
            if row.seat is not None:
                earlier.add(row.seat)
        elif row.seat is None:
            night_end = night_end or row
        else:
            agreed.setdefault(row.seat, row)
    last = max((row.at for row in agreed.values()), default=None)
    if night_end is not None and len(agreed) == SEATS and last is not None and last <= night_end.at:
        night_end = None
    by_itself = None
    if itself is not None and now is not None and itself <= now:
        first_four = len(agreed) == SEATS and last is not None and last <= itself
        after_night = night_end is not None and night_end.at <= itself
        if not first_four and not after_night:
            by_itself, night_end = itself, None
    stale = tuple(sorted(earlier - set(agreed)))
    return Settled(key, agreed, night_end, stale, by_itself, itself)


def settling_from(ended: datetime | None, moments: Sequence[datetime | None]) -> datetime:
    """When a settlement's content, or a result, was last set, from which its minutes run
    and before which a signature or an agreement signed another one: the game's end
    (``ended``), the last entry or correction of a hand, the referee's last decision
    (``moments``)."""
    return max([moment for moment in (ended, *moments) if moment is not None])


def settled(
    state: GameState,
    rows: Sequence[SettlementAgreement] | None = None,
    now: datetime | None = None,
    decided: Sequence[datetime] = (),
) -> Settled | None:
    """Who has agreed to the game's settlement as it now stands (at ``now``: this moment if
    not given); None for a game played for no money, or not over (no settlement to agree
    yet). Under a confirmation rule, agreed by itself when its minutes run out from the
    moment its content was set (``decided``: the referee's decisions' moments). One query,
    none then."""
    if not has_settlement(state.game) or not state.ending.over:
        return None
    if rows is None:
        rows = tuple(SettlementAgreement.objects.filter(game=state.game).order_by("at", "id"))
    key = settlement_key(state.game, state.hands, state.ending)
    rules = state.record.rules
    if rules.confirmation is Mode.OFF:
        return settled_of(rows, key)
    moments = [*(hand.entered_at for hand in state.hands), *decided]
    since = settling_from(over_at(state), moments)
    itself = since + timedelta(minutes=rules.confirmation_minutes)
    return settled_of(rows, key, itself, timezone.now() if now is None else now)


@dataclass(frozen=True)
class Agreement:
    """What the table has agreed of a game at a moment."""

    mode: Mode
    hands: tuple[HandState, ...] = ()
    signed: Signatures | None = None
    final: bool = True
    rows: Sequence[Confirmation] = field(default_factory=tuple)
    """The confirmations written, oldest first."""
    disputes: Sequence[Dispute] = field(default_factory=tuple)
    """The disputes written, oldest first, each with its decision if decided."""
    settlement: Settled | None = None
    """Who agreed to the settlement, for a game played for money once it is over."""
    confirmed: bool = True
    """Whether the hands and signatures are final (``final`` but for the settlement)."""
    proposals: Sequence[Proposal] = field(default_factory=tuple)
    """The corrections of confirmed hands that wait to be confirmed, by hand: each hand's
    latest proposed of it as it now stands."""
    due: datetime | None = None
    """The next moment a hand, the result's signatures or the settlement is confirmed,
    signed or agreed by itself (the page then changes with nothing written); None when
    nothing waits for time."""

    @property
    def waiting(self) -> tuple[HandState, ...]:
        return tuple(state for state in self.hands if state.waiting)

    @property
    def disputed(self) -> tuple[HandState, ...]:
        """The hands waiting for the referee."""
        return tuple(state for state in self.hands if state.disputed)


def over_at(state: GameState) -> datetime | None:
    """When the game ended (won or abandoned); None while it is played."""
    if not state.ending.over:
        return None
    if state.game.abandoned_at is not None:
        return state.game.abandoned_at
    return finish_of(state) if state.hands else state.game.created_at


def entered(hand: Hand) -> Entered:
    return Entered(hand.number, hand.entered_seat, hand.entered_at)


def given_of(rows: Sequence[Confirmation], hands: Sequence[Hand]) -> list[Given]:
    """The confirmations that count: of the whole game, or of a hand as it now stands."""
    versions = {hand.pk: hand.version for hand in hands}
    return [
        Given(row.hand_number, row.seat, row.at)
        for row in rows
        if row.hand_id is None or versions.get(row.hand_id) == row.version
    ]


def disputed_of(disputes: Sequence[Dispute]) -> list[Disputed]:
    return [Disputed(row.hand_number, row.seat, row.at) for row in disputes]


def decided_of(decisions: Sequence[Decision]) -> list[Decided]:
    return [Decided(row.hand_number, row.at) for row in decisions]


def disputes_of(game: Game) -> tuple[Dispute, ...]:
    """The game's disputes, oldest first, each with its decision (one query)."""
    found = Dispute.objects.filter(game=game).select_related("decision", "by_user")
    return tuple(found.order_by("at", "id"))


def _decisions(disputes: Sequence[Dispute]) -> list[Decision]:
    return [row.decision for row in disputes if hasattr(row, "decision")]


def agreement_of(
    state: GameState,
    now: datetime | None = None,
    rows: Sequence[Confirmation] | None = None,
) -> Agreement:
    """The game's agreement at ``now`` (this moment if not given); ``rows``: its
    confirmations if already read. Four queries: the confirmations, the disputes with their
    decisions, the settlement's agreements (a game played for money, over), the corrections
    proposed and not confirmed."""
    rules = state.record.rules
    over = state.ending.over
    if rules.confirmation is Mode.OFF:
        return Agreement(Mode.OFF, final=over)
    now = timezone.now() if now is None else now
    if rows is None:
        rows = tuple(Confirmation.objects.filter(game=state.game).order_by("at", "id"))
    given = given_of(rows, state.hands)
    disputes = disputes_of(state.game)
    hands = hand_states(
        rules,
        [entered(hand) for hand in state.hands],
        given,
        now,
        disputed_of(disputes),
        decided_of(_decisions(disputes)),
    )
    ended = over_at(state)
    # A signature given before a hand last changed signed another result.
    last_set = None if ended is None else settling_from(ended, [h.entered_at for h in state.hands])
    signed = signatures(rules, last_set, given, now)
    confirmed = is_final(rules, over, hands, signed)
    decided = [row.at for row in _decisions(disputes)]
    settlement = settled(state, now=now, decided=decided)
    final = confirmed and (settlement is None or settlement.complete)
    proposals = open_proposals(state)
    due = [next_due(rules, [entered(hand) for hand in state.hands], hands, last_set, signed)]
    due.append(None if settlement is None else settlement.due)
    return Agreement(
        rules.confirmation,
        hands,
        signed,
        final,
        rows,
        disputes,
        settlement,
        confirmed,
        proposals,
        min((moment for moment in due if moment is not None), default=None),
    )


def open_proposals(state: GameState) -> tuple[Proposal, ...]:
    """The corrections that wait to be confirmed (one query): of each hand, the latest
    proposed of it as it now stands."""
    versions = {hand.pk: hand.version for hand in state.hands}
    latest: dict[int, Proposal] = {}
    for row in Proposal.objects.filter(game=state.game, confirmed_at=None).order_by("at", "id"):
        if versions.get(row.hand_id) == row.version:
            latest[row.hand_number] = row
    return tuple(latest[number] for number in sorted(latest))


def finality(state: GameState) -> str | None:
    """A won game's result as the public pages and the API mark it (issue 40.4):
    ``final`` (over, every hand confirmed or none asked for, no dispute open, and, played
    for money under a confirmation rule, its settlement agreed by the four), else
    ``provisional``; None for a game not won. No query for a game played without
    confirmation."""
    if not state.result.finished:
        return None
    return "final" if agreement_of(state).final else "provisional"


def final_as_written(state: GameState) -> bool:
    """Whether the game's result is final as of its last change (its summary's
    ``changed_at``): what a club's league counts (scoring/clubs/league/ratings.py), so that
    its results follow the facts written, as a full recomputation (:func:`finals`) gives
    them. What the minutes confirm by themselves counts from the game's next change (a
    confirmation, the night's end)."""
    if state.record.rules.confirmation is Mode.OFF:
        return state.ending.over
    changed = Summary.objects.filter(game=state.game).values_list("changed_at", flat=True)
    return agreement_of(state, now=changed.first() or timezone.now()).final


def finals(games: Sequence[Game], results: dict[int, GameResult]) -> set[int]:
    """Of these won games (each scored in ``results`` by pk), the ones whose result is final
    as of their last change, as :func:`final_as_written` says of each: four queries for
    those played with confirmation (five if one is played for money: its settlement's
    agreements), none for the others."""
    confirming = [game for game in games if game.confirmation != Mode.OFF.value]
    final = {game.pk for game in games if game.confirmation == Mode.OFF.value}
    if not confirming:
        return final
    ids = [game.pk for game in confirming]
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(game_id__in=ids).order_by("game_id", "number"):
        hands.setdefault(hand.game_id, []).append(hand)
    rows: dict[int, list[Confirmation]] = {}
    for row in Confirmation.objects.filter(game_id__in=ids).order_by("at", "id"):
        rows.setdefault(row.game_id, []).append(row)
    disputes: dict[int, list[Dispute]] = {}
    for dispute in Dispute.objects.filter(game_id__in=ids).select_related("decision"):
        disputes.setdefault(dispute.game_id, []).append(dispute)
    changed = dict(Summary.objects.filter(game_id__in=ids).values_list("game_id", "changed_at"))
    money = [game.pk for game in confirming if needs_settlement(game)]
    agreements: dict[int, list[SettlementAgreement]] = {}
    if money:
        found = SettlementAgreement.objects.filter(game_id__in=money).order_by("at", "id")
        for agreement in found:
            agreements.setdefault(agreement.game_id, []).append(agreement)
    for game in confirming:
        played = hands.get(game.pk, [])
        rules, now = rules_of(game), changed[game.pk]
        given = given_of(rows.get(game.pk, []), played)
        argued = disputes.get(game.pk, [])
        states = hand_states(
            rules,
            [entered(hand) for hand in played],
            given,
            now,
            disputed_of(argued),
            decided_of(_decisions(argued)),
        )
        ended = game.finished_at or (played[-1].recorded_at if played else game.created_at)
        last_set = settling_from(ended, [hand.entered_at for hand in played])
        signed = signatures(rules, last_set, given, now)
        if not is_final(rules, results[game.pk].finished, states, signed):
            continue
        if needs_settlement(game):
            key = settlement_key(game, played, Ending.WON)
            moments = [
                *(hand.entered_at for hand in played),
                *(row.at for row in _decisions(argued)),
            ]
            itself = settling_from(ended, moments) + timedelta(minutes=rules.confirmation_minutes)
            if not settled_of(agreements.get(game.pk, []), key, itself, now).complete:
                continue
        final.add(game.pk)
    return final


def open_disputes(games: QuerySet[Game]) -> QuerySet[Dispute]:
    """The disputes of these games still waiting for the referee: not decided, of a hand not
    corrected since (as the engine reads them), oldest first; one query when read."""
    return (
        Dispute.objects.filter(game__in=games, decision__isnull=True, version=F("hand__version"))
        .select_related("game")
        .order_by("at", "id")
    )
