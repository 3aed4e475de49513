"""Queries compiled once (scoring/infra/compiled.py): what they return is what their
queryset returns, joined rows included, for every value asked; their SQL is the queryset's
own; and the ORM's private parts they call are still there, called as they are called. A
Django upgrade that changes any of these fails here."""

import importlib
import inspect
import sys

import pytest
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model

import scoring.urls  # noqa: F401  (every view, and the queries they compile)
from scoring.engine import Rules
from scoring.infra.compiled import CompiledQuery
from scoring.table import services
from scoring.table.access import GAME_WITH_SUMMARY
from scoring.table.models import Game
from tests.clubs.factories import account as club_account
from tests.clubs.factories import club_game_data, make_club, signed_in

pytestmark = pytest.mark.django_db


def fields(instance: Model | None, seen: frozenset[int] = frozenset()) -> object:
    """An instance's column values, and those of the instances joined to it, by name (one
    joined back to an instance already shown is named by its model alone)."""
    if instance is None:
        return None
    if id(instance) in seen:
        return type(instance).__name__
    found: dict[str, object] = {
        field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields
    }
    for name, joined in instance._state.fields_cache.items():
        found[name] = fields(joined, seen | {id(instance)})
    return found


PRIVATE_CALLS = {
    "django.db.models.sql.query.Query.get_compiler": (
        "(self, using=None, connection=None, elide_empty=True)"
    ),
    "django.db.models.sql.compiler.SQLCompiler.as_sql": (
        "(self, with_limits=True, with_col_aliases=False)"
    ),
    "django.db.models.sql.compiler.SQLCompiler.get_converters": "(self, expressions)",
    "django.db.models.sql.compiler.SQLCompiler.apply_converters": "(self, rows, converters)",
    "django.db.models.query.get_related_populators": "(klass_info, select, db)",
    "django.db.models.query.RelatedPopulator.populate": "(self, row, from_obj)",
    "django.db.models.base.Model.from_db": "(db, field_names, values)",
    "django.db.backends.base.base.BaseDatabaseWrapper.make_cursor": "(self, cursor)",
    "django.db.backends.base.base.BaseDatabaseWrapper.make_debug_cursor": "(self, cursor)",
}
"""What compiled.py calls of Django's insides, and the signature it calls them by (Django
5.2's)."""


def found(dotted: str) -> object:
    module, _, name = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:
        owner, _, attribute = module.rpartition(".")
        return getattr(getattr(importlib.import_module(owner), attribute), name)


def compiled_queries() -> list[CompiledQuery[Model]]:
    """Every compiled query of the site's modules."""
    queries = {
        id(value): value
        for name, module in list(sys.modules.items())
        if name.startswith("scoring.")
        for value in vars(module).values()
        if isinstance(value, CompiledQuery)
    }
    return list(queries.values())


def test_private_calls_of_the_orm_keep_their_signatures():
    signatures = {name: str(inspect.signature(found(name))) for name in PRIVATE_CALLS}
    assert signatures == PRIVATE_CALLS


def test_compiled_queries_are_found_in_the_site():
    assert [query is GAME_WITH_SUMMARY for query in compiled_queries()] == [True]


@pytest.mark.parametrize("value", ["a-game", "", "O'Brien"])
def test_compiled_sql_is_its_querysets_own_for_each_query(value):
    for query in compiled_queries():
        sql, params = query.make(value).query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
        assert (query.sql, list(params)) == (sql, [value])


def test_compiled_game_with_summary_equals_its_queryset_for_a_plain_and_a_club_game():
    plain = services.create_game(
        names=("Amina", "Bilal", "Chafik", "Dalila"), rules=Rules(), first_dealer=0
    )
    amina = club_account("amina")
    make_club(amina)
    signed_in(amina).post("/clubs/sfax/games/new", club_game_data())
    in_club = Game.objects.exclude(pk=plain.game.pk).get()

    for game in (plain.game, in_club):
        expected = GAME_WITH_SUMMARY.make(game.public_id).get()
        found = GAME_WITH_SUMMARY.first(game.public_id)
        assert fields(found) == fields(expected)
    assert fields(GAME_WITH_SUMMARY.first(in_club.public_id))["club_game"]["club"]["name"] == "Sfax"


def test_compiled_query_of_a_value_nothing_matches_is_none(game):
    assert (GAME_WITH_SUMMARY.first("no-such-game"), GAME_WITH_SUMMARY.all("")) == (None, [])


def test_compiled_query_with_more_than_its_one_parameter_is_refused(game):
    several = CompiledQuery(lambda gid: Game.objects.filter(public_id=gid, target__gt=3))

    with pytest.raises(TypeError, match="one parameter"):
        several.first(game.public_id)
