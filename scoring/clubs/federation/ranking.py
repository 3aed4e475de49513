"""A federation's ranking, derived at read time from its member clubs' league rows
(:class:`ClubResult`): nothing is stored, so it is always what a full rebuild would give.

One query adds up each player's rows by night (how many games at each rank, wins, points:
what a night's ranking orders by, scoring/clubs/league/standings.py ``night_standings``),
one reads the member clubs' accounts; the engine (scoring/engine/federation.py) does the
rest.
"""

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, F, Q, Sum

from ...engine.federation import WEIGHTS, Entry, NightPlaces, places, ranking
from ...engine.names import first_name_and_initial
from ..models import Club, ClubResult, Federation, Member

OLDEST = WEIGHTS[-1][0]
"""The oldest night that counts, in days before the ranking's day."""


@dataclass(frozen=True)
class Ranking:
    """A federation's ranking on a day, and the clubs it counts."""

    day: date
    clubs: list[Club]
    entries: list[Entry]
    nights: int
    """The nights that counted (of 4 ranked players or more, 1,095 days old at most)."""


def member_clubs(federation: Federation) -> list[Club]:
    """The clubs that are members of the federation now (joined, not left): one query."""
    return list(
        Club.objects.filter(
            federations__federation=federation,
            federations__joined_at__isnull=False,
            federations__left_at__isnull=True,
        ).order_by("name", "id")
    )


def federation_ranking(federation: Federation, day: date, *, public: bool = False) -> Ranking:
    """The federation's ranking on ``day``, from its member clubs' nights: three queries.
    A player is named as in the club of his newest result, and, if ``public``, as the public
    sees him there when he asked to be shown by his first name and initial."""
    clubs = member_clubs(federation)
    by_id = {club.pk: club for club in clubs}
    rows = (
        ClubResult.objects.filter(
            club__in=list(by_id),
            game__club_game__round__night__date__gte=day - timedelta(days=OLDEST),
            game__club_game__round__night__date__lte=day,
        )
        .values("club_id", "key")
        .annotate(
            night=F("game__club_game__round__night"),
            date=F("game__club_game__round__night__date"),
            **{f"rank{rank}": Count("id", filter=Q(rank=rank)) for rank in range(1, 5)},
            wins=Count("id", filter=Q(won=True)),
            points=Sum("total"),
        )
        .values_list(
            "club_id", "key", "night", "date", "rank1", "rank2", "rank3", "rank4", "wins", "points"
        )
    )
    nights: dict[int, list[tuple[str, tuple[int, int, int]]]] = defaultdict(list)
    facts: dict[int, tuple[int, date]] = {}
    for club_id, key, night, when, *by_rank, wins, points in rows:
        league = sum(
            count * value for count, value in zip(by_rank, by_id[club_id].points, strict=True)
        )
        nights[night].append((key, (league, wins, points)))
        facts[night] = (club_id, when)
    accounts: dict[tuple[int, str], Member] = {
        (member.club_id, member.key): member
        for member in Member.objects.filter(club__in=list(by_id), user__isnull=False).only(
            "club_id", "key", "name", "user_id", "short_in_public"
        )
    }
    counted = []
    newest: dict[int, tuple[date, str, Member]] = {}
    for night, lines in nights.items():
        club_id, when = facts[night]
        ranks = places([order for _, order in lines])
        held: dict[Hashable, int] = {}
        for (key, _), rank in zip(lines, ranks, strict=True):
            member = accounts.get((club_id, key))
            if member is None or member.user_id is None:
                continue
            held[member.user_id] = rank
            seen = newest.get(member.user_id)
            if seen is None or (when, by_id[club_id].name) > seen[:2]:
                newest[member.user_id] = (when, by_id[club_id].name, member)
        counted.append(NightPlaces(when, by_id[club_id].name, len(lines), held))
    names: dict[Hashable, str] = {
        user: _shown(member, public) for user, (_, _, member) in newest.items()
    }
    entries = ranking(counted, day, names)
    return Ranking(day, clubs, entries, sum(night.players >= 4 for night in counted))


def _shown(member: Member, public: bool) -> str:
    if public and member.short_in_public:
        return first_name_and_initial(member.name)
    return member.name
