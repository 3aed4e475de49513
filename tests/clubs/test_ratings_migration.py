"""Migration 0041_ratings_trust: the clubs already there keep their ratings as they were
(no idle growth) until an admin turns it on; a club made after it has idle growth; both
have the contract's thresholds."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0040_events")]
AFTER = [("scoring", "0041_ratings_trust")]


def test_clubs_made_before_keep_no_idle_growth_and_new_ones_have_it():
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        apps.get_model("scoring", "Club").objects.create(name="Sfax", slug="sfax")
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        Club = executor.loader.project_state(AFTER).apps.get_model("scoring", "Club")
        Club.objects.create(name="Tunis", slug="tunis")
        columns = (
            "slug",
            "idle_growth",
            "idle_rate",
            "provisional_games",
            "provisional_sigma",
            "ranked_games",
            "ranked_days",
        )
        clubs = list(Club.objects.order_by("slug").values_list(*columns))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert clubs == [
        ("sfax", False, 0.04, 10, 6.0, 20, 60),
        ("tunis", True, 0.04, 10, 6.0, 20, 60),
    ]
