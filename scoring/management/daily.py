"""The daily job (issue 43.5; docs/deploy.md, "Backups"): at ``BACKUP_AT`` (UTC) it queues
the club mail still due (a season's standings once its last day is over, and any mail whose
job was lost: scoring/clubs/mail.py ``queue_due``), then takes the day's backup
(scoring/management/backups.py), then queues itself for the next day.

django-tasks has no calendar, so the job is its own: ``schedule`` makes sure exactly one
run waits in the queue, at the next ``BACKUP_AT``. It is called at the end of each run and
by ``manage.py schedule_jobs`` (``make run`` and the worker's systemd unit, at start); run
twice, or by two processes at once, it still leaves one."""

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from ..clubs.face import queue_due
from ..infra.models import BackupRun
from ..infra.schedule import next_run, parse_time
from .backups import backup_dir, take_backup

logger = logging.getLogger(__name__)

LOCK = 4300543
"""The advisory lock that ``schedule`` holds on PostgreSQL (any number of our own)."""


@task()
def daily() -> str:
    """The day's mail due queued, the day's backup taken, the next day's run queued."""
    said = []
    try:
        said.append(f"{queue_due()} mail(s) queued")
    except Exception:  # the backup goes on; the failure is logged, and tomorrow tries again
        logger.exception("The daily job could not queue the mail due")
        said.append("the mail due could not be queued")
    try:
        directory = backup_dir()
        if directory is None:
            said.append("no backup: BACKUP_DIR is empty")
        else:
            run = take_backup(directory)
            said.append(f"backup {run.file}" if run.ok else f"backup failed: {run.reason}")
            if not run.ok:
                logger.error("The daily backup failed: %s", run.reason)
    finally:
        schedule()
    return "; ".join(said)


def waiting() -> "list[DBTaskResult[..., Any]]":
    """The daily runs waiting in the queue, the one to keep first."""
    return list(
        DBTaskResult.objects.filter(task_path=daily.module_path, status=TaskResultStatus.READY)
        .order_by("enqueued_at", "id")
        .select_for_update()
    )


def schedule(now: datetime | None = None) -> datetime:
    """Exactly one daily run waiting, at the next ``BACKUP_AT`` after ``now``: one queued
    if there is none, the others deleted, and the one kept moved to the set time if the
    setting changed (one whose time has passed stays: the worker runs it at once). A site
    that keeps backups but has never taken one takes its first at once, not at the next
    ``BACKUP_AT``, up to a day later. When it runs. Two processes at once take turns:
    SQLite's exclusive transaction, or PostgreSQL's lock for this transaction."""
    now = now or timezone.now()
    first_backup = backup_dir() is not None and not BackupRun.objects.exists()
    at = now if first_backup else next_run(now, parse_time(settings.BACKUP_AT))
    with exclusive_transaction():
        connection = transaction.get_connection()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])
        return _one(now, at)


def _one(now: datetime, at: datetime) -> datetime:
    found = waiting()
    if not found:
        daily.using(run_after=at).enqueue()
        found = waiting()
    first, *others = found
    for extra in others:
        extra.delete()
    if first.run_after > now and first.run_after != at:
        first.run_after = at
        first.save(update_fields=["run_after"])
    when: datetime = first.run_after
    return when
