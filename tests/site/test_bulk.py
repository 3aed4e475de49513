"""Rows written in bulk (scoring/infra/bulk.py), as an import and a rebuild write them."""

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, connection, transaction

from scoring.infra.bulk import (
    JsonText,
    KeysCheck,
    insert_rows,
    keys_checked_later,
    keys_checked_meanwhile,
    statistics_taken,
)
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


def test_insert_rows_keeps_the_moment_of_a_time_given_in_another_zone():
    game = a_game()
    tunis = datetime(2026, 7, 1, 23, 30, tzinfo=ZoneInfo("Africa/Tunis"))
    same_in_utc = tunis.astimezone(UTC)
    times = [tunis, same_in_utc, datetime(2026, 1, 1, tzinfo=ZoneInfo("America/New_York"))]

    insert_rows(
        Change,
        COLUMNS,
        ([game.pk, at, None, "", "added", number, None, None] for number, at in enumerate(times)),
    )

    stored = Change.objects.filter(game=game).order_by("hand_number").values_list("at", flat=True)
    assert list(stored) == [same_in_utc, same_in_utc, times[2].astimezone(UTC)]


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


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SET CONSTRAINTS is PostgreSQL's"
)
MISSING = 10**9
"""A game that does not exist."""


def change_of(game_id: int) -> None:
    insert_rows(Change, COLUMNS, [[game_id, datetime.now(UTC), None, "", "added", 1, None, None]])


def bad_key_then_checked(reached: list[str]) -> None:
    with transaction.atomic():
        change_of(MISSING)
        with keys_checked_meanwhile():
            reached.append("body")  # it runs, asking the database nothing
        reached.append("after")


def checked_then_bad_key(game_id: int, written: list[int]) -> None:
    with transaction.atomic():
        change_of(game_id)
        with keys_checked_meanwhile():
            pass
        change_of(MISSING)  # taken by its statement, its key checked at the commit
        written.append(Change.objects.count())


def failing_body() -> None:
    with transaction.atomic():
        a_game()
        with keys_checked_meanwhile():
            raise ZeroDivisionError


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_keys_checked_meanwhile_a_bad_key_written_before_raises_at_its_end():
    reached: list[str] = []

    with pytest.raises(IntegrityError):
        bad_key_then_checked(reached)

    assert (reached, Change.objects.exists()) == (["body"], False)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_keys_checked_meanwhile_leaves_later_keys_deferred_to_the_commit():
    game, written = a_game(), []

    with pytest.raises(IntegrityError):
        checked_then_bad_key(game.pk, written)

    assert (written, Change.objects.exists()) == ([2], False)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_keys_checked_meanwhile_the_bodys_error_is_raised_once_the_check_is_over():
    with pytest.raises(ZeroDivisionError):
        failing_body()

    assert Game.objects.exists() is False


def bad_key_checked_later(reached: list[str]) -> None:
    with transaction.atomic():
        change_of(MISSING)
        with keys_checked_later(), keys_checked_meanwhile():
            reached.append("body")
        reached.append("after")  # the key left to the commit


def bad_key_then_a_check_of_its_own(reached: list[str]) -> None:
    with transaction.atomic():
        change_of(MISSING)
        checking = KeysCheck()
        reached.append("meanwhile")  # it runs, asking the database nothing
        checking.wait()
        reached.append("after")


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_keys_checked_later_leaves_the_keys_to_the_commit():
    reached: list[str] = []

    with pytest.raises(IntegrityError):
        bad_key_checked_later(reached)

    assert (reached, Change.objects.exists()) == (["body", "after"], False)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_keys_check_of_its_own_raises_at_its_wait():
    reached: list[str] = []

    with pytest.raises(IntegrityError):
        bad_key_then_a_check_of_its_own(reached)

    assert (reached, Change.objects.exists()) == (["meanwhile"], False)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the planner's statistics")
def test_statistics_taken_inside_a_transaction_count_the_rows_it_wrote():
    game = a_game()
    insert_rows(
        Change,
        COLUMNS,
        (
            [game.pk, datetime(2026, 3, 1, tzinfo=UTC), None, "", "added", n, None, None]
            for n in range(500)
        ),
    )

    statistics_taken(Change)

    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [Change._meta.db_table])
        assert cursor.fetchone() == (500.0,)


def test_keys_checked_meanwhile_elsewhere_runs_the_body_alone():
    game = a_game()
    with keys_checked_meanwhile():
        worked = True
    change_of(game.pk)

    assert (worked, Change.objects.count()) == (True, 1)
