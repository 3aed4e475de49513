"""What an event's pages show, laid out from its facts (facts.py) and the engine's ranking:
its nights, entries and pairs, its rounds with each table's progress (the draft to its
organisers only, with what it seats that a draw would not), the ranking with the step that
placed each player, the best nights counted, those below the attendance apart, the rounds
hidden from players, its fee and prizes, its finals; and its exports (ranking.csv,
event.jsonl) by the contract's "Exports". Nothing here writes."""

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from ...common.words import format_money
from ...engine import record_to_dict
from ...engine.events import (
    FinalLine,
    RankingLine,
    final_standing,
)
from ...engine.events import ranking_csv as engine_ranking_csv
from ...engine.money import decimals
from ...engine.names import name_key
from ...table.face import Game, Summary, exported, load_games
from ..league.standings import season_of
from ..models import Attendance, Club, Event, EventFinal, EventRound, ForbiddenPair, Member, Season
from ..names import NAMED_COLUMNS, Named, shown_names
from .facts import CARRY, EventFacts, TableFacts, event_facts
from .prizes import event_prizes
from .services import Warnings, draft_key, next_night, warnings_of

STEPS: dict[int, Promise] = {
    2: gettext_lazy("total points"),
    3: gettext_lazy("opponents’ average"),
    4: gettext_lazy("first places"),
    5: gettext_lazy("head to head"),
    6: pgettext_lazy("tie-break", "the lot"),
}
"""The ranking's tie-break steps after league points, as the page names the one that placed
a player (the contract's order)."""


def points_text(value: Fraction) -> str:
    """League points as a machine writes them: ``7``, ``7.5``, ``6.25`` (exact: a scheme's
    mean is a quarter at the finest; a longer one is cut to four decimals)."""
    number = Decimal(value.numerator) / Decimal(value.denominator)
    number = number.quantize(Decimal("0.0001"), rounding=ROUND_DOWN)
    return format(number.normalize(), "f") if number else "0"


def points_said(value: Fraction | Decimal) -> str:
    """League points as the page's language writes them: ``7``, ``7,5`` in French."""
    number = Decimal(points_text(Fraction(value)))
    return number_format(number, use_l10n=True)


@dataclass(frozen=True)
class Seat:
    member_id: int
    name: str


@dataclass(frozen=True)
class TableShown:
    number: int
    players: Sequence[Seat]
    public_id: str | None
    status: str
    """``playing``, ``won``, ``abandoned``, ``gone``, or ``settled``."""
    hand: int
    totals: Sequence[int] | None
    reason: str

    @property
    def scored(self) -> list[tuple[Seat, int | None]]:
        """Each seat's player, and the total the table counts with (None: not counted)."""
        totals = list(self.totals) if self.totals is not None else [None] * len(self.players)
        return list(zip(self.players, totals, strict=True))


@dataclass(frozen=True)
class RoundShown:
    round: EventRound
    night_date: Any
    tables: Sequence[TableShown]
    sitting_out: Sequence[Seat]
    warnings: Sequence[str]
    """For a draft: what it seats that a draw would not (repeats, forbidden pairs)."""
    key: str

    @property
    def draft(self) -> bool:
        return self.round.published_at is None

    @property
    def playing(self) -> int:
        return sum(table.status == Summary.Status.PLAYING for table in self.tables)


@dataclass(frozen=True)
class NightPoints:
    points: str
    counted: bool


@dataclass(frozen=True)
class RankingRow:
    line: RankingLine
    name: str
    member_id: int
    league_points: str
    opponents: str
    decided_by: str
    nights: Sequence[NightPoints]
    withdrawn: bool
    prize: str


@dataclass(frozen=True)
class EntryShown:
    member_id: int
    name: str
    guest: bool
    entered_round: int
    withdrawn_round: int | None


@dataclass(frozen=True)
class PairShown:
    pk: int
    names: tuple[str, str]
    club_wide: bool


@dataclass(frozen=True)
class FinalPlace:
    """A finalist's place: his league points carried, his round points at the final table,
    their sum, and what broke a tie (``table``: rank at the final table; ``ranking``)."""

    place: int
    name: str
    carried: str
    final: int
    total: str
    decided_by: str


@dataclass(frozen=True)
class FinalShown:
    kind: str
    players: Sequence[Seat]
    public_id: str | None
    status: str
    """``playing``, ``won``, ``abandoned``, ``gone``, or ``settled``."""
    standing: Sequence[FinalPlace]
    """Once its game is won or settled: the final standing (the engine's ``final_standing``)."""
    totals: Sequence[int] | None = None
    """Settled: the totals it counts with."""
    reason: str = ""
    """Settled: the organiser's reason."""

    @property
    def scored(self) -> list[tuple[Seat, int | None]]:
        """Each seat's player, and the total a settled final counts with (else None)."""
        totals = list(self.totals) if self.totals is not None else [None] * len(self.players)
        return list(zip(self.players, totals, strict=True))


@dataclass(frozen=True)
class EventPage:
    """The event page's facts."""

    event: Event
    facts: EventFacts
    organiser: bool
    names: Mapping[int, str]
    entries: Sequence[EntryShown]
    rounds: Sequence[RoundShown]
    """Published rounds (and, for its organisers, the draft), newest first."""
    ranking: Sequence[RankingRow]
    eligible: Sequence[RankingRow]
    apart: Sequence[RankingRow]
    """Below the attendance: ranked apart, with the reason."""
    hidden_from: int | None
    """For a player while rounds are hidden: the first round the ranking leaves out."""
    pairs: Sequence[PairShown]
    finals: Sequence[FinalShown]
    pool: str
    prizes: Sequence[tuple[int, str]]
    next_number: int
    next_night: Any
    present: int
    checked_in: Sequence[int]
    """Who of the entrants is checked in at the next round's night."""
    late_entry_open: bool

    @property
    def draft(self) -> RoundShown | None:
        first = self.rounds[0] if self.rounds else None
        return first if first is not None and first.draft else None

    @property
    def all_drawn(self) -> bool:
        return self.facts.planned > 0 and len(self.facts.rounds) >= self.facts.planned

    @property
    def attendance(self) -> int | None:
        """The least attendance for the title, in %."""
        share = self.event.min_attendance
        return None if share is None else int(Decimal(share) * 100)

    @property
    def playing(self) -> int:
        published = [one for one in self.rounds if not one.draft]
        return published[0].playing if published else 0


def _names(club_id: int, public: bool) -> tuple[dict[int, str], set[int]]:
    rows = [Named(*row) for row in Member.objects.filter(club=club_id).values_list(*NAMED_COLUMNS)]
    shown = shown_names(rows, public=public)
    guests = set(
        Member.objects.filter(club=club_id, role=Member.Role.GUEST).values_list("pk", flat=True)
    )
    return {row.pk: shown[row.key] for row in rows}, guests


def prize_list(event: Event, entrants: int) -> tuple[str, list[tuple[int, str]]]:
    """The pool (the fee times the entrants) and each place's prize, in the fee's currency:
    a share of the pool, rounded down to the currency's unit, or a fixed amount."""
    currency = event.fee_currency
    unit = Decimal(1).scaleb(-decimals(currency))
    pool = (Decimal(event.entry_fee) * entrants).quantize(unit)
    prizes = []
    for place, value in enumerate(event.prizes, start=1):
        amount = Decimal(value)
        if event.prize_kind == Event.PrizeKind.SHARE:
            amount = (pool * amount / 100).quantize(unit, rounding=ROUND_DOWN)
        prizes.append((place, format_money(amount.quantize(unit), currency)))
    return format_money(pool, currency), prizes


def _seats(ids: Sequence[int], names: Mapping[int, str]) -> list[Seat]:
    return [Seat(one, names.get(one, "?")) for one in ids]


def _warning_words(warned: Warnings, names: Mapping[int, str]) -> list[str]:
    def pair(pair: tuple[int, int]) -> str:
        return f"{names.get(pair[0], '?')} – {names.get(pair[1], '?')}"

    words = [gettext("Met before: %(pair)s") % {"pair": pair(one)} for one in warned.repeats]
    words += [
        gettext("Never together, yet seated together: %(pair)s") % {"pair": pair(one)}
        for one in warned.forbidden
    ]
    return words


def _round_shown(
    facts: EventFacts,
    one: EventRound,
    tables: Sequence[TableFacts],
    names: Mapping[int, str],
    dates: Mapping[int, Any],
) -> RoundShown:
    if one.published_at is None:
        shown = [
            TableShown(number, _seats(players, names), None, "draft", 0, None, "")
            for number, players in enumerate(one.tables, start=1)
        ]
        warned = _warning_words(warnings_of(facts, one), names)
    else:
        shown = [
            TableShown(
                table.table,
                _seats(table.players, names),
                table.public_id,
                "settled" if table.settled is not None else table.status,
                table.hands + 1,
                table.totals,
                table.settled.reason if table.settled is not None else "",
            )
            for table in tables
        ]
        warned = []
    return RoundShown(
        one,
        dates.get(one.night_id),
        shown,
        _seats(one.sitting_out, names),
        warned,
        draft_key(one),
    )


FINAL_ORDER = (EventFinal.Kind.FINAL, EventFinal.Kind.CONSOLATION)
"""The finals in the order event.jsonl lists two that finished at once."""

FINAL_TIES = {"table": gettext_lazy("rank at the final table"), "ranking": gettext_lazy("ranking")}
"""What broke a tie in a final's standing, as the page says it."""


def _final_lines(
    facts: EventFacts, final: EventFinal, lines: Sequence[RankingLine]
) -> tuple[FinalLine, ...]:
    """A final's standing once its game is won or settled (the engine's ``final_standing``,
    over the whole ranking), else none."""
    played = facts.final_played(final)
    if played is None:
        return ()
    return final_standing(lines, played, CARRY[facts.event.carry_over], facts.rules)


def _final_shown(
    facts: EventFacts,
    final: EventFinal,
    standing: Sequence[FinalLine],
    names: Mapping[int, str],
) -> FinalShown:
    game = final.game
    summary: Summary | None = game.summary if game is not None else None
    settled = final.settled_at is not None
    played = facts.final_played(final) if settled else None
    return FinalShown(
        final.kind,
        _seats(final.players, names),
        game.public_id if game is not None else None,
        "settled" if settled else summary.status if summary is not None else "gone",
        [
            FinalPlace(
                line.place,
                names.get(line.entrant, "?"),
                points_said(line.carried),
                line.final,
                points_said(line.total),
                str(FINAL_TIES[line.decided_by]) if line.decided_by in FINAL_TIES else "",
            )
            for line in standing
        ],
        played.totals if played is not None else None,
        final.settled_reason if settled else "",
    )


def _four(values: Sequence[int]) -> tuple[int, int, int, int]:
    first, second, third, fourth = (int(value) for value in values)
    return first, second, third, fourth


def event_page(event: Event, *, organiser: bool, public: bool) -> EventPage:
    """The event page in a fixed number of queries, whatever its size: its facts (six), the
    club's names (two), the pairs (one), who is checked in at the next night (one)."""
    facts = event_facts(event)
    names, guests = _names(event.club_id, public)
    dates = {night.pk: night.date for night in facts.nights}
    by_round: dict[int, list[TableFacts]] = {}
    for table in facts.tables:
        by_round.setdefault(table.round, []).append(table)
    rounds = [
        _round_shown(facts, one, by_round.get(one.number, []), names, dates)
        for one in reversed(facts.rounds)
        if organiser or one.published_at is not None
    ]
    up_to = facts.shown_up_to(organiser)
    lines = facts.ranking(up_to_round=up_to)
    withdrawn = {entry.member_id for entry in facts.entries if entry.withdrawn_round is not None}
    pool, prizes = prize_list(event, len(facts.entries))
    # Each prize goes to its final place (prizes.py: the final's, once won, then the ranking).
    money = event_prizes(facts, lines)
    won = money.by_member
    # The finals stand on the whole ranking: shown once nothing of it is hidden.
    whole = lines if up_to is None else facts.ranking()
    standings = [_final_lines(facts, final, whole) for final in facts.finals]
    rows = []
    for line in lines:
        rows.append(
            RankingRow(
                line=line,
                name=names.get(line.entrant, "?"),
                member_id=line.entrant,
                league_points=points_said(line.league_points),
                opponents=number_format(line.opponents, 3, use_l10n=True),
                decided_by=str(STEPS[line.decided_by]) if line.decided_by in STEPS else "",
                nights=[
                    NightPoints(points_said(points), index in line.counted_nights)
                    for index, points in enumerate(line.night_points)
                ],
                withdrawn=line.entrant in withdrawn,
                prize=money.said(won.get(line.entrant)),
            )
        )
    pairs = [
        PairShown(
            pair.pk,
            (names.get(pair.first_id, "?"), names.get(pair.second_id, "?")),
            pair.event_id is None,
        )
        for pair in ForbiddenPair.objects.filter(
            Q(event=event) | Q(club=event.club_id, event__isnull=True)
        ).order_by("id")
    ]
    finals = [
        _final_shown(facts, final, standing if up_to is None else (), names)
        for final, standing in zip(facts.finals, standings, strict=True)
    ]
    night = next_night(facts)
    checked_in: list[int] = []
    if night is not None:
        here = set(
            Attendance.objects.filter(night=night, present=True).values_list("member_id", flat=True)
        )
        checked_in = facts.present(len(facts.rounds) + 1, here)
    drawn = len(facts.rounds)
    entries = [
        EntryShown(
            entry.member_id,
            names.get(entry.member_id, "?"),
            entry.member_id in guests,
            entry.entered_round,
            entry.withdrawn_round,
        )
        for entry in facts.entries
    ]
    return EventPage(
        event=event,
        facts=facts,
        organiser=organiser,
        names=names,
        entries=entries,
        rounds=rounds,
        ranking=rows,
        eligible=[row for row in rows if row.line.eligible],
        apart=[row for row in rows if not row.line.eligible],
        hidden_from=None if up_to is None else up_to + 1,
        pairs=pairs,
        finals=finals,
        pool=pool,
        prizes=prizes,
        next_number=drawn + 1,
        next_night=night,
        present=len(checked_in),
        checked_in=checked_in,
        late_entry_open=drawn == 0 or drawn < facts.planned // 2,
    )


def events_of(club: Club) -> list[Any]:
    """The club's events, newest first, each with its entrants and published rounds
    counted (one query)."""
    events = Event.objects.filter(club=club).annotate(
        entrants=Count("entries", distinct=True),
        drawn=Count("rounds", filter=Q(rounds__published_at__isnull=False), distinct=True),
    )
    return list(events)


# Exports, exactly as the contract's "Exports" says.


def ranking_csv(event: Event, *, public: bool) -> str:
    """``ranking.csv`` (the engine's, by the contract's "Exports"): its rounds as anyone but
    an organiser sees them (hidden rounds left out until the event ends)."""
    facts = event_facts(event)
    names, _ = _names(event.club_id, public)
    lines = facts.ranking(up_to_round=facts.shown_up_to(False))
    return engine_ranking_csv(lines, {line.entrant: names.get(line.entrant, "?") for line in lines})


def event_lines(event: Event, *, public: bool) -> Iterator[str]:
    """``event.jsonl``: every counted event game's ``boulmous/1`` record (won, or settled by
    an organiser), the rounds' tables' and the finals' alike, in the order they finished,
    with the descriptive keys of league.md (``id``, ``club``, ``season``, ``started_at``,
    ``finished_at``, ``place``) and ``event`` and ``round``, and no other key (the record
    contract's readers refuse keys they do not know): a settled table's record is its game
    as it stood, abandoned. A round's game has its round's number as ``round``; a final's,
    which is no round (the contract numbers the rounds, and its ranking counts theirs
    only), has its kind, ``"final"`` or ``"consolation"``. The rounds anyone but an
    organiser sees; the finals once nothing is hidden from him."""
    facts = event_facts(event)
    up_to = facts.shown_up_to(False)
    # (when it finished, its order among games finished at once, its game, its round)
    counted: list[tuple[str, tuple[int, int], str, int | str]] = [
        (
            table.finished_at.isoformat() if table.finished_at else "~",
            (table.round, table.table),
            table.public_id,
            table.round,
        )
        for table in facts.tables
        if table.counted and table.public_id and (up_to is None or table.round <= up_to)
    ]
    if up_to is None:
        for final in facts.finals:
            finished = facts.final_finished_at(final)
            if final.game is not None and facts.final_played(final) is not None:
                counted.append(
                    (
                        finished.isoformat() if finished else "~",
                        (len(facts.rounds) + 1, FINAL_ORDER.index(final.kind)),
                        final.game.public_id,
                        str(final.kind),
                    )
                )
    counted.sort(key=lambda one: (one[0], one[1]))
    if not counted:
        return
    club = event.club
    seasons = list(Season.objects.filter(club=club))
    rows = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    shown = shown_names(rows, public=public)
    states = {
        state.game.public_id: state
        for state in load_games(Game.objects.filter(public_id__in=[one[2] for one in counted]))
    }
    for _, _, public_id, number in counted:
        state = states.get(public_id)
        if state is None:
            continue
        record = exported(state)
        about = record.about
        season = (
            season_of(seasons, about.finished_at, club.time_zone) if about.finished_at else None
        )
        record = replace(
            record,
            players=tuple(shown.get(name_key(name), name) for name in record.players),
            about=replace(about, club=club.name, season=season.slug if season else None),
        )
        data = record_to_dict(record)
        data["event"] = event.name
        data["round"] = number
        yield json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
