"""A worker killed with ``kill -9`` in the middle of a 20,000-game import (issue 43.6): a real
``manage.py db_worker`` on a file-based SQLite database, as ``make run`` has it. The club
is left exactly as before (the import's one transaction died with the worker), the job is
marked failed and retryable once its heartbeat is stale, and tried again it imports every
game, the league equal to a full rebuild.

Everything runs in processes of its own, on a database of its own: the test's database is
not used."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20_000

PRELUDE = """
import json, os, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from scoring.clubs import jobs as club_jobs
from scoring.clubs.models import Club, ClubChange, Member
from scoring.infra.jobs import Job
"""

MAKE = """
from pathlib import Path
from django.core.management import call_command
from scoring.clubs import services
from scoring.common.rights import Actor
from scoring.engine import Rules
from scoring.engine.league import DEFAULT_POINTS
from tests.records_file import records_file

call_command("migrate", verbosity=0)
admin = get_user_model().objects.create(username="amina")
club = services.create_club(
    name="Sfax", slug="sfax", time_zone="Africa/Tunis", rules=Rules(), points=DEFAULT_POINTS,
    public=False, invite_admits=False, admin_user_id=admin.pk, admin_name="Amina",
)
path, _hands = records_file(Path(sys.argv[1]), int(sys.argv[2]))
job = club_jobs.queue_import(
    club=club, source=path.read_bytes(), lines=int(sys.argv[2]), owner_id=admin.pk,
    by=Actor(user_id=admin.pk), language="en",
)
print(json.dumps({"job": job.pk}))
"""

LOOK = """
from scoring.clubs.league.checked import rebuild_checked
club = Club.objects.get(slug="sfax")
job = Job.objects.get(pk=int(sys.argv[1]))
before = (job.state, job.reason, job.retryable)
running = club_jobs.of_club(club)  # what the club's page reads: the dead worker's job swept
job.refresh_from_db()
games = club.club_games.count()
seen = {
    "before": list(before),
    "after": [job.state, job.reason, job.retryable],
    "running": len(running),
    "games": games,
    "members": Member.objects.filter(club=club).count(),
    "imported_lines": ClubChange.objects.filter(club=club, action="records_imported").count(),
}
if sys.argv[2] == "retry":
    seen["retried"] = club_jobs.retry(job)
if sys.argv[2] == "check":
    checked = rebuild_checked(club)
    seen["rebuild"] = [checked.games, checked.rows, checked.players]
print(json.dumps(seen))
"""


def environment(folder: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "boulmous_site.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "JOBS_DIR": str(folder / "jobs"),
        "JOBS_STALE_SECONDS": "2",
        "DEBUG": "1",
        "SECRET_KEY": "tests-only-not-secret",
        "PYTHONPATH": str(ROOT),
    }


def django(code: str, env: dict[str, str], *arguments: object) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + code, *map(str, arguments)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def worker(env: dict[str, str], *options: str) -> subprocess.Popen:
    command = [sys.executable, "manage.py", "db_worker", "--no-startup-delay", *options]
    return subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def imported_so_far(progress: Path) -> int:
    try:
        return int(json.loads(progress.read_text())["counts"].get("imported", 0))
    except (OSError, ValueError, KeyError):
        return 0


def test_import_worker_killed_mid_import_leaves_the_club_as_before_and_the_job_retryable(
    tmp_path,
):
    env = environment(tmp_path)
    job = django(MAKE, env, tmp_path, GAMES)["job"]
    progress = tmp_path / "jobs" / f"job-{job}.progress"

    first = worker(env, "--no-reload", "--interval", "0.2")
    try:
        waited = time.monotonic() + 300
        while imported_so_far(progress) < 4_000 and time.monotonic() < waited:
            assert first.poll() is None, "the worker ended"
            time.sleep(0.05)
        written = imported_so_far(progress)
        os.kill(first.pid, signal.SIGKILL)
    finally:
        first.kill()
        first.wait(timeout=30)
    time.sleep(2.5)  # its heartbeat stale (JOBS_STALE_SECONDS)

    killed = django(LOOK, env, job, "retry")
    assert (GAMES > written >= 4_000, first.returncode) == (True, -signal.SIGKILL)
    assert killed == {
        "before": ["running", "", False],
        "after": ["failed", "stopped", True],
        "running": 0,
        "games": 0,
        "members": 1,
        "imported_lines": 0,
        "retried": True,
    }

    again = worker(env, "--no-reload", "--batch")
    assert again.wait(timeout=600) == 0
    retried = django(LOOK, env, job, "check")
    assert {key: retried[key] for key in ("after", "games", "imported_lines", "rebuild")} == {
        "after": ["done", "", False],
        "games": GAMES,
        "imported_lines": 1,
        "rebuild": [GAMES, 0, []],
    }
