"""Migration 0012_verified_email on a database where accounts share addresses (the sign-up
form never refused one): it does not fail; the earliest account keeps each address, the
others' is cleared, and every address comes in unverified. Migration 0031_email_claimed_at
gives the addresses there are its own time: an unverified one lapses 3 days after it, never
at once."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from scoring.accounts import services
from scoring.accounts.models import AccountEmail as Email
from tests.conftest import empty_database

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0011_scorer_link_handed_on")]
AFTER = [("scoring", "0012_verified_email")]


def joined(day):
    return datetime(2026, 1, day, tzinfo=UTC)


@pytest.fixture
def migrated():
    """Accounts made at 0011, some sharing an address in another case, then migrated to
    0012; the models at 0012. On an empty database of the test's own, forward from nothing
    (tests/conftest.py). Transactional: migrations on SQLite cannot run inside the test's
    transaction."""
    with empty_database():
        executor = MigrationExecutor(connection)
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
        yield executor.loader.project_state(AFTER).apps


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


def test_migration_0031_gives_the_addresses_there_are_its_own_time():
    """Addresses given long ago, at 0030, verified and not; migrated to 0031 after
    ``migrated_at``, then to the head: both are still their accounts'."""
    before = [("scoring", "0030_history_members")]
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(before)
        apps = executor.loader.project_state(before).apps
        User = apps.get_model("auth", "User")
        AccountEmail = apps.get_model("scoring", "AccountEmail")
        for username, verified_at in [("amina", joined(1)), ("bilal", None)]:
            user = User.objects.create(
                username=username, email=f"{username}@example.com", date_joined=joined(1)
            )
            AccountEmail.objects.create(
                user=user, address=f"{username}@example.com", verified_at=verified_at
            )
        migrated_at = timezone.now()
        executor = MigrationExecutor(connection)
        executor.migrate([("scoring", "0031_email_claimed_at")])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    claimed = {row.user.username: row.claimed_at >= migrated_at for row in Email.objects.all()}
    kept = {
        row.user.username: getattr(services.email_of(row.user_id), "address", None)
        for row in Email.objects.all()
    }
    assert (claimed, kept) == (
        {"amina": True, "bilal": True},
        {"amina": "amina@example.com", "bilal": "bilal@example.com"},
    )
