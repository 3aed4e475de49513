"""A club's league in the database: each counted game's results and ratings kept beside its
facts, and the standings added up from them.

The rules of the league (ranks, points, the order of the standings, OpenSkill) are the
engine's (scoring/engine/league.py); this module keeps :class:`ClubResult` rows following
the games, and reads them. Nothing here scores a game per request.
"""

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import (
    Aggregate,
    Count,
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

from ..common.names import name_key
from ..engine import OPTION_NAMES, GameResult, amount, dealer_of
from ..engine import Hand as EngineHand
from ..engine.league import (
    COUNTED,
    COUNTS,
    STATISTICS,
    Rating,
    Source,
    Standing,
    Statistic,
    first_rating,
    placings,
    ranked,
    rate,
)
from ..infra.bulk import collector_paused, insert_rows, keys_checked_meanwhile
from ..table.models import Game, Hand, Seat, Summary
from ..table.services import Imported
from ..table.state import (
    HAND_JSON_COLUMNS,
    GameState,
    engine_hand,
    finish_of,
    record_from,
    score,
)
from .models import Club, ClubGame, ClubResult, Member, Night, Season
from .names import NAMED_COLUMNS, Named, shown_names
from .totals import COLUMNS as _COLUMNS
from .totals import change_of, count, move, recount
from .totals import values as row_values


def results_of(state: GameState, club: Club) -> list[ClubResult]:
    """The rows of a won club game, ratings not yet set."""
    return _results(club, state.game, state.names, state.result, finish_of(state))


def _results(
    club: Club, game: Game, names: Sequence[str], result: GameResult, finished_at: datetime
) -> list[ClubResult]:
    """:func:`results_of` a game told by its row, its names and its result."""
    return [
        ClubResult(club=club, game=game, **values)
        for values in _result_values(club, names, result, finished_at)
    ]


def _result_values(
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


def _same_outcome(old: Sequence[ClubResult], new: Sequence[ClubResult]) -> bool:
    """The same players at the same ranks: the ratings do not move."""
    return [(row.key, row.rank) for row in old] == [(row.key, row.rank) for row in new]


def club_game_of(game: Game) -> ClubGame | None:
    """The game's club game, if it is one: read with the game where the table was asked to
    (scoring/table/hooks.py ``loaded_with_game``), else in one query."""
    try:
        return game.club_game
    except ClubGame.DoesNotExist:
        return None


def follow(state: GameState) -> None:
    """Keep the club's results and ratings what a full recomputation gives, after a change
    of this game: a game newly won is rated after the others; a counted game corrected, or
    no longer counted, is rated again from its place on. Called inside the write's
    transaction, the game locked."""
    game = state.game
    club_game = club_game_of(game)
    if club_game is None:
        return
    state = _as_seated(state)
    counted = state.result.finished
    if not counted and not ClubResult.objects.filter(game=game).exists():
        return
    club = Club.objects.select_for_update().get(pk=club_game.club_id)
    # Read once the club is locked: another game's change may have just renumbered these.
    old = list(ClubResult.objects.filter(game=game).order_by("seat"))
    new = results_of(state, club) if counted else []
    start = place = old[0].position if old else None
    if new:
        place = _place(club, game, new[0].finished_at)
        if old and place == start and _same_outcome(old, new):
            for row, was in zip(new, old, strict=True):
                row.pk, row.position, row.mu, row.sigma = was.pk, was.position, was.mu, was.sigma
            ClubResult.objects.bulk_update(new, _FACTS)
            count(club, map(row_values, old), map(row_values, new))
            return
        start = place if start is None else min(start, place)
    assert start is not None  # old or new rows exist
    assert place is not None
    _rerate(club, game, start, new, place)
    count(club, map(row_values, old), map(row_values, new))


def forget(club: Club, game: Game) -> None:
    """Keep the club's results and ratings what a full recomputation gives once this game is
    gone: its rows removed, the games after it renumbered and re-rated from its place.
    Called inside the deletion's transaction, the game and the club locked, before the game
    is deleted."""
    old = list(ClubResult.objects.filter(game=game).order_by("seat"))
    if old:
        _rerate(club, game, old[0].position, [], old[0].position)
        count(club, removed=map(row_values, old))


# A stored row as the re-rating reads it: a list, not a model object (tens of thousands are
# read after a correction early in a long history), its place and rating as read kept
# beside the new ones.
PK, GAME, KEY, RANK, POSITION, MU, SIGMA, WAS = range(8)
_STORED = ("id", "game_id", "key", "rank", "position", "mu", "sigma")
Stored = list[Any]
"""``[id, game_id, key, rank, position, mu, sigma, (position, mu, sigma) as read]``"""


def _stored(rows: Iterable[tuple[Any, ...]]) -> list[list[Stored]]:
    """Rows read as ``_STORED``, in the order of their places and seats, grouped by game."""
    games: list[list[Stored]] = []
    last = None
    for row in rows:
        stored = [*row, row[POSITION:]]
        if row[GAME] != last:
            games.append([])
            last = row[GAME]
        games[-1].append(stored)
    return games


def _from(club: Club, start: int, *, but: Game | None = None) -> list[tuple[Any, ...]]:
    """The club's rows from place ``start`` on (but ``but``'s), as ``_STORED``, in order: the
    columns the re-rating needs, no more, read as the driver gives them (ids, numbers and
    keys need no conversion), without Django making each row."""
    rows = ClubResult.objects.filter(club=club, position__gte=start)
    if but is not None:
        rows = rows.exclude(game=but)
    sql, params = rows.order_by("position", "seat").values_list(*_STORED).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found: list[tuple[Any, ...]] = cursor.fetchall()
    return found


def _rerate(club: Club, game: Game, start: int, new: list[ClubResult], place: int) -> None:
    """The game's rows replaced by ``new`` (none: it no longer counts), put at ``place``,
    and every counted game from ``start`` on re-rated; only the rows whose place or rating
    moved are written. Tens of thousands of rows are read as lists, which hold no cycle:
    the collector is paused meanwhile, as for a rebuild."""
    with collector_paused():
        _rerate_rows(club, game, start, new, place)


def _rerate_rows(club: Club, game: Game, start: int, new: list[ClubResult], place: int) -> None:
    games = _stored(_from(club, start, but=game))
    stored = [row for rows in games for row in rows]
    added: list[Stored] = [
        [None, game.pk, row.key, row.rank, None, None, None, None] for row in new
    ]
    if new:
        games.insert(place - start, added)
    _rate(club, games, start)
    for row, values in zip(new, added, strict=True):
        row.position, row.mu, row.sigma = values[POSITION], values[MU], values[SIGMA]
    ClubResult.objects.filter(game=game).delete()
    ClubResult.objects.bulk_create(new)
    _move(_changed(stored))


def _changed(rows: Iterable[Stored]) -> list[Stored]:
    """The rows whose place or rating is not what was read."""
    return [row for row in rows if row[WAS] != (row[POSITION], row[MU], row[SIGMA])]


def _as_seated(state: GameState) -> GameState:
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


def _move(rows: Sequence[Stored], batch: int = 200) -> None:
    """Store the new place and rating of rows re-rated. A correction early in a long history
    re-rates tens of thousands, which Django's bulk_update (a CASE of every row) or a
    statement a row would take seconds to write: PostgreSQL takes them all as arrays in one
    statement, SQLite a batch of rows a statement."""
    if not rows:
        return
    table = connection.ops.quote_name(ClubResult._meta.db_table)
    assignments = f"UPDATE {table} SET position = v.position, mu = v.mu, sigma = v.sigma"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"{assignments} FROM unnest(%s::bigint[], %s::int[], %s::float8[], "
                f"%s::float8[]) AS v(id, position, mu, sigma) WHERE {table}.id = v.id",
                [_array_text(column) for column in zip(*_moved(rows), strict=True)],
            )
            return
        # SQLite rewrites the entries of every index on a column it sets, even to the value
        # it had: a row whose place stayed (a correction's, most) gets its rating alone,
        # which no index holds (40,000 rows: 0.15 s → 0.06 s).
        placed: list[tuple[Any, ...]] = []
        rated: list[tuple[Any, ...]] = []
        for row in rows:
            if row[POSITION] != row[WAS][0]:
                placed.append((row[PK], row[POSITION], row[MU], row[SIGMA]))
            else:
                rated.append((row[PK], row[MU], row[SIGMA]))
        for changed, columns in ((placed, _PLACED), (rated, _RATED)):
            named = ", ".join(columns)
            kept = ", ".join(f"{column} = v.{column}" for column in columns[1:])
            for first in range(0, len(changed), batch):
                part = changed[first : first + batch]
                values = ", ".join([f"({', '.join(['%s'] * len(columns))})"] * len(part))
                cursor.execute(
                    f"WITH v ({named}) AS (VALUES {values}) "
                    f"UPDATE {table} SET {kept} FROM v WHERE {table}.id = v.id",
                    [value for row in part for value in row],
                )


_PLACED = ("id", "position", "mu", "sigma")
_RATED = ("id", "mu", "sigma")


def _array_text(values: Iterable[float]) -> str:
    """Numbers as PostgreSQL reads an array of them: ``{1,2.5}``. Written in one join, not
    adapted one by one (tens of thousands); a float's repr is the shortest text that reads
    back as the same float, in Python as in PostgreSQL."""
    return "{" + ",".join(map(repr, values)) + "}"


def _moved(rows: Sequence[Stored]) -> list[tuple[int, int, float, float]]:
    return [(row[PK], row[POSITION], row[MU], row[SIGMA]) for row in rows]


def _place(club: Club, game: Game, moment: datetime) -> int:
    """How many of the club's other counted games finished before ``game``, finished at
    ``moment``: by time, then by record id. Ids are compared in Python, by code point, as
    :func:`rebuild` sorts them, not by the database's collation (which may put ``a``
    before ``B``)."""
    others = ClubResult.objects.filter(club=club, seat=0).exclude(game=game)
    tied = others.filter(finished_at=moment).values_list("game__record_id", flat=True)
    before = others.filter(finished_at__lt=moment).count()
    return before + sum(record_id < game.record_id for record_id in tied)


_FACTS = [
    "finished_at",
    "key",
    "name",
    "rank",
    "total",
    "won",
    *(statistic.name for statistic in COUNTED),
    "contracts",
    "amount",
]


def ratings_before(club: Club, position: int, keys: Iterable[str]) -> dict[str, Rating]:
    """Each player's rating after his last counted game before ``position``: two queries."""
    last = dict(
        ClubResult.objects.filter(club=club, position__lt=position, key__in=set(keys))
        .values_list("key")
        .annotate(last=Max("position"))
        .values_list("key", "last")
    )
    rows = ClubResult.objects.filter(club=club, position__in=set(last.values())).values_list(
        "key", "position", "mu", "sigma"
    )
    return {key: Rating(mu, sigma) for key, at, mu, sigma in rows if last.get(key) == at}


def _rate(club: Club, games: Sequence[Sequence[Stored]], start: int) -> None:
    """Number ``games`` from ``start`` and rate them in that order, from the ratings the
    players had before."""
    keys = {row[KEY] for rows in games for row in rows}
    before = ratings_before(club, start, keys) if start else {}
    _rate_rows(games, start, before)


def _rate_rows(games: Sequence[Sequence[Stored]], start: int, before: dict[str, Rating]) -> None:
    """Number ``games`` from ``start`` and rate them in that order, from ``before``: one
    Plackett-Luce update a game (:func:`~scoring.engine.league.rate`)."""
    current = dict(before)
    first = first_rating()
    for position, rows in enumerate(games, start=start):
        keys = [row[KEY] for row in rows]
        after = rate([current.get(key) or first for key in keys], [row[RANK] for row in rows])
        for row, key, rating in zip(rows, keys, after, strict=True):
            current[key] = rating
            row[POSITION], row[MU], row[SIGMA] = position, rating.mu, rating.sigma


def rerate_from(club: Club, start: int) -> int:
    """The club's counted games from place ``start`` on rated again, in their order, from
    the ratings their players had before (two members merged into one: his games are
    rated as one player's from the first of them on). Only the rows whose rating moved are
    rewritten; returns how many."""
    with collector_paused():  # as for a correction
        games = _stored(_from(club, start))
        _rate(club, games, start)
        moved = _changed(row for rows in games for row in rows)
        _move(moved)
        return len(moved)


def rebuild(club: Club, *, chunk: int = 500) -> int:
    """The club's results and ratings recomputed from every game's facts: what they must
    always equal. Returns the number of counted games.

    Fast for ten thousand games: the games are read ``chunk`` at a time, three queries a
    chunk (games with their last hand's time, the names at their seats, their hands), each
    scored by the engine; the rows are then rated in order and written in batches."""
    with collector_paused():
        return _rebuild(club, chunk)


def _rebuild(club: Club, chunk: int) -> int:
    ids = list(
        Summary.objects.filter(game__club_game__club=club, status=Summary.Status.WON)
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    games: list[tuple[datetime, str, list[dict[str, Any]]]] = []
    keys: dict[str, str] = {}
    read = _StoredHands()
    last_hand = Hand.objects.filter(game=OuterRef("pk")).order_by("-number")
    for first in range(0, len(ids), chunk):
        batch = ids[first : first + chunk]
        names: dict[int, list[str]] = defaultdict(list)
        for game_id, name in (
            Seat.objects.filter(game_id__in=batch)
            .order_by("game_id", "position")
            .values_list("game_id", "player__name")
        ):
            names[game_id].append(name)
        hands = read.of_games(batch)
        for game in (
            Game.objects.filter(pk__in=batch)
            .only("pk", "finished_at", *_RULES)
            .annotate(last_recorded=Subquery(last_hand.values("recorded_at")[:1]))
        ):
            seated, rows = tuple(names[game.pk]), hands[game.pk]
            dealers = (dealer_of(index, game.first_dealer) for index in range(len(rows)))
            record = record_from(game, seated, [*map(read.hand, rows, dealers)])
            result = score(record)
            if result.finished:
                finished = game.finished_at or game.last_recorded
                values = _result_values(club, seated, result, finished, keys)
                for seat in values:
                    seat["game_id"] = game.pk
                games.append((finished, game.record_id, values))
    games.sort(key=lambda game: (game[0], game[1]))
    rated = [
        [[None, None, seat["key"], seat["rank"], None, None, None, None] for seat in values]
        for _, _, values in games
    ]
    _rate_rows(rated, 0, {})
    ClubResult.objects.filter(club=club).delete()
    written = list(_numbered(club, games, rated))
    insert_rows(ClubResult, _COLUMNS, written)
    recount(club, written)
    return len(games)


class _HandRow(NamedTuple):
    """A hand's row as a rebuild reads it: its values, no model object made (the fields
    are :data:`~scoring.table.state.HAND_COLUMNS`, a test says)."""

    taker: int | None
    bid: int | None
    tricks: Any
    calls: Any
    plays: Any
    trump: str


_JSON = [index for index, name in enumerate(_HandRow._fields) if name in HAND_JSON_COLUMNS]
"""Where a hand's row holds JSON, read as its text."""
_PLAYS = _HandRow._fields.index("plays")


class _StoredHands:
    """A club's hands as a rebuild reads them, tens of thousands: each row as the database
    gives it (the JSON as text, not decoded), and read by the engine once for each way it
    is written and each dealer, since most hands are one of a few thousand."""

    def __init__(self) -> None:
        self.read: dict[tuple[Any, ...], EngineHand] = {}

    def of_games(self, ids: Sequence[int]) -> dict[int, list[tuple[Any, ...]]]:
        """The games' hands, in order, by game: one query."""
        found = Hand.objects.filter(game_id__in=ids).order_by("game_id", "number")
        sql, params = found.values_list("game_id", *_HandRow._fields).query.sql_with_params()
        hands: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for game_id, *row in cursor.fetchall():
                hands[game_id].append(tuple(row))
        return hands

    def hand(self, row: tuple[Any, ...], dealer: int) -> EngineHand:
        key = (dealer, *row)
        hand = self.read.get(key)
        if hand is None:
            values = list(row)
            for index in _JSON:
                if values[index] is not None:
                    values[index] = json.loads(values[index])
            hand = engine_hand(_HandRow(*values), dealer)
            if row[_PLAYS] is None:  # a hand played card by card is one of its kind
                self.read[key] = hand
        return hand


def _numbered(
    club: Club,
    games: Sequence[tuple[datetime, str, list[dict[str, Any]]]],
    rated: Sequence[Sequence[Stored]],
) -> Iterator[list[Any]]:
    """The games' rows, each with its place and rating, as ``_COLUMNS``' values."""
    for (_, _, values), numbered in zip(games, rated, strict=True):
        for seat, row in zip(values, numbered, strict=True):
            seat["club_id"] = club.pk
            seat["position"], seat["mu"], seat["sigma"] = row[POSITION : SIGMA + 1]
            yield [seat[name] for name in _COLUMNS]


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
    ratings: dict[str, Rating]


def league_before(club: Club, imported: Sequence[Imported]) -> LeagueBefore:
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
    order = {
        game_id: (moment, record_id)
        for game_id, moment, record_id in ClubResult.objects.filter(club=club, seat=0)
        .values_list("game_id", "finished_at", "game__record_id")
        .order_by()
    }
    start = sum(place < first for place in order.values())
    stored = _stored(_from(club, start))
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
    _rate_rows([rows for _, _, rows in games], before.start, before.ratings)
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
        values = _result_values(club, one.record.players, one.result, finished, keys)
        for seat in values:
            seat["club_id"], seat["game_id"] = club.pk, one.game.pk
        rated = [
            [None, one.game.pk, seat["key"], seat["rank"], None, None, None, None]
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
    # As for the games' rows (scoring/clubs/services.py): these rows' keys are checked while
    # the totals' change is added up.
    with keys_checked_meanwhile():
        change = change_of(added=rated.rows)
    move(club, change)
    _move(_changed(row for rows in rated.stored for row in rows))
    return rated.games


_RULES = ("record_id", "first_dealer", *OPTION_NAMES)
"""What a rebuild reads of a game beside its seats and hands."""


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
        )
    )
    lines = list(sums)
    ratings = {
        (key, at): Rating(mu, sigma)
        for key, at, mu, sigma in ClubResult.objects.filter(
            club=club, position__in={line["last"] for line in lines}
        ).values_list("key", "position", "mu", "sigma")
    }
    # Every member: a public name is told apart from all the club's others.
    named = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    names = shown_names(named, public=public)
    members = {member.key: (member.pk, names[member.key]) for member in named}
    shown: dict[int, Line] = {}
    for line in lines:
        sums_of: dict[str, Any] = dict(line)
        member_id, name = members.get(line["key"], (None, line["player"]))
        standing = Standing(
            player=name,
            rating=ratings[line["key"], line["last"]],
            **{count: sums_of[count] for count in COUNTS},
        )
        shown[id(standing)] = Line(standing, member_id, line["amount"])
    return [shown[id(standing)] for standing in ranked(line.standing for line in shown.values())]


def season_games(club: Club, season: Season) -> int:
    """How many of the club's counted games fall in the season's days: one query."""
    start, end = season_range(club, season)
    return ClubResult.objects.filter(
        club=club, seat=0, finished_at__gte=start, finished_at__lt=end
    ).count()
