"""League figures (``make bench``): ``demo_club --games 10000``, then a season of 10,000
games: its page and its standings.csv.

Builds the demo club (``manage.py demo_club``: every hand checked by the engine, written in
bulk through the club import) and prints how long it took (aim: under two minutes), then
puts all its games in one season and prints, for the season page and its CSV, the median
and p95 server time over 20 requests through Django's test client (in process, gzip asked
for, as a phone does) and the queries of one request (aims: < 300 ms, ≤ 12 queries).

On the database ``DATABASE_URL`` names (migrated first; its Demo club is replaced), else
on a throwaway SQLite database. A figure, not a test.
"""

import io
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

GAMES = 10_000
SEED = 1
RUNS = 20
AIM_DEMO_S = 120
AIM_MS = 300
AIM_QUERIES = 12


def setup_django(folder: Path) -> str:
    """Django on the configured database (or a new SQLite one), migrated, with static files
    collected as in production; the database's vendor."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'bench.sqlite3'}")
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")  # the bench talks to the app directly
    os.environ.pop("DEBUG", None)  # as in production: hashed, compressed static files

    import django
    from django.conf import settings

    django.setup()
    settings.STATIC_ROOT = folder / "static"  # before anything opens the static storage

    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)
    return str(connection.vendor)


def build_demo() -> float:
    """``demo_club --games 10000``: its seconds."""
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("demo_club", games=GAMES, seed=SEED, stdout=io.StringIO())
    return time.perf_counter() - started


def one_season():
    """The demo's two seasons made one, from the first day of the first to the last day of
    the last: all its games in it. The club and that season."""
    from scoring.clubs import services
    from scoring.clubs.models import Club

    club = Club.objects.get(slug="demo")
    seasons = list(club.seasons.order_by("first_day"))
    club.seasons.all().delete()
    season = services.create_season(
        club=club,
        name="All of it",
        slug="all-of-it",
        first_day=seasons[0].first_day,
        last_day=seasons[-1].last_day,
        points=seasons[0].points,
    )
    return club, season


def figures(client, url: str) -> tuple[float, float, int, int]:
    """Median and p95 milliseconds over RUNS requests, the queries and bytes of one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def get():
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response

    get()  # warm: templates compiled, connection open
    with CaptureQueriesContext(connection) as captured:
        size = len(get().content)
    queries = len(captured.captured_queries)  # before the next request resets the log
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        get()
        timings.append((time.perf_counter_ns() - start) / 1e6)
    timings.sort()
    p95 = timings[math.ceil(0.95 * len(timings)) - 1]
    return statistics.median(timings), p95, queries, size


def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="boulmous-bench-") as folder:
        vendor = setup_django(Path(folder))
        from django.test import Client
        from django.urls import reverse

        from scoring.clubs.models import ClubResult

        print(f"League, {vendor}, {GAMES} games, server time in process")
        seconds = build_demo()
        print(f"  demo_club --games {GAMES}: {seconds:.1f} s (aim: < {AIM_DEMO_S} s)")
        missed = seconds >= AIM_DEMO_S
        club, season = one_season()
        counted = ClubResult.objects.filter(club=club, seat=0).count()
        player = club.members.order_by("pk").first()
        print(f"  one season of {counted} counted games; {RUNS} requests each")
        client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_ENCODING="gzip")
        print(f"  {'request':30} {'median':>9} {'p95':>9} {'queries':>8} {'bytes':>9}")
        games = reverse("club_games", args=[club.slug])
        for label, url in (
            ("GET season page", reverse("season", args=[club.slug, season.slug])),
            ("GET standings.csv", reverse("standings_csv", args=[club.slug, season.slug])),
            ("GET games, first page", games),
            ("GET games, page 100", f"{games}?page=100"),
            ("GET games, a name", f"{games}?q=ami"),
            ("GET games, a player, won", f"{games}?player={player.pk}&status=won"),
        ):
            median, p95, queries, size = figures(client, url)
            missed |= median >= AIM_MS or queries > AIM_QUERIES
            print(f"  {label:30} {median:6.1f} ms {p95:6.1f} ms {queries:8} {size:9}")
        print(f"  (aims: < {AIM_MS} ms and ≤ {AIM_QUERIES} queries each)")
    print(f"\n({time.perf_counter() - started:.1f} s)")
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
