"""The daily backup (issue 43.5; docs/deploy.md, "Backups"): a job at ``BACKUP_AT`` (UTC)
writes the whole database into ``BACKUP_DIR`` (scoring/management/backup.py's file), opens
it again and counts each table's rows against the database's, in the same snapshot, and
only then renames it to its own name, ``boulmous-YYYYMMDD-HHMMSS.zip``. Then it keeps the
newest file of each of the last 7 days and of each of the last 4 weeks
(scoring/infra/schedule.py) and deletes the others. A run that fails (a full disk, a file
that reads back wrong) deletes its own unfinished file, leaves every earlier one as it was,
and is written down with its reason (``BackupRun``), which ``/healthz/backup`` shows.

django-tasks has no calendar: each daily run queues the next (scoring/management/daily.py
``schedule``), and ``manage.py schedule_jobs``, which ``make run`` and the worker's systemd
unit run at start, makes sure exactly one is queued."""

import errno
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from ..infra.models import BackupRun
from ..infra.schedule import kept
from .backup import BackupError, table_rows, verify_file, write_backup

PREFIX = "boulmous-"
SUFFIX = ".zip"
STAMP = "%Y%m%d-%H%M%S"
UNVERIFIED = ".unverified"
STALE = timedelta(hours=26)
"""A last good backup older than this is late: the day's run did not happen or failed."""


def file_name(moment: datetime) -> str:
    return f"{PREFIX}{moment.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def taken_at(name: str) -> datetime | None:
    """The moment a backup's name says, or None for a file that is not one of them."""
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(name[len(PREFIX) : -len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def backup_dir() -> Path | None:
    return Path(settings.BACKUP_DIR) if settings.BACKUP_DIR else None


class Unverified(BackupError):
    """The file written does not read back as the database is."""


@dataclass(frozen=True)
class Taken:
    path: Path
    rows: int
    removed: list[str]


def take_backup(directory: Path, using: str = DEFAULT_DB_ALIAS) -> BackupRun:
    """One daily backup into ``directory``, verified, then the old ones pruned; written
    down as a ``BackupRun``, whether it succeeded or why it failed. It never raises for a
    failure of the backup itself: the run says it."""
    run = BackupRun.objects.using(using).create(started_at=timezone.now())
    try:
        taken = _take(directory, using, run.started_at)
    except (BackupError, OSError) as error:
        run.reason = _reason(error)
    else:
        run.ok, run.file, run.rows = True, taken.path.name, taken.rows
    run.finished_at = timezone.now()
    run.save(using=using)
    return run


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        said = error.strerror or str(error)
        name = f"{error.filename}: " if error.filename else ""
        if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return f"{name}{said} (the disk is full: the earlier backups are kept)"
        return f"{name}{said}"
    return str(error)


def _take(directory: Path, using: str, moment: datetime) -> Taken:
    directory.mkdir(parents=True, exist_ok=True)
    for left in directory.glob(f".{PREFIX}*"):  # a run killed before it cleaned up
        left.unlink(missing_ok=True)
    final = directory / file_name(moment)
    unverified = directory / f".{final.name}{UNVERIFIED}"
    connection = connections[using]
    try:
        outermost = not connection.in_atomic_block
        # One snapshot for the file and the counts, while the site goes on writing.
        with transaction.atomic(using=using):
            if outermost and connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            done = write_backup(unverified, using)
            written = verify_file(unverified)
            counted = table_rows(using)
        if written != counted:
            different = sorted(
                name
                for name in written.keys() | counted.keys()
                if written.get(name) != counted.get(name)
            )
            raise Unverified(
                f"{final.name}: its rows are not the database's ({', '.join(different)})"
            )
        os.replace(unverified, final)
    except BaseException:
        unverified.unlink(missing_ok=True)
        raise
    return Taken(final, done.rows, prune(directory))


def prune(directory: Path) -> list[str]:
    """The backups in ``directory`` that are not kept, deleted; their names."""
    files = {
        moment: path for path in directory.iterdir() if (moment := taken_at(path.name)) is not None
    }
    keep = kept(files)
    removed = []
    for moment, path in sorted(files.items()):
        if moment not in keep:
            path.unlink(missing_ok=True)
            removed.append(path.name)
    return removed


@dataclass(frozen=True)
class Health:
    ok: bool
    said: dict[str, object]


def health(now: datetime | None = None) -> Health:
    """Whether the backups are well: set up, the last run good, the last good one less
    than :data:`STALE` old."""
    now = now or timezone.now()
    directory = backup_dir()
    if directory is None:
        return Health(False, {"status": "error", "backup": "not set up: BACKUP_DIR is empty"})
    last = BackupRun.objects.filter(finished_at__isnull=False).order_by("-started_at").first()
    good = BackupRun.objects.filter(ok=True).order_by("-started_at").first()
    said: dict[str, object] = {
        "last_good": good.finished_at.isoformat() if good and good.finished_at else None,
        "file": good.file if good else None,
        "rows": good.rows if good else None,
    }
    if last is not None and not last.ok:
        said["last_failure"] = {
            "at": last.finished_at.isoformat() if last.finished_at else None,
            "reason": last.reason,
        }
    if good is None or good.finished_at is None:
        return Health(False, {"status": "error", "backup": "none taken yet", **said})
    if last is not None and not last.ok:
        return Health(False, {"status": "error", "backup": "the last one failed", **said})
    if now - good.finished_at > STALE:
        return Health(False, {"status": "error", "backup": "late", **said})
    return Health(True, {"status": "ok", **said})


@require_safe
def healthz_backup(request: HttpRequest) -> JsonResponse:
    """When the last good backup was taken; 503 when there is none, the last run failed
    or the last good one is more than 26 hours old, for a monitor to call."""
    found = health()
    return JsonResponse(found.said, status=200 if found.ok else 503)
