"""A club's standings, added up in the database from the league's rows (:class:`ClubResult`):
a season's, the club's over all time, a night's; and the days a season spans."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import (
    Aggregate,
    Count,
    Exists,
    IntegerField,
    Max,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import Case

from ...engine.league import (
    COUNTS,
    STATISTICS,
    Rating,
    Source,
    Standing,
    Statistic,
    ranked,
)
from ...engine.trust import Entry, Listed, ratings_list
from ..models import Club, ClubGame, ClubResult, Member, Night, Season
from ..names import NAMED_COLUMNS, Named, shown_names


def day_start(day: date, zone: str) -> datetime:
    return datetime.combine(day, time.min, tzinfo=ZoneInfo(zone))


def season_range(club: Club, season: Season) -> tuple[datetime, datetime]:
    """The season from the start of its first day to the end of its last, in the club's
    time zone: ``start <= finished_at < end``."""
    return (
        day_start(season.first_day, club.time_zone),
        day_start(season.last_day + timedelta(days=1), club.time_zone),
    )


def season_of(seasons: Iterable[Season], moment: datetime, zone: str) -> Season | None:
    """The season a game finished at ``moment`` falls in: by its day in the club's zone."""
    day = moment.astimezone(ZoneInfo(zone)).date()
    return next((season for season in seasons if season.first_day <= day <= season.last_day), None)


@dataclass(frozen=True)
class Line:
    """A season's standing, with what the page shows beside it."""

    standing: Standing
    member_id: int | None
    amount: Decimal | None
    played: int = 0
    """His counted games in the club up to his last one here, all seasons: whether his rating
    is provisional (league.md, "Ratings people trust")."""
    last_at: datetime | None = None
    """When his last game here finished."""


def season_standings(club: Club, season: Season, *, public: bool = False) -> list[Line]:
    """The season's standings, added up in the database from the counted games' rows:
    three queries, whatever the number of games. The players are named as the public sees
    them if ``public`` (scoring/clubs/names.py), else as the club's members do."""
    start, end = season_range(club, season)
    games = Q(finished_at__gte=start, finished_at__lt=end)
    return standings_of(club, games, season.points, public=public)


def all_time_standings(club: Club, *, public: bool = False) -> list[Line]:
    """The club's standings over every counted game, by the club's league points: three
    queries, as a season's."""
    return standings_of(club, Q(), club.points, public=public)


def season_winners(
    club: Club, seasons: Sequence[Season], *, public: bool = False
) -> dict[int, list[str]]:
    """Each season's winners (its players ranked first, more than one on a tie), by the
    season's id: a season's standings each, three queries a season."""
    return {
        season.pk: [
            line.standing.player
            for line in season_standings(club, season, public=public)
            if line.standing.rank == 1
        ]
        for season in seasons
    }


def night_standings(night: Night, *, public: bool = False) -> list[Line]:
    """A club night's ranking: its counted games, by the club's league points."""
    return standings_of(
        night.club, Q(game__club_game__round__night=night), night.club.points, public=public
    )


def sum_of(statistic: Statistic, points: Sequence[int]) -> Aggregate:
    """The statistic added up in the database over a player's rows."""
    match statistic.source:
        case Source.GAMES:
            return Count("id")
        case Source.WINS:
            return Count("id", filter=Q(won=True))
        case Source.LEAGUE_POINTS:
            by_rank = (When(rank=rank, then=Value(value)) for rank, value in enumerate(points, 1))
            return Sum(Case(*by_rank, default=Value(0), output_field=IntegerField()))
        case Source.POINTS:
            return Sum("total")
        case Source.COUNT:
            return Sum(statistic.name)


def standings_of(
    club: Club, games: Q, points: Sequence[int], *, public: bool = False
) -> list[Line]:
    """The standings of the club's counted games that ``games`` selects, with each player's
    rating after his last of them: three queries."""
    sums = (
        ClubResult.objects.filter(games, club=club)
        .values("key")
        .annotate(
            player=Max("name"),
            **{statistic.name: sum_of(statistic, points) for statistic in STATISTICS},
            amount=Sum("amount"),
            last=Max("position"),
            last_at=Max("finished_at"),
        )
    )
    lines = list(sums)
    # His games up to his last one here: counted through the (club, key, position) index.
    earlier = (
        ClubResult.objects.filter(
            club=club, key=OuterRef("key"), position__lte=OuterRef("position")
        )
        .order_by()
        .values("key")
        .annotate(played=Count("id"))
        .values("played")
    )
    ratings = {
        (key, at): (Rating(mu, sigma), played)
        for key, at, mu, sigma, played in ClubResult.objects.filter(
            club=club, position__in={line["last"] for line in lines}
        )
        .annotate(played=Subquery(earlier))
        .values_list("key", "position", "mu", "sigma", "played")
    }
    # Every member: a public name is told apart from all the club's others.
    named = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    names = shown_names(named, public=public)
    members = {member.key: (member.pk, names[member.key]) for member in named}
    shown: dict[int, Line] = {}
    for line in lines:
        sums_of: dict[str, Any] = dict(line)
        member_id, name = members.get(line["key"], (None, line["player"]))
        rating, played = ratings[line["key"], line["last"]]
        standing = Standing(
            player=name, rating=rating, **{count: sums_of[count] for count in COUNTS}
        )
        shown[id(standing)] = Line(standing, member_id, line["amount"], played, line["last_at"])
    return [shown[id(standing)] for standing in ranked(line.standing for line in shown.values())]


def season_games(club: Club, season: Season) -> int:
    """How many of the club's counted games fall in the season's days: one query."""
    start, end = season_range(club, season)
    return ClubResult.objects.filter(
        club=club, seat=0, finished_at__gte=start, finished_at__lt=end
    ).count()


def ratings_on(club: Club, day: date, *, public: bool = False) -> tuple[list[Listed], list[Listed]]:
    """The club's ratings list on ``day`` (league.md, "Ratings people trust"): its ranked
    players, then the others apart, each with his rating after his last counted game up to
    the day: three queries (each player's games and last one, their ratings, the names),
    lighter than the standings' (no statistic added up)."""
    end = day_start(day + timedelta(days=1), club.time_zone)
    lines = list(
        ClubResult.objects.filter(club=club, finished_at__lt=end)
        .values("key")
        .annotate(
            player=Max("name"), games=Count("id"), last=Max("position"), last_at=Max("finished_at")
        )
        .order_by()
    )
    ratings = {
        (key, at): Rating(mu, sigma)
        for key, at, mu, sigma in ClubResult.objects.filter(
            club=club, position__in={line["last"] for line in lines}
        ).values_list("key", "position", "mu", "sigma")
    }
    named = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    names = shown_names(named, public=public)
    members = {member.key: (member.pk, names[member.key]) for member in named}
    zone = ZoneInfo(club.time_zone)
    entries = []
    for line in lines:
        member_id, name = members.get(line["key"], (None, line["player"]))
        entries.append(
            Entry(
                name,
                ratings[line["key"], line["last"]],
                line["games"],
                line["last_at"].astimezone(zone).date(),
                member_id,
            )
        )
    return ratings_list(entries, day, club.rating_rules)


def ratings_of_lines(
    club: Club, lines: Iterable[Line], day: date
) -> tuple[list[Listed], list[Listed]]:
    """The ratings list on ``day`` from standings that count every game up to it (the
    all-time standings, on today): no query more."""
    zone = ZoneInfo(club.time_zone)
    entries = [
        Entry(
            line.standing.player,
            line.standing.rating,
            line.played,
            line.last_at.astimezone(zone).date(),
            line.member_id,
        )
        for line in lines
        if line.standing.rating is not None and line.last_at is not None
    ]
    return ratings_list(entries, day, club.rating_rules)


def provisional_games(club: Club, season: Season | None = None) -> int:
    """How many of the club's won games (of the season, by the moment each was first won)
    the standings do not count yet, their result being provisional (issue 40.4): a hand
    waiting for confirmation or for the referee, a result unsigned, a settlement not agreed
    by the four. One query."""
    counted = ClubResult.objects.filter(game=OuterRef("game"))
    games = ClubGame.objects.filter(club=club, game__summary__status="won").exclude(Exists(counted))
    if season is not None:
        start, end = season_range(club, season)
        games = games.filter(game__finished_at__gte=start, game__finished_at__lt=end)
    return games.count()
