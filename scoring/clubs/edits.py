"""An admin's edits and deletions (issue 19): a season's name, address and days, a night's
date, place and rounds, a season, a night or a club game deleted, and the club's settings'
line in its history; a club game's date.

Each is one transaction that locks what it changes, writes, logs one line to the club's
history (scoring/clubs/history.py) with what was there before (a deleted game as its
``boulmous/1`` record, as records.jsonl writes it), and returns the new state. Locks are
taken in the order the other writes take them, so that two writes never wait on each
other: a game before its club (the table's writes, then the league), a night before its
club (the check-in), the club before a season.

Nothing here re-sorts games into seasons: a game counts in the season of the day it
finished (league/standings.py ``season_range``), read at each request, so a season's new days, or
its deletion, move its games at once, and the all-time standings never change.
"""

from dataclasses import replace
from datetime import UTC, date, datetime
from itertools import chain
from typing import Any

from django.db import transaction

from ..common.rights import NOBODY, Actor
from ..engine import record_to_dict
from ..table.face import (
    Game,
    GameState,
    ScorerLink,
    Summary,
    exported,
    lock_game,
    move_finish,
    revoke_scorer_link,
)
from .history import as_json, changed, log, seat_ids
from .league.ratings import forget
from .league.standings import season_of
from .models import Club, ClubGame, Member, Night, Round, Season
from .services import SeasonOverlaps, lock_club


class AddressTaken(Exception):
    """Another season of the club has this address."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(slug)


class RoundsDrawn(Exception):
    """The night has drawn more rounds than the number it would plan."""

    def __init__(self, drawn: int) -> None:
        self.drawn = drawn
        super().__init__(drawn)


# Seasons.


def season_facts(season: Season) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "slug": season.slug,
        "first_day": as_json(season.first_day),
        "last_day": as_json(season.last_day),
        "points": list(season.points),
        "handicap_cup": season.handicap_cup,
    }


@transaction.atomic
def edit_season(
    *,
    club: Club,
    season_id: int,
    name: str,
    slug: str,
    first_day: date,
    last_day: date,
    points: list[int],
    handicap_cup: bool | None = None,
    by: Actor = NOBODY,
) -> Season:
    """A season's name, address, days and league points (and its handicap cup, unless
    None). Its days may not overlap another
    season's (:class:`SeasonOverlaps`), nor its address be another's
    (:class:`AddressTaken`): then nothing changes. Games follow its days at once."""
    club = lock_club(club)
    season = Season.objects.select_for_update().get(club=club, pk=season_id)
    others = Season.objects.filter(club=club).exclude(pk=season.pk)
    other = (
        others.filter(first_day__lte=last_day, last_day__gte=first_day)
        .order_by("first_day")
        .first()
    )
    if other is not None:
        raise SeasonOverlaps(other)
    if others.filter(slug=slug).exists():
        raise AddressTaken(slug)
    before = season_facts(season)
    season.name, season.slug, season.first_day, season.last_day = name, slug, first_day, last_day
    season.points = list(points)
    if handicap_cup is not None:
        season.handicap_cup = handicap_cup
    season.save()
    was, now = changed(before, season_facts(season))
    if was:
        log(club, by, "season_edited", before["name"], before=was, after=now)
    return season


@transaction.atomic
def delete_season(*, club: Club, season_id: int, by: Actor = NOBODY) -> Season:
    """The season, and so its standings page, is gone; its games stay in the club and in
    the all-time standings. The history keeps the season as it was."""
    club = lock_club(club)
    season = Season.objects.select_for_update().get(club=club, pk=season_id)
    before = season_facts(season)
    season.delete()
    log(club, by, "season_deleted", before["name"], before=before)
    return season


def moved_season(club: Club, slug: str) -> str | None:
    """The address the season that had ``slug`` has now, if it was changed and the season
    is still there (the history's lines, newest first): one or two queries."""
    line = (
        club.changes.filter(action="season_edited", before__slug=slug)
        .order_by("-at", "-id")
        .values_list("before", flat=True)
        .first()
    )
    if not isinstance(line, dict) or "id" not in line:
        return None
    return Season.objects.filter(club=club, pk=line["id"]).values_list("slug", flat=True).first()


# Nights.


def night_facts(night: Night) -> dict[str, Any]:
    return {
        "id": night.pk,
        "date": as_json(night.date),
        "place": night.place,
        "rounds": night.rounds,
    }


def _lock_night(club: Club, night_id: int) -> tuple[Night, Club]:
    """The night locked, then its club (the order of the check-in)."""
    night = Night.objects.select_for_update().get(club=club, pk=night_id)
    return night, lock_club(club)


@transaction.atomic
def edit_night(
    *,
    club: Club,
    night_id: int,
    date: date,
    place: str,
    rounds: int | None,
    by: Actor = NOBODY,
) -> Night:
    """A night's date, place and rounds planned (none: until it stops); never fewer rounds
    than it has drawn (:class:`RoundsDrawn`, and nothing changes). Its games stay where
    they are: a game counts in the season of the day it finished."""
    night, club = _lock_night(club, night_id)
    drawn = Round.objects.filter(night=night).count()
    if rounds is not None and rounds < drawn:
        raise RoundsDrawn(drawn)
    before = night_facts(night)
    night.date, night.place, night.rounds = date, place, rounds
    night.save(update_fields=["date", "place", "rounds"])
    was, now = changed(before, night_facts(night))
    if was:
        log(club, by, "night_edited", before["date"], before=was, after=now)
    return night


@transaction.atomic
def delete_night(*, club: Club, night_id: int, by: Actor = NOBODY) -> Night:
    """The night is gone with its check-in, its rounds and its table cards (their scorer
    links revoked); its games stay in the club, its standings and ratings, no longer of a
    night. The history keeps the night: who was checked in, each round's tables by name,
    and its games."""
    night, club = _lock_night(club, night_id)
    names = dict(Member.objects.filter(club=club).values_list("pk", "name"))
    rounds = list(Round.objects.filter(night=night).order_by("number"))
    games = list(
        ClubGame.objects.filter(round__night=night)
        .order_by("round__number", "table")
        .values_list("game__public_id", "round__number", "table")
    )
    present, left = (
        list(night.attendances.filter(present=here).values_list("member_id", flat=True))
        for here in (True, False)
    )
    before = {
        **night_facts(night),
        "ended_at": as_json(night.ended_at),
        "present": [names.get(member_id, str(member_id)) for member_id in present],
        "left": [names.get(member_id, str(member_id)) for member_id in left],
        "rounds_drawn": [
            {
                "number": row.number,
                "tables": [[names.get(one, str(one)) for one in table] for table in row.tables],
                "sitting_out": [names.get(one, str(one)) for one in row.sitting_out],
            }
            for row in rounds
        ],
        "games": [
            {"game": public_id, "round": number, "table": table}
            for public_id, number, table in games
        ],
    }
    for public_id, link_id in ScorerLink.objects.filter(
        game__club_game__round__night=night, revoked_at=None, handed_on_from=None
    ).values_list("game__public_id", "pk"):
        revoke_scorer_link(public_id=public_id, link_id=link_id)
    ClubGame.objects.filter(round__night=night).update(round=None, table=None)
    night.delete()
    # Each member the night names, once, in the order its record names them.
    drawn = [[*chain.from_iterable(row.tables), *row.sitting_out] for row in rounds]
    named = list(dict.fromkeys([*present, *left, *chain.from_iterable(drawn)]))
    log(club, by, "night_deleted", before["date"], members=named, before=before)
    return night


# Club games.


def game_record(club: Club, game_state: GameState) -> dict[str, Any]:
    """The game's ``boulmous/1`` record as records.jsonl writes it (the club's name, the
    season it counts in), its players as the club's members see them."""
    record = exported(game_state)
    about = record.about
    season = (
        season_of(Season.objects.filter(club=club), about.finished_at, club.time_zone)
        if about.finished_at
        else None
    )
    about = replace(about, club=club.name, season=season.slug if season else None)
    return record_to_dict(replace(record, about=about))


@transaction.atomic
def delete_club_game(*, club: Club, public_id: str, by: Actor = NOBODY) -> dict[str, Any]:
    """A club game deleted, with its hands, history and links: it leaves the club's games,
    standings and ratings, the games after it re-rated from its place as a full rebuild
    would rate them. The game is locked first, then the club, as the table's writes lock
    them. Returns its record, which the club's history keeps. Game.DoesNotExist for a game
    that is not, or no longer, the club's."""
    rows = lock_game(public_id)
    club = lock_club(club)
    game = rows.game
    if not ClubGame.objects.filter(game=game, club=club).exists():
        raise Game.DoesNotExist(public_id)
    state = rows.scored()
    record = game_record(club, state)
    summary = Summary.objects.filter(game=game).values_list("names", "totals").first()
    subject = (
        " · ".join(f"{name} {total}" for name, total in zip(*summary, strict=True))
        if summary
        else ", ".join(state.names)
    )
    seated = seat_ids(club, state.names)
    forget(club, game)
    Game.objects.filter(pk=game.pk).delete()
    log(club, by, "game_deleted", subject, members=seated, before=record)
    return record


@transaction.atomic
def move_club_game(
    *, club: Club, public_id: str, finished_at: datetime, by: Actor = NOBODY
) -> GameState:
    """An admin's edit of a won club game's date: its finish moved to ``finished_at``, the
    one write that moves it (undo, redo and corrections keep it), and so its place among
    the club's games, its season and the ratings from there on, as a full rebuild would
    give them; one line of the club's history. Game.DoesNotExist for a game that is not the
    club's; NotWon for a game not won. The table locks the game, then the league the club,
    as every write of a game does."""
    rows = lock_game(public_id)
    if not ClubGame.objects.filter(club=club, game=rows.game).exists():
        raise Game.DoesNotExist(public_id)
    before = rows.game.finished_at or (rows.hands[-1].recorded_at if rows.hands else None)
    state = move_finish(public_id=public_id, finished_at=finished_at, by=by)
    if before != finished_at:
        log(
            club,
            by,
            "game_moved",
            ", ".join(state.names),
            members=seat_ids(club, state.names),
            before={"game": public_id, "finished_at": as_json(before and before.astimezone(UTC))},
            after={"game": public_id, "finished_at": as_json(finished_at.astimezone(UTC))},
        )
    return state
