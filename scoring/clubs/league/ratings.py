"""A club's league in the database: each counted game's results and ratings kept beside its
facts, following the games (a game won, corrected or gone), rated again from a place on,
or rebuilt whole.

The rules of the league (ranks, points, the order of the standings, OpenSkill) are the
engine's (scoring/engine/league.py); this module keeps :class:`ClubResult` rows following
the games. Nothing here scores a game per request."""

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import Max, OuterRef, Subquery

from ...engine import OPTION_NAMES, dealer_of
from ...engine import Hand as EngineHand
from ...engine.league import COUNTED, Rating, first_rating, rate
from ...engine.trust import Previous, before_game
from ...infra.bulk import collector_paused, insert_rows
from ...table.face import (
    HAND_JSON_COLUMNS,
    Game,
    GameState,
    Hand,
    Seat,
    Summary,
    engine_hand,
    final_as_written,
    finals,
    record_from,
    score,
)
from ..models import Club, ClubResult
from .results import (
    KEPT_OUT_OF_SEASON,
    as_seated,
    club_game_of,
    counts_in_season,
    result_values,
    results_of,
    same_outcome,
)
from .totals import COLUMNS as _COLUMNS
from .totals import count, recount
from .totals import values as row_values


def follow(state: GameState) -> None:
    """Keep the club's results and ratings what a full recomputation gives, after a change
    of this game: a game newly won is rated after the others; a counted game corrected, or
    no longer counted, is rated again from its place on. Called inside the write's
    transaction, the game locked."""
    game = state.game
    club_game = club_game_of(game)
    if club_game is None:
        return
    state = as_seated(state)
    # A game played with confirmation counts once its result is final (issue 40.2).
    counted = state.result.finished and final_as_written(state) and counts_in_season(game)
    if not counted and not ClubResult.objects.filter(game=game).exists():
        return
    club = Club.objects.select_for_update().get(pk=club_game.club_id)
    # Read once the club is locked: another game's change may have just renumbered these.
    old = list(ClubResult.objects.filter(game=game).order_by("seat"))
    new = results_of(state, club) if counted else []
    start = place = old[0].position if old else None
    if new:
        place = _place(club, game, new[0].finished_at)
        # With idle growth, a game moved to another day (its place kept) rates its players
        # again from there: the days between games changed.
        same_day = not club.idle_growth or old[0].finished_at == new[0].finished_at if old else True
        if old and place == start and same_outcome(old, new) and same_day:
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
# beside the new ones. Its game's finish is as the driver gives it (a text on SQLite).
PK, GAME, KEY, RANK, FINISHED, POSITION, MU, SIGMA, WAS = range(9)
_STORED = ("id", "game_id", "key", "rank", "finished_at", "position", "mu", "sigma")
Stored = list[Any]
"""``[id, game_id, key, rank, finished_at, position, mu, sigma, (position, mu, sigma) as
read]``"""


def stored_games(rows: Iterable[tuple[Any, ...]]) -> list[list[Stored]]:
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


def rows_from(club: Club, start: int, *, but: Game | None = None) -> list[tuple[Any, ...]]:
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
    games = stored_games(rows_from(club, start, but=game))
    stored = [row for rows in games for row in rows]
    added: list[Stored] = [
        [None, game.pk, row.key, row.rank, row.finished_at, None, None, None, None] for row in new
    ]
    if new:
        games.insert(place - start, added)
    _rate(club, games, start)
    for row, values in zip(new, added, strict=True):
        row.position, row.mu, row.sigma = values[POSITION], values[MU], values[SIGMA]
    ClubResult.objects.filter(game=game).delete()
    ClubResult.objects.bulk_create(new)
    move_rows(changed_rows(stored))


def changed_rows(rows: Iterable[Stored]) -> list[Stored]:
    """The rows whose place or rating is not what was read."""
    return [row for row in rows if row[WAS] != (row[POSITION], row[MU], row[SIGMA])]


def move_rows(rows: Sequence[Stored], batch: int = 200) -> None:
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


Before = dict[str, tuple[Rating, int]]
"""Each player's rating after his last counted game before a place, and the day (its
ordinal, in the club's zone) that game finished on."""


def day_number(moment: datetime | str, zone: ZoneInfo) -> int:
    """The day (its ordinal) a moment falls on in the club's zone; a moment as a row read
    without Django gives it (SQLite: a text in UTC)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone).date().toordinal()


def ratings_before(club: Club, position: int, keys: Iterable[str]) -> Before:
    """Each player's rating after his last counted game before ``position``, and that
    game's day: two queries (one on PostgreSQL, each player's row found by the index on
    his rows' places, however many games the club has: a large import asks it for every
    batch)."""
    zone = ZoneInfo(club.time_zone)
    if connection.vendor == "postgresql":
        table = ClubResult._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT wanted.key, last.mu, last.sigma, last.finished_at "
                f"FROM unnest(%s::text[]) AS wanted(key) CROSS JOIN LATERAL ("
                f"SELECT mu, sigma, finished_at FROM {table} WHERE club_id = %s "
                f"AND key = wanted.key AND position < %s ORDER BY position DESC LIMIT 1"
                f") AS last",
                [sorted(set(keys)), club.pk, position],
            )
            return {
                key: (Rating(mu, sigma), day_number(finished, zone))
                for key, mu, sigma, finished in cursor.fetchall()
            }
    last = dict(
        ClubResult.objects.filter(club=club, position__lt=position, key__in=set(keys))
        .values_list("key")
        .annotate(last=Max("position"))
        .values_list("key", "last")
    )
    rows = ClubResult.objects.filter(club=club, position__in=set(last.values())).values_list(
        "key", "position", "mu", "sigma", "finished_at"
    )
    return {
        key: (Rating(mu, sigma), day_number(finished, zone))
        for key, at, mu, sigma, finished in rows
        if last.get(key) == at
    }


def _rate(club: Club, games: Sequence[Sequence[Stored]], start: int) -> None:
    """Number ``games`` from ``start`` and rate them in that order, from the ratings the
    players had before."""
    keys = {row[KEY] for rows in games for row in rows}
    before = ratings_before(club, start, keys) if start else {}
    rate_rows(club, games, start, before)


def rate_rows(club: Club, games: Sequence[Sequence[Stored]], start: int, before: Before) -> None:
    """Number ``games`` from ``start`` and rate them in that order, from ``before``: one
    Plackett-Luce update a game (:func:`~scoring.engine.league.rate`), after each player's
    sigma grew for the days since his last game when the club has idle growth
    (:func:`~scoring.engine.trust.before_game`)."""
    growth = club.rating_rules.growth
    if growth is None:
        _rate_plainly(games, start, before)
        return
    zone = ZoneInfo(club.time_zone)
    current: dict[str, Previous] = dict(before)
    for position, rows in enumerate(games, start=start):
        keys = [row[KEY] for row in rows]
        day = day_number(rows[0][FINISHED], zone)
        ratings = before_game([current.get(key) for key in keys], day, growth)
        after = rate(ratings, [row[RANK] for row in rows])
        for row, key, rating in zip(rows, keys, after, strict=True):
            current[key] = (rating, day)
            row[POSITION], row[MU], row[SIGMA] = position, rating.mu, rating.sigma


def _rate_plainly(games: Sequence[Sequence[Stored]], start: int, before: Before) -> None:
    """:func:`rate_rows` for a club without idle growth: no day read."""
    current = {key: rating for key, (rating, _) in before.items()}
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
        games = stored_games(rows_from(club, start))
        _rate(club, games, start)
        moved = changed_rows(row for rows in games for row in rows)
        move_rows(moved)
        return len(moved)


def rebuild(club: Club, *, chunk: int = 500, step: Callable[[int, int], None] | None = None) -> int:
    """The club's results and ratings recomputed from every game's facts: what they must
    always equal. Returns the number of counted games.

    Fast for ten thousand games: the games are read ``chunk`` at a time, three queries a
    chunk (games with their last hand's time, the names at their seats, their hands), each
    scored by the engine; the rows are then rated in order and written in batches.
    ``step(read, total)`` is told after each chunk how many games are read of the total."""
    with collector_paused():
        return _rebuild(club, chunk, step)


def _rebuild(club: Club, chunk: int, step: Callable[[int, int], None] | None) -> int:
    kept_out = Game.objects.filter(KEPT_OUT_OF_SEASON).values("pk")
    ids = list(
        Summary.objects.filter(game__club_game__club=club, status=Summary.Status.WON)
        .exclude(game__in=kept_out)
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
        read_games = list(
            Game.objects.filter(pk__in=batch)
            .only("pk", "finished_at", *_RULES)
            .annotate(last_recorded=Subquery(last_hand.values("recorded_at")[:1]))
        )
        results = {}
        for game in read_games:
            seated, rows = tuple(names[game.pk]), hands[game.pk]
            dealers = (dealer_of(index, game.first_dealer) for index in range(len(rows)))
            record = record_from(game, seated, [*map(read.hand, rows, dealers)])
            results[game.pk] = score(record)
        final = finals(read_games, results)  # a game played with confirmation: once final
        for game in read_games:
            result = results[game.pk]
            if result.finished and game.pk in final:
                finished = game.finished_at or game.last_recorded
                values = result_values(club, tuple(names[game.pk]), result, finished, keys)
                for seat in values:
                    seat["game_id"] = game.pk
                games.append((finished, game.record_id, values))
        if step is not None:
            step(min(first + chunk, len(ids)), len(ids))
    games.sort(key=lambda game: (game[0], game[1]))
    rated = [
        [
            [None, None, seat["key"], seat["rank"], finished, None, None, None, None]
            for seat in values
        ]
        for finished, _, values in games
    ]
    rate_rows(club, rated, 0, {})
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


_RULES = ("record_id", "first_dealer", *OPTION_NAMES)
"""What a rebuild reads of a game beside its seats and hands."""
