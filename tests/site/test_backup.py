"""``manage.py backup FILE`` then ``manage.py restore FILE`` into a new database (README,
"Backup and restore"): every table comes back equal, row by row and column by column.

The source is the test database, filled through the services as the site fills it. The
destination is a second database, migrated once for the module (on PostgreSQL a database
created beside the test one, on SQLite a file) and copied afresh for each test; the
commands reach it by ``--database``, as they reach the site's by ``DATABASE_URL``.
"""

import io
import os
import shutil
import subprocess
import sys
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import suppress
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone

from scoring.accounts import services as accounts
from scoring.accounts.tokens import create_token
from scoring.clubs import history as club_history
from scoring.clubs import mail as club_mail
from scoring.clubs import services as club_services
from scoring.clubs.events import services as event_services
from scoring.clubs.federation import services as federation_services
from scoring.clubs.imports import services as import_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Club, MailSent, MailTry, Member, Night
from scoring.clubs.nights import services as night_services
from scoring.common import once
from scoring.common.rights import Actor
from scoring.engine import (
    About,
    Confirmation,
    Contract,
    Hand,
    Record,
    Rules,
    Trump,
    dealer_of,
    hand_from_dict,
)
from scoring.engine import loads as load_record
from scoring.infra.models import BackupRun
from scoring.management.backup import carried_models
from scoring.management.backups import take_backup
from scoring.table import services
from scoring.table.models import Game, ScorerLink
from tests.conftest import on_server
from tests.factories import NAMES
from tests.golden import CLEAN_PLAYS, DATA

ROOT = Path(__file__).resolve().parents[2]
RESTORED = "restored"
PASSWORD = "correct horse battery staple"
PLAYERS = ("Bilal", "Chafik", "Dalila", "Emna", "Farid", "Ghada", "Hedi", "Inès")
ZONE = "Africa/Tunis"
BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))
"""Seat 0 bids six and takes them: 6 points, a boulmous paid at once."""


def postgresql() -> bool:
    return connections["default"].vendor == "postgresql"


def add_database(alias: str, name: str) -> None:
    """A database beside the test one, as ``alias``: on the same server, or SQLite's file.
    Made here rather than in the settings, so that the test may use it."""
    default = connections["default"]
    connections[alias] = type(default)({**default.settings_dict, "NAME": name}, alias)


def drop_database(alias: str) -> None:
    connections[alias].close()
    del connections[alias]


def migrate(name: str) -> None:
    """``manage.py migrate`` on the database ``name``, as the README's restore begins: in a
    process of its own, whose default database it is (the data migrations write there)."""
    db = connections["default"].settings_dict
    if postgresql():
        user = quote(db["USER"] or "", safe="")
        password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
        port = f":{db['PORT']}" if db["PORT"] else ""
        url = f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}{port}/{name}"
    else:
        url = f"sqlite:///{name}"
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": url,
        # Only to migrate: production's checks (mail, throttles' cache) are not this test's.
        "DEBUG": "1",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "--verbosity", "0"],
        cwd=ROOT,
        env=environment,
        check=True,
    )


@pytest.fixture(scope="module")
def blank(django_db_setup, tmp_path_factory) -> Iterator[str]:
    """The name of a new database, migrated and empty: made once, copied by each test."""
    if postgresql():
        name = f"{connections['default'].settings_dict['NAME']}_blank"
        on_server("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
        on_server("CREATE DATABASE {}", name)
    else:
        name = str(tmp_path_factory.mktemp("backup") / "blank.sqlite3")
    migrate(name)
    yield name
    if postgresql():
        on_server("DROP DATABASE {} WITH (FORCE)", name)


@pytest.fixture
def restored(blank, tmp_path) -> Iterator[str]:
    """A copy of the blank database, as the alias ``restored``."""
    if postgresql():
        name = f"{connections['default'].settings_dict['NAME']}_restored"
        on_server("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
        on_server("CREATE DATABASE {} TEMPLATE {}", name, blank)
    else:
        name = str(tmp_path / "restored.sqlite3")
        shutil.copyfile(blank, name)
    add_database(RESTORED, name)
    yield RESTORED
    drop_database(RESTORED)
    if postgresql():
        on_server("DROP DATABASE {} WITH (FORCE)", name)


def run(command: str, *args: Any, **options: Any) -> str:
    out = io.StringIO()
    call_command(command, *map(str, args), stdout=out, **options)
    return out.getvalue()


# --- a site with a bit of everything ------------------------------------------------------


def play(game: Game, hands: list[Hand], by: Actor) -> None:
    number = game.hands.count()
    for offset, hand in enumerate(hands, start=1):
        services.record_hand(
            public_id=game.public_id, number=number + offset, hand=hand, token=uuid.uuid4(), by=by
        )


def a_game() -> None:
    """A few rows: an account, and a game of his with a few hands."""
    owner = get_user_model().objects.create_user("amina")
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0, owner_id=owner.pk)
    play(game.game, [BOULMOUS] * 3, Actor(user_id=owner.pk))


def log_in(client: Client, username: str, password: str) -> bool:
    """Through the login page, as a phone does (django-axes counts each attempt)."""
    answer = client.post("/accounts/login/", {"username": username, "password": password})
    return answer.status_code == 302


def populate() -> dict[str, Any]:
    """Accounts, groups and permissions, a club with members, claims and roles, a season, a
    night of two rounds, club games corrected, undone and redone, results and ratings, plain
    games with owners, a rematch, scorer links handed on and revoked, imported records."""
    users = get_user_model().objects
    amina = users.create_user("amina", "amina@example.org", PASSWORD, first_name="Amina")
    bilal = users.create_user("bilal", "bilal@example.org", PASSWORD)
    chafik = users.create_user("chafik", "", PASSWORD, is_active=False)
    users.create_superuser("root", "root@example.org", PASSWORD)
    # Their addresses: Amina's verified, Bilal's given and not yet verified.
    accounts.change_email(user=amina, address="amina@example.org")
    accounts.verify_email(user_id=amina.pk, address="amina@example.org")
    accounts.change_email(user=bilal, address="Bilal@Example.org")
    # A personal API token (only its digest is kept).
    create_token(user=amina, name="Club website")
    organisers = Group.objects.create(name="organisers")
    organisers.permissions.add(Permission.objects.get(codename="change_club"))
    amina.groups.add(organisers)
    bilal.user_permissions.add(Permission.objects.get(codename="view_game"))
    signed_in = Client()
    assert log_in(signed_in, "amina", PASSWORD)  # a session, a last login

    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone=ZONE,
        rules=Rules(target=21, stake=Decimal("0.50"), currency="EUR"),
        points=(5, 3, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    members = {name: member_services.add_member(club=club, name=name) for name in PLAYERS}
    member_services.set_role(club=club, member_id=members["Emna"].pk, role=Member.Role.SCORER)
    member_services.join_club(club=club, user_id=bilal.pk, member_id=members["Bilal"].pk, name="")
    member_services.confirm_claim(club=club, member_id=members["Bilal"].pk, accept=True)
    member_services.join_club(club=club, user_id=chafik.pk, member_id=members["Chafik"].pk, name="")
    today = timezone.now().astimezone(ZoneInfo(ZONE)).date()
    club_services.create_season(
        club=club,
        name="Now",
        slug="now",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(5, 3, 1, 0),
    )

    organiser = Actor(user_id=amina.pk)
    night = night_services.create_night(club=club, date=today, place="Café", rounds=2)
    everyone = [member.pk for member in Member.objects.filter(club=club)]
    night_services.check_in(night_id=night.pk, member_ids=everyone, guests=["Zied"])
    first = night_services.draw_round(night_id=night.pk, owner_id=amina.pk, by=organiser)
    one, two = Game.objects.filter(club_game__round=first).order_by("club_game__table")
    play(one, [BOULMOUS] * 4, Actor(device="Table 1"))
    # Table 2 corrects a hand, undoes one and redoes it: a long history.
    table_two = Actor(device="Table 2")
    play(two, [BOULMOUS, Hand(Contract(1, 4, Trump.SPADES), tricks=(1, 4, 1, 0))], table_two)
    services.edit_hand(
        public_id=two.public_id, number=2, hand=BOULMOUS, discard_after_end=False, by=organiser
    )
    services.undo_hand(public_id=two.public_id, number=2, by=table_two)
    services.redo_hand(public_id=two.public_id, number=2, by=table_two)
    play(two, [BOULMOUS] * 2, table_two)
    night_services.draw_round(night_id=night.pk, owner_id=amina.pk, by=organiser)
    night_services.end_night(night_id=night.pk, by=organiser)  # round 2's tables abandoned
    # An event of one night and one round: its entries, a pair never together, the round
    # drawn and published, its table settled, its final drawn.
    event = event_services.create_event(
        club=club,
        settings={
            "name": "Coupe",
            "points": [3, 2, 1, 0],
            "sit_out_points": "average",
            "best_nights": None,
            "min_attendance": Decimal("0.5"),
            "hide_last_rounds": 0,
            "counts_in_season": True,
            "final": "final",
            "carry_over": "0.5",
            "entry_fee": Decimal(5),
            "fee_currency": "EUR",
            "prize_kind": "share",
            "prizes": ["60", "40"],
            "public": True,
        },
        rules=club.rules,
        night=(today, "Café", 1),
        by=organiser,
    )
    entrants = everyone[:5]
    event_services.enter(event_id=event.pk, member_ids=entrants, guests=[], by=organiser)
    event_services.forbid_pair(
        club=club, event_id=event.pk, first_id=entrants[0], second_id=everyone[-1], by=organiser
    )
    event_night = event.nights.get()
    night_services.check_in(night_id=event_night.pk, member_ids=entrants, guests=[])
    drawn = event_services.draw_round(event_id=event.pk, number=1, method="random", by=organiser)
    event_services.publish(
        event_id=event.pk,
        number=1,
        key=event_services.draft_key(drawn),
        owner_id=amina.pk,
        by=organiser,
    )
    event_services.settle_table(
        event_id=event.pk, number=1, table=1, totals=[40, 30, 20, 10], reason="late", by=organiser
    )
    event_services.draw_final(event_id=event.pk, owner_id=amina.pk, by=organiser)
    # Bilal has the night's ranking mailed, in French.
    club_mail.choose(
        member_id=members["Bilal"].pk,
        nights=True,
        seasons=True,
        language="fr",
        origin="https://boulmous.example",
    )
    MailSent.objects.create(member=members["Bilal"], night=night, night_ended_at=timezone.now())
    # Chafik's was refused by the mail server: tried again in a minute, by a job waiting
    # in the queue (issue 43.4).
    retry = timezone.now() + timedelta(minutes=1)
    MailTry.objects.create(
        member=members["Chafik"], night=night, reason="451 4.3.0 Try again later", retry_at=retry
    )
    club_mail.send_one.using(run_after=retry).enqueue(
        members["Chafik"].pk, club_mail.NIGHTS, night.pk, 2
    )
    # A backup the daily job took (issue 43.5).
    BackupRun.objects.create(
        finished_at=timezone.now(), ok=True, file="boulmous-20261205-030000.zip", rows=1
    )
    ScorerLink.objects.filter(game=one).update(revoked_at=timezone.now())
    # The club's own history: a line by an admin, with what it changed.
    club_history.log(
        club, organiser, "club_edited", "Sfax", before={"place": ""}, after={"place": "Café"}
    )
    # A federation (issue 42.6) the club joined.
    federation = federation_services.create_federation(
        name="Sahel", slug="sahel", public=True, admin_user_id=bilal.pk
    )
    federation_services.invite_club(federation=federation, club=club)
    federation_services.answer_invitation(club=club, federation=federation, accept=True)
    finished = timezone.now() - timedelta(days=2)
    import_services.import_club_game(
        club=club,
        record=Record(
            players=("Amina", "Dalila", "Emna", "Yasmine"),
            rules=club.rules,
            hands=(BOULMOUS,) * 4,
            about=About(
                id="sfax-old-1", started_at=finished - timedelta(hours=1), finished_at=finished
            ),
        ),
    )

    # A plain game of Bilal's: an auction, a hand card by card, a void deal, abandoned and
    # resumed, won; its rematch, and a scorer link handed on to it, then revoked.
    # Started from the new-game form, whose one-time token is kept (scoring/common/once.py).
    plain = once.make_once(
        uuid.uuid4(),
        lambda: services.create_game(
            names=NAMES,
            rules=Rules(target=10, stake=Decimal("1.500"), currency="TND"),
            first_dealer=0,
            place="Café des Délices",
            owner_id=bilal.pk,
            by=Actor(user_id=bilal.pk),
        ),
        lambda state: f"/games/{state.game.public_id}/",
    ).thing.game
    hands = [
        {"calls": ["pass", 3, "pass", 4], "trump": "H", "tricks": [1, 0, 2, 3]},
        {"taker": 0, "bid": 3, "trump": "H", "plays": CLEAN_PLAYS},
        {"calls": ["pass"] * 4},
    ]
    play(plain, [hand_from_dict(data, dealer_of(n, 0)) for n, data in enumerate(hands)], Actor())
    services.abandon_game(public_id=plain.public_id, by=Actor(user_id=bilal.pk))
    services.resume_game(public_id=plain.public_id, by=Actor(user_id=bilal.pk))
    play(plain, [BOULMOUS] * 2, Actor(user_id=bilal.pk))
    link = services.make_scorer_link(public_id=plain.public_id)
    rematch = services.rematch(public_id=plain.public_id, by=Actor(device="Bilal's phone"))
    services.hand_on_scorer_link(link_id=link.pk, public_id=plain.public_id, to=rematch.public_id)
    services.revoke_scorer_link(public_id=plain.public_id, link_id=link.pk)
    services.make_scorer_link(public_id=rematch.public_id)
    seats = services.make_seat_links(public_id=plain.public_id)
    services.revoke_seat_link(public_id=plain.public_id, seat=2)
    # Its settlement agreed by one seat on his phone, another on the scorer's with his code.
    services.agree_settlement(public_id=plain.public_id, seat=0, by=Actor(user_id=bilal.pk))
    services.agree_settlement(
        public_id=plain.public_id, seat=1, code=seats[1].code, by=Actor(device="Bilal's phone")
    )
    confirming = services.create_game(
        names=NAMES, rules=Rules(confirmation=Confirmation.EACH_HAND), first_dealer=0
    ).game
    play(confirming, [BOULMOUS], Actor())
    services.confirm_hand(
        public_id=confirming.public_id, number=1, version=1, seat=2, by=Actor(device="Chafik")
    )
    with suppress(services.Proposed):  # hand 1 is confirmed: a correction is proposed
        services.edit_hand(
            public_id=confirming.public_id,
            number=1,
            hand=hand_from_dict({"taker": 0, "bid": 3, "trump": "H", "tricks": [3, 1, 1, 1]}, 0),
            discard_after_end=False,
            seat=1,
            by=Actor(device="Bilal"),
        )
    play(confirming, [BOULMOUS], Actor())
    services.dispute_hand(
        public_id=confirming.public_id,
        number=2,
        version=1,
        seat=3,
        reason="Dalila « 4 » مزال",
        by=Actor(device="Dalila"),
    )
    services.decide_dispute(
        public_id=confirming.public_id, number=2, reason="Counted again", by=Actor(user_id=amina.pk)
    )
    services.import_record(
        record=load_record((DATA / "valid" / "about_abandoned_tnd.json").read_text("utf-8")),
        owner_id=amina.pk,
    )
    return {"plain": plain, "club": club}


# --- reading a database as it is stored ---------------------------------------------------


def stored(alias: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the database, sessions aside, as raw SQL reads it in primary-key order.

    Content types and permissions are made by each database's own migrate: they, and the
    columns that refer to them, are read by natural key, not id. The migrations applied
    are read by name, not by when they were applied."""
    connection = connections[alias]
    by_table = {model._meta.db_table: model for model in apps.get_models(include_auto_created=True)}
    names = {
        ContentType: {
            row.pk: (row.app_label, row.model) for row in ContentType.objects.using(alias)
        },
        Permission: {
            row.pk: (row.codename, *row.content_type.natural_key())
            for row in Permission.objects.using(alias).select_related("content_type")
        },
    }
    quote = connection.ops.quote_name
    found: dict[str, list[tuple[Any, ...]]] = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            if table == "django_session":
                continue
            if table == "django_migrations":
                cursor.execute(f"SELECT app, name FROM {quote(table)}")
                found[table] = sorted(cursor.fetchall())
                continue
            keys = connection.introspection.get_primary_key_columns(cursor, table)
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY {', '.join(map(quote, keys))}")
            columns = [column[0] for column in cursor.description]
            model = by_table[table]
            named = {
                field.column: names[field.related_model]
                for field in model._meta.local_concrete_fields
                if field.related_model in names
            }
            if model in names:
                named[model._meta.pk.column] = names[model]
            rows = [
                tuple(
                    named[column][value] if column in named and value is not None else value
                    for column, value in zip(columns, row, strict=True)
                )
                for row in cursor.fetchall()
            ]
            found[table] = sorted(rows, key=repr) if named else rows
    return found


def count(alias: str, model: Any) -> int:
    return model._base_manager.using(alias).count()


# --- the round trip -----------------------------------------------------------------------


def sessions(alias: str) -> int:
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM django_session")
        return cursor.fetchone()[0]


def test_restore_into_a_new_database_gives_every_table_back_equal(db, restored, tmp_path):
    populate()
    path = tmp_path / "site.zip"
    source = stored("default")

    backed_up = run("backup", path)
    restored_out = run("restore", path, database=restored)

    rows = sum(len(source[model._meta.db_table]) for model in carried_models())
    tables = len(carried_models())
    assert (backed_up, restored_out) == (
        f"backed up {rows} rows of {tables} tables to {path}\n",
        f"restored {rows} rows of {tables} tables from {path}\n",
    )
    assert stored(restored) == source
    assert (sessions("default"), sessions(restored)) == (1, 0)  # everyone signs in again
    # Every table carried was tried with rows: a table added later wants its rows in populate().
    empty = [model._meta.db_table for model in carried_models() if not source[model._meta.db_table]]
    assert empty == []


def test_daily_backup_restored_into_an_empty_database_is_equal_table_by_table(
    db, restored, tmp_path
):
    populate()
    directory = tmp_path / "backups"

    taken = take_backup(directory)
    (latest,) = directory.iterdir()
    source = stored("default")
    run("restore", latest, database=restored)
    back = stored(restored)

    rows = sum(len(source[model._meta.db_table]) for model in carried_models())
    assert (taken.ok, taken.file, taken.rows, taken.reason) == (True, latest.name, rows, "")
    # The run's own row was written in the file before it ended: running, then.
    runs = BackupRun._meta.db_table
    assert {table: back[table] for table in back if table != runs} == {
        table: source[table] for table in source if table != runs
    }
    assert BackupRun.objects.using(restored).get(pk=taken.pk).finished_at is None


def test_restore_then_new_rows_get_fresh_ids(db, restored, tmp_path):
    populate()
    run("backup", tmp_path / "site.zip")
    run("restore", tmp_path / "site.zip", database=restored)
    last = {model: model._base_manager.order_by("pk").last().pk for model in (Game, Member, Night)}

    game = Game.objects.using(restored).create(first_dealer=0)
    club = Club.objects.using(restored).get(slug="sfax")
    member = Member.objects.using(restored).create(club=club, name="Walid", key="walid")
    night = Night.objects.using(restored).create(club=club, date=timezone.now().date())

    assert (game.pk, member.pk, night.pk) == (last[Game] + 1, last[Member] + 1, last[Night] + 1)


class ToRestored:
    """Every query to the restored database: the site as it runs on it."""

    def db_for_read(self, model, **hints):
        return RESTORED

    def db_for_write(self, model, **hints):
        return RESTORED

    def allow_relation(self, first, second, **hints):
        return True


def test_restore_then_an_account_signs_in_with_its_old_password(db, restored, tmp_path):
    made = populate()
    run("backup", tmp_path / "site.zip")
    run("restore", tmp_path / "site.zip", database=restored)
    browser = Client()

    with override_settings(DATABASE_ROUTERS=[f"{__name__}.ToRestored"]):
        signed_in = log_in(browser, "bilal", PASSWORD)
        wrong = log_in(Client(), "bilal", "not his password")
        home = browser.get("/").content.decode()
        club = browser.get("/clubs/sfax/")

    assert (signed_in, wrong) == (True, False)
    assert f'href="/games/{made["plain"].public_id}/"' in home
    assert club.status_code == 200


def test_restore_names_permissions_by_natural_key(db, restored, tmp_path):
    """The new database's migrate gave the permissions other ids: the links follow them."""
    bilal = get_user_model().objects.create_user("bilal")
    bilal.user_permissions.add(Permission.objects.get(codename="view_game"))
    organisers = Group.objects.create(name="organisers")
    organisers.permissions.add(Permission.objects.get(codename="change_club"))
    bilal.groups.add(organisers)
    run("backup", tmp_path / "site.zip")
    for codename in ("view_game", "change_club"):
        moved = Permission.objects.using(restored).get(codename=codename)
        moved.delete()
        moved.pk = None
        moved.save(using=restored)

    run("restore", tmp_path / "site.zip", database=restored)
    bilal = get_user_model().objects.using(restored).get(username="bilal")

    ids = {
        alias: list(
            Permission.objects.using(alias)
            .filter(codename__in=["view_game", "change_club"])
            .order_by("codename")
            .values_list("pk", flat=True)
        )
        for alias in ("default", restored)
    }
    assert ids[restored] != ids["default"]
    assert sorted(bilal.get_all_permissions()) == ["scoring.change_club", "scoring.view_game"]


# --- refusals -----------------------------------------------------------------------------


def nothing_in(alias: str) -> dict[str, int]:
    """The carried tables of the database that hold rows, and how many."""
    return {
        model._meta.db_table: count(alias, model)
        for model in carried_models()
        if count(alias, model)
    }


def test_restore_into_a_database_not_empty_is_refused_and_changes_nothing(db, restored, tmp_path):
    a_game()
    run("backup", tmp_path / "site.zip")
    get_user_model().objects.db_manager(restored).create_user("walid")
    name = connections[restored].settings_dict["NAME"]

    with pytest.raises(CommandError) as refused:
        run("restore", tmp_path / "site.zip", database=restored)

    assert str(refused.value) == (
        f"the database {name} is not empty (auth_user hold rows): restore into a new "
        "database, migrated and empty"
    )
    assert nothing_in(restored) == {"auth_user": 1}


def test_restore_into_a_database_at_other_migrations_is_refused(db, restored, tmp_path):
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    (_, last), *_ = graph.leaf_nodes("scoring")
    (before,) = (
        parent.key[1]
        for parent in graph.node_map[("scoring", last)].parents
        if parent.key[0] == "scoring"
    )
    run("backup", tmp_path / "site.zip")
    call_command("migrate", "scoring", before, database=restored, verbosity=0)

    with pytest.raises(CommandError) as refused:
        run("restore", tmp_path / "site.zip", database=restored)

    assert str(refused.value) == (
        f"{tmp_path / 'site.zip'}: made at other migrations than this database's\n"
        f"  in the backup, not here: scoring.{last}\n"
        "Migrate this database to the backup's migrations "
        f"(manage.py migrate scoring {last}), restore, then migrate."
    )


def damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "cut short":
        del data[len(data) // 2 :]
    else:  # a byte changed inside the games' table, as the disk or the copy may
        with zipfile.ZipFile(path) as archive:
            member = archive.getinfo("tables/scoring_hand.jsonl")
        data[member.header_offset + 30 + len(member.filename) + member.compress_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["cut short", "a byte changed"])
def test_restore_damaged_file_is_refused_and_writes_nothing(db, restored, tmp_path, how):
    a_game()
    path = tmp_path / "site.zip"
    run("backup", path)
    damage(path, how)

    with pytest.raises(CommandError) as refused:
        run("restore", path, database=restored)

    assert str(refused.value).startswith(f"{path}: damaged (")
    assert str(refused.value).endswith("); nothing was restored")
    assert nothing_in(restored) == {}


def test_restore_a_file_that_is_no_backup_is_refused(db, tmp_path):
    path = tmp_path / "games.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("game.json", "{}")

    with pytest.raises(CommandError) as refused:
        run("restore", path)

    assert str(refused.value) == f"{path}: not a backup made by `manage.py backup`"


def test_backup_to_an_existing_file_is_refused_and_keeps_it(db, tmp_path):
    path = tmp_path / "site.zip"
    path.write_bytes(b"last week's backup")

    with pytest.raises(CommandError) as refused:
        run("backup", path)

    assert str(refused.value) == f"{path}: exists already; back up to a new file"
    assert (path.read_bytes(), sorted(tmp_path.iterdir())) == (b"last week's backup", [path])
