"""Rows written in bulk (scoring/common/bulk.py), as an import and a rebuild write them."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from scoring.common.bulk import JsonText, insert_rows
from scoring.table.models import Change, Game

pytestmark = pytest.mark.django_db

COLUMNS = ("game_id", "at", "by_user_id", "by_device", "action", "hand_number", "before", "after")


def a_game() -> Game:
    return Game.objects.create(first_dealer=0)


def test_insert_rows_adapts_a_time_shared_by_rows_once_and_right():
    game = a_game()
    shared = datetime(2026, 3, 1, 20, 15, tzinfo=UTC)
    later = shared + timedelta(minutes=5)
    times = [shared, shared, later, shared]

    insert_rows(
        Change,
        COLUMNS,
        ([game.pk, at, None, "", "added", number, None, None] for number, at in enumerate(times)),
    )

    stored = list(Change.objects.filter(game=game).order_by("hand_number").values_list("at"))
    assert stored == [(at,) for at in times]


def test_insert_rows_writes_each_rows_json_as_it_was_when_given():
    game = a_game()
    after = {"tricks": [1]}

    def rows():
        for number in range(3):
            yield [
                game.pk,
                datetime(2026, 3, 1, tzinfo=UTC),
                None,
                "",
                "added",
                number,
                None,
                after,
            ]
            after["tricks"].append(number)  # the same object, changed in place

    insert_rows(Change, COLUMNS, rows())

    stored = (
        Change.objects.filter(game=game).order_by("hand_number").values_list("after", flat=True)
    )
    assert list(stored) == [{"tricks": [1]}, {"tricks": [1, 0]}, {"tricks": [1, 0, 1]}]


def test_insert_rows_stores_json_given_as_text_as_the_value_it_writes():
    game = a_game()
    values = [None, {"tricks": [3, 2, 1, 0]}, ["pass", 4, "pass", "pass"]]

    insert_rows(
        Change,
        COLUMNS,
        (
            [game.pk, datetime(2026, 3, 1, tzinfo=UTC), None, "", "added", number, None, text]
            for number, text in enumerate(
                None if value is None else JsonText(json.dumps(value)) for value in values
            )
        ),
    )

    stored = (
        Change.objects.filter(game=game).order_by("hand_number").values_list("after", flat=True)
    )
    assert list(stored) == values
