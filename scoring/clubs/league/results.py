"""A won club game's rows in the league (:class:`ClubResult`): its players' ranks, counts and
money, made from the engine's result; their places and ratings are the rating's
(scoring/clubs/league/ratings.py)."""

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db.models import Q

from ...common.names import name_key
from ...engine import GameResult, amount
from ...engine.league import placings
from ...table.face import Game, GameState, Seat, Summary, finish_of
from ..models import Club, ClubGame, ClubResult, Event, EventFinal


def results_of(state: GameState, club: Club) -> list[ClubResult]:
    """The rows of a won club game, ratings not yet set."""
    return _results(club, state.game, state.names, state.result, finish_of(state))


def _results(
    club: Club, game: Game, names: Sequence[str], result: GameResult, finished_at: datetime
) -> list[ClubResult]:
    """:func:`results_of` a game told by its row, its names and its result."""
    return [
        ClubResult(club=club, game=game, **values)
        for values in result_values(club, names, result, finished_at)
    ]


def result_values(
    club: Club,
    names: Sequence[str],
    result: GameResult,
    finished_at: datetime,
    keys: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The fields of a won club game's rows, but its club and game: a bulk import writes
    them as values, without making a model object of each. ``keys`` keeps each name's
    :func:`name_key` from one game to the next."""
    keys = {} if keys is None else keys
    for name in names:
        if name not in keys:
            keys[name] = name_key(name)
    rules = result.rules
    in_club_money = rules.currency == club.currency
    return [
        {
            "seat": placing.seat,
            "position": 0,
            "finished_at": finished_at,
            "key": keys[name],
            "name": name,
            "rank": placing.rank,
            "total": placing.total,
            "won": placing.won,
            **placing.counts,
            "contracts": [list(contract) for contract in placing.contracts],
            "amount": amount(placing.units, rules.stake, rules.currency) if in_club_money else None,
            "mu": 0.0,
            "sigma": 0.0,
        }
        for name, placing in zip(names, placings(result), strict=True)
    ]


def same_outcome(old: Sequence[ClubResult], new: Sequence[ClubResult]) -> bool:
    """The same players at the same ranks: the ratings do not move."""
    return [(row.key, row.rank) for row in old] == [(row.key, row.rank) for row in new]


def club_game_of(game: Game) -> ClubGame | None:
    """The game's club game, if it is one: read with the game where the table was asked to
    (scoring/table/hooks.py ``loaded_with_game``), else in one query."""
    try:
        return game.club_game
    except ClubGame.DoesNotExist:
        return None


KEPT_OUT_OF_SEASON = Q(club_game__round__night__event__counts_in_season=False) | Q(
    event_final__event__counts_in_season=False
)
"""The club games the league leaves out: an event's (a game of one of its nights, or its
final) whose event keeps its games out of the season (issue 41)."""


def event_of_game(game: Game) -> Event | None:
    """The event a club game is played for (a game of its rounds, or its final), or None.
    Read with the game where the table was asked to (``loaded_with_game``: its night's
    event, its final's)."""
    club_game = club_game_of(game)
    if club_game is None:
        return None
    if club_game.round is not None and club_game.round.night.event is not None:
        return club_game.round.night.event
    try:
        return game.event_final.event
    except EventFinal.DoesNotExist:
        return None


def counts_in_season(game: Game) -> bool:
    """Whether the club's league counts this club game (once final): all but those
    :data:`KEPT_OUT_OF_SEASON`."""
    event = event_of_game(game)
    return True if event is None else bool(event.counts_in_season)


def as_seated(state: GameState) -> GameState:
    """The state with its seats' names as they now are (one query). A player renamed
    meanwhile (scoring/clubs/privacy.py, which locks his games, then his club) may have
    been read under his old name by a write that waited for his game's lock: PostgreSQL
    hands it the locked game anew, not the seats it joined. His new name goes into the
    summary and the league rows, never the old one."""
    seated = tuple(
        Seat.objects.filter(game=state.game)
        .order_by("position")
        .values_list("player__name", flat=True)
    )
    if seated == state.names:
        return state
    Summary.objects.filter(game=state.game).update(names=list(seated))
    return replace(state, names=seated)
