"""A club import at its limit (``make bench``): 20,000 games in under 10 s, as a user sends
them, and where the time goes.

The games are the demo club's (``manage.py demo_club``: random legal games played to 21,
about 13 hands each, seed 1), written one a line as the club's own ``records.jsonl`` writes
them. For 20,000 games (the import form's MAX_LINES) and then 10,000, into a new club each
time, it

1. uploads the file through gunicorn as boulmous_site/gunicorn.py sets it up (production
   settings, DEBUG off, its 30 s worker timeout), signed in as the club's admin: a
   multipart POST to ``/clubs/<club>/import``, timed from the first byte sent to the
   redirect that says every game was imported (aim for 20,000: under 10 s, well within the
   timeout);
2. imports the same file again in this process (into another new club), timing each
   phase: the form reading the lines (the engine reading and scoring each record, of which
   the JSON decoding alone is timed apart), the names, each bulk insert, the league (the
   rows' facts, the OpenSkill rating, their insert) and the commit.

On PostgreSQL (BENCH_DATABASE_URL, postgres://postgres@127.0.0.1:5432/boulmous_import
unless given; made and migrated when missing). The clubs it made are deleted on the way
out, and gunicorn stopped, whatever happens. Other work on the machine slows every figure:
the load average is printed. Exits 1 when the aim is missed. A figure, not a test.
"""

import http.cookiejar
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import machine  # noqa: E402 (the project's root on the path first)

AIM_S = 10
SIZES = (20_000, 10_000)
"""The limit first, into workers that have imported nothing yet: a worker's first import
reads every hand afresh (scoring/engine/record.py ``_read_hand``), as a club's first import
on a new server does."""
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
"""The throttles' shared counts, as production keeps them (its check boulmous.E003)."""
SEED = 1
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/boulmous_import"
)
GUNICORN = Path(sys.executable).parent / "gunicorn"
"""gunicorn of the environment this bench runs in."""


def make_database() -> None:
    import psycopg
    from psycopg import conninfo, sql

    params = conninfo.conninfo_to_dict(DATABASE_URL)
    name = params.pop("dbname")
    with psycopg.connect(**params, dbname="postgres", autocommit=True, connect_timeout=5) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if found is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def setup_django() -> None:
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    # Shared with gunicorn: the session this process signs the admin in with is its too.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # As `make serve` does: production's pages need the collected files' manifest.
    call_command("collectstatic", interactive=False, verbosity=0)


def records_file(folder: Path, games: int) -> tuple[Path, int]:
    """The demo club's first ``games`` games as a records.jsonl: one record a line, as the
    club's export writes them (compact JSON, players and text as they are); and the number
    of hands."""
    from datetime import date
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    from scoring.engine.record import record_to_dict
    from scoring.management.commands.demo_club import TIME_ZONE, demo_records, season_days

    today = date.today()
    seasons = [
        SimpleNamespace(slug=f"season-{number}", first_day=first, last_day=last)
        for number, (first, last) in enumerate(season_days(today), 1)
    ]
    first_day = seasons[0].first_day
    records = demo_records(
        games, SEED, first_day, (today - first_day).days, ZoneInfo(TIME_ZONE), seasons
    )
    path = folder / f"records-{games}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record_to_dict(record), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
    return path, sum(len(record.hands) for record in records)


def new_club(admin):
    """A new club whose admin is ``admin``, under a fresh address."""
    from scoring.clubs import services
    from scoring.engine import Rules
    from scoring.engine.league import DEFAULT_POINTS

    suffix = uuid.uuid4().hex[:8]
    return services.create_club(
        name=f"Bench {suffix}",
        slug=f"bench-{suffix}",
        time_zone="Europe/Paris",
        rules=Rules(),
        points=DEFAULT_POINTS,
        public=False,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name="Bench admin",
    )


def delete_club(club) -> None:
    """The club and its games gone, and the tables vacuumed, as autovacuum leaves them
    once it has come by: the next import writes into tables and indexes without the
    hundreds of thousands of dead rows of this one, which would slow it (and autovacuum
    would be working beside it)."""
    from django.apps import apps
    from django.db import connection

    from scoring.table.models import Game

    # The games first, in batches: the club's cascade would collect them all at once.
    ids = list(club.club_games.values_list("game_id", flat=True))
    for first in range(0, len(ids), 2000):
        Game.objects.filter(pk__in=ids[first : first + 2000]).delete()
    club.delete()
    with connection.cursor() as cursor:
        for model in apps.get_app_config("scoring").get_models():
            cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(port: int) -> subprocess.Popen:
    env = {
        **{name: value for name, value in os.environ.items() if name != "DEBUG"},
        "DATABASE_URL": DATABASE_URL,
        "SECRET_KEY": os.environ["SECRET_KEY"],
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{port}",
        # Production's checks: throttles counted in Redis (E003), mail through SMTP (E002;
        # nothing here sends any).
        "REDIS_URL": REDIS_URL,
        "EMAIL_HOST": "localhost",
    }
    command = [str(GUNICORN), "-c", "boulmous_site/gunicorn.py", "boulmous_site.wsgi"]
    # Its log is not read: a pipe nobody reads fills up and stops the server mid-import.
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for _ in range(120):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("gunicorn did not answer /healthz")


def _stat(pid: int | str) -> list[str]:
    """/proc/<pid>/stat's fields after the command: utime is [11], stime [12], the reaped
    children's [13] and [14]."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def workers_cpu(master: int) -> float:
    """The CPU seconds of gunicorn's workers, alive or reaped (user and system)."""
    fields = _stat(master)
    ticks = int(fields[13]) + int(fields[14])
    children = Path(f"/proc/{master}/task/{master}/children")
    for pid in children.read_text().split() if children.exists() else []:
        try:
            fields = _stat(pid)
        except FileNotFoundError:  # replaced meanwhile: counted as reaped, or missed
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def upload(port: int, admin, club, path: Path) -> tuple[float, int, str]:
    """The file POSTed to the club's import page as a browser sends it, signed in as its
    admin: the seconds until the answer, its status and where it sends the browser."""
    from django.conf import settings
    from django.test import Client

    browser = Client()
    browser.force_login(admin)  # a session in the database, which gunicorn reads
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies), NoRedirect)
    base = f"http://127.0.0.1:{port}"
    session = (
        f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    )
    page_url = f"{base}/clubs/{club.slug}/import"
    with opener.open(urllib.request.Request(page_url, headers={"Cookie": session})) as page:
        html = page.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    csrf = next(cookie.value for cookie in cookies if cookie.name == settings.CSRF_COOKIE_NAME)
    boundary = uuid.uuid4().hex
    body = b"".join(
        [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"'
            f"\r\n\r\n{token}\r\n".encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n\r\n'.encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="records.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode(),
            path.read_bytes(),
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    request = urllib.request.Request(
        page_url,
        data=body,
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Cookie": f"{session}; {settings.CSRF_COOKIE_NAME}={csrf}",
        },
    )
    started = time.perf_counter()
    try:
        with opener.open(request, timeout=120) as answer:
            status, location = answer.status, answer.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        status, location = error.code, error.headers.get("Location", "")
    return time.perf_counter() - started, status, location


class Phases:
    """Seconds spent in each named function while importing in process, wrapped where the
    import looks them up; restored afterwards."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.undo: list[tuple[object, str, object]] = []

    def wrap(self, owner: object, name: str, label=None) -> None:
        original = getattr(owner, name)
        seconds = self.seconds

        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                key = label(*args) if label else name
                seconds[key] += time.perf_counter() - started

        setattr(owner, name, timed)
        self.undo.append((owner, name, original))

    def restore(self) -> None:
        for owner, name, original in reversed(self.undo):
            setattr(owner, name, original)


def in_process(admin, path: Path) -> tuple[dict[str, float], float, float]:
    """The import of ``path`` in this process, phase by phase: the seconds of each, the
    whole, and this process's CPU seconds (the database's are its own)."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.db import transaction
    from django.db.models.query import QuerySet

    from scoring.clubs import services as club_services
    from scoring.clubs.imports import services as import_services
    from scoring.clubs.imports.forms import ClubImportForm
    from scoring.clubs.league import import_rating
    from scoring.table import forms as table_forms
    from scoring.table import services as table_services

    club = new_club(admin)
    phases = Phases()
    phases.wrap(table_forms, "loads_scored", lambda *args: "engine: read and score")
    phases.wrap(club_services, "_club_names", lambda *args: "names to members")
    phases.wrap(QuerySet, "bulk_create", lambda query, *args: f"insert {query.model.__name__}")
    for module in (table_services, club_services, import_rating):
        phases.wrap(module, "insert_rows", lambda model, *args: f"insert {model.__name__}")
    phases.wrap(table_services, "insert_objects", lambda rows: f"insert {type(rows[0]).__name__}")
    phases.wrap(import_rating, "result_values", lambda *args: "league: results")
    phases.wrap(import_rating, "rate_rows", lambda *args: "league: ratings")
    phases.wrap(import_rating, "move_rows", lambda *args: "league: rows moved")
    try:
        cpu = time.process_time()
        started = time.perf_counter()
        form = ClubImportForm({}, {"file": SimpleUploadedFile(path.name, path.read_bytes())})
        assert form.is_valid(), form.errors
        read = time.perf_counter()
        with transaction.atomic():
            import_services.import_club_records(
                club=club,
                records=form.cleaned_data["records"],
                owner_id=admin.pk,
                results=form.cleaned_data["results"],
                lines=form.cleaned_data["lines"],
            )
            written = time.perf_counter()
        done = time.perf_counter()
        cpu = time.process_time() - cpu
    finally:
        phases.restore()
        delete_club(club)
    seconds = dict(phases.seconds)
    seconds["form: the lines read (all of it)"] = read - started
    seconds["service (all of it)"] = written - read
    seconds["commit"] = done - written
    return seconds, done - started, cpu


def json_seconds(path: Path) -> float:
    """The JSON decoding alone of every line."""
    with path.open(encoding="utf-8") as lines:
        started = time.perf_counter()
        for line in lines:
            json.loads(line)
    return time.perf_counter() - started


def forget_throttles() -> None:
    """The throttles' counts in the bench's Redis forgotten (django-ratelimit's ``rl`` keys):
    a club may import 10 files an hour from one address, and each run of the bench sends 2
    from the loopback, so that a sixth run in an hour would be answered 429."""
    import redis

    server = redis.Redis.from_url(REDIS_URL)
    for key in server.scan_iter(match="*:rl:*"):
        server.delete(key)


def main() -> int:
    make_database()
    setup_django()
    from django.contrib.auth import get_user_model

    admin, _ = get_user_model().objects.get_or_create(username="bench-import-admin")
    forget_throttles()
    port = free_port()
    server = start_gunicorn(port)
    missed = False
    try:
        with tempfile.TemporaryDirectory(prefix="boulmous-import-") as folder:
            print(f"Club import, PostgreSQL, demo games (seed {SEED}), gunicorn on :{port}")
            print(f"(this machine now: {machine.described()})")
            for games in SIZES:
                path, hands = records_file(Path(folder), games)
                size = path.stat().st_size / 1e6
                club = new_club(admin)
                try:
                    load = os.getloadavg()[0]
                    cpu = workers_cpu(server.pid)
                    seconds, status, location = upload(port, admin, club, path)
                    cpu = workers_cpu(server.pid) - cpu
                finally:
                    imported = club.club_games.count()
                    delete_club(club)
                ok = status == 302 and location.endswith(f"?imported={games}")
                aim = f" (aim: < {AIM_S} s)" if games == max(SIZES) else ""
                print(f"\n{games:,} games, {hands:,} hands, {size:.1f} MB")
                print(
                    f"  through gunicorn: {seconds:.1f} s{aim}, answer {status}, "
                    f"{imported:,} games stored; the worker's CPU {cpu:.1f} s "
                    f"(load average {load:.2f})"
                )
                if not ok or imported != games:
                    print(f"  not imported: {status} {location}")
                    missed = True
                if games == max(SIZES) and seconds >= AIM_S:
                    missed = True
                phases, whole, cpu = in_process(admin, path)
                print(f"  in process: {whole:.1f} s (this process's CPU {cpu:.1f} s), by phase:")
                print(f"    {'JSON decoding alone':36} {json_seconds(path):6.2f} s")
                for name, spent in phases.items():
                    print(f"    {name:36} {spent:6.2f} s")
    finally:
        server.terminate()
        server.wait(timeout=40)
    print(
        f"\n({os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.2f} at the end; "
        f"{machine.described()})"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
