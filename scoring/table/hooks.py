"""How the table tells other contexts that a game changed, without knowing them.

Every write of a game (scoring/table/services.py) sends :data:`game_changed` inside its
transaction, the game locked, once the change is written. Subscribers (clubs: the league's
results and ratings, scoring/clubs/subscriptions.py) write in that same transaction; an
error in one rolls the whole change back.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from django.dispatch import Signal
from django.http import HttpRequest

if TYPE_CHECKING:
    from .models import Game

game_changed = Signal()
"""Sent with ``state`` (the GameState as it now stands) and ``action`` (the
:class:`~scoring.table.models.Change.Action` just made; ``created`` also for a rematch)."""

loaded_with_game: list[str] = []
"""Relations of a game that subscribers read on every change (clubs: ``club_game``): the
write path reads them with the locked game, in the same query, so that a subscriber costs
no query for a game it has nothing to do with."""


class Crumb(NamedTuple):
    """A link above a game's page, to what the game belongs to."""

    url: str
    label: str


crumbs: list[Callable[["Game"], Crumb | None]] = []
"""Where a game's page leads back to (clubs: a club game's club): the first that answers."""


def crumb_of(game: "Game") -> Crumb | None:
    return next((crumb for find in crumbs if (crumb := find(game)) is not None), None)


names_shown: list[Callable[[HttpRequest, "Game", tuple[str, ...]], tuple[str, ...] | None]] = []
"""The players' names as a request that does not score the game may see them, where
another context decides (clubs: a member shown to the public by first name and initial):
the first that answers; the names as typed if none does."""


def names_for(request: HttpRequest, game: "Game", names: tuple[str, ...]) -> tuple[str, ...]:
    return next(
        (shown for find in names_shown if (shown := find(request, game, names)) is not None),
        names,
    )


time_zones: list[Callable[["Game"], str | None]] = []
"""The time zone a game's times are shown in, where another context decides (clubs: a club
game's, its club's): the first that answers; the phone's if none does
(scoring/common/clock.py)."""


def zone_of(game: "Game") -> str | None:
    return next((zone for find in time_zones if (zone := find(game)) is not None), None)


seats_of_account: list[Callable[["Game", int], int | None]] = []
"""The seat an account holds in a game through what another context knows of it (clubs: the
seat of a club game whose player is the club's member linked to the account): the first
that answers; none if none does. A phone holds a seat by its code (access.held_seat)."""


def seat_of_account(game: "Game", user_id: int) -> int | None:
    return next(
        (seat for find in seats_of_account if (seat := find(game, user_id)) is not None), None
    )
