"""The club's games: every one, newest first, narrowed by the filters of
:class:`~scoring.clubs.forms.GamesFilterForm`, a page at a time.

A game is dated as the league dates it: a won game by its finish (the moment its club
results carry, which puts it in a season), any other by its start. The list is ordered by
that moment and shows it, so that the rows read in order. Everything comes from the
summaries and the results written with each change: no game is scored to list it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from ...engine.names import name_key
from ...table.face import Seat
from ..league.standings import day_start, season_range
from ..models import Club, ClubGame, ClubResult, Member, Season

PER_PAGE = 50
"""Rows a page: a long evening of tables, and still light on a phone."""


@dataclass(frozen=True)
class GameLine:
    """A row of the list: the game, its players and totals by seat, and where it stands."""

    public_id: str
    scores: Sequence[tuple[str, int]]
    status: str
    """``playing``, ``won`` or ``abandoned``, as the summary says."""
    winner: str | None
    hands: int
    moment: datetime
    """When it finished (a won game) or started (any other)."""
    started_at: datetime
    finished_at: datetime | None
    """When its winning hand was recorded; None for a game not won."""
    night_id: int | None
    table: int | None

    @property
    def final(self) -> bool | None:
        """Whether a won game's result is final (issue 40.4): counted by the league, which
        counts a result once it is final (scoring/table/confirming.py); None for a game not
        won."""
        if self.status != "won":
            return None
        return self.finished_at is not None

    @property
    def finality(self) -> str | None:
        """``final`` or ``provisional`` for a won game, as the API says it; else None."""
        final = self.final
        return None if final is None else "final" if final else "provisional"


def dated(club: Club) -> QuerySet[ClubGame]:
    """The club's games with ``finished_at``, the finish its results carry (a won game's),
    and ``moment``: that finish, else its start."""
    finished = ClubResult.objects.filter(game=OuterRef("game"), seat=0).values("finished_at")
    return ClubGame.objects.filter(club=club).annotate(
        finished_at=Subquery(finished[:1]),
        moment=Coalesce(F("finished_at"), F("game__created_at")),
    )


def filtered(
    club: Club,
    games: QuerySet[ClubGame],
    filters: Mapping[str, Any],
    seasons: Sequence[Season],
    shown: Mapping[str, str],
) -> QuerySet[ClubGame]:
    """``games`` narrowed by each filter given (the form's cleaned data). A part of a name
    is looked for in the names as this viewer is shown them (``shown``, by key: the public
    cannot find a member by the surname it is not shown)."""
    if text := filters.get("q"):
        part = name_key(text)
        keys = [key for key, name in shown.items() if part in name_key(name)]
        games = games.filter(
            Exists(Seat.objects.filter(game=OuterRef("game"), player__key__in=keys))
        )
    if slug := filters.get("season"):
        season = next((season for season in seasons if season.slug == slug), None)
        if season is not None:
            start, end = season_range(club, season)
            games = games.filter(Q(moment__gte=start), Q(moment__lt=end))
    if player := filters.get("player"):
        key = Member.objects.filter(club=club, pk=player).values("key")[:1]
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("game"), player__key=key)))
    if night := filters.get("night"):
        games = games.filter(round__night_id=night)
    if status := filters.get("status"):
        games = games.filter(game__summary__status=status)
    since: date | None = filters.get("since")
    if since:
        since_start = _utc_start(since, club.time_zone)
        if since_start is None and since.year > 1:  # a day after the calendar's last moment
            return games.none()
        if since_start is not None:
            games = games.filter(Q(moment__gte=since_start))
    until: date | None = filters.get("until")
    if until:
        after = _utc_start(until + timedelta(days=1), club.time_zone) if until < date.max else None
        if after is None and until.year == 1:  # a day before the calendar's first moment
            return games.none()
        if after is not None:
            games = games.filter(Q(moment__lt=after))
    return games


def _utc_start(day: date, zone: str) -> datetime | None:
    """The start of ``day`` in ``zone``, in UTC as the database compares it; None at the
    calendar's edges (0001-01-01 east of UTC, 9999-12-31 west of it), where it has none:
    the filter then bounds nothing, or everything."""
    try:
        return day_start(day, zone).astimezone(UTC)
    except OverflowError:
        return None


def games_page(
    games: QuerySet[ClubGame], number: str | int | None, shown: Mapping[str, str]
) -> Page[Any]:
    """One page of ``games``, newest first (a page out of range gives the last). The
    moment is the annotation of :func:`dated`, which the type checker cannot see."""
    ordered = games.order_by(F("moment").desc(), "-game_id").values(
        "game__public_id",
        "game__summary__names",
        "game__summary__totals",
        "game__summary__status",
        "game__summary__winner",
        "game__summary__hands",
        "round__night_id",
        "table",
        "game__created_at",
        when=F("moment"),
        finished=F("finished_at"),
    )
    page: Page[Any] = Paginator(ordered, PER_PAGE).get_page(number)
    page.object_list = [_line(row, shown) for row in page.object_list]
    return page


def _line(row: Mapping[str, Any], shown: Mapping[str, str]) -> GameLine:
    names = [shown.get(name_key(name), name) for name in row["game__summary__names"]]
    winner = row["game__summary__winner"]
    return GameLine(
        public_id=row["game__public_id"],
        scores=list(zip(names, row["game__summary__totals"], strict=True)),
        status=row["game__summary__status"],
        winner=None if winner is None else names[winner],
        hands=row["game__summary__hands"],
        moment=row["when"],
        started_at=row["game__created_at"],
        finished_at=row["finished"],
        night_id=row["round__night_id"],
        table=row["table"],
    )
