"""An event's facts as the engine reads them (scoring/engine/events.py): its entrants, its
nights, its published rounds as seatings, and its counted games (won, or settled by an
organiser). Read in a fixed number of queries, whatever the event's size; the services
(a draw, the final) and the pages (the ranking) read them alike, so that the ranking a
draw seats by is the one the organiser sees."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from ...engine.events import EventGame, EventRules, RankingLine, Seating, rank_event
from ...table.face import Game, Summary
from ..models import Event, EventEntry, EventFinal, EventRound, ForbiddenPair, Night, TableSettled

CARRY = {"1": Fraction(1), "0.5": Fraction(1, 2), "0": Fraction(0)}
"""The event's carry-over into the final, as the engine takes it."""


@dataclass(frozen=True)
class TableFacts:
    """A table of a published round, as its game stands."""

    round: int
    table: int
    players: tuple[int, int, int, int]
    """Member ids, by seat (the seating's order: the first deals first)."""
    public_id: str | None
    """Its game's; None if the game was deleted since."""
    status: str
    """``playing``, ``won``, ``abandoned``, as the game's summary says (``gone``: deleted)."""
    hands: int
    totals: tuple[int, int, int, int] | None
    """The totals it counts with: the game's if won, the settled ones if settled, else None."""
    settled: TableSettled | None
    finished_at: datetime | None

    @property
    def counted(self) -> bool:
        return self.totals is not None

    @property
    def playing(self) -> bool:
        return self.status == Summary.Status.PLAYING and self.settled is None


@dataclass(frozen=True)
class EventFacts:
    """Everything the event's ranking and draws are made of."""

    event: Event
    nights: Sequence[Night]
    """Its nights, by date."""
    entries: Sequence[EventEntry]
    rounds: Sequence[EventRound]
    """Every round, published or the draft (the last), by number."""
    tables: Sequence[TableFacts]
    """Every table of its published rounds, by round and table."""
    finals: Sequence[EventFinal]

    @property
    def planned(self) -> int:
        """The rounds planned: those its nights play."""
        return sum(night.rounds or 0 for night in self.nights)

    @property
    def published(self) -> list[EventRound]:
        return [one for one in self.rounds if one.published_at is not None]

    @property
    def draft(self) -> EventRound | None:
        last = self.rounds[-1] if self.rounds else None
        return last if last is not None and last.published_at is None else None

    def night_index(self, night_id: int) -> int:
        return [night.pk for night in self.nights].index(night_id)

    @property
    def rules(self) -> EventRules:
        event = self.event
        share = event.min_attendance
        return EventRules(
            scheme=tuple(event.points),
            sit_out_points=event.sit_out_points,
            best_nights=event.best_nights,
            min_attendance=None if share is None else Fraction(Decimal(share)),
            seed=event.seed,
        )

    @property
    def seatings(self) -> list[tuple[int, Seating]]:
        """The published rounds, oldest first, each with its night's index."""
        return [
            (
                self.night_index(one.night_id),
                Seating(
                    tuple(tuple(table) for table in one.tables),
                    tuple(one.sitting_out),
                    one.version,
                ),
            )
            for one in self.published
        ]

    @property
    def games(self) -> list[EventGame]:
        """The counted event games, in the order they finished (a settled table: when it was
        settled)."""
        nights = {one.number: self.night_index(one.night_id) for one in self.rounds}
        counted = sorted(
            (table for table in self.tables if table.totals is not None),
            key=lambda table: (table.finished_at or datetime.max, table.round, table.table),
        )
        return [
            EventGame(table.round, nights[table.round], table.players, table.totals)
            for table in counted
            if table.totals is not None
        ]

    def final_played(self, final: EventFinal) -> EventGame | None:
        """A final's game as its standing counts it: won, or settled by an organiser (with
        the totals as they stood, or those he entered); else None."""
        game = final.game
        summary: Summary | None = game.summary if game is not None else None
        if final.settled_at is not None:
            stood = summary.totals if summary is not None else [0, 0, 0, 0]
            totals = _four(final.settled_totals if final.settled_totals is not None else stood)
        elif summary is not None and summary.status == Summary.Status.WON:
            totals = _four(summary.totals)
        else:
            return None
        if not self.nights:
            return None
        return EventGame(
            round=len(self.published),
            night=len(self.nights) - 1,
            players=_four(final.players),
            totals=totals,
        )

    def final_finished_at(self, final: EventFinal) -> datetime | None:
        """When a final's game came to count: settled, when it was settled; else when its
        game was won (None: neither)."""
        if final.settled_at is not None:
            return final.settled_at
        game = final.game
        return game.finished_at if game is not None else None

    def ranking(self, *, up_to_round: int | None = None) -> tuple[RankingLine, ...]:
        """The event's ranking by the contract (the engine's ``rank_event``), over its rounds
        up to ``up_to_round`` (None: all)."""
        entrants = [entry.member_id for entry in self.entries]
        # A player seated once, whose entry went since (his member deleted), stays ranked.
        seated = {one for _, seating in self.seatings for one in _players(seating)}
        entrants += sorted(seated - set(entrants))
        return rank_event(
            entrants,
            len(self.nights),
            self.seatings,
            self.games,
            self.rules,
            up_to_round=up_to_round,
        )

    def shown_up_to(self, organiser: bool) -> int | None:
        """The last round the ranking counts for this viewer: all for an organiser or once
        the event ended; else the rounds before its hidden last K."""
        event = self.event
        if organiser or event.ended_at is not None or not event.hide_last_rounds:
            return None
        return max(self.planned - event.hide_last_rounds, 0)

    def present(self, number: int, checked_in: set[int]) -> list[int]:
        """The entrants round ``number`` seats: entered by then, not withdrawn, checked in."""
        return [
            entry.member_id
            for entry in self.entries
            if entry.entered_round <= number
            and (entry.withdrawn_round is None or entry.withdrawn_round > number)
            and entry.member_id in checked_in
        ]


def event_facts(event: Event) -> EventFacts:
    """The event's facts in six queries: nights, entries, rounds, the published rounds'
    games with their summaries, the tables settled, the finals."""
    nights = list(Night.objects.filter(event=event).order_by("date", "id"))
    entries = list(EventEntry.objects.filter(event=event).order_by("entered_at", "id"))
    rounds = list(EventRound.objects.filter(event=event).order_by("number"))
    games = {
        (game.club_game.round_id, game.club_game.table): game
        for game in Game.objects.filter(club_game__round__event_round__event=event)
        .select_related("summary", "club_game")
        .order_by()
    }
    settled = {
        (row.event_round_id, row.table): row
        for row in TableSettled.objects.filter(event_round__event=event)
    }
    tables = []
    for one in rounds:
        if one.published_at is None:
            continue
        for number, players in enumerate(one.tables, start=1):
            game = games.get((one.round_id, number))
            settle = settled.get((one.pk, number))
            summary: Summary | None = game.summary if game is not None else None
            status = summary.status if summary is not None else "gone"
            totals: tuple[int, int, int, int] | None = None
            finished: datetime | None = None
            if settle is not None:
                stood = summary.totals if summary is not None else [0, 0, 0, 0]
                totals = _four(settle.totals if settle.totals is not None else stood)
                finished = settle.at
            elif summary is not None and status == Summary.Status.WON:
                totals = _four(summary.totals)
                finished = game.finished_at if game is not None else None
            tables.append(
                TableFacts(
                    round=one.number,
                    table=number,
                    players=_four(players),
                    public_id=game.public_id if game is not None else None,
                    status=status,
                    hands=summary.hands if summary is not None else 0,
                    totals=totals,
                    settled=settle,
                    finished_at=finished,
                )
            )
    finals = list(EventFinal.objects.filter(event=event).select_related("game__summary"))
    return EventFacts(event, nights, entries, rounds, tables, finals)


def _players(seating: Seating) -> list[int]:
    return [one for table in seating.tables for one in table] + list(seating.sitting_out)


def _four(values: Sequence[int]) -> tuple[int, int, int, int]:
    first, second, third, fourth = (int(value) for value in values)
    return first, second, third, fourth


def forbidden_pairs(event: Event) -> list[tuple[int, int]]:
    """The pairs never seated together in this event: the club's and the event's own."""
    return sorted(
        set(
            ForbiddenPair.objects.filter(club=event.club_id, event__isnull=True).values_list(
                "first", "second"
            )
        )
        | set(ForbiddenPair.objects.filter(event=event).values_list("first", "second"))
    )
