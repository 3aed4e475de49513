"""An import's league (scoring/clubs/imports/services.py): the imported games' rows made
from the engine's results, rated with the club's games already there, and written, equal
to what a full recomputation (:func:`~scoring.clubs.league.ratings.rebuild`) gives."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Max

from ...common.names import name_key
from ...infra.bulk import insert_rows, keys_checked_meanwhile
from ...table.face import Imported
from ..models import Club, ClubResult
from .ratings import (
    GAME,
    KEY,
    POSITION,
    SIGMA,
    Before,
    Stored,
    changed_rows,
    move_rows,
    rate_rows,
    ratings_before,
    rows_from,
    stored_games,
)
from .results import result_values
from .totals import COLUMNS as _COLUMNS
from .totals import change_of, move

Counted = list[tuple[datetime, str, list[dict[str, Any]], list[Stored]]]
"""Each counted game of an import: when it finished and its record id (the order), its
rows' values, and those the rating reads and numbers."""


def _counted(imported: Sequence[Imported]) -> list[tuple[Imported, datetime]]:
    """The games of an import that count (won, with hands), each with when it finished."""
    return [
        (one, one.last_recorded_at)
        for one in imported
        if one.result.finished and one.last_recorded_at is not None
    ]


@dataclass(frozen=True)
class LeagueBefore:
    """What the league holds before an import, as far as the import's re-rating reads it:
    the counted games' order (finish and record id, by game), the place of the first game
    imported, the rows from that place on, and the ratings before it."""

    order: dict[int, tuple[datetime, str]]
    start: int
    stored: list[list[Stored]]
    ratings: Before


@dataclass
class LeagueEnd:
    """The club's last counted game (its finish and record id, the league's order) and the
    place after it: what an import written a batch at a time keeps of the league from one
    batch to the next (:func:`league_before`, :meth:`after`)."""

    last: tuple[datetime, str] | None
    next_position: int

    @classmethod
    def of(cls, club: Club) -> "LeagueEnd":
        """The club's, as it stands (one query, by the index on the places)."""
        row = (
            ClubResult.objects.filter(club=club)
            .order_by("-position")
            .values_list("finished_at", "game__record_id", "position")
            .first()
        )
        return cls(None, 0) if row is None else cls((row[0], row[1]), row[2] + 1)

    def after(self, imported: Sequence[Imported]) -> None:
        """Moved past the counted games of ``imported``, once written."""
        counted = [(finished, one.game.record_id) for one, finished in _counted(imported)]
        if counted:
            self.last = max(counted) if self.last is None else max(self.last, *counted)
            self.next_position += len(counted)


def league_before(
    club: Club, imported: Sequence[Imported], end: LeagueEnd | None = None
) -> LeagueBefore:
    """What :func:`rated_import` needs of the club's league (a few queries).

    An import's league follows in three steps: this, then the rows made and rated
    (:func:`rated_import`), which asks the database nothing, so that the import has the
    database check the keys of what it wrote meanwhile, then the rows written
    (:func:`write_import`). What they store equals a full recomputation
    (:func:`rebuild`), without reading back what the import wrote: the won games' rows are
    made from the engine's results the import kept (:func:`counted_of`) and rated once
    with the club's counted games already there, in the finishing order; the rows already
    there whose place or rating moved are rewritten."""
    counted = _counted(imported)
    if not counted:
        return LeagueBefore({}, 0, [], {})
    # The games already counted before the first one imported keep their places and
    # ratings: only those after it are read and rated again.
    first = min((finished, one.game.record_id) for one, finished in counted)
    if end is not None and (end.last is None or first > end.last):
        # Every game imported finishes after the club's last (``end``, kept by the caller):
        # they go at the end, where no row is read (a large import in the finishing
        # order, a batch at a time, asks nothing however many games came before).
        start = end.next_position
        keys = {name_key(name) for one, _ in counted for name in one.record.players}
        return LeagueBefore({}, start, [], ratings_before(club, start, keys) if start else {})
    # Only the games from the first one imported on are read (its finish or later, by
    # the index on the finish): a club's export is in the finishing order, so that each
    # batch of a large import (clubs/imports/jobs.py) reads none, whatever came before.
    later = [
        (game_id, (moment, record_id), position)
        for game_id, moment, record_id, position in ClubResult.objects.filter(
            club=club, seat=0, finished_at__gte=first[0]
        )
        .values_list("game_id", "finished_at", "game__record_id", "position")
        .order_by()
        if (moment, record_id) >= first
    ]
    order = {game_id: place for game_id, place, _ in later}
    if later:
        start = min(position for _, _, position in later)
    else:  # after every game the club counts: its place is their number
        last = ClubResult.objects.filter(club=club).aggregate(last=Max("position"))["last"]
        start = 0 if last is None else last + 1
    stored = stored_games(rows_from(club, start))
    keys = {row[KEY] for rows in stored for row in rows}
    keys.update(name_key(name) for one, _ in counted for name in one.record.players)
    ratings = ratings_before(club, start, keys) if start else {}
    return LeagueBefore(order, start, stored, ratings)


@dataclass(frozen=True)
class RatedImport:
    """An import's league rows, rated, as ``_COLUMNS``' values in the finishing order; the
    rows already there, their new place and rating beside what was read; and how many
    games count."""

    rows: list[list[Any]]
    stored: list[list[Stored]]
    games: int


def rated_import(club: Club, imported: Sequence[Imported], before: LeagueBefore) -> RatedImport:
    """The imported games' rows (:func:`counted_of`), rated in the finishing order with the
    club's games from the first one imported on, from the ratings ``before`` them. Asks the
    database nothing."""
    imports = counted_of(club, imported)
    games = [(*before.order[rows[0][GAME]], rows) for rows in before.stored]
    games.extend((moment, record_id, rated) for moment, record_id, _, rated in imports)
    games.sort(key=lambda game: (game[0], game[1]))
    rate_rows(club, [rows for _, _, rows in games], before.start, before.ratings)
    fields = _COLUMNS
    rows_in = []
    for _, _, values, rated in imports:
        for seat, numbered in zip(values, rated, strict=True):
            seat["position"], seat["mu"], seat["sigma"] = numbered[POSITION : SIGMA + 1]
            rows_in.append([seat[name] for name in fields])
    # In the finishing order, as a rebuild writes them.
    rows_in.sort(key=lambda row: row[fields.index("position")] * 4 + row[fields.index("seat")])
    return RatedImport(rows_in, before.stored, len(imports))


def counted_of(club: Club, imported: Sequence[Imported]) -> Counted:
    """The rows of the games imported that count, from the engine's results: no query."""
    imports: Counted = []
    keys: dict[str, str] = {}  # a club's few names, each compared once
    for one, finished in _counted(imported):
        values = result_values(club, one.record.players, one.result, finished, keys)
        for seat in values:
            seat["club_id"], seat["game_id"] = club.pk, one.game.pk
        rated = [
            [None, one.game.pk, seat["key"], seat["rank"], finished, None, None, None, None]
            for seat in values
        ]
        imports.append((finished, one.game.record_id, values, rated))
    return imports


def write_import(club: Club, rated: RatedImport) -> int:
    """The rows of :func:`rated_import` copied in, the players' totals moved, and the rows
    already there whose place or rating moved rewritten. Returns the number of counted
    games imported."""
    if not rated.games:
        return 0
    insert_rows(ClubResult, _COLUMNS, rated.rows)
    # As for the games' rows (scoring/clubs/imports/services.py): these rows' keys are checked while
    # the totals' change is added up.
    with keys_checked_meanwhile():
        change = change_of(added=rated.rows)
    move(club, change)
    move_rows(changed_rows(row for rows in rated.stored for row in rows))
    return rated.games
