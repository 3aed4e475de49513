"""A club's import as a job, on a 360x640 phone (issue 43): the admin uploads 20,000 games,
watches the bar move, cancels that import (nothing is kept), uploads the same file's first
2,000 games, which the cancelled import had read, and waits for its result (none of them
refused as already there); the league then equals a full rebuild. A 20,000-game import
carried to its end on SQLite, and its league rebuilt equal, is the kill test's
(tests/clubs/test_import_kill.py).

As `make run` has it: the server (`manage.py runserver`) and the worker (`manage.py
db_worker`) in processes of their own, on a file-based SQLite database of the test's own
(the import's transaction holds SQLite's only writer while the pages are read). The test's
database is not used."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, PHONE_WIDTH, scroll_width

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20_000
AGAIN = 2_000
"""The games of the second import: fewer than the cancelled one had read when cancelled."""
PASSWORD = "felt-and-trumps-21"

PRELUDE = """
import json, sys
from pathlib import Path
import django
django.setup()
from scoring.clubs.models import Club
from scoring.infra.jobs import Job
"""

MAKE = """
from django.contrib.auth import get_user_model
from django.core.management import call_command
from scoring.clubs import services
from scoring.engine import Rules
from scoring.engine.league import DEFAULT_POINTS
from tests.records_file import records_file

call_command("migrate", verbosity=0)
admin = get_user_model().objects.create_user("amina", password=sys.argv[2])
services.create_club(
    name="Sfax", slug="sfax", time_zone="Africa/Tunis", rules=Rules(), points=DEFAULT_POINTS,
    public=False, invite_admits=False, admin_user_id=admin.pk, admin_name="Amina",
)
print(json.dumps(str(records_file(Path(sys.argv[1]), int(sys.argv[3]))[0])))
"""

LOOK = """
from scoring.clubs.league.checked import rebuild_checked
club = Club.objects.get(slug="sfax")
seen = {
    "jobs": [job.state for job in Job.objects.order_by("pk")],
    "games": club.club_games.count(),
}
checked = rebuild_checked(club)
seen["rebuild"] = [checked.rows, checked.players]
print(json.dumps(seen))
"""


def environment(folder: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "boulmous_site.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "JOBS_DIR": str(folder / "jobs"),
        "DEBUG": "1",
        "SECRET_KEY": "tests-only-not-secret",
        "PYTHONPATH": str(ROOT),
    }


def django(code: str, env: dict[str, str], *arguments: object):
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def site(tmp_path):
    """The server and the worker, as `make run` starts them; their address and a file of
    20,000 games."""
    env = environment(tmp_path)
    records = Path(django(MAKE, env, tmp_path, PASSWORD, GAMES))
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": ROOT, "env": env}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], **quiet
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.2",
        ],
        **quiet,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        yield url, records, env
    finally:
        for process in (server, worker):
            process.terminate()
            process.wait(timeout=60)


def upload(page, path):
    page.goto("/clubs/sfax/import")
    page.set_input_files("#id_file", path)
    with page.expect_navigation():
        page.get_by_role("button", name="Import", exact=True).click()


def bar(page):
    return int(page.locator("progress.job-bar").get_attribute("value") or 0)


def test_import_job_bar_moves_a_cancel_keeps_nothing_and_a_second_import_completes(browser, site):
    url, records, env = site
    context = browser.new_context(viewport=PHONE, base_url=url, locale="en")
    try:
        page = context.new_page()
        page.goto("/accounts/login/")
        page.fill("#id_username", "amina")
        page.fill("#id_password", PASSWORD)
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()

        upload(page, records)
        expect(page.get_by_text("Games read")).to_be_visible()
        moves = "() => Number(document.querySelector('progress.job-bar')?.value) > {}"
        page.wait_for_function(moves.format(AGAIN), timeout=120_000)  # a batch written
        first = bar(page)
        page.wait_for_function(moves.format(first), timeout=120_000)  # htmx, no reload
        moved = bar(page)
        fits = scroll_width(page)
        with page.expect_navigation():
            page.get_by_role("button", name="Cancel", exact=True).click()
        expect(page.get_by_text("Cancelled: nothing was kept.")).to_be_visible(timeout=120_000)
        assert (AGAIN < first < moved < GAMES, fits <= PHONE_WIDTH) == (True, True)

        # The games the cancelled import had read, again: it kept none of them.
        again = records.with_name("again.jsonl")
        with records.open("rb") as whole, again.open("wb") as part:
            part.writelines(line for _, line in zip(range(AGAIN), whole, strict=False))
        upload(page, again)
        expect(page.get_by_text("2,000 games imported.")).to_be_visible(timeout=300_000)
        assert scroll_width(page) <= PHONE_WIDTH
    finally:
        context.close()

    assert django(LOOK, env) == {
        "jobs": ["cancelled", "done"],
        "games": AGAIN,
        "rebuild": [0, []],
    }
