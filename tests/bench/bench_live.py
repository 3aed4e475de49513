"""The live view's unchanged answer under load: requests per second (``make loadtest``).

Every open game page asks ``games/<gid>/live`` every 1.5 s with the version it shows; almost
every ask is answered 304 with no body (scoring/table/views/live.py). Aim: at least 1,000 such
answers per second on this machine (2 CPU cores), with gunicorn as boulmous_site/gunicorn.py
sets it up (sync workers, 2 per core plus 1, an access log line per request), over
PostgreSQL.

It makes the database when missing (BENCH_DATABASE_URL, postgres://postgres@127.0.0.1:5432/
boulmous_live unless given), seeds 1,000 games of 20 hands once, starts gunicorn on a free
port of the loopback with production settings (DEBUG off; the throttles in Redis,
REDIS_URL or BENCH_REDIS_URL, redis://127.0.0.1:6379/5 unless given), checks that a current version
gets a 304 and none a 200, warms up, then loads it for BENCH_TIME seconds (10) with wrk
(BENCH_CONNECTIONS connections, 16; apt-get install wrk), or without wrk with a small
asyncio client in this process (which takes CPU from the server: a lower figure). The 304
is the early answer of scoring/table/views/live_middleware.py, inside Django's own handler.
BENCH_WSGI loads another WSGI application (``module:name``); GUNICORN_CMD_ARGS changes
gunicorn's settings (``--preload``, ``--max-requests 0``: workers replaced every 1000
requests cost most). Prints
the answers per second, the gunicorn workers' CPU time per answer, and the load average
(other work on the machine slows every figure). Exits 1 below the aim. gunicorn is stopped
on the way out, whatever happens.
"""

import asyncio
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

AIM = 1000
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/boulmous_live"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
DURATION = int(os.environ.get("BENCH_TIME", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "16"))
GAMES = 1000
APPLICATION = os.environ.get("BENCH_WSGI", "boulmous_site.wsgi")
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"


def make_database() -> None:
    import psycopg
    from psycopg import conninfo, sql

    params = conninfo.conninfo_to_dict(DATABASE_URL)
    name = params.pop("dbname")
    with psycopg.connect(**params, dbname="postgres", autocommit=True, connect_timeout=5) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if found is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def a_game() -> tuple[str, str]:
    """A game's public id and version, in a database of GAMES seeded games."""
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    # Production settings throttle in a shared cache (check boulmous.E003).
    os.environ.setdefault("REDIS_URL", REDIS_URL)
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.table.models import Summary
    from scoring.table.pages.game import version_of

    call_command("migrate", verbosity=0)
    if Summary.objects.count() < GAMES:
        print(f"--- seeding {GAMES} games of 20 hands")
        call_command("seed_games", games=GAMES, hands=20, verbosity=0)
    summary = Summary.objects.select_related("game").order_by("pk")[GAMES // 2]
    return summary.game.public_id, version_of(summary.changed_at)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def status(url: str, version: str | None = None) -> int:
    headers = {"If-None-Match": f'"{version}"'} if version else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as error:
        return error.code


def _stat(pid: int | str) -> list[str]:
    """/proc/<pid>/stat's fields after the command: utime is [11], stime [12], the reaped
    children's [13] and [14]."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(master: int) -> float:
    """The CPU time of gunicorn's workers, alive or replaced (user and system)."""
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


def with_wrk(url: str, version: str, seconds: int) -> tuple[int, int]:
    """Answers, and answers other than 304 or errors, in ``seconds`` of wrk's load."""
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s"]
    command += ["-H", f'If-None-Match: "{version}"', url]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    done = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    failed = (int(bad.group(1)) if bad else 0) + (
        sum(int(count) for count in errors.groups()) if errors else 0
    )
    return done, failed


async def _one(port: int, request: bytes) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    head = await reader.readline()
    await reader.read()  # the sync worker closes the connection after each answer
    writer.close()
    return head.startswith(b"HTTP/1.1 304")


def with_asyncio(port: int, path: str, version: str, seconds: int) -> tuple[int, int]:
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: "
        f'"{version}"\r\nConnection: close\r\n\r\n'
    ).encode()
    counts = [0, 0]

    async def user(until: float) -> None:
        while time.monotonic() < until:
            try:
                ok = await _one(port, request)
            except OSError:
                ok = False
            counts[0] += 1
            counts[1] += not ok

    async def main() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(user(until) for _ in range(CONNECTIONS)))

    asyncio.run(main())
    return counts[0], counts[1]


def load(url: str, port: int, path: str, version: str, seconds: int) -> tuple[int, int]:
    if shutil.which("wrk"):
        return with_wrk(url, version, seconds)
    return with_asyncio(port, path, version, seconds)


def main() -> int:
    make_database()
    gid, version = a_game()
    port = free_port()
    path = f"/games/{gid}/live"
    url = f"http://127.0.0.1:{port}{path}"
    env = {
        **{name: value for name, value in os.environ.items() if name != "DEBUG"},
        "DATABASE_URL": DATABASE_URL,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "REDIS_URL": os.environ["REDIS_URL"],
        "SECURE_SSL_REDIRECT": "0",
        # Production mails through SMTP (boulmous.E002); nothing here sends any.
        "EMAIL_HOST": "localhost",
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{port}",
    }
    command = [str(GUNICORN), "-c", "boulmous_site/gunicorn.py", APPLICATION]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(120):
            try:
                if status(f"http://127.0.0.1:{port}/healthz") == 200:
                    break
            except OSError:
                time.sleep(0.5)
        checks = (status(url, version), status(url, "0"))
        if checks != (304, 200):
            print(f"the live view answers {checks}, not (304, 200)")
            return 1
        tool = "wrk -t2" if shutil.which("wrk") else "asyncio (no wrk: apt-get install wrk)"
        workers = os.environ.get("WEB_CONCURRENCY") or "2 per core + 1"
        print(f"--- gunicorn {APPLICATION} on 127.0.0.1:{port} ({workers} workers, sync)")
        print(f"--- {tool}, {CONNECTIONS} connections, {DURATION} s, If-None-Match current")
        load(url, port, path, version, 3)  # every worker booted, connected, its query prepared
        before, cpu = os.getloadavg()[0], cpu_seconds(server.pid)
        started = time.monotonic()
        done, failed = load(url, port, path, version, DURATION)
        elapsed = time.monotonic() - started
        used = cpu_seconds(server.pid) - cpu
        after = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(timeout=40)
    rate = done / elapsed
    per_answer = used / done * 1e6 if done else 0
    print(f"live, unchanged (304): {rate:,.0f} requests/s (aim ≥ {AIM:,}); {failed} not 304")
    print(f"gunicorn workers' CPU: {per_answer:,.0f} µs per answer (workers replaced included)")
    print(f"(load average {before:.2f} before, {after:.2f} after, {os.cpu_count()} CPU cores)")
    return 0 if rate >= AIM and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
