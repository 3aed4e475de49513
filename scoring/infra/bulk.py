"""Many rows written at once, for an import of thousands of games.

Django's ``bulk_create`` turns every object into SQL parameters field by field, which for a
club's 260,000 hands takes longer than reading and scoring them. PostgreSQL takes the rows
through ``COPY`` instead (psycopg 3 sends them as one stream, adapting each value in C);
another database gets them through ``bulk_create``, as before.
"""

import gc
import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from django.db import connection, connections, models

BATCH = 1000
"""Objects per INSERT of ``bulk_create``: within SQLite's limit on the parameters of a
statement."""


def values_found(rows: "models.QuerySet[Any]", field: str, values: Sequence[str]) -> set[str]:
    """Which of ``values`` the ``field`` of these rows holds, asked a batch at a time (an
    import asks for thousands)."""
    found: set[str] = set()
    for start in range(0, len(values), BATCH):
        batch = values[start : start + BATCH]
        found.update(rows.filter(**{f"{field}__in": batch}).values_list(field, flat=True))
    return found


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while an import reads or writes.

    An import keeps every record it reads, and the engine's result for it, until the last
    row is written: hundreds of thousands of objects, which each collection would walk
    through again (a quarter of the time of reading 20,000 games). They hold no cycle to
    collect, and what they leave is freed as ever by reference counting; the collector
    runs again afterwards, whatever happens."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_KEYS_CHECKED_LATER: ContextVar[bool] = ContextVar("keys_checked_later", default=False)


@contextmanager
def keys_checked_meanwhile() -> Iterator[None]:
    """On PostgreSQL, the foreign keys of every row written so far in the transaction checked
    now, by the database, while this process goes on with work that asks the database
    nothing (the body of the ``with``): an import's hundreds of thousands of checks, which
    the commit would make one by one while this process waits, are made beside its work.

    A key that fails raises here, as the commit would have (:class:`KeysCheck`).
    Elsewhere, and inside :func:`keys_checked_later`, nothing is done."""
    if connection.vendor != "postgresql" or _KEYS_CHECKED_LATER.get():
        yield
        return
    checking = KeysCheck()
    try:
        yield
    finally:
        checking.join()
    checking.wait()


@contextmanager
def keys_checked_later() -> Iterator[None]:
    """Inside, :func:`keys_checked_meanwhile` leaves the keys deferred: the caller has them
    checked by a :class:`KeysCheck` of its own, beside longer work (a job's import, while
    it reads its next batch)."""
    token = _KEYS_CHECKED_LATER.set(True)
    try:
        yield
    finally:
        _KEYS_CHECKED_LATER.reset(token)


class KeysCheck:
    """On PostgreSQL, the foreign keys of every row written so far in the transaction
    checked by the database from now on, beside this process's work, which must not use
    the connection until :meth:`wait` (or :meth:`join`) returns.

    ``SET CONSTRAINTS ALL IMMEDIATE`` makes every check deferred so far at once; it runs in a
    thread on the transaction's own connection (psycopg's, whose wait lets the interpreter
    run the work). Then the keys are deferred again, as Django declares them, for what the
    transaction writes next. Elsewhere, nothing is done."""

    def __init__(self) -> None:
        self.failed: list[Exception] = []
        self.thread: threading.Thread | None = None
        if connection.vendor != "postgresql":
            return
        connection.ensure_connection()
        raw = connection.connection

        def check() -> None:
            try:
                raw.execute("SET CONSTRAINTS ALL IMMEDIATE")
            except Exception as error:  # raised in the caller's thread, by wait()
                self.failed.append(error)

        self.thread = threading.Thread(target=check, name="keys checked")
        self.thread.start()

    def join(self) -> None:
        """Once the check is over, whatever it found: the connection is free again."""
        if self.thread is not None:
            self.thread.join()

    def wait(self) -> None:
        """Once the check is over: a key that fails raises, as the commit would have."""
        if self.thread is None:
            return
        self.join()
        self.thread = None
        if self.failed:
            with connection.wrap_database_errors:
                raise self.failed[0]
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def statistics_taken(*tables: type[models.Model]) -> None:
    """On PostgreSQL, the planner's statistics of these models' tables taken again inside
    the transaction, which counts the rows it wrote itself (``ANALYZE``): else a
    transaction that writes hundreds of thousands of rows into tables the statistics
    say are small has its own queries planned as for small tables (an index read whole
    where another finds a few rows). Elsewhere, nothing is done."""
    if connection.vendor != "postgresql":
        return
    names = ", ".join(connection.ops.quote_name(table._meta.db_table) for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {names}")


class JsonText(str):
    """A JSON field's value given to :func:`insert_rows` already written as JSON text (as
    ``json.dumps`` writes it), stored as it is: a value repeated in thousands of rows is
    written once."""


def insert_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows``, each the values of ``fields`` (attribute names: ``game_id``) in that
    order, as Python values, a JSON field's either a value or :class:`JsonText`; the fields
    left out get no default, so ``fields`` names every column but an automatic primary key.
    Nothing is returned, not even primary keys.

    Inside the caller's transaction, as any write."""
    options = model._meta
    columns = [field for field in map(options.get_field, fields) if isinstance(field, models.Field)]
    if len(columns) != len(fields):
        raise TypeError(f"{fields}: give the fields of {model.__name__}'s own columns")
    table = connection.ops.quote_name(options.db_table)
    names = ", ".join(connection.ops.quote_name(str(field.column)) for field in columns)
    if connection.vendor != "postgresql":
        _insert_many(table, names, columns, rows)
        return
    # COPY's text format reads JSON as its text; every other value psycopg adapts.
    as_json = [index for index, field in enumerate(columns) if isinstance(field, models.JSONField)]
    # A moment goes as its ISO text, written once for the rows that share it (a game's
    # hands do): psycopg adapts an aware datetime four times slower than a string, and
    # the server, which reads the text, works beside this process.
    as_text = [
        index for index, field in enumerate(columns) if isinstance(field, models.DateTimeField)
    ]
    moments: dict[datetime, str] = {}
    statement = f"COPY {table} ({names}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            # A row whose JSON is all text already (JsonText, a str) or null goes as it is:
            # most rows of an import, hundreds of thousands, copied into no new list.
            for index in as_json:
                value = row[index]
                if value is not None and type(value) is not JsonText:
                    row = _json_written(row, as_json)
                    break
            if as_text:
                row = list(row)
                for index in as_text:
                    moment = row[index]
                    if moment is not None:
                        text = moments.get(moment)
                        if text is None:
                            text = moments[moment] = moment.isoformat()
                        row[index] = text
            copy.write_row(row)


def _json_written(row: Sequence[Any], as_json: Sequence[int]) -> list[Any]:
    """``row`` with the values of its JSON columns written as JSON text, but those that are
    text already or null."""
    written = list(row)
    for index in as_json:
        value = written[index]
        if value is not None and type(value) is not JsonText:
            written[index] = json.dumps(value)
    return written


_AS_THEY_ARE = (
    models.IntegerField,
    models.FloatField,
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.ForeignKey,
)
"""Fields whose Python values the database's driver takes as they are (no adaptation)."""


def _insert_many(
    table: str,
    names: str,
    columns: "Sequence[models.Field[Any, Any]]",
    rows: Iterable[Sequence[Any]],
) -> None:
    """Rows inserted a batch at a time through the driver's ``executemany`` (SQLite): each
    value adapted as Django adapts it to be saved (``get_db_prep_save``: a time, JSON, a
    decimal), but those the driver takes as they are; no model object is made."""
    adapt = [
        (index, field) for index, field in enumerate(columns) if not isinstance(field, _AS_THEY_ARE)
    ]
    # The value a column last adapted, and what it gave: the rows of one game often share
    # one (the time it finished), adapted once then. Not JSON, which may be a list changed
    # in place from one row to the next.
    last: dict[int, tuple[Any, Any]] = {index: (object(), None) for index, _ in adapt}
    kept = {index for index, field in adapt if not isinstance(field, models.JSONField)}
    statement = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"
    batch: list[Sequence[Any]] = []
    database = connections[connection.alias]  # not the proxy, asked 100,000 times
    with database.cursor() as cursor:
        for row in rows:
            if adapt:
                row = list(row)
                for index, field in adapt:
                    value = row[index]
                    given, adapted = last[index]
                    if type(value) is JsonText:
                        adapted = str(value)
                    elif value is not given:
                        adapted = field.get_db_prep_save(value, database)
                        if index in kept:
                            last[index] = (value, adapted)
                    row[index] = adapted
            batch.append(row)
            if len(batch) == BATCH:
                cursor.executemany(statement, batch)
                batch = []
        if batch:
            cursor.executemany(statement, batch)


def insert_objects(objects: Sequence[models.Model]) -> None:
    """Insert new objects of one model, and give them their primary keys: on PostgreSQL,
    keys drawn from the table's own sequence, then the rows copied (:func:`insert_rows`);
    elsewhere through ``bulk_create``, which reads them back. The objects are then as
    ``bulk_create`` leaves them: saved."""
    if not objects:
        return
    model = type(objects[0])
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(objects, batch_size=BATCH)
        return
    options = model._meta
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [options.db_table, options.pk.column, len(objects)],
        )
        keys = [key for (key,) in cursor.fetchall()]
    for instance, key in zip(objects, keys, strict=True):
        instance.pk = key
        instance._state.adding, instance._state.db = False, connection.alias
    fields = [field.attname for field in options.concrete_fields]
    insert_rows(model, fields, ([getattr(one, name) for name in fields] for one in objects))
