"""Which test files CI runs where (.ci/run): read by tests/conftest.py, which marks them,
and by .ci/run, which gives its SQLite part these files and the smoke tests' only, so that
it imports no other test module (the API's schema tests alone take seconds to collect).
Plain names, no import: .ci/run reads them before any test runs."""

OWN_SQLITE_TESTS = ("tests/clubs/test_import_kill.py",)
"""The test files whose tests make a file-based SQLite database of their own, as `make run`
has, whatever the tests' database: marked ``own_sqlite`` (and ``sqlite``, below), CI runs
them once, on SQLite."""

SQLITE_TESTS = (
    # The migrations, on the embedded database of `make run`.
    "tests/site/test_migrations.py",
    "tests/site/test_legacy_migration.py",
    "tests/site/test_finish_migration.py",
    "tests/accounts/test_email_migration.py",
    "tests/clubs/test_mail_migration.py",
    # The code that asks `connection.vendor` (or writes SQLite's own SQL). The settings'
    # SQLite branch is tested in a process of its own (tests/site/test_settings.py), once.
    "tests/site/test_bulk.py",
    "tests/site/test_compiled.py",
    "tests/site/test_backup.py",
    "tests/site/test_backup_schedule.py",
    "tests/table/test_backups.py",
    "tests/table/test_seed_games.py",
    "tests/clubs/test_demo_club.py",
    "tests/clubs/test_imports.py",
    "tests/clubs/test_members.py",
    "tests/clubs/test_league.py",
    # The import as a job: one transaction holding SQLite's only writer (issue 43).
    "tests/clubs/test_import_jobs.py",
    *OWN_SQLITE_TESTS,
)
"""The test files marked ``sqlite``: CI runs the database tests on PostgreSQL, and again on
SQLite only these and the ``smoke`` set (every context's main flows). A file whose code
has a branch for SQLite joins this list."""
