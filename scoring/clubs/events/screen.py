"""The room's screen of an event (issue 41, item 6): a page for a projector or a TV, which
turns by itself between the current round's tables with each one's progress, the
standings (the top 16 beside a window that moves over the rest) and the seats of the
round last published (never a draft); once the finals are drawn, their tables with their
progress, then the standings. It follows the event through its version (one
query, :func:`screen_version`), as a game's live view follows a game: static/js/screen.js
sends it as ``If-None-Match`` and gets a 304 until something the screen shows changed.

Anyone sees the screen of a public event; a private event's needs the club's read right
or the signed key of :func:`screen_key`, which its organisers hand out (a TV cannot sign
in). Nothing here writes."""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import Count, F, Max, OuterRef, QuerySet, Subquery, Sum

from ...table.face import Summary
from ..models import Event, EventEntry, EventFinal, EventRound, Member, Night, TableSettled
from ..names import NAMED_COLUMNS, Named, shown_names
from .facts import EventFacts, event_facts
from .pages import points_said
from .prizes import event_prizes

SCREEN_SALT = "boulmous.clubs.events-screen"

TOP = 16
"""The standings' first column: the top 16, always shown."""
WINDOW = 16
"""The standings' second column: a window of 16 over the rest, moving at each turn."""
TABLES_PER_PANEL = 12
"""Tables on one panel: four across, three down."""
SEATS_PER_PANEL = 48
"""Players on one seats panel: three columns of 16."""


def screen_key(event: Event) -> str:
    """The key in a private event's screen address: signed (SECRET_KEY) with the event's
    id and its lot's seed, so that it cannot be made up, and reads for this event only. The
    same for the event's whole life: a screen set up once keeps reading."""
    return signing.Signer(salt=SCREEN_SALT).sign_object([event.pk, event.seed])


def key_reads(event: Event, key: str) -> bool:
    """Whether ``key`` is this event's screen key."""
    try:
        event_id, seed = signing.Signer(salt=SCREEN_SALT).unsign_object(key)
    except (signing.BadSignature, ValueError, TypeError):
        return False
    return bool(event_id == event.pk and seed == event.seed)


@dataclass(frozen=True)
class ScreenTable:
    number: int
    """A round's table's number (0: a final's table)."""
    players: Sequence[str]
    status: str
    """``playing``, ``won``, ``abandoned``, ``gone`` or ``settled``."""
    hand: int
    """The hand being played (for a table playing)."""
    totals: Sequence[int] | None
    """The totals the table counts with, once it counts."""
    final: str = ""
    """A final's table: its kind, ``final`` or ``consolation``."""

    @property
    def scored(self) -> list[tuple[str, int | None]]:
        totals = list(self.totals) if self.totals is not None else [None] * len(self.players)
        return list(zip(self.players, totals, strict=True))


@dataclass(frozen=True)
class ScreenRow:
    rank: int
    name: str
    league_points: str
    points: int
    eligible: bool
    prize: str


@dataclass(frozen=True)
class SeatRow:
    name: str
    table: int | None
    """None: sits this round out."""


@dataclass(frozen=True)
class Panel:
    kind: str
    """``finals``, ``tables``, ``standings``, ``seats`` or ``waiting``."""
    key: str
    """Stays the same while the panel shows the same part, so that the screen stays on it
    when fresh panels come."""
    tables: Sequence[ScreenTable] = ()
    top: Sequence[ScreenRow] = ()
    window: Sequence[ScreenRow] = ()
    seats: Sequence[SeatRow] = ()
    page: int = 1
    pages: int = 1


@dataclass(frozen=True)
class Screen:
    event: Event
    round: int | None
    """The round last published (None: none yet)."""
    planned: int
    playing: int
    """Tables playing: the finals' once they are drawn, else the round's."""
    finals: Sequence[ScreenTable]
    """The final's table and the consolation's, once drawn."""
    sitting_out: Sequence[str]
    panels: Sequence[Panel]
    hidden_from: int | None
    with_prizes: bool


def _names(club_id: int, *, public: bool) -> dict[int, str]:
    rows = [Named(*row) for row in Member.objects.filter(club=club_id).values_list(*NAMED_COLUMNS)]
    shown = shown_names(rows, public=public)
    return {row.pk: shown[row.key] for row in rows}


def _chunks(values: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [values[start : start + size] for start in range(0, len(values), size)]


def _rows(facts: EventFacts, names: dict[int, str]) -> tuple[list[ScreenRow], int | None]:
    up_to = facts.shown_up_to(False)
    lines = facts.ranking(up_to_round=up_to)
    prizes = event_prizes(facts, lines)
    prize_of = prizes.by_member
    rows = []
    for line in lines:
        rows.append(
            ScreenRow(
                line.rank,
                names.get(line.entrant, "?"),
                points_said(line.league_points),
                line.points,
                line.eligible,
                prizes.said(prize_of.get(line.entrant)),
            )
        )
    return rows, None if up_to is None else up_to + 1


def screen(event: Event, *, public: bool) -> Screen:
    """The screen's panels in a fixed number of queries, whatever the event's size: its
    facts (six) and the club's names (one). The ranking is the one players see (its hidden
    rounds left out until the event ends)."""
    facts = event_facts(event)
    names = _names(event.club_id, public=public)
    rows, hidden_from = _rows(facts, names)
    published = facts.published
    current: EventRound | None = published[-1] if published else None
    panels: list[Panel] = []
    tables: list[ScreenTable] = []
    sitting_out: list[str] = []
    finals = _finals(facts, names)
    if finals:  # the rounds are over: the finals play, their tables shown first
        panels.append(Panel("finals", "finals", tables=finals))
    elif current is not None:
        tables = [
            ScreenTable(
                table.table,
                [names.get(one, "?") for one in table.players],
                "settled" if table.settled is not None else table.status,
                table.hands + 1,
                table.totals,
            )
            for table in facts.tables
            if table.round == current.number
        ]
        sitting_out = [names.get(one, "?") for one in current.sitting_out]
        chunks = _chunks(tables, TABLES_PER_PANEL)
        panels += [
            Panel(
                "tables",
                f"tables-{current.number}-{index}",
                tables=chunk,
                page=index,
                pages=len(chunks),
            )
            for index, chunk in enumerate(chunks, start=1)
        ]
    if rows:
        top, rest = rows[:TOP], rows[TOP:]
        windows = _chunks(rest, WINDOW) or [()]
        panels += [
            Panel(
                "standings",
                f"standings-{index}",
                top=top,
                window=window,
                page=index,
                pages=len(windows),
            )
            for index, window in enumerate(windows, start=1)
        ]
    if current is not None and not finals:
        seated = [SeatRow(name, table.number) for table in tables for name in table.players] + [
            SeatRow(name, None) for name in sitting_out
        ]
        seated.sort(key=lambda row: row.name.casefold())
        chunks = _chunks(seated, SEATS_PER_PANEL)
        panels += [
            Panel(
                "seats",
                f"seats-{current.number}-{index}",
                seats=chunk,
                page=index,
                pages=len(chunks),
            )
            for index, chunk in enumerate(chunks, start=1)
        ]
    if not panels:
        panels.append(Panel("waiting", "waiting"))
    return Screen(
        event=event,
        round=current.number if current is not None else None,
        planned=facts.planned,
        playing=sum(
            table.status == Summary.Status.PLAYING for table in (finals if finals else tables)
        ),
        finals=finals,
        sitting_out=sitting_out,
        panels=panels,
        hidden_from=hidden_from,
        with_prizes=any(row.prize for row in rows),
    )


def _finals(facts: EventFacts, names: dict[int, str]) -> list[ScreenTable]:
    """The finals' tables, once drawn, as a round's: each one's hand being played, or its
    state, and the totals it counts with once won or settled."""
    shown = []
    for final in sorted(facts.finals, key=lambda final: final.kind != EventFinal.Kind.FINAL):
        game = final.game
        summary: Summary | None = game.summary if game is not None else None
        played = facts.final_played(final)
        status = summary.status if summary is not None else "gone"
        shown.append(
            ScreenTable(
                0,
                [names.get(one, "?") for one in final.players],
                "settled" if final.settled_at is not None else status,
                (summary.hands if summary is not None else 0) + 1,
                played.totals if played is not None else None,
                final=str(final.kind),
            )
        )
    return shown


def screen_version(event: Event) -> str:
    """What the screen shows, in one query of counts that scores nothing: the event's own
    settings, its entries and withdrawals, its published rounds, its games' progress (their
    summaries' last change, which every change of a game writes), the tables settled and
    the finals and their games' progress. A draft drawn or swapped changes nothing here:
    the screen never shows one."""

    def one(queryset: QuerySet[Any], value: Any) -> Subquery:
        return Subquery(queryset.annotate(value=value).values("value")[:1])

    games = Summary.objects.filter(
        game__club_game__round__event_round__event=OuterRef("pk")
    ).order_by()
    rounds = EventRound.objects.filter(event=OuterRef("pk"), published_at__isnull=False).order_by()
    entries = EventEntry.objects.filter(event=OuterRef("pk")).order_by()
    settled = TableSettled.objects.filter(event_round__event=OuterRef("pk")).order_by()
    finals = EventFinal.objects.filter(event=OuterRef("pk")).order_by()
    played = Summary.objects.filter(game__event_final__event=OuterRef("pk")).order_by()
    nights = Night.objects.filter(event=OuterRef("pk")).order_by()
    facts = list(
        Event.objects.filter(pk=event.pk).values_list(
            "name",
            "public",
            "ended_at",
            "hide_last_rounds",
            "entry_fee",
            "fee_currency",
            "prize_kind",
            "prizes",
            "best_nights",
            "min_attendance",
            "points",
            "sit_out_points",
            F("club__name"),
            one(rounds.values("event"), Count("pk")),
            one(rounds.values("event"), Max("published_at")),
            one(entries.values("event"), Count("pk")),
            one(entries.values("event"), Count("withdrawn_round")),
            one(games.values("game__club_game__round__event_round__event"), Count("pk")),
            one(games.values("game__club_game__round__event_round__event"), Sum("hands")),
            one(games.values("game__club_game__round__event_round__event"), Max("changed_at")),
            one(settled.values("event_round__event"), Count("pk")),
            one(settled.values("event_round__event"), Max("at")),
            one(finals.values("event"), Count("pk")),
            one(finals.values("event"), Max("settled_at")),
            one(played.values("game__event_final__event"), Sum("hands")),
            one(played.values("game__event_final__event"), Max("changed_at")),
            one(nights.values("event"), Count("pk")),
            one(nights.values("event"), Sum("rounds")),
        )
    )
    return hashlib.blake2b(repr(facts).encode(), digest_size=8).hexdigest()
