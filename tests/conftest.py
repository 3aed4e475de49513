"""What every test shares: the games a test makes, which its own phone may score."""

import fcntl
import os
import re
import sqlite3
import tempfile
import time
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from unittest.mock import patch

import pytest
from django.conf import global_settings, settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connections
from django.db.backends.postgresql.creation import DatabaseCreation as PostgresCreation
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations
from django.db.backends.sqlite3.creation import DatabaseCreation as SqliteCreation
from django.db.models.signals import post_save
from django.test import Client, override_settings
from django.utils import translation
from whitenoise.base import WhiteNoise

from scoring.common.rights import COOKIE, PhoneRights, cookie_value
from scoring.engine import Rules
from scoring.infra.throttles import API_REQUESTS, KEYED_LIMITS, LIMITS
from scoring.table import services
from scoring.table.models import Game
from tests.factories import NAMES
from tests.parts import OWN_SQLITE_TESTS, SQLITE_TESTS

REDIS_URL = "redis://127.0.0.1:6379/5"
"""The tests' Redis (a database of its own), for production settings and the throttles."""


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, django_db_modify_db_settings_parallel_suffix):
    """On PostgreSQL, commits do not wait for the log's flush. On SQLite the test database
    lives in memory, in shared-cache mode, where a table a transaction writes is locked
    against every other connection at once, with no wait: the live server's threads (a
    phone polling its game while another saves a hand) answered 500 "database table is
    locked". Readers there may read uncommitted rows, so that they
    take no table lock; a file database, as ``make run`` has, is not in that mode."""

    for connection in connections.all():
        if connection.vendor == "postgresql":
            # A test's commits need not survive a power cut: not waiting for the log's
            # flush at each one took a fifth off the database tests' time (tests/table:
            # 56 s, then 45 s).
            options = connection.settings_dict.setdefault("OPTIONS", {})
            options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()
        if connection.vendor == "sqlite":
            options = connection.settings_dict.setdefault("OPTIONS", {})
            commands = options.get("init_command", "")
            options["init_command"] = f"{commands} PRAGMA read_uncommitted=1;".strip()
    workers = getattr(request.config, "workerinput", None)
    with ExitStack() as patches:
        patches.enter_context(patch.object(PostgresOperations, "sql_flush", _deleted))
        if workers is not None:
            creation = _migrated_once(workers["testrunuid"])
            patches.enter_context(patch.object(PostgresCreation, "create_test_db", creation))
            copied = _copied_in_memory(Path(tempfile.gettempdir()) / workers["testrunuid"])
            patches.enter_context(patch.object(SqliteCreation, "create_test_db", copied))
        yield


_truncated = PostgresOperations.sql_flush


def _deleted(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    """The emptying of every table after a test that commits (``transactional_db``), on
    PostgreSQL: DELETE, not Django's TRUNCATE, which gives each of the ~50 tables and their
    indexes new files: 0.5 to 1.5 s of the server's each time under CI's load, against 0.1 s
    (74 such tests in the database part). The same tables end empty in one transaction,
    where the foreign keys, all deferred, are checked at its end; sequences go on as with
    TRUNCATE, unless a test asks them reset (TRUNCATE then)."""
    if reset_sequences:
        return _truncated(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    return [f"DELETE FROM {self.quote_name(table)};" for table in tables]


def _template_name(test_name):
    """The database the workers' test databases are copied from: ``test_<name>_migrated``."""
    return re.sub(r"_gw\d+$", "", test_name) + "_migrated"


def _migrated_once(run):
    """Django's creation of a test database on PostgreSQL, for pytest-xdist's workers: the
    first worker migrates a template database, once for the run (``run``, the id pytest-xdist
    gives its workers), and each worker's database is a copy of it, which PostgreSQL makes
    from its files in a fraction of a second. Each worker migrated its own database before:
    every migration's Python, about 2.5 CPU-seconds on a 0.19 s machine, once per worker."""
    create = PostgresCreation.create_test_db

    def create_test_db(self, verbosity=1, autoclobber=False, serialize=True, keepdb=False):
        if keepdb:
            return create(self, verbosity, autoclobber, serialize, keepdb)
        name = self._get_test_db_name()
        template = _template_name(name)
        lock = Path(tempfile.gettempdir()) / f"{template}.lock"
        with lock.open("w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            with self._nodb_cursor() as cursor:
                cursor.execute(
                    "SELECT shobj_description(oid, 'pg_database') FROM pg_database"
                    " WHERE datname = %s",
                    [template],
                )
                found = cursor.fetchone()
            if found is None or found[0] != run:
                test = self.connection.settings_dict["TEST"]
                test["NAME"] = template
                try:
                    create(self, verbosity, True, False, False)
                finally:
                    test["NAME"] = name
                self.connection.close()
                with self._nodb_cursor() as cursor:
                    cursor.execute(f"COMMENT ON DATABASE {self._quote_name(template)} IS %s", [run])
            with self._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {self._quote_name(name)}")
                cursor.execute(
                    f"CREATE DATABASE {self._quote_name(name)}"
                    f" {self._get_database_create_suffix(template=template)}"
                )
        settings.DATABASES[self.connection.alias]["NAME"] = name
        self.connection.settings_dict["NAME"] = name
        if serialize:
            self.connection._test_serialized_contents = self.serialize_db_to_string()
        self.connection.ensure_connection()
        return name

    return create_test_db


def _copied_in_memory(run):
    """Django's creation of a test database on SQLite, in memory, for pytest-xdist's workers
    (the browser part's three): the first worker migrates its database and writes it to
    ``run``.sqlite3, which the others read into theirs (SQLite's backup), for the migrations'
    Python once for the run rather than once per worker."""
    create = SqliteCreation.create_test_db
    template = run.with_suffix(".sqlite3")

    def create_test_db(self, verbosity=1, autoclobber=False, serialize=True, keepdb=False):
        name = self._get_test_db_name()
        if keepdb or not self.is_in_memory_db(name):
            return create(self, verbosity, autoclobber, serialize, keepdb)
        with run.with_suffix(".lock").open("w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            if not template.exists():
                create(self, verbosity, autoclobber, serialize, keepdb)
                written = run.with_suffix(".partial")
                with closing(sqlite3.connect(written)) as file:
                    self.connection.ensure_connection()
                    self.connection.connection.backup(file)
                written.rename(template)
                return name
        self.connection.close()
        settings.DATABASES[self.connection.alias]["NAME"] = name
        self.connection.settings_dict["NAME"] = name
        self.connection.ensure_connection()
        with closing(sqlite3.connect(template)) as file:
            file.backup(self.connection.connection)
        if serialize:
            self.connection._test_serialized_contents = self.serialize_db_to_string()
        return name

    return create_test_db


def pytest_collection_modifyitems(config, items):
    root = config.rootpath
    sqlite = {root / name for name in SQLITE_TESTS}
    own_sqlite = {root / name for name in OWN_SQLITE_TESTS}
    for item in items:
        if item.path in sqlite:
            item.add_marker(pytest.mark.sqlite)
        if item.path in own_sqlite:
            item.add_marker(pytest.mark.own_sqlite)


def scorer_cookie(public_ids):
    """The cookie of a phone that started these games."""
    return cookie_value(PhoneRights(dict.fromkeys(public_ids, 0)))


@pytest.fixture
def made_games():
    """The public ids of the games made during the test, in order."""
    made = []

    def keep(sender, instance, created, **kwargs):
        if created:
            made.append(instance.public_id)

    post_save.connect(keep, sender=Game, dispatch_uid="tests.made_games")
    yield made
    post_save.disconnect(sender=Game, dispatch_uid="tests.made_games")


class ScorerClient(Client):
    """The test's own phone: it may score every game the test makes (as the phone that
    started them would), and nothing else; ``watcher`` is another phone, with no rights."""

    def __init__(self, games, **defaults):
        super().__init__(**defaults)
        self.games = games

    def request(self, **request):
        self.cookies[COOKIE] = scorer_cookie(self.games)
        return super().request(**request)


@pytest.fixture
def client(made_games):
    return ScorerClient(made_games)


@pytest.fixture
def watcher():
    """A phone that never saw the game: it may watch, not change."""
    return Client()


_SCANNED: dict[tuple, dict] = {}
"""The static files WhiteNoise found under a root, by root and by how it serves them."""
_scan = WhiteNoise.update_files_dictionary


def _scan_once(self, root, prefix):
    """WhiteNoise's scan of the static files, once per process: its middleware scans them
    each time it is made, so each test client paid about 24 ms for it (a tenth of the
    database tests' CPU). The files collected do not change during a run."""
    key = (root, prefix, self.max_age, self.allow_all_origins, self.charset, self.index_file)
    if key not in _SCANNED:
        before = dict(self.files)
        _scan(self, root, prefix)
        _SCANNED[key] = {
            url: file for url, file in self.files.items() if before.get(url) is not file
        }
    else:
        self.files.update(_SCANNED[key])


@pytest.fixture(scope="session", autouse=True)
def _static_files_scanned_once():
    with patch.object(WhiteNoise, "update_files_dictionary", _scan_once):
        yield


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Each test starts with no failed login and no form counted: the suite logs in and
    posts from 127.0.0.1 far more often than the throttles allow one address."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _language_back_to_english():
    """A request in French or Arabic leaves its language active in the thread (Django's
    LocaleMiddleware activates, nothing deactivates): the next test starts in English."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _jobs_folder_of_the_test(tmp_path_factory):
    """A job's input and progress (scoring/infra/jobs.py) in a folder of the test's own,
    never the checkout's jobs/."""
    from django.conf import settings

    folder = tmp_path_factory.mktemp("jobs", numbered=True)
    before = settings.JOBS_DIR
    settings.JOBS_DIR = folder
    yield
    settings.JOBS_DIR = before


def on_server(statement, *names):
    """A statement run on the test database's PostgreSQL server, outside any database (as
    CREATE and DROP DATABASE must be); ``{}`` in it are ``names``, quoted."""
    import psycopg
    from psycopg import sql

    params = connections["default"].get_connection_params() | {"dbname": "postgres"}
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as server:
        server.execute(sql.SQL(statement).format(*map(sql.Identifier, names)))


@contextmanager
def empty_database():
    """The default connection on an empty database of its own, migrated to nothing, for the
    ``with``'s length; the test database as it was afterwards (on the test's thread).

    A migration's test starts there from nothing, forward to the migration before the one
    it tests: Django unapplies a migration from a state it clones and renders again at each
    operation, and back from the head to 0011 then forward again took 17 s on a 1.0 s
    machine, forward from nothing 3 s. Unapplying stays tested, back to 0007, by
    tests/site/test_legacy_migration.py."""
    test_database = connections["default"]
    settings_dict = test_database.settings_dict
    folder = None
    if test_database.vendor == "postgresql":
        name = f"{settings_dict['NAME']}_empty"
        on_server("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
        on_server("CREATE DATABASE {}", name)
    else:
        folder = tempfile.TemporaryDirectory()
        name = str(Path(folder.name) / "empty.sqlite3")
    empty = type(test_database)({**settings_dict, "NAME": name}, "default")
    connections["default"] = empty
    try:
        yield
    finally:
        empty.close()
        connections["default"] = test_database
        if folder is None:
            on_server("DROP DATABASE {} WITH (FORCE)", name)
        else:
            folder.cleanup()


STATIC_COLLECTED = "STATIC_COLLECTED"
"""Set to 1 by whoever collected the static files already, for the pytest runs it starts."""


def pytest_sessionfinish(session):
    """pytest-xdist's controller drops the template its workers' databases were copied from
    (``_migrated_once``, ``_copied_in_memory``), once they have all ended."""
    if hasattr(session.config, "workerinput") or not session.config.pluginmanager.hasplugin(
        "dsession"
    ):
        return
    from django.db import connection

    nodes = session.config.pluginmanager.getplugin("dsession").nodemanager
    if nodes is None:  # no worker was started
        return
    run = nodes.testrunuid
    for made in Path(tempfile.gettempdir()).glob(f"{run}.*"):
        made.unlink()
    if connection.vendor == "postgresql":
        template = _template_name(connection.creation._get_test_db_name())
        on_server("DROP DATABASE IF EXISTS {}", template)


def pytest_sessionstart(session):
    """Pages link hashed static files, as in production: collected once, before any test,
    by the process that runs pytest (not by each pytest-xdist worker, which would
    collect again). The lock is for CI, which runs several pytest processes at once."""
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker: its controller did
        return
    if os.environ.get(STATIC_COLLECTED) == "1":  # by .ci/run, once for its pytest processes
        return
    lock = settings.BASE_DIR / ".collectstatic.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        call_command("collectstatic", "--no-input", verbosity=0)


QUICK_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    # Second, so that a hash made by the site's own (tests/data/legacy_0007) still checks.
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """Passwords hashed with MD5: the site's hasher (Django's PBKDF2, a million rounds) takes
    a third of a second of CPU on purpose, and the suite hashes hundreds of passwords, in
    every account it makes and every login it tries. Any hash is stored and checked the same
    way; the tests that need the real one ask for ``site_password_hashing``."""
    with override_settings(PASSWORD_HASHERS=QUICK_HASHERS):
        yield


@pytest.fixture
def site_password_hashing(settings):
    """The site's own password hashers, as production has them: for a test of signing up
    and logging in as they are, and for races, where a real hash's time is the window in
    which two requests overlap."""
    from boulmous_site import settings as site

    settings.PASSWORD_HASHERS = getattr(site, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)


@pytest.fixture
def immediate_jobs(settings):
    """Jobs run as they are queued (django-tasks' immediate backend), for the tests of what
    a request mails (an account's links): the database's queue is tests/jobs.py's."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def game(db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


SMALL_LIMIT = 3
"""The figure of every throttle under ``small_limits``."""


@pytest.fixture
def small_limits():
    """Every throttle at SMALL_LIMIT posts, with the clock stopped: a test of counting sends
    a handful of requests, not a limit's thousands (the API's 3,600), and none runs across a
    window's edge, where the count starts again from none. The declared figures are checked
    once, against docs/deploy.md (tests/accounts/test_throttles.py)."""
    declared = [(limit, limit.count) for limit in (*LIMITS, API_REQUESTS, *KEYED_LIMITS)]
    # Limit is frozen, as the views share it: the test alone sets its count.
    for limit, _ in declared:
        object.__setattr__(limit, "count", SMALL_LIMIT)
    try:
        with patch("time.time", return_value=time.time()):
            yield
    finally:
        for limit, count in declared:
            object.__setattr__(limit, "count", count)
