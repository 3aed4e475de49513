"""Queries compiled once (scoring/infra/compiled.py): what they return is what their
queryset returns, joined rows included, for every value asked."""

import pytest
from django.db.models import Model

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
