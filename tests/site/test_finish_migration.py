"""Migration 0024_finish_kept_and_night_reopened on a database with games: a game won
before it keeps the moment it finished (its last hand's), which undo and redo keep from
then on; a game not won has none."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.conftest import empty_database

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0023_player_totals")]
AFTER = [("scoring", "0024_finish_kept_and_night_reopened")]


def at(minute):
    return datetime(2026, 11, 20, 21, minute, tzinfo=UTC)


@pytest.fixture
def migrated():
    """A won game and one still playing, each of three hands, made at 0023 and migrated to
    0024; the models at 0024. On an empty database of the test's own, forward from nothing
    (tests/conftest.py)."""
    with empty_database():
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        Game, Hand, Summary = (
            apps.get_model("scoring", name) for name in ("Game", "Hand", "Summary")
        )
        for record_id, status in (("won", "won"), ("playing", "playing")):
            game = Game.objects.create(record_id=record_id, first_dealer=0)
            for number in (1, 2, 3):
                Hand.objects.create(
                    game=game, number=number, recorded_at=at(number * 10), trump="H", taker=0, bid=4
                )
            Summary.objects.create(
                game=game,
                names=[],
                totals=[],
                leaders=[],
                status=status,
                hands=3,
                changed_at=at(30),
            )
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        yield executor.loader.project_state(AFTER).apps


def test_migration_keeps_a_won_games_finish_as_its_last_hands_moment(migrated):
    Game = migrated.get_model("scoring", "Game")

    finishes = dict(Game.objects.values_list("record_id", "finished_at"))

    assert finishes == {"won": at(30), "playing": None}
