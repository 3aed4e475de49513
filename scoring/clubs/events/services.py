"""Every write of a club's events (issue 41), each one transaction: the club, then the
event, locked first; its facts read once (facts.py); the engine asked once
(scoring/engine/events.py); the rows written, with the club's history's line naming who.

Who may make them is the policy's ``ORGANISE_EVENT`` (the club's admins), checked by the
views. Each write is harmless sent twice: what is already so is left as it is, and a
write made on a round or a draft that changed since is refused with what it is now."""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from ...common.rights import NOBODY, Actor
from ...engine import SEATS, Rules, RulesError
from ...engine.events import Seating as EngineSeating
from ...engine.events import SeatingError, check_late_entry, finalists, repeats, seat_round
from ...table.face import (
    Game,
    Summary,
    abandon_game,
    make_scorer_link,
    open_disputes,
    rules_columns,
)
from .. import history
from ..league.ratings import rebuild
from ..models import (
    Attendance,
    Club,
    ClubGame,
    Event,
    EventEntry,
    EventFinal,
    EventRound,
    ForbiddenPair,
    Member,
    Night,
    Round,
    TableSettled,
)
from ..services import lock_club, names_as_club_writes, start_club_game
from .facts import EventFacts, event_facts, forbidden_pairs

SETTINGS = (
    "name",
    "points",
    "sit_out_points",
    "best_nights",
    "min_attendance",
    "hide_last_rounds",
    "counts_in_season",
    "final",
    "carry_over",
    "entry_fee",
    "fee_currency",
    "prize_kind",
    "prizes",
    "public",
)
"""An event's settings besides its rules, as its forms and history name them."""


# What a write refuses, each with what the organiser is told (views.py says it).


class EventOver(Exception):
    """The event ended: no more rounds, entries or finals."""


class LateEntry(Exception):
    """Half the planned rounds (rounded down) are drawn: no more entries."""

    def __init__(self, drawn: int, planned: int) -> None:
        self.drawn, self.planned = drawn, planned
        super().__init__(drawn, planned)


class Withdrawn(Exception):
    """He withdrew from the event: he is never seated again, nor entered again."""

    def __init__(self, member: Member) -> None:
        self.member = member
        super().__init__(member.name)


class RoundDrawnMeanwhile(Exception):
    """The round asked for was drawn (or redrawn, swapped, published) by another organiser
    meanwhile: he is shown it as it is now."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(number)


class DraftWaiting(Exception):
    """Round ``number`` is drawn but not published: publish it (or draw it again) first."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(number)


class RoundPlaying(Exception):
    """Tables of the last round still play: settle them, or wait."""

    def __init__(self, number: int, tables: Sequence[int]) -> None:
        self.number, self.tables = number, tuple(tables)
        super().__init__(number, self.tables)


class RoundDisputed(Exception):
    """A game of the event has a hand disputed that the referee (an organiser) has not
    decided: the next round's draw waits for him (issue 40.3), so that nobody is seated by a
    result in doubt."""

    def __init__(self, disputed: int) -> None:
        self.disputed = disputed
        super().__init__(disputed)


class NoNightLeft(Exception):
    """Every night of the event has played its rounds (or ended): add a night first."""

    def __init__(self, planned: int) -> None:
        self.planned = planned
        super().__init__(planned)


class TooFewEntrants(Exception):
    """Fewer than four entrants are present (entered, not withdrawn, checked in)."""

    def __init__(self, present: int) -> None:
        self.present = present
        super().__init__(present)


class CannotSeat(Exception):
    """No seating honours the pairs never seated together: nothing is drawn."""

    def __init__(self, pair: tuple[int, int] | None, number: int, names: Sequence[str]) -> None:
        self.pair, self.number, self.names = pair, number, tuple(names)
        super().__init__(pair, number)


class NotSeated(Exception):
    """A player to swap is not in the round."""


class TableFinished(Exception):
    """The table's game is won: it counts as it is, and is not settled."""

    def __init__(self, number: int, table: int) -> None:
        self.number, self.table = number, table
        super().__init__(number, table)


class NoTable(Exception):
    """No such table in a published round of the event."""


class FinalFinished(Exception):
    """The final's game is won: it counts as it is, and is not settled."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        super().__init__(kind)


class NoFinal(Exception):
    """The event has no final, or not yet: its rounds are not all played, or fewer than four
    entrants may play it (``eligible``)."""

    def __init__(self, reason: str, eligible: int = 0) -> None:
        self.reason, self.eligible = reason, eligible
        super().__init__(reason, eligible)


REFUSALS = (
    EventOver,
    LateEntry,
    Withdrawn,
    RoundDrawnMeanwhile,
    DraftWaiting,
    RoundPlaying,
    RoundDisputed,
    NoNightLeft,
    TooFewEntrants,
    CannotSeat,
    NotSeated,
    TableFinished,
    NoTable,
    FinalFinished,
    NoFinal,
)
"""What an event's write may refuse; each changes nothing."""


def lock_event(event_id: int) -> Event:
    """The event's row, locked after its club's: every write of an event takes both, in
    this order, so that two organisers' writes (two draws of one round) go one after the
    other, and a guest entered joins the club as its other writes see it."""
    club_id = Event.objects.values_list("club_id", flat=True).get(pk=event_id)
    lock_club(Club(pk=club_id))
    return Event.objects.select_for_update().select_related("club").get(pk=event_id)


def settings_of(event: Event) -> dict[str, Any]:
    """The event's settings and rules as its history keeps them."""
    names = (*SETTINGS, *rules_columns(Rules()))
    return {name: history.as_json(getattr(event, name)) for name in names}


def draft_key(round: EventRound) -> str:
    """What a draft's forms carry: its tables as the organiser saw them. A swap or a
    publish whose key is no longer the draft's was made on a draft changed meanwhile."""
    seen = (round.pk, round.tables, round.sitting_out, round.published_at is not None)
    return hashlib.blake2b(repr(seen).encode(), digest_size=8).hexdigest()


# The event.


@transaction.atomic
def create_event(
    *,
    club: Club,
    settings: Mapping[str, Any],
    rules: Rules,
    night: tuple[date, str, int] | None = None,
    by: Actor = NOBODY,
) -> Event:
    """An event of the club, with its settings and rules (its form offers the club's), and
    its first night (its day, place and rounds), if given."""
    lock_club(club)
    event = Event.objects.create(
        club=club, **{name: settings[name] for name in SETTINGS}, **rules_columns(rules)
    )
    after = settings_of(event)
    if night is not None:
        day, place, rounds = night
        Night.objects.create(club=club, event=event, date=day, place=place, rounds=rounds)
        after["night"] = {"date": day.isoformat(), "place": place, "rounds": rounds}
    history.log(club, by, "event_created", event.name, after=after)
    return event


@transaction.atomic
def update_event(
    *, event_id: int, settings: Mapping[str, Any], rules: Rules, by: Actor = NOBODY
) -> Event:
    """The event's settings and rules; games already started keep the rules they started
    with. The ranking follows at once (it is never stored)."""
    event = lock_event(event_id)
    before = settings_of(event)
    for name in SETTINGS:
        setattr(event, name, settings[name])
    for name, value in rules_columns(rules).items():
        setattr(event, name, value)
    event.save()
    was, now = history.changed(before, settings_of(event))
    if was:
        history.log(event.club, by, "event_edited", event.name, before=was, after=now)
    if "counts_in_season" in was:  # its games join the league, or leave it
        rebuild(event.club)
    return event


@transaction.atomic
def add_night(*, event_id: int, date: date, place: str, rounds: int, by: Actor = NOBODY) -> Night:
    """A night of the event, with the rounds it plays: the club's night, whose check-in
    says who is present, and whose rounds are the event's."""
    event = lock_event(event_id)
    if event.ended_at is not None:
        raise EventOver(event)
    night = Night.objects.create(
        club=event.club, event=event, date=date, place=place, rounds=rounds
    )
    after = {"event": event.pk, "date": date.isoformat(), "place": place, "rounds": rounds}
    history.log(event.club, by, "event_night_added", event.name, after=after)
    return night


@transaction.atomic
def end_event(*, event_id: int, by: Actor = NOBODY) -> Event:
    """The event is over: its hidden rounds show to all, and it takes no more rounds."""
    event = lock_event(event_id)
    if event.ended_at is None:
        event.ended_at = timezone.now()
        event.save(update_fields=["ended_at"])
        history.log(event.club, by, "event_ended", event.name, after={"id": event.pk})
    return event


@transaction.atomic
def delete_event(*, event_id: int, by: Actor = NOBODY) -> Club:
    """The event deleted: its entries, rounds, pairs and finals go; its nights stay, as plain
    nights, and its games stay in the club's games and season. Its settings and who entered
    are kept in the history's line."""
    event = lock_event(event_id)
    entrants: list[int | None] = list(
        EventEntry.objects.filter(event=event).order_by("pk").values_list("member_id", flat=True)
    )
    rounds = EventRound.objects.filter(event=event).count()
    before = {**settings_of(event), "id": event.pk, "rounds": rounds}
    history.log(event.club, by, "event_deleted", event.name, members=entrants, before=before)
    event.delete()
    return event.club


# Entries.


def _rounds_drawn(event: Event) -> int:
    return EventRound.objects.filter(event=event).count()


def _planned(event: Event) -> int:
    planned = Night.objects.filter(event=event).values_list("rounds", flat=True).order_by()
    return sum(rounds or 0 for rounds in planned)


@transaction.atomic
def enter(
    *, event_id: int, member_ids: Sequence[int], guests: Sequence[str], by: Actor = NOBODY
) -> list[EventEntry]:
    """Members of the club, and guests by name (new ones join the club as guests, as at a
    night), entered in the event. Before its first round, any number; after, until half its
    planned rounds (rounded down) are drawn, each starting with no points
    (:class:`LateEntry`). One already entered stays as he is; one who withdrew is refused
    (:class:`Withdrawn`)."""
    event = lock_event(event_id)
    if event.ended_at is not None:
        raise EventOver(event)
    drawn = _rounds_drawn(event)
    if drawn:
        planned = _planned(event)
        try:
            check_late_entry(planned, drawn)
        except RulesError:
            raise LateEntry(drawn, planned) from None
    named = names_as_club_writes(event.club, guests, Member.Role.GUEST) if guests else []
    members = list(
        Member.objects.filter(club=event.club, pk__in=member_ids)
        | Member.objects.filter(club=event.club, name__in=named)
    )
    entered = {entry.member_id: entry for entry in EventEntry.objects.filter(event=event)}
    for member in members:
        if member.pk in entered and entered[member.pk].withdrawn_round is not None:
            raise Withdrawn(member)
    new = [
        EventEntry(event=event, member=member, entered_round=drawn + 1, entered_by_id=by.user_id)
        for member in sorted(members, key=lambda member: member.pk)
        if member.pk not in entered
    ]
    EventEntry.objects.bulk_create(new)
    if new:
        history.log(
            event.club,
            by,
            "entrants_added",
            event.name,
            members=[entry.member_id for entry in new],
            after={"event": event.pk, "round": drawn + 1},
        )
    return new


@transaction.atomic
def withdraw(*, event_id: int, member_id: int, by: Actor = NOBODY) -> EventEntry:
    """He withdraws: what he scored stays, and no round from the next on seats him. A draft
    that seats him is dropped (drawn again without him)."""
    event = lock_event(event_id)
    entry = EventEntry.objects.select_related("member").get(event=event, member_id=member_id)
    if entry.withdrawn_round is not None:
        return entry
    rounds = list(EventRound.objects.filter(event=event).order_by("number"))
    draft = rounds[-1] if rounds and rounds[-1].published_at is None else None
    dropped = None
    if draft is not None:
        rounds.pop()
        if member_id in draft.sitting_out or any(member_id in table for table in draft.tables):
            dropped = draft.number
            draft.delete()
    entry.withdrawn_round = len(rounds) + 1
    entry.withdrawn_at, entry.withdrawn_by_id = timezone.now(), by.user_id
    entry.save(update_fields=["withdrawn_round", "withdrawn_at", "withdrawn_by"])
    after = {"event": event.pk, "round": entry.withdrawn_round, "draft_dropped": dropped}
    history.log(event.club, by, "entrant_withdrawn", entry.member, after=after)
    return entry


# Pairs never seated together.


@transaction.atomic
def forbid_pair(
    *, club: Club, event_id: int | None, first_id: int, second_id: int, by: Actor = NOBODY
) -> ForbiddenPair:
    """Two members never seated together: in every event of the club (``event_id`` None), or
    in this one. Declared again, it stays as it was."""
    lock_club(club)
    low, high = sorted((first_id, second_id))
    members = {one.pk: one for one in Member.objects.filter(club=club, pk__in=(low, high))}
    event = Event.objects.get(club=club, pk=event_id) if event_id is not None else None
    pair, made = ForbiddenPair.objects.get_or_create(
        club=club,
        event=event,
        first=members[low],
        second=members[high],
        defaults={"created_by_id": by.user_id},
    )
    if made:
        after = {"event": event_id, "pair": [low, high]}
        history.log(
            club,
            by,
            "pair_forbidden",
            event.name if event else "",
            members=[low, high],
            after=after,
        )
    return pair


@transaction.atomic
def allow_pair(*, club: Club, pair_id: int, by: Actor = NOBODY) -> None:
    """A pair declared never together may sit together again (gone already: nothing)."""
    lock_club(club)
    pair = ForbiddenPair.objects.filter(club=club, pk=pair_id).select_related("event").first()
    if pair is None:
        return
    members: list[int | None] = [pair.first_id, pair.second_id]
    before = {"event": pair.event_id, "pair": members}
    subject = pair.event.name if pair.event is not None else ""
    pair.delete()
    history.log(club, by, "pair_allowed", subject, members=members, before=before)


# Rounds.


def next_night(facts: EventFacts) -> Night | None:
    """The night the next round is drawn on: the draft's, else the first (by date) not
    ended that has played fewer than its rounds; None if none has."""
    if facts.draft is not None:
        return next(night for night in facts.nights if night.pk == facts.draft.night_id)
    played: dict[int, int] = {}
    for one in facts.rounds:
        played[one.night_id] = played.get(one.night_id, 0) + 1
    for night in facts.nights:
        if night.ended_at is None and played.get(night.pk, 0) < (night.rounds or 0):
            return night
    return None


def _next_night(facts: EventFacts) -> Night:
    night = next_night(facts)
    if night is None:
        raise NoNightLeft(facts.planned)
    return night


def _still_playing(facts: EventFacts) -> None:
    """Refused while a table of the last published round plays (neither won, abandoned nor
    settled): the next round seats by its result."""
    published = facts.published
    if not published:
        return
    last = published[-1].number
    playing = [table.table for table in facts.tables if table.round == last and table.playing]
    if playing:
        raise RoundPlaying(last, playing)
    disputed = open_disputes(
        Game.objects.filter(club_game__round__event_round__event_id=facts.event.pk)
    ).count()
    if disputed:
        raise RoundDisputed(disputed)


def _present(facts: EventFacts, number: int, night: Night) -> list[int]:
    checked_in = set(
        Attendance.objects.filter(night=night, present=True).values_list("member_id", flat=True)
    )
    return facts.present(number, checked_in)


def _seat(facts: EventFacts, number: int, method: str, seed: int, present: Sequence[int]) -> Any:
    """The engine's seating of the present entrants, best-ranked first by the event's
    ranking as the organiser sees it, over the published rounds."""
    order = {line.entrant: index for index, line in enumerate(facts.ranking())}
    ranking = sorted(present, key=lambda member_id: order.get(member_id, len(order)))
    history_ = [seating for _, seating in facts.seatings]
    try:
        return seat_round(
            method,
            ranking,
            history_,
            forbidden_pairs(facts.event),
            seed=seed,
            round_number=number,
        )
    except SeatingError as error:
        pair = getattr(error, "pair", None)
        names = dict(Member.objects.filter(pk__in=pair or ()).values_list("pk", "name"))
        shown = [names.get(one, "?") for one in pair] if pair else []
        raise CannotSeat(tuple(pair) if pair else None, number, shown) from None


@transaction.atomic
def draw_round(
    *,
    event_id: int,
    number: int,
    method: str,
    again: bool = False,
    key: str = "",
    by: Actor = NOBODY,
) -> EventRound:
    """Round ``number`` drawn by ``method`` as a draft, which only its organisers see: the
    entrants present at its night (entered by then, not withdrawn, checked in), seated by
    the engine. ``number`` is the round the organiser asked for: drawn meanwhile by
    another, it is refused (:class:`RoundDrawnMeanwhile`) and he is shown that one.
    ``again`` draws the draft ``number`` (whose ``key`` he saw) again, with a new seed."""
    event = lock_event(event_id)
    if event.ended_at is not None:
        raise EventOver(event)
    facts = event_facts(event)
    draft = facts.draft
    if again:
        if draft is None or draft.number != number or draft_key(draft) != key:
            raise RoundDrawnMeanwhile(number)
        night = draft.night
        draft.delete()
        facts = event_facts(event)
    else:
        if number != len(facts.rounds) + 1:
            raise RoundDrawnMeanwhile(number)
        if draft is not None:
            raise DraftWaiting(draft.number)
        _still_playing(facts)
        night = _next_night(facts)
    present = _present(facts, number, night)
    if len(present) < SEATS:
        raise TooFewEntrants(len(present))
    row = EventRound(event=event, night=night, number=number, method=method, drawn_by_id=by.user_id)
    seating = _seat(facts, number, method, row.seed, present)
    row.tables = [list(table) for table in seating.tables]
    row.sitting_out = list(seating.sitting_out)
    row.version = seating.version
    row.save()
    after = {
        "event": event.pk,
        "round": number,
        "method": method,
        "seed": row.seed,
        "version": row.version,
        "tables": row.tables,
        "sitting_out": row.sitting_out,
    }
    history.log(event.club, by, "event_round_drawn", event.name, after=after)
    return row


@dataclass(frozen=True)
class Warnings:
    """What a draft seats that a drawn round would not: pairs who met before in the event,
    and pairs declared never together (member ids, lower first)."""

    repeats: tuple[tuple[int, int], ...]
    forbidden: tuple[tuple[int, int], ...]


def warnings_of(facts: EventFacts, round: EventRound) -> Warnings:
    """The draft's repeats (the engine's ``repeats``, over the published rounds before it)
    and its forbidden pairs."""
    seating = EngineSeating(
        tuple(tuple(table) for table in round.tables), tuple(round.sitting_out), round.version
    )
    before = [seating for _, seating in facts.seatings[: round.number - 1]]
    met = tuple(repeats(seating, before))
    together = {
        tuple(sorted((one, other)))
        for table in round.tables
        for one in table
        for other in table
        if one != other
    }
    forbidden = tuple(pair for pair in forbidden_pairs(facts.event) if pair in together)
    return Warnings(met, forbidden)


@transaction.atomic
def swap(
    *, event_id: int, number: int, first_id: int, second_id: int, key: str, by: Actor = NOBODY
) -> tuple[EventRound, Warnings]:
    """Two players of the draft change places (one may be sitting out). The draft must be
    the one the organiser saw (``key``): sent twice, the second swap is refused rather than
    swapping them back. Returns the draft and what it now seats that a draw would not."""
    event = lock_event(event_id)
    facts = event_facts(event)
    draft = facts.draft
    if draft is None or draft.number != number or draft_key(draft) != key:
        raise RoundDrawnMeanwhile(number)
    places = {
        member_id: (table, seat)
        for table, players in enumerate(draft.tables)
        for seat, member_id in enumerate(players)
    }
    out = list(draft.sitting_out)
    for member_id in (first_id, second_id):
        if member_id not in places and member_id not in out:
            raise NotSeated(member_id)
    tables = [list(table) for table in draft.tables]

    def put(member_id: int, where: tuple[int, int] | None, index: int | None) -> None:
        if where is not None:
            tables[where[0]][where[1]] = member_id
        elif index is not None:
            out[index] = member_id

    first_at, second_at = places.get(first_id), places.get(second_id)
    first_out = out.index(first_id) if first_id in out else None
    second_out = out.index(second_id) if second_id in out else None
    put(second_id, first_at, first_out)
    put(first_id, second_at, second_out)
    draft.tables, draft.sitting_out = tables, out
    draft.swapped_at, draft.swapped_by_id = timezone.now(), by.user_id
    draft.save(update_fields=["tables", "sitting_out", "swapped_at", "swapped_by"])
    warned = warnings_of(facts, draft)
    after = {
        "event": event.pk,
        "round": number,
        "swapped": [first_id, second_id],
        "repeats": [list(pair) for pair in warned.repeats],
        "forbidden": [list(pair) for pair in warned.forbidden],
    }
    history.log(
        event.club, by, "round_swapped", event.name, members=[first_id, second_id], after=after
    )
    return draft, warned


@transaction.atomic
def publish(
    *, event_id: int, number: int, key: str, owner_id: int | None, by: Actor = NOBODY
) -> EventRound:
    """The draft published: its seats show to all, and each table's game starts, as a
    night's draw starts them (the event's rules, the players seated in the drawn order, the
    first dealing first, a scorer link for the table's card), in a round of its night.
    Published already, it stays as it is; a draft changed since the organiser saw it
    (``key``) is refused, and he is shown it."""
    event = lock_event(event_id)
    row = EventRound.objects.filter(event=event, number=number).select_related("night").first()
    if row is not None and row.published_at is not None:
        return row
    if row is None or draft_key(row) != key:
        raise RoundDrawnMeanwhile(number)
    night = row.night
    previous = night.round_set.order_by("number").last()
    if previous is not None and previous.closed_at is None:
        previous.closed_at = timezone.now()
        previous.save(update_fields=["closed_at"])
    played = Round.objects.create(
        night=night,
        number=(previous.number if previous else 0) + 1,
        tables=row.tables,
        sitting_out=row.sitting_out,
    )
    names = dict(
        Member.objects.filter(pk__in=[one for table in row.tables for one in table]).values_list(
            "pk", "name"
        )
    )
    rules = event.rules
    for table_number, table in enumerate(row.tables, start=1):
        state = start_club_game(
            club=event.club,
            names=[names[member_id] for member_id in table],
            first_dealer=0,
            owner_id=owner_id,
            by=by,
            rules=rules,
        )
        ClubGame.objects.filter(game=state.game).update(round=played, table=table_number)
        make_scorer_link(public_id=state.game.public_id)
    row.round = played
    row.published_at, row.published_by_id = timezone.now(), by.user_id
    row.save(update_fields=["round", "published_at", "published_by"])
    after = {"event": event.pk, "round": number, "night": night.pk, "tables": len(row.tables)}
    history.log(event.club, by, "round_published", event.name, after=after)
    return row


@transaction.atomic
def settle_table(
    *,
    event_id: int,
    number: int,
    table: int,
    totals: Sequence[int] | None,
    reason: str,
    by: Actor = NOBODY,
) -> TableSettled:
    """A table of a published round that did not finish in time: its game stopped (recorded
    as abandoned) and counted in the event with the totals as they stand (``totals`` None)
    or with those the organiser entered, with his reason. A won table is refused
    (:class:`TableFinished`); settled already, it stays as it was."""
    event = lock_event(event_id)
    row = EventRound.objects.filter(event=event, number=number).exclude(published_at=None).first()
    if row is None or not 1 <= table <= len(row.tables):
        raise NoTable(number, table)
    done = TableSettled.objects.filter(event_round=row, table=table).first()
    if done is not None:
        return done
    game = (
        ClubGame.objects.filter(round=row.round_id, table=table)
        .select_related("game__summary")
        .first()
    )
    if game is not None:
        summary: Summary = game.game.summary
        if summary.status == Summary.Status.WON:
            raise TableFinished(number, table)
        if summary.status == Summary.Status.PLAYING:
            abandon_game(public_id=game.game.public_id, by=by)
    elif totals is None:  # its game deleted: nothing stands
        raise NoTable(number, table)
    settled = TableSettled.objects.create(
        event_round=row,
        table=table,
        totals=list(totals) if totals is not None else None,
        reason=reason,
        by_id=by.user_id,
    )
    after = {
        "event": event.pk,
        "round": number,
        "table": table,
        "totals": settled.totals,
        "reason": reason,
    }
    history.log(
        event.club, by, "table_settled", event.name, members=row.tables[table - 1], after=after
    )
    return settled


@transaction.atomic
def settle_final(
    *,
    event_id: int,
    kind: str,
    totals: Sequence[int] | None,
    reason: str,
    by: Actor = NOBODY,
) -> EventFinal:
    """A final's table (``kind``: the final or the consolation) that did not finish in time,
    settled as a round's table is (:func:`settle_table`): its game stopped (recorded as
    abandoned) and its standing made with the totals as they stand (``totals`` None) or
    with those the organiser entered, with his reason. A won final is refused
    (:class:`FinalFinished`); settled already, it stays as it was."""
    event = lock_event(event_id)
    final = (
        EventFinal.objects.filter(event=event, kind=kind).select_related("game__summary").first()
    )
    if final is None:
        raise NoFinal("table")
    if final.settled_at is not None:
        return final
    game = final.game
    if game is not None:
        summary: Summary = game.summary
        if summary.status == Summary.Status.WON:
            raise FinalFinished(kind)
        if summary.status == Summary.Status.PLAYING:
            abandon_game(public_id=game.public_id, by=by)
    elif totals is None:  # its game deleted: nothing stands
        raise NoFinal("table")
    final.settled_at, final.settled_by_id = timezone.now(), by.user_id
    final.settled_totals = list(totals) if totals is not None else None
    final.settled_reason = reason
    final.save(update_fields=["settled_at", "settled_by", "settled_totals", "settled_reason"])
    after = {"event": event.pk, "final": kind, "totals": final.settled_totals, "reason": reason}
    history.log(event.club, by, "final_settled", event.name, members=final.players, after=after)
    return final


# The final.


@transaction.atomic
def draw_final(*, event_id: int, owner_id: int | None, by: Actor = NOBODY) -> list[EventFinal]:
    """After the last round, the four highest-ranked eligible entrants seated at the final
    (and, for a consolation, the next four at its table), best-ranked first, each table's
    game started with the event's rules. Drawn already, it stays as it was."""
    event = lock_event(event_id)
    if event.final == Event.Final.NONE:
        raise NoFinal("none")
    facts = event_facts(event)
    if facts.finals:
        return list(facts.finals)
    if facts.draft is not None or len(facts.published) < facts.planned or not facts.planned:
        raise NoFinal("rounds")
    _still_playing(facts)
    ranking = facts.ranking()
    eligible = sum(line.eligible for line in ranking)
    if eligible < SEATS:
        raise NoFinal("eligible", eligible)
    kinds = [(EventFinal.Kind.FINAL, 0)]
    if event.final == Event.Final.CONSOLATION and eligible >= 2 * SEATS:
        kinds.append((EventFinal.Kind.CONSOLATION, SEATS))
    names = dict(Member.objects.filter(club=event.club).values_list("pk", "name"))
    made = []
    for kind, start in kinds:
        players = list(finalists(ranking, SEATS, start))
        state = start_club_game(
            club=event.club,
            names=[names[member_id] for member_id in players],
            first_dealer=0,
            owner_id=owner_id,
            by=by,
            rules=event.rules,
        )
        make_scorer_link(public_id=state.game.public_id)
        made.append(
            EventFinal.objects.create(
                event=event, kind=kind, players=players, game=state.game, drawn_by_id=by.user_id
            )
        )
        after = {"event": event.pk, "kind": str(kind), "players": players}
        history.log(event.club, by, "final_drawn", event.name, members=list(players), after=after)
    return made
