"""The game lookup of a page-cache hit, made each way Django and psycopg allow (issue 38):
``table/access.py`` ``GAME_WITH_SUMMARY``, the one query of a game page drawn from the cache,
run as infra/compiled.py's ``CompiledQuery`` (its SQL made once per process, prepared on
PostgreSQL), and as the plain queryset (its SQL made on every request), with Django's
client-side binding and, on PostgreSQL, with server-side binding (``OPTIONS``
``server_side_binding``), which psycopg prepares after ``prepare_threshold`` runs.

For each way, the median CPU time of the process and the median wall-clock time (which has
the database's own, planning included), as tests/bench/bench_cache.py measures them: of the
lookup alone, over LOOKUPS calls, and of the page from the cache, for a watcher. Each way
twice, in turn, each row with this machine's figure (tests/bench/machine.py). The
database: SQLite in a throwaway folder (in memory where /dev/shm is), or PostgreSQL when
BENCH_DATABASE_URL names one (it is made afresh, and dropped after). A figure, not a test:
no test asserts a time.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import bench_cache  # noqa: E402
import bench_site  # noqa: E402
import machine  # noqa: E402

HANDS = 60
LOOKUPS = 3000
ROUNDS = 2


def lookup_ms(lookup, gid: str) -> tuple[float, float]:
    """The lookup's median CPU time in this process, and its median wall-clock time (which
    has the database's own time: planning on PostgreSQL)."""
    return bench_cache.cpu_ms(lambda: lookup(gid), runs=LOOKUPS)


class PlainQuery:
    """GAME_WITH_SUMMARY's queryset, made and run on each call, as Django does by itself."""

    def __init__(self, compiled) -> None:
        self.make = compiled.make

    def first(self, gid):
        return next(iter(self.make(gid)), None)


def setup(folder: Path, url: str | None) -> str:
    if url is None:
        bench_site.setup_django(folder)
        return f"SQLite in {folder}"
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    # As bench_site.setup_django, on the database given rather than SQLite.
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.pop("DEBUG", None)
    import django
    from django.conf import settings

    django.setup()
    settings.STATIC_ROOT = folder / "static"
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)
    return f"PostgreSQL {name}"


def main() -> int:
    url = os.environ.get("BENCH_DATABASE_URL")
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="boulmous-bench-compiled-", dir=base) as folder:
        where = setup(Path(folder), url)
        from django.db import connection
        from django.test import Client

        from scoring.table import access

        print(f"Game lookup of a page-cache hit, {where}; {machine.described()}")
        compiled = access.GAME_WITH_SUMMARY
        plain = PlainQuery(compiled)
        client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_ENCODING="gzip")
        figures = bench_site.Figures(client, HANDS)
        gid = figures.game.public_id
        watcher = Client(HTTP_HOST="localhost", HTTP_ACCEPT_ENCODING="gzip")
        url_page = figures.page_url
        watcher.get(url_page)

        def watch() -> None:
            assert watcher.get(url_page).status_code == 200

        ways = [("CompiledQuery (SQL once; prepared on PostgreSQL)", compiled, {})]
        ways.append(("plain queryset, client-side binding", plain, {}))
        if connection.vendor == "postgresql":
            ways.append(
                (
                    "plain queryset, server-side binding, prepare_threshold 5",
                    plain,
                    {"server_side_binding": True},
                )
            )
        options = connection.settings_dict["OPTIONS"]
        print(f"  {'way':58} {'lookup CPU, wall':>18} {'hit CPU, wall':>18}  machine")
        # Each way twice, in turn: a machine shared with other work shows in the difference.
        for label, lookup, extra in ways * ROUNDS:
            connection.close()
            options.pop("server_side_binding", None)
            options.update(extra)
            access.GAME_WITH_SUMMARY = lookup
            for _ in range(20):  # warm: the connection open, the statement prepared
                watch()
            alone, alone_wall = lookup_ms(lookup.first, gid)
            cpu, wall = bench_cache.cpu_ms(watch, runs=300)
            print(
                f"  {label:58} {alone:5.2f} {alone_wall:5.2f} ms  {cpu:5.2f} {wall:5.2f} ms"
                f"  {machine.additions_seconds():.2f} s"
            )
        access.GAME_WITH_SUMMARY = compiled
        print(f"  (machine: {machine.described()}; load average {bench_cache.LOAD()})")
        if url is not None:
            import psycopg

            connection.close()
            base_url, name = url.rsplit("/", 1)
            with psycopg.connect(f"{base_url}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
