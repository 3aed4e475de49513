"""A club's endpoints: the club, a season's standings, its games, a player, its nights,
and for its admins its history. Each reads what the club's pages show, through the same
functions (scoring/clubs/pages/, scoring/clubs/league/, scoring/clubs/history.py), with
the same rights (:func:`.access.readable_club`, :func:`.access.run_club`) and the players
named as those pages name them for this request (scoring/clubs/names.py)."""

import re
from datetime import date, datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from django.core.paginator import EmptyPage, Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from ninja import Query, Router, Schema
from pydantic import BeforeValidator, Field

from ..clubs.face import (
    CLUB_ACTIONS,
    HISTORY_PER_PAGE,
    NAMED_COLUMNS,
    Member,
    Named,
    Night,
    Season,
    cup_values,
    dated,
    filtered,
    games_page,
    lines,
    moved_season,
    night_rounds,
    player_stats,
    provisional_games,
    ratings_on,
    reading,
    season_cup,
    season_standings,
    sees_full_names,
    shown_names,
    standing_rows,
)
from ..engine import Trump
from ..engine.league import standing_values
from . import errors
from .access import readable_club, run_club
from .schemas import (
    ERRORS,
    ChangesOut,
    ClubOut,
    GamesOut,
    NightOut,
    NightsOut,
    Number,
    PlayerOut,
    RatingsOut,
    Slug,
    StandingsOut,
)

router = Router(tags=["clubs"])

ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def iso_day(value: object) -> object:
    """A day as the document says (YYYY-MM-DD), not pydantic's lax reading of ``0`` as the
    epoch's day."""
    if isinstance(value, str) and not ISO_DAY.fullmatch(value):
        raise ValueError("a day is written YYYY-MM-DD")
    return value


Day = Annotated[date | None, BeforeValidator(iso_day)]
"""A query's day, in the club's zone."""


def api_url(name: str, **kwargs: Any) -> str:
    return reverse(f"api:{name}", kwargs=kwargs)


@router.get(
    "/clubs/{club}", response={200: ClubOut, **ERRORS}, url_name="club", operation_id="club"
)
def club(request: HttpRequest, club: Slug) -> dict[str, Any]:
    """The club: its name, time zone, rules and league points, and its seasons with their
    days and addresses."""
    found, _ = readable_club(request, club)
    return {
        "slug": found.slug,
        "name": found.name,
        "time_zone": found.time_zone,
        "public": found.public,
        "rules": found.rules.to_data(),
        "points": found.points,
        "seasons": [
            {
                "slug": season.slug,
                "name": season.name,
                "first_day": season.first_day,
                "last_day": season.last_day,
                "points": season.points,
                "standings": api_url("standings", club=found.slug, season=season.slug),
                "standings_csv": reverse("standings_csv", args=[found.slug, season.slug]),
                "page": reverse("season", args=[found.slug, season.slug]),
            }
            for season in Season.objects.filter(club=found)
        ],
        "links": {
            "page": reverse("club", args=[found.slug]),
            "games": api_url("club_games", club=found.slug),
            "nights": api_url("nights", club=found.slug),
            "records": reverse("club_records", args=[found.slug]),
        },
    }


@router.get(
    "/clubs/{club}/seasons/{season}/standings",
    response={200: StandingsOut, 302: None, **ERRORS},
    url_name="standings",
    operation_id="standings",
)
def standings(request: HttpRequest, club: Slug, season: Slug) -> HttpResponse | dict[str, Any]:
    """A season's standings: one object per line of its standings.csv, with the CSV's
    column names as keys, in the CSV's order. A season whose address changed answers a
    redirect (302) to its new one."""
    found, member = readable_club(request, club)
    shown = Season.objects.filter(club=found, slug=season).first()
    if shown is None:
        moved = moved_season(found, season)
        if moved is None:
            raise errors.not_found(errors.NO_SEASON)
        return HttpResponseRedirect(api_url("standings", club=found.slug, season=moved))
    public = not sees_full_names(member)
    lines = season_standings(found, shown, public=public)
    return {
        "club": found.slug,
        "season": shown.slug,
        "rows": [
            {**standing_values(line.standing), "rating_provisional": row.provisional}
            for line, row in zip(lines, standing_rows(found, lines), strict=True)
        ],
        "provisional_games": provisional_games(found, shown),
        "handicap_cup": [cup_values(row) for row in season_cup(found, shown, public=public)]
        if shown.handicap_cup
        else None,
    }


class RatingsFilter(Schema):
    day: Day = Field(None, description="The list's day, in the club's zone; today if not given.")


@router.get(
    "/clubs/{club}/ratings",
    response={200: RatingsOut, **ERRORS},
    url_name="ratings",
    operation_id="ratings",
)
def ratings(request: HttpRequest, club: Slug, filters: Query[RatingsFilter]) -> dict[str, Any]:
    """The club's ratings list on a day, as its season page shows it: the ranked players,
    then the others apart with their reason, each with his rating after his last counted game
    up to the day."""
    found, member = readable_club(request, club)
    day = filters.day or datetime.now(ZoneInfo(found.time_zone)).date()
    ranked, apart = ratings_on(found, day, public=not sees_full_names(member))

    def line(listed: Any) -> dict[str, Any]:
        rating = listed.entry.rating
        return {
            "place": listed.place,
            "player": listed.entry.player,
            "player_id": listed.entry.member_id,
            "rating": round(rating.shown, 6),
            "mu": round(rating.mu, 6),
            "sigma": round(rating.sigma, 6),
            "provisional": listed.provisional,
            "games": listed.entry.games,
            "last_day": listed.entry.last_day,
            "apart": None if listed.reason is None else listed.reason.value,
            "days": listed.days,
        }

    return {
        "club": found.slug,
        "day": day,
        "ranked": [line(listed) for listed in ranked],
        "apart": [line(listed) for listed in apart],
    }


class GamesFilter(Schema):
    season: str | None = Field(None, description="A season's address: its days' games.")
    player: int | None = Field(
        None, ge=1, le=2**31 - 1, description="A player's number: his games."
    )
    night: int | None = Field(None, ge=1, le=2**31 - 1, description="A night's number: its games.")
    status: str | None = Field(None, pattern="^(playing|won|abandoned)$")
    since: Day = Field(None, description="From this day on, in the club's zone.")
    until: Day = Field(None, description="Up to this day, in the club's zone.")
    page: int = Field(1, ge=1, le=1_000_000)


@router.get(
    "/clubs/{club}/games",
    response={200: GamesOut, **ERRORS},
    url_name="club_games",
    operation_id="club_games",
)
def club_games(request: HttpRequest, club: Slug, filters: Query[GamesFilter]) -> dict[str, Any]:
    """The club's games, newest first (won ones by their finish, others by their start),
    narrowed by the filters given, a page of 50 at a time."""
    found, member = readable_club(request, club)
    seasons = list(Season.objects.filter(club=found))
    members = [Named(*row) for row in found.members.values_list(*NAMED_COLUMNS)]
    given = filters.dict(exclude_none=True)
    problems = []
    if "season" in given and all(one.slug != given["season"] for one in seasons):
        problems.append({"name": "season", "problem": str(errors.NO_SEASON)})
    if "player" in given and all(one.pk != given["player"] for one in members):
        problems.append({"name": "player", "problem": str(errors.NO_PLAYER)})
    if problems:
        raise errors.ApiError(422, "invalid_request", errors.INVALID, fields=problems)
    shown = shown_names(members, public=not sees_full_names(member))
    number = given.pop("page")
    page = games_page(filtered(found, dated(found), given, seasons, shown), number, shown)
    if page.number != number:
        raise errors.not_found(errors.NO_PAGE)
    return {
        "club": found.slug,
        "count": page.paginator.count,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "games": [
            {
                "id": line.public_id,
                "players": [name for name, _ in line.scores],
                "totals": [total for _, total in line.scores],
                "winner": line.winner,
                "status": line.status,
                "finality": line.finality,
                "hands": line.hands,
                "started_at": line.started_at,
                "finished_at": line.finished_at,
                "night": line.night_id,
                "table": line.table,
                "url": api_url("game", game_id=line.public_id),
            }
            for line in page.object_list
        ],
    }


@router.get(
    "/clubs/{club}/players/{player_id}",
    response={200: PlayerOut, **ERRORS},
    url_name="player",
    operation_id="player",
)
def player(request: HttpRequest, club: Slug, player_id: Number) -> dict[str, Any]:
    """A player's figures, as his page shows them: each statistic over the club's counted
    games, his rating, his contracts by bid and by trump, whom he met, his last games."""
    found, member = readable_club(request, club)
    shown = Member.objects.filter(club=found, pk=player_id).first()
    if shown is None:
        raise errors.not_found(errors.NO_PLAYER)
    stats = player_stats(found, shown, public=not sees_full_names(member))

    def contracts(line: Any) -> dict[str, Any]:
        return {
            "taken": line.taken,
            "made": line.made,
            "missed": line.missed,
            "made_percent": line.made_percent,
        }

    return {
        "club": found.slug,
        "id": shown.pk,
        "name": stats.name,
        "counts": dict(stats.counts),
        "money": stats.money,
        "rating": {
            "mu": stats.rating.mu,
            "sigma": stats.rating.sigma,
            "rating": stats.rating.shown,
            "provisional": stats.provisional,
            "low": stats.low,
            "high": stats.high,
        },
        "by_bid": [{"bid": int(line.symbol), **contracts(line)} for line in stats.by_bid],
        "by_trump": [
            {"trump": trump.value, **contracts(line)}
            for trump, line in zip(Trump, stats.by_trump, strict=True)
        ],
        "head_to_head": [
            {
                "player": meeting.member_id,
                "name": meeting.name,
                "games": meeting.games,
                "ahead": meeting.ahead,
                "behind": meeting.behind,
                "level": meeting.level,
            }
            for meeting in stats.head_to_head
        ],
        "recent": [
            {
                "game": game.public_id,
                "finished_at": game.finished_at,
                "rank": game.rank,
                "total": game.total,
                "won": game.won,
                "rating": game.rating,
                "expected_place": game.why.expected if game.why else None,
                "change": game.why.change if game.why else None,
                "pause": game.why.pause if game.why else None,
                "days_away": game.why.days if game.why else None,
                "others": [
                    {"name": other.name, "total": other.total, "rank": other.rank}
                    for other in game.others
                ],
            }
            for game in stats.recent
        ],
    }


@router.get(
    "/clubs/{club}/nights",
    response={200: NightsOut, **ERRORS},
    url_name="nights",
    operation_id="nights",
)
def nights(request: HttpRequest, club: Slug) -> dict[str, Any]:
    """The club's nights, the latest first, each with its rounds planned and drawn."""
    found, _ = readable_club(request, club)
    return {
        "club": found.slug,
        "nights": [
            {
                "id": night.pk,
                "date": night.date,
                "place": night.place,
                "rounds_planned": night.rounds,
                "rounds_drawn": night.drawn,
                "ended_at": night.ended_at,
                "url": api_url("night", club=found.slug, night_id=night.pk),
            }
            for night in Night.objects.filter(club=found).annotate(drawn=Count("round_set"))
        ],
    }


@router.get(
    "/clubs/{club}/nights/{night_id}",
    response={200: NightOut, **ERRORS},
    url_name="night",
    operation_id="night",
)
def night(request: HttpRequest, club: Slug, night_id: Number) -> dict[str, Any]:
    """A night: each round drawn, its tables (players by seat, as their game stands) and
    who sat it out."""
    found, member = readable_club(request, club)
    shown = Night.objects.filter(club=found, pk=night_id).first()
    if shown is None:
        raise errors.not_found(errors.NO_NIGHT)
    rounds = night_rounds(shown, public=not sees_full_names(member))
    return {
        "club": found.slug,
        "id": shown.pk,
        "date": shown.date,
        "place": shown.place,
        "rounds_planned": shown.rounds,
        "ended_at": shown.ended_at,
        "rounds": [
            {
                "number": one.round.number,
                "drawn_at": one.round.drawn_at,
                "closed_at": one.round.closed_at,
                "tables": [
                    {
                        "number": table.number,
                        "game": table.public_id,
                        "players": list(table.players),
                        "first_dealer": table.first_dealer,
                        "status": table.status,
                        "winner": table.winner,
                    }
                    for table in one.tables
                ],
                "sitting_out": list(one.sitting_out),
            }
            for one in rounds
        ],
    }


class ChangesFilter(Schema):
    kind: str | None = Field(
        None,
        description="A kind of change: its lines alone.",
        pattern="^(" + "|".join(CLUB_ACTIONS) + ")$",
    )
    page: int = Field(1, ge=1, le=1_000_000)


@router.get(
    "/clubs/{club}/changes",
    response={200: ChangesOut, **ERRORS},
    url_name="changes",
    operation_id="changes",
)
def changes(request: HttpRequest, club: Slug, filters: Query[ChangesFilter]) -> dict[str, Any]:
    """The club's history, for its admins: every change made to the club, its players,
    seasons, nights and games, and by whom, newest first, as its history page says each;
    50 a page."""
    found, _ = run_club(request, club)
    kept = reading(found.changes.all())
    if filters.kind is not None:
        kept = kept.filter(action=filters.kind)
    pages = Paginator(kept, HISTORY_PER_PAGE)
    try:
        page = pages.page(filters.page)
    except EmptyPage:
        raise errors.not_found(errors.NO_PAGE) from None
    return {
        "club": found.slug,
        "count": pages.count,
        "page": page.number,
        "pages": pages.num_pages,
        "changes": [
            {
                "id": line.change.pk,
                "at": line.change.at,
                "kind": line.change.action,
                "words": line.words,
                "subject": line.subject,
                "into": line.into,
                "by": line.change.by_user.get_username() if line.change.by_user else None,
                "details": [
                    {"words": one.words, "before": one.before, "after": one.after}
                    for one in line.details
                ],
                "before": line.change.before,
                "after": line.change.after,
            }
            for line in lines(page)
        ],
    }
