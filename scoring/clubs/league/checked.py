"""A club's league rebuilt and checked: every stored figure (each counted game's rows,
their ratings, each player's totals) compared with what a full rebuild writes, the
differences listed and, being the rebuild's, repaired; the outcome a line of the club's
history. Run by an admin from the club's settings page, as a job (clubs/imports/jobs.py),
and by ``manage.py rebuild_league``."""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

from ...common.names import name_key
from ...common.rights import NOBODY, Actor
from .. import history
from ..models import Club, ClubResult, Member, PlayerTotals
from .ratings import rebuild
from .totals import COLUMNS

MOST = 20
"""Players named in the history's line; the others are counted."""


@dataclass(frozen=True)
class Checked:
    """A rebuild's outcome: the games counted, the league rows (a game's seat) whose
    figures differed, and the players whose totals differed (their keys), all repaired."""

    games: int
    rows: int
    players: list[str]

    @property
    def equal(self) -> bool:
        return not self.rows and not self.players


def _plain(value: Any) -> Any:
    """A stored figure as compared: a float to 9 places (the rating's sums in another
    order), a Decimal as it reads, containers within."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, Decimal):
        return value.normalize()
    if isinstance(value, dict):
        return {key: _plain(one) for key, one in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(one) for one in value]
    return value


def _rows(club: Club) -> dict[tuple[int, int], list[Any]]:
    columns = [name for name in COLUMNS if name != "club_id"]
    index = columns.index("game_id"), columns.index("seat")
    return {
        (row[index[0]], row[index[1]]): _plain(row)
        for row in ClubResult.objects.filter(club=club).values_list(*columns).iterator(2000)
    }


def _totals(club: Club) -> dict[str, Any]:
    fields = ("figures", "amount", "contracts", "meetings")
    return {
        key: _plain(values)
        for key, *values in PlayerTotals.objects.filter(club=club).values_list("key", *fields)
    }


@transaction.atomic
def rebuild_checked(
    club: Club, *, by: Actor = NOBODY, step: Callable[[int, int], None] | None = None
) -> Checked:
    """The club's league rebuilt from its games, compared with what was stored, and the
    outcome written to its history (``league_rebuilt``)."""
    Club.objects.select_for_update().get(pk=club.pk)
    rows, totals = _rows(club), _totals(club)
    games = rebuild(club, step=step)
    rows_after, totals_after = _rows(club), _totals(club)
    differing = sum(
        1 for key in rows.keys() | rows_after.keys() if rows.get(key) != rows_after.get(key)
    )
    players = sorted(
        key
        for key in totals.keys() | totals_after.keys()
        if totals.get(key) != totals_after.get(key)
    )
    checked = Checked(games=games, rows=differing, players=players)
    names = {name_key(member.name): member.name for member in Member.objects.filter(club=club)}
    named = [names.get(key, key) for key in players[:MOST]]
    if len(players) > MOST:
        named.append(f"… +{len(players) - MOST}")
    history.log(
        club,
        by,
        "league_rebuilt",
        "",
        after={"counted": games, "differing": differing, "repaired": named},
    )
    return checked
