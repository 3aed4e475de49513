"""A club's jobs (issue 43): the job machinery (scoring/infra/jobs.py), the import as a job
(its page, its progress, its cancel, its queue, its batches, a dead worker's job swept and
tried again) and the league rebuilt from the settings page. The jobs run as the worker runs
them (tests/factories.py ``run_jobs``), or their task's function is called."""

import json
import re
import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from scoring.clubs import jobs as club_jobs
from scoring.clubs.imports import jobs as import_jobs
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.models import Club, ClubChange, ClubResult, Member, PlayerTotals
from scoring.common.rights import Actor
from scoring.engine import record_to_dict
from scoring.infra import jobs
from scoring.infra.jobs import Job
from tests.clubs.factories import (
    account,
    errors,
    make_club,
    record_line,
    results,
    signed_in,
    some_records,
    with_role,
)
from tests.clubs.races import JOIN_SECONDS, racing
from tests.factories import run_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    return make_club(amina)


def records_text(records):
    return "\n".join(json.dumps(record_to_dict(record), ensure_ascii=False) for record in records)


def queued(browser, text):
    """The records posted; the job's page's address."""
    response = browser.post("/clubs/sfax/import", {"text": text})
    assert response.status_code == 302
    return response.headers["Location"]


def figures(page):
    """The figures the job's page says, by their words."""
    html = page.content.decode()
    return dict(
        zip(
            re.findall(r"<dt>([^<]*)</dt>", html),
            [re.sub(r"\s+", " ", one).strip() for one in re.findall(r"<dd>([^<]*)</dd>", html)],
            strict=True,
        )
    )


# --- The machinery --------------------------------------------------------------------


def test_progress_time_left_is_the_pace_so_far_for_the_rest():
    progress = jobs.Progress(total=1000, done=250, started=100.0)

    assert (progress.seconds_left(now=110.0), progress.share) == (30.0, 0.25)


def test_progress_time_left_unknown_before_anything_is_done():
    assert jobs.Progress(total=1000, started=100.0).seconds_left(now=110.0) is None


def test_progress_step_after_a_cancel_raises_cancelled(tmp_path):
    progress = jobs.Progress(total=10, path=tmp_path / "p", cancel_path=tmp_path / "c")
    progress.step(1, imported=1)
    (tmp_path / "c").touch()

    with pytest.raises(jobs.Cancelled):
        progress.step(2, imported=2)
    assert json.loads((tmp_path / "p").read_text())["done"] == 2


def test_job_run_keeps_the_work_s_result_and_its_last_progress():
    job = jobs.new_job(kind="test", key="k", total=3, arguments={})

    def work(job, progress):
        progress.step(3, imported=3)
        return {"said": "done"}

    state = jobs.run(job.pk, work, requeue=lambda job_id: None)

    job.refresh_from_db()
    assert (state, job.state, job.result) == (
        "done",
        "done",
        {"done": 3, "counts": {"imported": 3}, "said": "done"},
    )


def test_job_run_waits_while_its_elder_of_the_same_key_runs():
    elder = jobs.new_job(kind="test", key="k", arguments={})
    Job.objects.filter(pk=elder.pk).update(state=Job.State.RUNNING, started_at=timezone.now())
    younger = jobs.new_job(kind="test", key="k", arguments={})
    other = jobs.new_job(kind="test", key="other", arguments={})
    again = []

    waiting = jobs.run(younger.pk, lambda job, progress: {}, requeue=again.append)
    beside = jobs.run(other.pk, lambda job, progress: {}, requeue=again.append)

    assert (waiting, beside, again) == ("queued", "done", [younger.pk])


def test_job_run_twice_runs_the_work_once():
    job = jobs.new_job(kind="test", key="k", arguments={})
    ran = []

    def work(job, progress):
        ran.append(job.pk)
        return {}

    states = [jobs.run(job.pk, work, requeue=lambda job_id: None) for _ in range(2)]

    assert (states, ran) == (["done", "done"], [job.pk])


def test_job_failed_by_the_work_is_not_retryable_and_keeps_what_it_said():
    job = jobs.new_job(kind="test", key="k", arguments={})

    def work(job, progress):
        raise jobs.Failed("refused", problems=["line 1: no"])

    jobs.run(job.pk, work, requeue=lambda job_id: None)

    job.refresh_from_db()
    assert (job.state, job.reason, job.retryable, job.result["problems"]) == (
        "failed",
        "refused",
        False,
        ["line 1: no"],
    )
    assert jobs.retry(job) is False


def test_job_whose_worker_died_is_swept_failed_and_retryable(settings):
    settings.JOBS_STALE_SECONDS = 30
    job = jobs.new_job(kind="test", key="k", arguments={})
    long_ago = timezone.now() - timezone.timedelta(seconds=31)
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, started_at=long_ago)
    fresh = jobs.new_job(kind="test", key="k2", arguments={})
    Job.objects.filter(pk=fresh.pk).update(state=Job.State.RUNNING, started_at=timezone.now())

    swept = jobs.sweep()

    job.refresh_from_db()
    assert ([one.pk for one in swept], job.state, job.reason, job.retryable) == (
        [job.pk],
        "failed",
        "stopped",
        True,
    )
    assert (jobs.retry(job), Job.objects.get(pk=job.pk).state) == (True, "queued")


def test_job_beating_is_not_swept(settings, tmp_path):
    settings.JOBS_STALE_SECONDS = 30
    job = jobs.new_job(kind="test", key="k", arguments={})
    long_ago = timezone.now() - timezone.timedelta(seconds=300)
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, started_at=long_ago)
    job.folder().mkdir(parents=True, exist_ok=True)
    jobs.Progress(total=1, started=time.time(), path=job.progress_path()).write()

    assert (jobs.sweep(), Job.objects.get(pk=job.pk).state) == ([], "running")


# --- The import as a job --------------------------------------------------------------


def test_import_upload_answers_at_once_with_its_job_s_page_waiting_for_the_worker(amina, club):
    browser = signed_in(amina)

    page = browser.get(queued(browser, records_text(some_records())))

    assert (page.status_code, club.club_games.count()) == (200, 0)
    assert 'hx-trigger="every 1s"' in page.content.decode()
    assert '<meta http-equiv="refresh" content="3">' in page.content.decode()
    assert figures(page) == {
        "Games read": "0 of 6",
        "Games imported": "0",
        "Lines refused": "0",
        "Time left": "…",
    }


def test_import_job_page_asked_by_htmx_is_its_part_alone(amina, club):
    browser = signed_in(amina)
    address = queued(browser, records_text(some_records()))

    part = browser.get(address, HTTP_HX_REQUEST="true").content.decode()

    assert (part.strip().startswith('<section id="job"'), "<html" in part) == (True, False)


def test_import_job_done_says_games_and_players_and_the_league_equals_a_rebuild(amina, club):
    browser = signed_in(amina)
    address = queued(browser, records_text(some_records()))

    ran = run_jobs()
    page = browser.get(address).content.decode()
    imported = results(club)
    rebuild(club)

    assert ran == 1
    assert "6 games imported." in page
    assert "hx-trigger" not in page
    assert (club.club_games.count(), results(club)) == (6, imported)


def test_import_job_cancelled_before_it_runs_keeps_nothing(amina, club):
    browser = signed_in(amina)
    address = queued(browser, records_text(some_records()))

    first = browser.post(address, {"action": "cancel"})
    second = browser.post(address, {"action": "cancel"})  # harmless
    asked = browser.get(address).content.decode()
    run_jobs()
    page = browser.get(address).content.decode()

    assert (first.status_code, second.status_code) == (302, 302)
    assert "Cancelling: nothing will be kept." in asked
    assert "Cancelled: nothing was kept." in page
    assert (club.club_games.count(), Job.objects.get().state) == (0, "cancelled")


def test_import_cancelled_after_a_batch_is_written_rolls_it_back(amina, club, monkeypatch):
    monkeypatch.setattr(import_jobs, "BATCH", 1)
    monkeypatch.setattr(import_jobs, "STEP", 1)
    job = jobs.new_job(kind="club_import", key=club_jobs.key_of(club), total=6, arguments={})
    job.folder().mkdir(parents=True, exist_ok=True)
    path = job.folder() / "records.jsonl"
    path.write_text(records_text(some_records()))
    job.cancel_path().touch()
    progress = jobs.Progress(total=6, path=job.progress_path(), cancel_path=job.cancel_path())
    members = Member.objects.filter(club=club).count()

    with pytest.raises(jobs.Cancelled):
        import_jobs.import_file(club=club, path=path, progress=progress, owner_id=None, by=Actor())

    assert (progress.done, progress.counts["imported"]) == (1, 1)  # the first batch written
    assert (club.club_games.count(), Member.objects.filter(club=club).count()) == (0, members)


def test_import_in_batches_equals_one_import_and_a_rebuild(amina, club, monkeypatch):
    monkeypatch.setattr(import_jobs, "BATCH", 2)
    browser = signed_in(amina)
    queued(browser, records_text(some_records()))

    run_jobs()
    imported = results(club)
    rebuild(club)

    assert (club.club_games.count(), results(club)) == (6, imported)
    assert list(ClubChange.objects.filter(action="records_imported").values_list("after")) == [
        ({"games": 6, "players": 5},)
    ]


@pytest.mark.parametrize("order", ["finishing", "reversed"])
def test_import_a_game_a_batch_in_either_order_equals_a_rebuild(amina, club, monkeypatch, order):
    # Each batch after the last game counted (the league's end, kept from batch to batch,
    # no row read), or each before every one written so far (the rows from its place read).
    monkeypatch.setattr(import_jobs, "BATCH", 1)
    monkeypatch.setattr(import_jobs, "STATISTICS_FROM", 2)  # taken after games 2 and 4
    records = sorted(
        some_records(),
        key=lambda record: (record.about.finished_at, record.about.id),
        reverse=order == "reversed",
    )
    queued(signed_in(amina), records_text(records))

    run_jobs()
    imported = results(club)
    rebuild(club)

    assert (club.club_games.count(), len(imported), results(club)) == (6, 20, imported)


def test_import_in_batches_the_same_game_in_two_batches_is_said_by_its_lines(
    amina, club, monkeypatch
):
    monkeypatch.setattr(import_jobs, "BATCH", 2)
    records = some_records()
    unnamed = json.loads(record_line("x"))
    del unnamed["id"]
    text = "\n".join([records_text(records[:3]), json.dumps(unnamed), json.dumps(unnamed)])
    browser = signed_in(amina)
    address = queued(browser, text)

    run_jobs()
    page = browser.get(address)

    assert errors(page) == ["line 5: the same game as line 4"]
    assert club.club_games.count() == 0


def test_import_job_refused_lines_are_counted_and_said(amina, club):
    browser = signed_in(amina)
    address = queued(browser, "\n".join([record_line("g1"), "not json", "{}", record_line("g4")]))

    run_jobs()
    page = browser.get(address)

    assert sorted({line.split(":")[0] for line in errors(page)}) == ["line 2", "line 3"]
    assert (Job.objects.get().result["counts"]["refused"], club.club_games.count()) == (2, 0)


def test_import_second_while_one_waits_is_queued_and_shown(amina, club):
    browser = signed_in(amina)
    first = queued(browser, record_line("g1"))
    second = queued(browser, record_line("g2", taker=2))

    waiting = browser.get(second).content.decode()
    club_page = browser.get("/clubs/sfax/").content.decode()
    run_jobs()

    assert "Waiting for the club's job before it to end." in waiting
    assert club_page.count("An import is waiting its turn") == 2
    assert [job.state for job in Job.objects.order_by("pk")] == ["done", "done"]
    assert (browser.get(first).status_code, club.club_games.count()) == (200, 2)


def test_import_running_is_shown_on_the_club_s_page(amina, club):
    browser = signed_in(amina)
    address = queued(browser, record_line("g1"))
    Job.objects.update(state=Job.State.RUNNING, started_at=timezone.now())

    page = browser.get("/clubs/sfax/").content.decode()

    assert f'<a href="{address}">An import is running</a>' in page


def test_import_whose_worker_died_is_said_and_tried_again(amina, club, settings):
    settings.JOBS_STALE_SECONDS = 30
    browser = signed_in(amina)
    address = queued(browser, record_line("g1"))
    long_ago = timezone.now() - timezone.timedelta(minutes=5)
    Job.objects.update(state=Job.State.RUNNING, started_at=long_ago)

    page = browser.get(address).content.decode()
    retried = browser.post(address, {"action": "retry"})
    run_jobs()

    assert "The worker stopped during this job" in page
    assert 'value="retry"' in page
    assert (retried.status_code, Job.objects.get().state, club.club_games.count()) == (
        302,
        "done",
        1,
    )


def test_import_job_page_is_the_club_admins_only(amina, club):
    browser = signed_in(amina)
    address = queued(browser, record_line("g1"))
    scorer = with_role(club, "Bilal", Member.Role.SCORER)

    seen = signed_in(scorer).get(address)
    cancelled = signed_in(scorer).post(address, {"action": "cancel"})

    assert (seen.status_code, cancelled.status_code, Job.objects.get().state) == (
        403,
        403,
        "queued",
    )


def test_import_job_of_another_club_is_not_found(amina, club):
    other = make_club(amina, slug="tunis")
    address = queued(signed_in(amina), record_line("g1"))

    page = signed_in(amina).get(address.replace("/sfax/", f"/{other.slug}/"))

    assert page.status_code == 404


@pytest.mark.parametrize(
    ("language", "read", "left"),
    [("fr", "Parties lues", "Temps restant"), ("ar", "المباريات المقروءة", "الوقت المتبقي")],
)
def test_import_job_page_in_french_and_arabic(amina, club, language, read, left):
    browser = signed_in(amina)
    address = queued(browser, records_text(some_records()))
    browser.cookies["django_language"] = language

    said = figures(browser.get(address))

    assert (said[read], said[left]) == (
        "0 sur 6" if language == "fr" else "0 من 6",
        "…",
    )


# --- The league rebuilt from the settings page ----------------------------------------


def test_rebuild_league_from_the_settings_page_finds_it_equal(amina, club):
    browser = signed_in(amina)
    queued(browser, records_text(some_records()))
    run_jobs()

    settings_page = browser.get("/clubs/sfax/settings").content.decode()
    response = browser.post("/clubs/sfax/rebuild")
    run_jobs()
    page = browser.get(response.headers["Location"]).content.decode()

    assert 'action="/clubs/sfax/rebuild"' in settings_page
    assert "5 counted games rebuilt: every stored figure was equal." in page
    assert list(
        ClubChange.objects.filter(action="league_rebuilt").values_list("after", "by_user")
    ) == [({"counted": 5, "differing": 0, "repaired": []}, amina.pk)]


def test_rebuild_league_lists_the_figures_that_differed_and_repairs_them(amina, club):
    browser = signed_in(amina)
    queued(browser, records_text(some_records()))
    run_jobs()
    right = results(club)
    ClubResult.objects.filter(club=club, seat=0).update(mu=1.0)
    PlayerTotals.objects.filter(club=club, key="bilal").update(figures={})

    response = browser.post("/clubs/sfax/rebuild")
    run_jobs()
    page = browser.get(response.headers["Location"]).content.decode()

    assert "5 league rows differed from a full rebuild;" in page
    assert results(club) == right
    (after,) = ClubChange.objects.filter(action="league_rebuilt").values_list("after", flat=True)
    assert after["differing"] == 5
    assert "Bilal" in after["repaired"]


def test_rebuild_league_by_a_scorer_is_forbidden(amina, club):
    scorer = with_role(club, "Bilal", Member.Role.SCORER)

    response = signed_in(scorer).post("/clubs/sfax/rebuild")

    assert (response.status_code, Job.objects.count()) == (403, 0)


def test_rebuild_league_runs_where_no_job_folder_was_made_yet(amina, club, settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "not-yet"
    job = club_jobs.queue_rebuild(club=club, by=Actor(user_id=amina.pk), language="en")

    run_jobs()

    job.refresh_from_db()
    assert (job.state, job.result["games"]) == ("done", 0)


def test_rebuild_league_sent_twice_follows_the_rebuild_that_waits(amina, club):
    browser = signed_in(amina)

    first = browser.post("/clubs/sfax/rebuild")["Location"]
    second = browser.post("/clubs/sfax/rebuild")["Location"]
    run_jobs()
    after_it_ran = browser.post("/clubs/sfax/rebuild")["Location"]

    assert (second, after_it_ran != first) == (first, True)
    assert list(Job.objects.order_by("pk").values_list("state", flat=True)) == ["done", "queued"]


@racing
@pytest.mark.django_db(transaction=True)
def test_rebuild_league_asked_while_an_import_holds_the_club_answers_at_once(amina, club):
    # An import holds the club's row for its whole transaction (imports/jobs.py).
    holding, answered = threading.Event(), threading.Event()
    waited_out = []

    def import_running():
        try:
            with transaction.atomic():
                Club.objects.select_for_update().get(pk=club.pk)
                holding.set()
                waited_out.append(not answered.wait(timeout=JOIN_SECONDS))
        finally:
            connection.close()

    thread = threading.Thread(target=import_running)
    thread.start()
    holding.wait(timeout=JOIN_SECONDS)
    response = signed_in(amina).post("/clubs/sfax/rebuild")
    answered.set()
    thread.join(timeout=JOIN_SECONDS)

    assert (response.status_code, waited_out, Job.objects.count()) == (302, [False], 1)
