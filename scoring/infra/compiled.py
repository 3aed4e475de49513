"""Queries the ORM compiles once per process, then runs for each value of their one
parameter (issue 21).

The pages kept in the cache (infra/pagecache.py) cost, on a hit, little more than the one
query that finds the game and what its rights and key need (its summary, its club):
making that query's SQL, with its joins, took longer than running it, about 40% of a hit.
:class:`CompiledQuery` makes it once and then does what the queryset's own iteration does
with the rows (the converters, the model instances and those joined to them), so that
what it returns is what the queryset would return.

The SQL is the default database's, as the queryset would make it; a query whose SQL
depends on more than its one parameter (an ``IN`` list, a ``LIMIT`` given) is no
candidate.

It calls the ORM's private parts (the compiler's select and converters, the related
populators), which Django may change in any release (Django 6 adds a fetch mode to
``get_related_populators`` and ``Model.from_db``): tests/site/test_compiled.py pins each
one's signature, and checks that every compiled query's SQL and rows are the queryset's own,
so an upgrade that changes them fails there, not in production. Kept rather than Django's
own way because that way costs more than the cache hit it serves (issue 38: the figures in
docs/architecture.md, tests/bench/bench_compiled.py): server-side binding and prepared
statements save PostgreSQL's planning, not the ORM's making of the SQL.
"""

from collections.abc import Callable
from functools import cached_property
from typing import Any, Generic, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)

_MARK = "\x00compiled-parameter\x00"
"""The parameter's stand-in while the SQL is made: no real value looks like it."""


class CompiledQuery(Generic[M]):
    """The rows of ``make(value)``, a queryset of model instances, its SQL made once."""

    def __init__(self, make: Callable[[Any], QuerySet[M]]) -> None:
        self.make = make

    @cached_property
    def _compiled(self) -> tuple[SQLCompiler, str, Any, list[str], slice, list[Any]]:
        queryset = self.make(_MARK)
        compiler = queryset.query.get_compiler(DEFAULT_DB_ALIAS)
        sql, params = compiler.as_sql()
        if list(params) != [_MARK]:
            raise TypeError(f"{queryset.query}: one parameter, the value, is expected")
        select, klass_info = compiler.select, compiler.klass_info
        assert klass_info is not None  # a queryset of model instances
        fields = klass_info["select_fields"]
        own = slice(fields[0], fields[-1] + 1)
        init_list = [column[0].target.attname for column in select[own]]
        converters = compiler.get_converters([column[0] for column in select[: compiler.col_count]])
        # Django 5.2's signature (django-stubs describes 6's, which adds a fetch mode).
        populators = get_related_populators(klass_info, select, DEFAULT_DB_ALIAS)  # type: ignore[call-arg]
        return compiler, sql, converters, init_list, own, populators

    @property
    def sql(self) -> str:
        """The SQL it runs, made once: its one parameter a placeholder."""
        return self._compiled[1]

    def all(self, value: Any) -> list[M]:
        compiler, sql, converters, init_list, own, populators = self._compiled
        with _cursor() as cursor:
            cursor.execute(sql, [value])
            rows: Any = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        assert compiler.klass_info is not None
        model = compiler.klass_info["model"]
        found = []
        for row in rows:
            instance = model.from_db(DEFAULT_DB_ALIAS, init_list, row[own])
            for populator in populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    def first(self, value: Any) -> M | None:
        found = self.all(value)
        return found[0] if found else None


def _cursor() -> CursorWrapper:
    """A cursor of the default database, as Django gives it (its queries logged and
    counted alike); on PostgreSQL, one whose queries are prepared (:class:`_Prepared`)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    # django-stubs type these as taking Django's wrapper; they take the driver's cursor.
    raw: Any = _Prepared(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


class _Prepared(psycopg.Cursor[Any]):
    """A psycopg cursor that binds its parameters on the server and has PostgreSQL keep
    each query's plan for the connection (a prepared statement, made on its first run):
    planning the game's joined lookup took 0.4 to 0.6 ms, running it 0.1. Django's own
    cursors bind on the client and never prepare; settings.py lets the connection prepare
    (``prepare_threshold``), which Django turns off unless told."""

    def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
        return super().execute(query, params, **{**options, "prepare": True})
