"""A database at scoring 0007_nights (commit 352d2bb) migrates to the head with nothing lost.

tests/data/legacy_0007/rows.json holds every row of the app's tables and of auth_user, made
by that commit's services: accounts, plain games (hands by tricks, by calls, card by card,
void; edited, undone, redone, discarded; abandoned, resumed, won, a rematch), scorer links,
two clubs and the demo club with members of every role and a pending claim, seasons,
club games, imported records, a night with two rounds drawn, and the league's results.
expected.json holds what that commit's site answered over HTTP for those rows.

The module puts the test database back at 0007_nights once, inserts the rows there by raw
SQL, migrates to the head, then each test asks the site again (what a test writes is rolled
back, as the migration is the slow part): the same downloads, the same games in
each club, night and home page, and the same rows in the tables that keep their names.
"""

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy_0007"
ROWS: dict[str, list[dict[str, Any]]] = json.loads((DATA / "rows.json").read_text("utf-8"))
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text("utf-8"))
LEGACY = [("scoring", "0007_nights")]
NEW_GAME = {
    "player_0": "Amina",
    "player_1": "Bilal",
    "player_2": "Chafik",
    "player_3": "Dalila",
    "first_dealer": "0",
    "target": "21",
    "failed_taker": "tricks_minus_bid",
    "stake": "",
    "currency": "EUR",
}
"""The new-game form's POST data."""

KEPT = {
    "auth_user": (
        "id",
        "username",
        "password",
        "email",
        "is_active",
        "is_staff",
        "is_superuser",
        "date_joined",
    ),
    "scoring_member": (
        "id",
        "club_id",
        "name",
        "key",
        "role",
        "user_id",
        "claimed_by_id",
        "joined_at",
    ),
    "scoring_season": ("id", "club_id", "name", "slug", "first_day", "last_day", "points"),
    "scoring_night": (
        "id",
        "club_id",
        "date",
        "place",
        "rounds",
        "seed",
        "created_at",
        "ended_at",
    ),
    "scoring_round": (
        "id",
        "night_id",
        "number",
        "tables",
        "sitting_out",
        "drawn_at",
        "closed_at",
    ),
    "scoring_attendance": ("id", "night_id", "member_id", "present", "checked_in_at"),
    "scoring_scorerlink": ("id", "game_id", "secret", "created_at", "revoked_at"),
    "scoring_clubresult": (
        "id",
        "game_id",
        "seat",
        "key",
        "rank",
        "position",
        "finished_at",
        "mu",
        "sigma",
    ),
}
"""The columns checked after migrating, in tables that keep their names (last_login is
not: signing in writes it)."""

pytestmark = pytest.mark.django_db


def plain(kind: str, value: Any) -> Any:
    """A value from rows.json or from raw SQL, as one Python value on every database."""
    if value is None:
        return None
    if kind == "DateTimeField":
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    if kind == "DateField":
        return value if isinstance(value, date) else date.fromisoformat(value)
    if kind == "JSONField":
        return json.loads(value) if isinstance(value, str) else value
    if kind == "BooleanField":
        return bool(value)
    if kind == "DecimalField":
        return Decimal(str(value))
    if kind == "UUIDField":
        return uuid.UUID(str(value))
    if kind == "FloatField":
        return float(value)
    return value


def insert_legacy_rows(models: dict[str, Any]) -> None:
    """rows.json, table after table (each after those it refers to), by raw SQL, each value
    as the field of 0007_nights writes it; then the id sequences past the ids inserted."""
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for table, rows in ROWS.items():
            fields = {field.column: field for field in models[table]._meta.concrete_fields}
            columns = list(rows[0])
            cursor.executemany(
                f"INSERT INTO {quote(table)} ({', '.join(map(quote, columns))}) "
                f"VALUES ({', '.join(['%s'] * len(columns))})",
                [
                    [
                        fields[column].get_db_prep_save(
                            plain(fields[column].get_internal_type(), row[column]), connection
                        )
                        for column in columns
                    ]
                    for row in rows
                ],
            )
        for sql in connection.ops.sequence_reset_sql(no_style(), [models[table] for table in ROWS]):
            cursor.execute(sql)


def migrate_to_head() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker) -> Iterator[dict[str, dict[str, str]]]:
    """The legacy rows in a database migrated from 0007_nights to the head; gives each
    column's field type at 0007_nights, by table. The database is left at the head, even
    when a step fails, and emptied after the module's tests (as after a transactional
    test): migrations on SQLite cannot run inside a test's transaction."""
    with django_db_blocker.unblock():
        try:
            executor = MigrationExecutor(connection)
            executor.migrate(LEGACY)
            executor.loader.build_graph()
            applied = [
                key
                for key in executor.loader.applied_migrations
                if key in executor.loader.graph.nodes
            ]
            models = {
                model._meta.db_table: model
                for model in executor.loader.project_state(applied).apps.get_models()
            }
            insert_legacy_rows(models)
        finally:
            migrate_to_head()
    yield {
        table: {
            field.column: field.get_internal_type() for field in models[table]._meta.concrete_fields
        }
        for table in ROWS
    }
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def select(table: str, columns: tuple[str, ...], kinds: dict[str, str]) -> list[tuple]:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(map(quote, columns))} FROM {quote(table)} ORDER BY {quote('id')}"
        )
        return [
            tuple(plain(kinds[column], value) for column, value in zip(columns, row, strict=True))
            for row in cursor.fetchall()
        ]


def legacy(table: str, columns: tuple[str, ...], kinds: dict[str, str]) -> list[tuple]:
    return [
        tuple(plain(kinds[column], row[column]) for column in columns)
        for row in sorted(ROWS[table], key=lambda row: row["id"])
    ]


def per_game(table: str, columns: tuple[str, ...]) -> dict[int, list[tuple]]:
    """The table's rows by game id, in the order of their ids: ``columns`` of each."""
    quote = connection.ops.quote_name
    found: dict[int, list[tuple]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote('game_id')}, {', '.join(map(quote, columns))} FROM {quote(table)} "
            f"ORDER BY {quote('id')}"
        )
        for game_id, *values in cursor.fetchall():
            found.setdefault(game_id, []).append(tuple(values))
    return found


def legacy_per_game(table: str, columns: tuple[str, ...]) -> dict[int, list[tuple]]:
    found: dict[int, list[tuple]] = {}
    for row in sorted(ROWS[table], key=lambda row: row["id"]):
        found.setdefault(row["game_id"], []).append(tuple(row[column] for column in columns))
    return found


def browser(username: str | None) -> Client:
    """A phone with no scorer rights, signed in as ``username`` if given."""
    client = Client()
    if username is not None:
        client.force_login(get_user_model().objects.get(username=username))
    return client


def text(response: Any) -> str:
    if response.status_code != 200:
        return f"HTTP {response.status_code}"
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


GAME_LINK = re.compile(r'href="/games/([A-Za-z0-9_-]+)/"')
CARD_LINK = re.compile(r"/games/([A-Za-z0-9_-]+)/score/([A-Za-z0-9_-]+)")


def game_links(page: str) -> list[str]:
    return GAME_LINK.findall(page)


def card_links(page: str) -> list[list[str]]:
    return [list(pair) for pair in dict.fromkeys(CARD_LINK.findall(page))]


def ranking(page: str) -> list[list[str]]:
    """The ranking table's rows, cell by cell, as text."""
    body = re.search(r"<tbody>(.*?)</tbody>", page, re.S)
    if body is None:
        return []
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
        for cells in (
            re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
        )
    ]


def club_of(key: str) -> str:
    return key.split("/")[0]


def night_path(key: str) -> str:
    club, night = key.split("/")[:2]
    return f"/clubs/{club}/nights/{night}/"


def test_legacy_rows_migrated_give_the_same_record_of_every_game(migrated):
    client = browser(None)

    found = {
        public_id: text(client.get(f"/games/{public_id}/record.json"))
        for public_id in EXPECTED["record.json"]
    }

    assert found == EXPECTED["record.json"]


def test_legacy_rows_migrated_give_the_same_club_records_and_standings(migrated):
    clients = {slug: browser(username) for slug, username in EXPECTED["login"].items()}

    records = {
        slug: text(clients[slug].get(f"/clubs/{slug}/records.jsonl"))
        for slug in EXPECTED["records.jsonl"]
    }
    standings = {
        key: text(clients[club].get(f"/clubs/{club}/seasons/{season}/standings.csv"))
        for key in EXPECTED["standings.csv"]
        for club, season in [key.split("/")]
    }

    assert records == EXPECTED["records.jsonl"]
    assert standings == EXPECTED["standings.csv"]


def test_legacy_rows_migrated_keep_games_in_their_clubs_nights_and_homes(migrated):
    clients = {slug: browser(username) for slug, username in EXPECTED["login"].items()}
    organisers = {slug: browser(username) for slug, username in EXPECTED["organiser"].items()}

    clubs = {
        slug: game_links(text(clients[slug].get(f"/clubs/{slug}/")))
        for slug in EXPECTED["club_games"]
    }
    nights = {
        key: game_links(text(organisers[club_of(key)].get(night_path(key))))
        for key in EXPECTED["night_games"]
    }
    cards = {
        key: card_links(
            text(organisers[club_of(key)].get(f"{night_path(key)}rounds/{key.split('/')[2]}/cards"))
        )
        for key in EXPECTED["round_cards"]
    }
    rankings = {
        key: ranking(text(organisers[club_of(key)].get(f"{night_path(key)}ranking")))
        for key in EXPECTED["night_ranking"]
    }
    homes = {
        username: game_links(text(browser(username).get("/")))
        for username in EXPECTED["home_games"]
    }

    assert clubs == EXPECTED["club_games"]
    assert nights == EXPECTED["night_games"]
    assert cards == EXPECTED["round_cards"]
    assert rankings == EXPECTED["night_ranking"]
    assert homes == EXPECTED["home_games"]


def test_legacy_rows_migrated_keep_accounts_hands_history_and_club_rows(migrated):
    found = {table: select(table, columns, migrated[table]) for table, columns in KEPT.items()}
    hands = per_game("scoring_hand", ("number",))
    history = per_game("scoring_change", ("action", "hand_number"))

    assert found == {
        table: legacy(table, columns, migrated[table]) for table, columns in KEPT.items()
    }
    assert hands == legacy_per_game("scoring_hand", ("number",))
    assert history == legacy_per_game("scoring_change", ("action", "hand_number"))
    assert sorted(history) == sorted(row["id"] for row in ROWS["scoring_game"])


def test_legacy_rows_migrated_take_new_games_and_hands(migrated):
    """New rows get ids past the legacy ones: a new game, and a night's table played to its
    end (its hands, history and league results)."""
    public_id = EXPECTED["night_games"]["sfax/1"][-1]
    record = json.loads(EXPECTED["record.json"][public_id])
    organiser = browser(EXPECTED["organiser"]["sfax"])
    before = len(EXPECTED["records.jsonl"]["sfax"].splitlines())

    started = browser(None).post("/games/new", NEW_GAME)
    answers = []
    for number in range(len(record["hands"]) + 1, len(record["hands"]) + 5):
        boulmous = {"taker": 0, "bid": 6, "trump": "NT", "tricks_0": 6, "tricks_1": 0}
        dealer = (record["first_dealer"] + number - 1) % 4
        hand = {"number": number, "dealer": dealer, "tricks_2": 0, **boulmous}
        answers.append(organiser.post(f"/games/{public_id}/hands", hand).status_code)
    records = text(organiser.get("/clubs/sfax/records.jsonl"))
    secret = dict(EXPECTED["round_cards"]["sfax/1/2"])[public_id]
    game_id = next(row["game_id"] for row in ROWS["scoring_scorerlink"] if row["secret"] == secret)
    new_record = text(browser(None).get(started.headers["Location"] + "record.json"))

    assert (started.status_code, answers) == (302, [302, 302, 302, 302])
    assert json.loads(new_record)["players"] == ["Amina", "Bilal", "Chafik", "Dalila"]
    assert len(per_game("scoring_hand", ("number",))[game_id]) == len(record["hands"]) + 4
    assert len(per_game("scoring_clubresult", ("seat",))[game_id]) == 4
    assert len(records.splitlines()) == before + 1


def test_legacy_rows_migrated_count_each_players_totals_from_the_league_rows(migrated):
    from scoring.clubs.league import totals
    from scoring.clubs.models import Club, ClubResult, PlayerTotals

    def stored():
        return {
            (row.club_id, row.key): (row.figures, row.amount, row.contracts, row.meetings)
            for row in PlayerTotals.objects.order_by("club_id", "key")
        }

    found = stored()
    for club in Club.objects.all():
        totals.recount(club)

    assert found == stored()
    assert {key for _, key in found} == set(ClubResult.objects.values_list("key", flat=True))
    assert len(found) > 4
