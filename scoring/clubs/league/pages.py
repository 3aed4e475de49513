"""What a club's league pages show, laid out from the rows the league keeps (ClubResult):
a season's standings, a player's statistics, and the club's records as JSON lines.

Nothing here scores a game or rates a player: the standings are added up by
``standings.season_standings``, the ratings were stored when each game finished. A player's
page is added up in the database too.
"""

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from math import ceil
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.db.models import Max, OuterRef, Subquery
from django.utils import formats
from django.utils.translation import gettext, ngettext

from ...common.names import name_key, sorted_by_name
from ...common.words import TRUMP_NAMES, format_money, is_red, left_to_right, trump_symbol
from ...engine import Record, Trump, record_to_dict
from ...engine.auction import BOULMOUS, LOWEST_BID
from ...engine.league import (
    COUNTS,
    STATISTIC,
    STATISTICS,
    Rating,
    Statistic,
    first_rating,
)
from ...engine.trust import Explained, Listed, RatingRules, Reason, explain, is_provisional
from ...table.face import Game, exported, load_games
from ..models import Club, ClubResult, Member, PlayerTotals, Season
from ..names import NAMED_COLUMNS, Named, club_names, shown_names
from .ratings import day_number
from .standings import Line, season_of
from .totals import Sums, figure

CHUNK = 200
"""Games read at a time for records.jsonl (three queries each): memory stays flat."""

CHART_POINTS = 300
"""The rating chart draws at most this many points; a longer career is thinned evenly."""
LAST_GAMES = 10


def percent(made: int, taken: int) -> int | None:
    """``made`` out of ``taken`` as a whole percentage, halves rounded up; None for none."""
    if not taken:
        return None
    return (200 * made + taken) // (2 * taken)


def money(amount: Decimal | None, club: Club) -> str:
    """An amount in the club's currency, for a club that plays for money; else empty."""
    if not club.stake or amount is None:
        return ""
    return format_money(amount, club.currency)


# A season's standings.


@dataclass(frozen=True)
class Figure:
    """One statistic of a line, as a page shows it (the registry says how)."""

    statistic: Statistic
    value: int
    percent: int | None
    """Its share of the statistic it is a share of (contracts made, of those taken)."""
    whole: int | None
    """That statistic's value."""

    @property
    def name(self) -> str:
        return self.statistic.name

    @property
    def signed(self) -> str:
        """The value with its sign, as a balance shows it: +3, -2, 0."""
        return left_to_right(f"{self.value:+d}") if self.value else "0"


def figures_of(counts: Mapping[str, int]) -> list[Figure]:
    """Each statistic of a line, in the registry's order."""
    return [
        Figure(
            statistic,
            counts[statistic.name],
            percent(counts[statistic.name], counts[statistic.share_of])
            if statistic.share_of
            else None,
            counts[statistic.share_of] if statistic.share_of else None,
        )
        for statistic in STATISTICS
    ]


class Heading(NamedTuple):
    """A statistic's column, its title in the current language."""

    statistic: Statistic
    label: str
    short: str


def headings() -> list[Heading]:
    """The standings' columns, one a statistic, titled in the current language."""
    return [
        Heading(statistic, gettext(statistic.label), gettext(statistic.short))
        for statistic in STATISTICS
    ]


class Counts:
    """A line's statistics by name (``line.wins``) and their shares (``line.made_percent``),
    as the registry declares them."""

    counts: Mapping[str, int]

    def __getattr__(self, name: str) -> Any:  # an int, or None for a share of nothing
        if name in COUNTS:
            return self.counts[name]
        base = name.removesuffix("_percent")
        share_of = STATISTIC[base].share_of if base in STATISTIC else None
        if name.endswith("_percent") and share_of:
            return percent(self.counts[base], self.counts[share_of])
        raise AttributeError(name)

    @property
    def figures(self) -> list[Figure]:
        return figures_of(self.counts)


@dataclass(frozen=True)
class StandingRow(Counts):
    """A line of the season's table, as the page, the print page and the PDF show it."""

    rank: int
    player: str
    member_id: int | None
    counts: Mapping[str, int]
    money: str
    """The units in the club's currency, formatted; empty for a club without a stake."""
    rating: float
    """The rating shown: mu - 3 sigma."""
    mu: float
    sigma: float
    provisional: bool = False
    """Shown with "?" (league.md, "Ratings people trust")."""


def standing_rows(club: Club, lines: Iterable[Line]) -> list[StandingRow]:
    """The season's standings (``standings.season_standings``) as the pages show them."""
    rows = []
    rules = club.rating_rules
    for line in lines:
        standing = line.standing
        rating = standing.rating or first_rating()
        rows.append(
            StandingRow(
                rank=standing.rank,
                player=standing.player,
                member_id=line.member_id,
                counts=dict(standing.counts),
                money=money(line.amount, club),
                rating=rating.shown,
                mu=rating.mu,
                sigma=rating.sigma,
                provisional=is_provisional(line.played, rating.sigma, rules),
            )
        )
    return rows


def provisional_note(rules: RatingRules) -> str:
    """What "?" beside a rating says, with the club's thresholds."""
    return gettext(
        "“?” marks a provisional rating: fewer than %(games)s games, or an uncertainty (σ) "
        "above %(sigma)s."
    ) % {
        "games": rules.provisional_games,
        "sigma": formats.number_format(rules.provisional_sigma, 1),
    }


def signed_decimal(value: float) -> str:
    """A change with its sign and one decimal, as the page's language writes it (``+1.4``,
    ``-0,5``), read left to right in Arabic too."""
    value = round(value, 1) + 0.0  # no -0.0
    text = formats.number_format(value, 1)
    return left_to_right(f"+{text}" if value > 0 else text)


@dataclass(frozen=True)
class RatingLine:
    """A line of the club's ratings list: his place among the ranked (None apart), his
    rating, and why he is apart."""

    place: int | None
    player: str
    member_id: int | None
    rating: float
    provisional: bool
    reason: str


def rating_lines(listed: Iterable[Listed], rules: RatingRules) -> list[RatingLine]:
    """The ratings list's lines (``standings.ratings_on``) as the pages show them."""
    return [
        RatingLine(
            place=line.place,
            player=line.entry.player,
            member_id=line.entry.member_id,
            rating=line.entry.rating.shown,
            provisional=line.provisional,
            reason=_reason(line, rules),
        )
        for line in listed
    ]


def _reason(line: Listed, rules: RatingRules) -> str:
    if line.reason is Reason.GAMES:
        return ngettext(
            "%(games)s game of %(needed)s", "%(games)s games of %(needed)s", line.entry.games
        ) % {"games": line.entry.games, "needed": rules.ranked_games}
    if line.reason is Reason.AWAY:
        return ngettext("last game %(days)s day ago", "last game %(days)s days ago", line.days) % {
            "days": line.days
        }
    return ""


def model_explained() -> str:
    """The one sentence that says how a game moves a rating, on the player's page."""
    return gettext(
        "After each game, the place he got is compared with the place expected of him from "
        "the four ratings before it: better raises his rating, worse lowers it, and by more "
        "while its uncertainty (σ) is high, as after a pause."
    )


def rating_explained() -> str:
    """The one sentence that says what the rating is, on the page and on paper."""
    return gettext(
        "The rating is a player's estimated skill (μ) minus three times its uncertainty (σ), "
        "from every game he played in the club in the order they finished: it starts at 0 "
        "and grows as he plays and beats stronger players."
    )


def counted_games(rows: Sequence[StandingRow]) -> int:
    """The season's counted games: each has four players."""
    return sum(row.counts["games"] for row in rows) // 4


# A player's page.


@dataclass(frozen=True)
class ContractLine:
    """How a player's contracts of one kind (a bid, or a trump) went."""

    label: str
    symbol: str
    red: bool
    taken: int
    made: int
    missed: int
    made_percent: int | None


@dataclass(frozen=True)
class Meeting:
    """A player against one other: the games they played together, and who finished ahead."""

    member_id: int | None
    name: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class Opponent:
    name: str
    total: int
    rank: int


@dataclass(frozen=True)
class RecentGame:
    public_id: str
    finished_at: datetime
    rank: int
    total: int
    won: bool
    rating: float
    others: Sequence[Opponent]
    why: Explained | None = None
    """Why his rating moved: the place expected of him, the change, the pause's part."""

    @property
    def change(self) -> str:
        return signed_decimal(self.why.change) if self.why else ""

    @property
    def pause(self) -> str:
        """The pause's part of the change, when there was a pause that moved it."""
        if self.why is None or not self.why.days or round(self.why.pause, 1) == 0:
            return ""
        return signed_decimal(self.why.pause)


@dataclass(frozen=True)
class RatingChart:
    """The rating after each of his games, as an inline SVG polyline."""

    width: int
    height: int
    points: str
    """``x,y x,y ...``, his first game at the left."""
    zero_y: float
    high: float
    high_y: float
    low: float
    low_y: float
    label_x: int
    last_x: float
    last_y: float


@dataclass(frozen=True)
class PlayerStats(Counts):
    """A player's statistics over all the club's counted games: each of the registry's
    (``stats.wins``, ``stats.made_percent``), and what only his page shows."""

    name: str
    """His name, as the one who asks is shown it."""
    counts: Mapping[str, int]
    by_bid: Sequence[ContractLine]
    by_trump: Sequence[ContractLine]
    money: str
    rating: Rating
    provisional: bool
    head_to_head: Sequence[Meeting]
    recent: Sequence[RecentGame]
    chart: RatingChart | None

    @property
    def low(self) -> float:
        """The low end of his skill's likely range: mu - 2 sigma."""
        return self.rating.mu - 2 * self.rating.sigma

    @property
    def high(self) -> float:
        """The high end of his skill's likely range: mu + 2 sigma."""
        return self.rating.mu + 2 * self.rating.sigma

    @property
    def points_per_game(self) -> float | None:
        return self.per_game("points")

    def per_game(self, name: str) -> float | None:
        games = self.counts["games"]
        return round(self.counts[name] / games, 1) if games else None

    @property
    def shown(self) -> list[tuple[Figure, str, float | None]]:
        """What the summary shows, each statistic under its label (or per game), in order."""
        return [
            (
                figure,
                gettext(figure.statistic.per_game or figure.statistic.label),
                self.per_game(figure.name) if figure.statistic.per_game else None,
            )
            for figure in self.figures
            if figure.statistic.on_player_page
        ]


class _Recent(NamedTuple):
    """One of his last games, as the player page shows it."""

    game_id: int
    public_id: str
    finished_at: datetime
    seat: int
    rank: int
    total: int
    won: bool
    mu: float
    sigma: float


_RECENT_COLUMNS = [name if name != "public_id" else "game__public_id" for name in _Recent._fields]


class _Other(NamedTuple):
    """A player's row at one of his tables (his own too): what the last games show of him,
    and his rating after his previous counted game (None before his first) and its finish,
    which say why the ratings moved."""

    game_id: int
    seat: int
    key: str
    name: str
    rank: int
    total: int
    mu: float
    sigma: float
    prev_mu: float | None
    prev_sigma: float | None
    prev_at: datetime | None


def _previous(column: str) -> Subquery:
    """A row's player's ``column`` at his counted game before it (by the (club, key, position)
    index)."""
    earlier = ClubResult.objects.filter(
        club_id=OuterRef("club_id"), key=OuterRef("key"), position__lt=OuterRef("position")
    ).order_by("-position")
    return Subquery(earlier.values(column)[:1])


def player_stats(club: Club, member: Member, *, public: bool = False) -> PlayerStats:
    """A member's statistics over all the club's counted games, added up in the database
    (his sums, his contracts by bid and trump, his head-to-head each one query, whatever
    the number of his games), with his ratings after each game for the chart, his last
    games and the others at their tables, and the club's names (as the public sees them
    if ``public``): seven queries."""
    his = ClubResult.objects.filter(club=club, key=member.key)
    row = PlayerTotals.objects.filter(club=club, key=member.key).first()
    totals = Sums() if row is None else Sums.of(row)
    counts = {
        statistic.name: figure(statistic, totals.figures, club.points) for statistic in STATISTICS
    }
    ratings = [
        Rating(mu, sigma) for mu, sigma in his.order_by("position").values_list("mu", "sigma")
    ]
    recent = [
        _Recent(*values)
        for values in his.order_by("-position").values_list(*_RECENT_COLUMNS)[:LAST_GAMES]
    ]
    tables: dict[int, list[_Other]] = {}
    for values in (
        ClubResult.objects.filter(game_id__in=[row.game_id for row in recent])
        .order_by("seat")
        .annotate(
            prev_mu=_previous("mu"),
            prev_sigma=_previous("sigma"),
            prev_at=_previous("finished_at"),
        )
        .values_list(*_Other._fields)
    ):
        other = _Other(*values)
        tables.setdefault(other.game_id, []).append(other)
    named = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    names = shown_names(named, public=public)
    members = {one.key: (one.pk, names[one.key]) for one in named}
    contracts = {
        (int(bid), trump, made == "1"): number
        for contract, number in totals.contracts.items()
        for bid, trump, made in [contract.split(":")]
    }
    return PlayerStats(
        name=names[member.key],
        counts=counts,
        by_bid=_by_bid(contracts),
        by_trump=_by_trump(contracts),
        money=money(totals.fields()["amount"], club),
        rating=ratings[-1] if ratings else first_rating(),
        provisional=is_provisional(
            len(ratings), (ratings[-1] if ratings else first_rating()).sigma, club.rating_rules
        ),
        head_to_head=_head_to_head(club, totals.meetings, members),
        recent=_recent(club, recent, tables, members),
        chart=_chart(ratings),
    )


Contracts = Mapping[tuple[int, str, bool], int]
"""How many contracts he took of each bid and trump, made or not."""


Taken = tuple[int, str, bool]
"""A contract he took: its bid, its trump and whether he made it."""


def _contract_line(label: str, symbol: str, red: bool, made: int, taken: int) -> ContractLine:
    return ContractLine(
        label=label,
        symbol=symbol,
        red=red,
        taken=taken,
        made=made,
        missed=taken - made,
        made_percent=percent(made, taken),
    )


def _by_bid(contracts: Contracts) -> list[ContractLine]:
    """His contracts by bid, 3 to 6 (boulmous), each shown whether he took it or not."""
    return [
        _contract_line(
            gettext("boulmous") if bid == BOULMOUS else "",
            str(bid),
            False,
            sum(n for (taken, _, made), n in contracts.items() if taken == bid and made),
            sum(n for (taken, _, _), n in contracts.items() if taken == bid),
        )
        for bid in range(LOWEST_BID, BOULMOUS + 1)
    ]


def _by_trump(contracts: Contracts) -> list[ContractLine]:
    """His contracts by trump: spades, hearts, diamonds, clubs, no trump."""
    return [
        _contract_line(
            str(TRUMP_NAMES[trump]),
            trump_symbol(trump),
            is_red(trump),
            sum(n for (_, taken, made), n in contracts.items() if taken == trump.value and made),
            sum(n for (_, taken, _), n in contracts.items() if taken == trump.value),
        )
        for trump in Trump
    ]


Names = Mapping[str, tuple[int | None, str]]
"""The club's members by key: their id and their name."""


def _head_to_head(club: Club, meetings: Mapping[str, list[int]], members: Names) -> list[Meeting]:
    """Each other player he met (his totals' meetings): the most games together first, then
    by name. A guest, no member, is named as his rows name him (one query, only then)."""
    guests = [key for key in meetings if key not in members]
    if guests:
        named = (
            ClubResult.objects.filter(club=club, key__in=guests)
            .values("key")
            .annotate(name=Max("name"))
            .values_list("key", "name")
        )
        members = {**members, **{key: (None, name) for key, name in named}}
    found = [Meeting(*members[key], *meeting) for key, meeting in meetings.items()]
    by_name = sorted_by_name(found, lambda meeting: meeting.name)
    return sorted(by_name, key=lambda meeting: -meeting.games)


def _recent(
    club: Club, recent: Sequence[_Recent], tables: dict[int, list[_Other]], members: Names
) -> list[RecentGame]:
    """His last games, the newest first, each with the others at his table and why his
    rating moved (:func:`~scoring.engine.trust.explain`)."""
    zone, growth = ZoneInfo(club.time_zone), club.rating_rules.growth
    games = []
    for row in recent:
        table = tables.get(row.game_id, [])
        seat = next(index for index, one in enumerate(table) if one.seat == row.seat)
        previous = [
            None
            if one.prev_mu is None or one.prev_sigma is None or one.prev_at is None
            else (Rating(one.prev_mu, one.prev_sigma), day_number(one.prev_at, zone))
            for one in table
        ]
        why = explain(
            seat,
            previous,
            day_number(row.finished_at, zone),
            [one.rank for one in table],
            Rating(row.mu, row.sigma),
            growth,
        )
        games.append(
            RecentGame(
                public_id=row.public_id,
                finished_at=row.finished_at,
                rank=row.rank,
                total=row.total,
                won=row.won,
                rating=Rating(row.mu, row.sigma).shown,
                others=[
                    Opponent(members.get(one.key, (None, one.name))[1], one.total, one.rank)
                    for index, one in enumerate(table)
                    if index != seat
                ],
                why=why,
            )
        )
    return games


def _chart(ratings: Sequence[Rating]) -> RatingChart | None:
    """His shown rating from before his first game (the default, 0) to after his last, in
    a 320 by 120 box; at most ``CHART_POINTS`` points, the last always drawn."""
    if not ratings:
        return None
    width, height, pad, left = 320, 120, 8, 34
    values = [first_rating().shown, *(rating.shown for rating in ratings)]
    step = ceil(len(values) / CHART_POINTS)
    picked = list(range(0, len(values), step))
    if picked[-1] != len(values) - 1:
        picked.append(len(values) - 1)
    high, low = max(0.0, *values), min(0.0, *values)
    span = (high - low) or 1.0
    per_game = (width - left - pad) / max(1, len(values) - 1)

    def x(index: int) -> float:
        return round(left + index * per_game, 1)

    def y(value: float) -> float:
        return round(pad + (high - value) * (height - 2 * pad) / span, 1)

    return RatingChart(
        width=width,
        height=height,
        points=" ".join(f"{x(index)},{y(values[index])}" for index in picked),
        zero_y=y(0.0),
        high=round(high, 1),
        high_y=y(high) + 4,
        low=round(low, 1),
        low_y=y(low),
        label_x=left - 4,
        last_x=x(len(values) - 1),
        last_y=y(values[-1]),
    )


# The club's records.


def records_lines(club: Club, *, chunk: int = CHUNK, public: bool = False) -> Iterator[str]:
    """``records.jsonl``: each counted game of the club, in the order they finished, as a
    ``boulmous/1`` record on one line, with its descriptive keys and the players as the
    club shows them (to the public if ``public``: scoring/clubs/names.py). Games are read
    ``chunk`` at a time; the order is fixed at the start."""
    order = list(
        ClubResult.objects.filter(club=club, seat=0)
        .order_by("position")
        .values_list("game_id", flat=True)
    )
    if not order:
        return
    seasons = list(Season.objects.filter(club=club))
    names = club_names(club.pk, public=public)
    for first in range(0, len(order), chunk):
        ids = order[first : first + chunk]
        states = {state.game.pk: state for state in load_games(Game.objects.filter(pk__in=ids))}
        for game_id in ids:
            state = states.get(game_id)
            if state is None or not state.result.finished:  # changed since the start
                continue
            yield _record_line(club, exported(state), seasons, names) + "\n"


def _record_line(
    club: Club, record: Record, seasons: Sequence[Season], names: dict[str, str]
) -> str:
    about = record.about
    season = season_of(seasons, about.finished_at, club.time_zone) if about.finished_at else None
    record = replace(
        record,
        players=tuple(names.get(name_key(name), name) for name in record.players),
        about=replace(about, club=club.name, season=season.slug if season else None),
    )
    return json.dumps(record_to_dict(record), ensure_ascii=False, separators=(",", ":"))
