"""Migration 0012_verified_email on a database where accounts share addresses (the sign-up
form never refused one): it does not fail; the earliest account keeps each address, the
others' is cleared, and every address comes in unverified."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0011_scorer_link_handed_on")]
AFTER = [("scoring", "0012_verified_email")]


def joined(day):
    return datetime(2026, 1, day, tzinfo=UTC)


@pytest.fixture
def migrated():
    """Accounts made at 0011, some sharing an address in another case, then migrated to
    0012; the models at 0012. Transactional: migrations on SQLite cannot run inside the
    test's transaction. The database is left at the head, even when a step fails."""
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        User = executor.loader.project_state(BEFORE).apps.get_model("auth", "User")
        for username, email, day in [
            ("bilal", "Amina@Example.com", 2),
            ("amina", "amina@example.com", 1),
            ("chafik", "AMINA@EXAMPLE.COM", 3),
            ("dalila", "dalila@example.com", 1),
            ("emile", "", 1),
            ("farid", "", 2),
        ]:
            User.objects.create(username=username, email=email, date_joined=joined(day))
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    return apps


def test_migration_keeps_each_address_for_its_earliest_account(migrated):
    User = migrated.get_model("auth", "User")
    AccountEmail = migrated.get_model("scoring", "AccountEmail")

    emails = sorted(AccountEmail.objects.values_list("user__username", "address", "verified_at"))
    users = sorted(User.objects.values_list("username", "email"))
    assert emails == [
        ("amina", "amina@example.com", None),
        ("dalila", "dalila@example.com", None),
    ]
    assert users == [
        ("amina", "amina@example.com"),
        ("bilal", ""),
        ("chafik", ""),
        ("dalila", "dalila@example.com"),
        ("emile", ""),
        ("farid", ""),
    ]
