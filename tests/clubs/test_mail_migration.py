"""Migration 0034_mail_sent_night_end: the rows of the night mails already sent belong to
their night's end as it stands, and a second end's mail can then be kept beside them."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db

BEFORE = [("scoring", "0033_confirmation")]
AFTER = [("scoring", "0034_mail_sent_night_end")]
ENDED = datetime(2026, 11, 20, 23, 10, tzinfo=UTC)


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """A night mailed to two members and a season mailed to one, made at 0033 and migrated
    to 0034; the models at 0034. The database is left at the head, even when a step fails,
    and emptied after the module's tests, each of which runs in a transaction rolled back:
    the migrations back and forth run once for them all (as tests/site/test_legacy_migration.py
    does), not once per test."""
    with django_db_blocker.unblock():
        apps = _migrated()
    yield apps
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def _migrated():
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        Club = apps.get_model("scoring", "Club")
        club = Club.objects.create(name="Sfax", slug="sfax", time_zone="Africa/Tunis")
        members = [
            apps.get_model("scoring", "Member").objects.create(club=club, name=name, key=name)
            for name in ("Amina", "Bilal")
        ]
        night = apps.get_model("scoring", "Night").objects.create(
            club=club, date=ENDED.date(), ended_at=ENDED
        )
        season = apps.get_model("scoring", "Season").objects.create(
            club=club,
            name="Hiver",
            slug="hiver",
            first_day=ENDED.date() - timedelta(days=30),
            last_day=ENDED.date(),
        )
        MailSent = apps.get_model("scoring", "MailSent")
        for member in members:
            MailSent.objects.create(member=member, night=night, sent_at=ENDED)
        MailSent.objects.create(member=members[0], season=season, sent_at=ENDED)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    return apps


def test_mail_rows_sent_take_their_nights_end_and_seasons_none(migrated):
    MailSent = migrated.get_model("scoring", "MailSent")

    rows = MailSent.objects.order_by("pk").values_list("member__name", "night_ended_at")
    assert list(rows) == [("Amina", ENDED), ("Bilal", ENDED), ("Amina", None)]


def test_mail_rows_migrated_leave_room_for_the_next_ends_mail(migrated):
    MailSent = migrated.get_model("scoring", "MailSent")
    first = MailSent.objects.filter(night__isnull=False).first()

    MailSent.objects.create(
        member=first.member, night=first.night, night_ended_at=ENDED + timedelta(hours=1)
    )
    assert MailSent.objects.filter(member=first.member, night=first.night).count() == 2
