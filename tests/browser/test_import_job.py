"""A club's import as a job, on a 360x640 phone (issue 43): the admin uploads 20,000 games,
watches the bar move, cancels that import (nothing is kept), uploads another 20,000 and
waits for its result; the league then equals a full rebuild. A worker runs beside the live
server, in a thread of the test's process (django-tasks' own worker, on the test's
database)."""

import threading

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs.league.checked import rebuild_checked
from scoring.infra.jobs import Job
from tests.browser.phone import PASSWORD, PHONE_WIDTH, log_in, scroll_width
from tests.clubs.factories import make_club
from tests.records_file import records_file

pytestmark = pytest.mark.browser

GAMES = 20_000


@pytest.fixture
def worker(transactional_db):
    """django-tasks' database worker, polling every 0.1 s, in a thread; stopped after."""
    from django.db import connection
    from django_tasks_db.management.commands.db_worker import Worker

    running = Worker(
        queue_names=["default"],
        interval=0.1,
        batch=False,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="browser-test",
        excluded_queue_names=[],
    )

    def run():
        try:
            running.run()
        finally:
            connection.close()

    thread = threading.Thread(target=run, name="worker", daemon=True)
    thread.start()
    yield running
    running.running = False
    thread.join(timeout=120)


@pytest.fixture
def files(tmp_path):
    return [records_file(tmp_path, GAMES, seed)[0] for seed in (1, 2)]


def bar(page):
    return int(page.locator("progress.job-bar").get_attribute("value") or 0)


def test_import_job_bar_moves_a_cancel_keeps_nothing_and_a_second_import_completes(
    phone, worker, files
):
    admin = User.objects.create_user("amina", password=PASSWORD)
    club = make_club(admin)
    page = phone()
    log_in(page, "amina")

    page.goto("/clubs/sfax/import")
    page.set_input_files("#id_file", str(files[0]))
    with page.expect_navigation():
        page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("Games read")).to_be_visible()
    page.wait_for_function(
        "() => Number(document.querySelector('progress.job-bar')?.value) > 0", timeout=120_000
    )
    first = bar(page)
    page.wait_for_function(
        f"() => Number(document.querySelector('progress.job-bar')?.value) > {first}",
        timeout=120_000,
    )
    moved = bar(page)
    assert scroll_width(page) <= PHONE_WIDTH
    with page.expect_navigation():
        page.get_by_role("button", name="Cancel", exact=True).click()
    expect(page.get_by_text("Cancelled: nothing was kept.")).to_be_visible(timeout=120_000)
    assert (0 < first < moved < GAMES, club.club_games.count()) == (True, 0)

    page.goto("/clubs/sfax/import")
    page.set_input_files("#id_file", str(files[1]))
    with page.expect_navigation():
        page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("20,000 games imported.")).to_be_visible(timeout=600_000)
    assert scroll_width(page) <= PHONE_WIDTH

    assert [job.state for job in Job.objects.order_by("pk")] == ["cancelled", "done"]
    assert club.club_games.count() == GAMES
    checked = rebuild_checked(club)
    assert (checked.rows, checked.players) == (0, [])
