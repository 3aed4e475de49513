"""The daily backup (issue 43.5; docs/deploy.md, "Backups"): at BACKUP_AT, a file verified
against the database before it takes its name, the last 7 daily and 4 weekly kept, a full
disk leaving the earlier ones as they were and the failure shown, exactly one daily job
waiting, and ``/healthz/backup`` saying when the last good one was taken."""

import io
import resource
import signal
from datetime import UTC, datetime, time, timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scoring.infra.models import BackupRun
from scoring.infra.schedule import kept, next_run
from scoring.management import daily
from scoring.management.backups import file_name, take_backup, taken_at
from tests.jobs import queued, run_next

pytestmark = pytest.mark.sqlite


def run(command, *args):
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# --- when, and what is kept: pure ---------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        ("2026-12-05 02:59:59", "2026-12-05 03:00:00"),  # still to come today
        ("2026-12-05 03:00:00", "2026-12-06 03:00:00"),  # its moment: tomorrow's
        ("2026-12-05 23:10:00", "2026-12-06 03:00:00"),
        ("2026-12-31 04:00:00", "2027-01-01 03:00:00"),  # across the year
        ("2028-02-28 03:30:00", "2028-02-29 03:00:00"),  # a leap day
    ],
)
def test_next_run_today_if_still_to_come_else_tomorrow(now, expected):
    assert next_run(at(now), time(3, 0)) == at(expected)


def test_next_run_of_a_moment_in_another_zone_is_said_in_utc():
    tunis = datetime.fromisoformat("2026-12-05T03:30:00+01:00")  # 02:30 UTC
    assert next_run(tunis, time(3, 0)) == at("2026-12-05 03:00:00")


def test_kept_the_newest_of_the_last_7_days_and_of_the_last_4_weeks():
    # One a day at 03:00 from Monday 2 November to Saturday 5 December 2026, and a second
    # one on 4 December, taken by hand at noon.
    first = at("2026-11-02 03:00:00")
    taken = [first + timedelta(days=day) for day in range(34)] + [at("2026-12-04 12:00:00")]

    assert sorted(kept(taken)) == [
        # Older than the last 7 days, the newest of each of the 4 weeks before.
        at("2026-11-08 03:00:00"),  # a Sunday: the newest of its week
        at("2026-11-15 03:00:00"),
        at("2026-11-22 03:00:00"),
        at("2026-11-28 03:00:00"),  # the newest of its week older than the 7 days
        # The newest of each of the last 7 days.
        at("2026-11-29 03:00:00"),
        at("2026-11-30 03:00:00"),
        at("2026-12-01 03:00:00"),
        at("2026-12-02 03:00:00"),
        at("2026-12-03 03:00:00"),
        at("2026-12-04 12:00:00"),  # the newest of its day
        at("2026-12-05 03:00:00"),
    ]


def test_kept_all_of_a_few():
    taken = [at("2026-12-04 03:00:00"), at("2026-12-05 03:00:00")]
    assert kept(taken) == set(taken)


def test_file_name_says_when_it_was_taken():
    moment = at("2026-12-05 03:00:07")
    assert (file_name(moment), taken_at(file_name(moment)), taken_at("notes.txt")) == (
        "boulmous-20261205-030007.zip",
        moment,
        None,
    )


# --- the backup taken, verified, pruned ------------------------------------------------------


def test_daily_backup_keeps_7_daily_and_4_weekly(db, tmp_path):
    now = timezone.now()
    before = [file_name(now - timedelta(days=day)) for day in range(1, 40)]
    for name in before:
        (tmp_path / name).write_bytes(b"an old backup")
    (tmp_path / "notes.txt").write_text("not a backup: left alone")

    done = take_backup(tmp_path)

    names = {path.name for path in tmp_path.iterdir()}
    moments = {taken_at(name) for name in names} - {None}
    assert (done.ok, len(moments), "notes.txt" in names, done.file in names) == (
        True,
        len(kept(taken_at(name) for name in [*before, done.file])),
        True,
        True,
    )
    assert moments == kept(taken_at(name) for name in [*before, done.file])
    assert len(moments) == 11  # 7 days, and 4 weeks before them


def test_full_disk_leaves_the_earlier_backups_and_says_it(db, tmp_path, client, settings):
    settings.BACKUP_DIR = str(tmp_path)
    earlier = tmp_path / file_name(timezone.now() - timedelta(days=1))
    earlier.write_bytes(b"yesterday's backup")
    BackupRun.objects.create(finished_at=timezone.now(), ok=True, file=earlier.name, rows=3)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    # Files may grow no more than 2 KB: a write past it fails as on a full disk.
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, hard))
    try:
        failed = take_backup(tmp_path)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)

    health = client.get("/healthz/backup")
    assert ([path.name for path in tmp_path.iterdir()], earlier.read_bytes()) == (
        [earlier.name],
        b"yesterday's backup",
    )
    assert (failed.ok, "File too large" in failed.reason, "earlier backups are kept") == (
        False,
        True,
        "earlier backups are kept",
    )
    assert ("the disk is full" in failed.reason, health.status_code) == (True, 503)
    assert health.json()["backup"] == "the last one failed"
    assert health.json()["last_failure"]["reason"] == failed.reason
    assert health.json()["file"] == earlier.name


# --- one daily job, always ---------------------------------------------------------------------


def daily_jobs():
    return queued(daily.daily.module_path)


def test_schedule_leaves_exactly_one_daily_job_at_the_set_time(db, settings, tmp_path):
    settings.BACKUP_AT = "03:00"
    settings.BACKUP_DIR = str(tmp_path)
    BackupRun.objects.create(ok=True, file="boulmous-20261205-030000.zip")  # one taken before
    now = at("2026-12-05 10:00:00")
    first = daily.schedule(now)
    daily.daily.using(run_after=at("2026-12-07 03:00:00")).enqueue()  # a second, by mistake
    again = daily.schedule(now)
    settings.BACKUP_AT = "22:30"  # the deployer changed the time
    moved = daily.schedule(now)

    assert (first, again, moved) == (
        at("2026-12-06 03:00:00"),
        at("2026-12-06 03:00:00"),
        at("2026-12-05 22:30:00"),
    )
    assert [job.run_after for job in daily_jobs()] == [at("2026-12-05 22:30:00")]


@pytest.mark.parametrize("backups", ["kept", "none"])
def test_schedule_takes_a_sites_first_backup_at_once(db, settings, tmp_path, backups):
    settings.BACKUP_AT = "03:00"
    settings.BACKUP_DIR = str(tmp_path) if backups == "kept" else ""
    now = at("2026-12-05 10:00:00")
    daily.daily.using(run_after=at("2026-12-06 03:00:00")).enqueue()  # queued before, none taken

    first = daily.schedule(now)
    BackupRun.objects.create(ok=True, file="boulmous-20261205-100000.zip")
    after = daily.schedule(at("2026-12-05 10:01:00"))

    # A site that keeps backups takes its first at once, not up to a day later; one that
    # keeps none runs the daily job (the mail due) at the set time.
    assert (first, after) == ((now, now) if backups == "kept" else (at("2026-12-06 03:00:00"),) * 2)
    assert len(daily_jobs()) == 1


def test_schedule_keeps_a_daily_job_whose_time_has_passed(db, settings):
    settings.BACKUP_AT = "03:00"
    daily.daily.using(run_after=at("2026-12-05 03:00:00")).enqueue()  # the worker was down
    assert daily.schedule(at("2026-12-05 10:00:00")) == at("2026-12-05 03:00:00")
    assert len(daily_jobs()) == 1


def test_schedule_jobs_command_says_when(db, settings):
    settings.BACKUP_AT = "03:00"
    said = [run("schedule_jobs"), run("schedule_jobs")]
    (job,) = daily_jobs()
    assert said == [f"The daily job runs next at {job.run_after.isoformat()}.\n"] * 2


def test_daily_job_takes_the_backup_and_queues_the_next(db, settings, tmp_path):
    settings.BACKUP_DIR, settings.BACKUP_AT = str(tmp_path), "03:00"
    daily.schedule()

    (said,) = run_next(later=True)

    (run_,) = BackupRun.objects.all()
    (job,) = daily_jobs()
    assert (said, [path.name for path in tmp_path.iterdir()]) == (
        f"0 mail(s) queued; backup {run_.file}",
        [run_.file],
    )
    assert (job.run_after > timezone.now(), job.run_after.time()) == (True, time(3, 0))


# --- /healthz/backup --------------------------------------------------------------------------


def test_health_without_a_backup_dir_says_it_is_not_set_up(db, settings):
    settings.BACKUP_DIR = ""
    response = Client().get("/healthz/backup")
    assert (response.status_code, response.json()["backup"]) == (
        503,
        "not set up: BACKUP_DIR is empty",
    )


def test_health_before_any_backup_is_an_error(db, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    response = Client().get("/healthz/backup")
    assert (response.status_code, response.json()["backup"]) == (503, "none taken yet")


def test_health_of_a_good_backup_says_when(db, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    done = take_backup(tmp_path)

    response = Client().get("/healthz/backup")

    assert (response.status_code, response.json()) == (
        200,
        {
            "status": "ok",
            "last_good": done.finished_at.isoformat(),
            "file": done.file,
            "rows": done.rows,
        },
    )


def test_health_of_a_backup_older_than_26_hours_is_an_error(db, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    long_ago = timezone.now() - timedelta(hours=27)
    BackupRun.objects.create(
        started_at=long_ago, finished_at=long_ago, ok=True, file="old.zip", rows=1
    )

    response = Client().get("/healthz/backup")

    assert (response.status_code, response.json()["backup"]) == (503, "late")
