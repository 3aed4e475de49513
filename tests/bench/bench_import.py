"""A club's import as a job (``make bench``): its rate end to end, the worker's memory and
the upload's answer (issue 43).

The games are the demo club's (``manage.py demo_club``: random legal games played to 21,
about 13 hands each, seed 1; tests/records_file.py), written one a line as the club's own
``records.jsonl`` writes them. For 20,000 games and then 200,000, into a new club each
time, it

1. uploads the file through gunicorn as boulmous_site/gunicorn.py sets it up (production
   settings, DEBUG off), signed in as the club's admin: a multipart POST to
   ``/clubs/<club>/import``, timed from the first byte sent to the redirect to the job's
   page (aim: under 1 s for the 20 MB of 20,000 games);
2. waits for the job, which a worker of its own runs (``manage.py db_worker``, started for
   each size and waiting for jobs before the upload), until the job's row says it is
   done: the games per second from the upload's first byte (aims: 20,000 games at least
   as fast as the import made in the request before issue 43, :data:`BEFORE_S` on this
   machine; 200,000 at 90% of 20,000's rate or better);
3. reads the worker's peak memory (its VmHWM, /proc/<pid>/status; aim: under 300 MB).

On PostgreSQL (BENCH_DATABASE_URL, postgres://postgres@127.0.0.1:5432/boulmous_import
unless given; made and migrated when missing). The clubs it made are deleted on the way
out, and gunicorn and the workers stopped, whatever happens. Other work on the machine
slows every figure: the load average is printed. Exits 1 when an aim is missed. A figure,
not a test.
"""

import http.cookiejar
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import machine  # noqa: E402 (the project's root on the path first)
from tests.records_file import SEED, records_file  # noqa: E402

SIZES = tuple(int(size) for size in os.environ.get("BENCH_SIZES", "20000,200000").split(","))
"""Each into a worker that has imported nothing yet: a worker's first import reads every
hand afresh (scoring/engine/record.py ``_read_hand``), as a club's first import on a new
server does."""
BEFORE_S = 8.3
"""20,000 games imported in the request, through gunicorn, before issue 43: this bench as it
was at a3c985a, on the machine of stop 43 at rest (10 million additions in 0.19 s, load
average 0.72; 11.0 s at 2.86, 19.8 s at 2.98): the aim of 20,000 games as a job, scaled
by this machine's figure against that one's (BEFORE_MACHINE_S)."""
BEFORE_MACHINE_S = 0.19
UPLOAD_AIM_S = 1.0
MEMORY_AIM_MB = 300
SAME_RATE = 0.9
"""200,000 games' rate, at least this share of 20,000's."""
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
"""The throttles' shared counts, as production keeps them (its check boulmous.E003)."""
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


def server_env(port: int, jobs: Path) -> dict[str, str]:
    """The environment of gunicorn and the worker: production's settings, one folder of
    jobs."""
    return {
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
        "JOBS_DIR": str(jobs),
    }


def start_gunicorn(port: int, env: dict[str, str]) -> subprocess.Popen:
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


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    """A worker of its own, as systemd runs it (docs/deploy.md, "The worker"), once it
    waits for jobs: a site's worker is up before an organiser uploads, as gunicorn's
    workers are (:func:`warm_up`), and its start (Django's set-up, a second or two) is
    no part of an import."""
    command = [
        sys.executable,
        "manage.py",
        "db_worker",
        "--no-reload",
        "--no-startup-delay",
        "--interval",
        "0.2",
    ]
    with log.open("wb") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    waited = time.monotonic() + 120
    while b"Starting worker" not in log.read_bytes():
        if worker.poll() is not None or time.monotonic() > waited:
            worker.kill()
            raise SystemExit(f"the worker did not start: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    return worker


def peak_megabytes(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The process's CPU seconds so far (user and system): less moved by the machine's other
    work than the wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def job_ended(location: str, timeout: float) -> tuple[str, dict]:
    """The state and result of the job at ``location`` (its page's address), once ended."""
    from scoring.infra.jobs import Job

    if "/jobs/" not in location:
        return "not queued", {}
    public = location.rstrip("/").rsplit("/", 1)[1]
    waited = time.monotonic() + timeout
    while time.monotonic() < waited:
        job = Job.objects.filter(public=public).first()
        if job is not None and job.ended:
            return str(job.state), job.result
        # A tenth of a second at most late; asked more often, this process's own queries
        # took a quarter of a core from the worker and its database on a 2-core machine.
        time.sleep(0.1)
    return "timeout", {}


def warm_up(opener, page_url: str, session: str) -> None:
    """Every gunicorn worker has served the import page once, at once (each loads the URL
    conf and the views at its first request, about 1.3 s): the upload is timed as a server
    that has been up for a while answers it."""
    from concurrent.futures import ThreadPoolExecutor

    def get(_):
        request = urllib.request.Request(page_url, headers={"Cookie": session})
        with opener.open(request) as page:
            page.read()

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(get, range(16)))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def upload(port: int, admin, club, path: Path) -> tuple[float, float, int, str]:
    """The file POSTed to the club's import page as a browser sends it, signed in as its
    admin: the moment it was sent (perf_counter), the seconds until the answer, its status
    and where it sends the browser."""
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
    warm_up(opener, page_url, session)
    started = time.perf_counter()
    try:
        with opener.open(request, timeout=120) as answer:
            status, location = answer.status, answer.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        status, location = error.code, error.headers.get("Location", "")
    return started, time.perf_counter() - started, status, location


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
    missed = False
    before_s = BEFORE_S * machine.additions_seconds() / BEFORE_MACHINE_S
    rates: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="boulmous-import-") as folder:
        env = server_env(port, Path(folder) / "jobs")
        server = start_gunicorn(port, env)
        try:
            print(
                f"Club import as a job, PostgreSQL, demo games (seed {SEED}), gunicorn on :{port}"
            )
            print(f"(this machine now: {machine.described()})")
            for games in SIZES:
                path, hands = records_file(Path(folder), games)
                size = path.stat().st_size / 1e6
                club = new_club(admin)
                worker = start_worker(env, Path(folder) / f"worker-{games}.log")
                try:
                    load = os.getloadavg()[0]
                    started, answered, status, location = upload(port, admin, club, path)
                    state, result = job_ended(location, timeout=3600)
                    seconds = time.perf_counter() - started
                    memory = peak_megabytes(worker.pid)
                    cpu = cpu_seconds(worker.pid)
                finally:
                    worker.terminate()
                    worker.wait(timeout=60)
                    imported = club.club_games.count()
                    delete_club(club)
                    path.unlink()
                rate = games / seconds
                rates[games] = rate
                print(f"\n{games:,} games, {hands:,} hands, {size:.1f} MB")
                print(
                    f"  upload answered in {answered:.2f} s ({status}), "
                    f"aim < {UPLOAD_AIM_S:.0f} s for 20 MB"
                    if games == 20_000
                    else f"  upload answered in {answered:.2f} s ({status})"
                )
                print(
                    f"  imported end to end in {seconds:.1f} s: {rate:,.0f} games/s "
                    f"(load average {load:.2f}); job {state}, {imported:,} games stored"
                )
                print(f"  the worker's peak memory: {memory:.0f} MB (aim < {MEMORY_AIM_MB} MB)")
                print(f"  the worker's CPU: {cpu:.1f} s, {cpu / games * 1000:.2f} ms a game")
                if state != "done" or imported != games or result.get("imported") != games:
                    print(f"  not imported: {status} {location} {state} {result}")
                    missed = True
                if memory >= MEMORY_AIM_MB:
                    missed = True
                if games == 20_000:
                    before = games / before_s
                    print(
                        f"  before issue 43, in the request: {before_s:.1f} s on this machine "
                        f"({BEFORE_S} s at {BEFORE_MACHINE_S} s), {before:,.0f} games/s "
                        f"(aim: as fast or faster)"
                    )
                    missed |= answered >= UPLOAD_AIM_S or rate < before
        finally:
            server.terminate()
            server.wait(timeout=40)
    if 20_000 in rates and 200_000 in rates:
        share = rates[200_000] / rates[20_000]
        print(
            f"\n200,000 games at {share:.0%} of 20,000's rate per game "
            f"(aim: {SAME_RATE:.0%} or more)"
        )
        missed |= share < SAME_RATE
    print(
        f"\n({os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.2f} at the end; "
        f"{machine.described()})"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
