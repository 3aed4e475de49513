"""Long work off the request: a job's row, its progress, its cancel, its heartbeat and the
sweep of a job whose worker died (docs/architecture.md, "A long piece of work").

The queue is django-tasks' (its database backend, the worker ``manage.py db_worker``): a
context's task calls :func:`run` with its job's id and the function that does the work. A
:class:`Job` row says what the pages read: waiting, running, done, failed or cancelled, with
the result the work returned or the reason it failed.

What changes while a job runs (how far it is, its heartbeat, a cancel asked for) is kept in
two small files beside the job's input, in ``settings.JOBS_DIR``, never in the database:
the work writes in one transaction that holds SQLite's only writer (``make run``), which
no second connection could write beside, and whose rows nobody sees before it commits. A
worker beats every :data:`BEAT` seconds from a thread of its own; a running job whose
heartbeat is older than :data:`STALE` had its worker killed (``kill -9``, a machine
restarted), and :func:`sweep` marks it failed, retryable: its transaction died with the
worker, so nothing of it was kept, and :func:`retry` queues it again.

Never twice at once: jobs of one ``key`` (a club's imports) run one after another, in the
order they were queued; one whose elder is still waiting or running waits, queued again
:data:`WAIT` seconds later."""

import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

BEAT = 2.0
"""Seconds between two heartbeats of a running job."""
STALE = 30.0
"""Seconds without a heartbeat after which a running job's worker is taken for dead, unless
settings.JOBS_STALE_SECONDS says otherwise."""
WAIT = 2.0
"""Seconds a job whose elder of the same key has not ended waits before it looks again."""


class Job(models.Model):
    """A piece of long work, queued, run by the worker, and its outcome."""

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    public = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    """The job's address (no counter appears in one)."""
    kind = models.CharField(max_length=40)
    key = models.CharField(max_length=80, db_index=True)
    """Jobs of one key run one after another (``club:12``)."""
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    total = models.PositiveIntegerField(default=0)
    arguments = models.JSONField(default=dict)
    """What the work needs besides the job: the input's file, who asked for it..."""
    result = models.JSONField(default=dict)
    """What the work returned (its last progress, for a job that did not end well)."""
    reason = models.TextField(blank=True)
    """Why a failed job failed."""
    retryable = models.BooleanField(default=False)
    attempts = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["key", "state"], name="job_key_state")]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.state})"

    @property
    def ended(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED, self.State.CANCELLED)

    def folder(self) -> Path:
        return Path(settings.JOBS_DIR)

    def input_path(self) -> Path:
        """Where the job's input is kept until it ends (an upload, as received)."""
        return self.folder() / f"job-{self.pk}.input"

    def progress_path(self) -> Path:
        return self.folder() / f"job-{self.pk}.progress"

    def cancel_path(self) -> Path:
        return self.folder() / f"job-{self.pk}.cancel"


class Cancelled(Exception):
    """A job's cancel was asked for: its work stops and rolls back."""


class Failed(Exception):
    """The work cannot be done: its ``reason`` (a word the job's page says in its own
    words) and what the page shows of it (``result``); not retryable."""

    def __init__(self, reason: str, **result: Any) -> None:
        super().__init__(reason)
        self.reason, self.result = reason, result


@dataclass
class Progress:
    """How far a job is: ``done`` of ``total``, named counts, its start and latest beat (Unix
    time). Written by the work (:meth:`step`), read by the pages (:func:`progress`)."""

    total: int = 0
    done: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    started: float = 0.0
    beat: float = 0.0
    path: Path | None = None
    cancel_path: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def seconds_left(self, now: float | None = None) -> float | None:
        """The time left at the pace so far, None before anything is done."""
        if not self.done or not self.total or self.done >= self.total:
            return None
        spent = (now if now is not None else time.time()) - self.started
        return max(0.0, spent / self.done * (self.total - self.done))

    @property
    def share(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    def step(self, done: int, **counts: int) -> None:
        """How far the work is: written for the pages, and a cancel asked for raises
        :class:`Cancelled`."""
        with self.lock:
            self.done = done
            self.counts.update(counts)
        self.write()
        if self.cancel_path is not None and self.cancel_path.exists():
            raise Cancelled

    def last(self) -> dict[str, Any]:
        """What the job's row keeps of its progress once it ended."""
        return {"done": self.done, "counts": dict(self.counts)}

    def write(self) -> None:
        """The progress and a heartbeat, for the pages (from the work, or its beat)."""
        if self.path is None:
            self.beat = time.time()
            return
        with self.lock:
            self.beat = time.time()
            text = json.dumps(
                {
                    "total": self.total,
                    "done": self.done,
                    "counts": self.counts,
                    "started": self.started,
                    "beat": self.beat,
                }
            )
        partial = self.path.with_suffix(f".{threading.get_ident()}.tmp")
        partial.write_text(text)
        os.replace(partial, self.path)  # a reader never sees half of it


def progress(job: Job) -> Progress:
    """How far ``job`` is, as its worker last wrote (its row's figures once it ended)."""
    if job.ended:
        return Progress(
            total=job.total,
            done=int(job.result.get("done", job.total if job.state == job.State.DONE else 0)),
            counts={k: v for k, v in job.result.get("counts", {}).items() if isinstance(v, int)},
        )
    try:
        data = json.loads(job.progress_path().read_text())
    except (OSError, ValueError):
        return Progress(total=job.total)
    return Progress(
        total=int(data.get("total", job.total)),
        done=int(data.get("done", 0)),
        counts=dict(data.get("counts", {})),
        started=float(data.get("started", 0.0)),
        beat=float(data.get("beat", 0.0)),
    )


def cancel_asked(job: Job) -> bool:
    return job.cancel_path().exists()


def new_job(*, kind: str, key: str, total: int = 0, arguments: dict[str, Any]) -> Job:
    """A job's row, queued; its input (if any) goes to :meth:`Job.input_path` before
    :func:`enqueue` hands it to the worker."""
    return Job.objects.create(kind=kind, key=key, total=total, arguments=arguments)


def cancel(job: Job) -> None:
    """Asks for ``job``'s cancel: the work stops at its next step and keeps nothing; a job
    still waiting stops as it starts. Harmless when asked twice or once it ended."""
    if not job.ended:
        job.folder().mkdir(parents=True, exist_ok=True)
        job.cancel_path().touch()


def sweep(key: str | None = None) -> list[Job]:
    """The running jobs (of ``key``, or all) whose worker died marked failed, retryable:
    no heartbeat for :data:`STALE` seconds. Returns them."""
    running = Job.objects.filter(state=Job.State.RUNNING)
    if key is not None:
        running = running.filter(key=key)
    return _swept(list(running))


def unended(key: str) -> list[Job]:
    """The jobs of ``key`` waiting or running, oldest first, those whose worker died swept
    on the way (one query, and one more for each swept)."""
    found = list(
        Job.objects.filter(key=key, state__in=[Job.State.QUEUED, Job.State.RUNNING]).order_by("pk")
    )
    swept = {job.pk for job in _swept([job for job in found if job.state == Job.State.RUNNING])}
    return [job for job in found if job.pk not in swept]


def _swept(running: list[Job]) -> list[Job]:
    swept = []
    now = time.time()
    stale = float(getattr(settings, "JOBS_STALE_SECONDS", STALE))
    for job in running:
        beat = progress(job).beat or (job.started_at.timestamp() if job.started_at else 0.0)
        if now - beat < stale:
            continue
        done = Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
            state=Job.State.FAILED,
            reason="stopped",
            retryable=True,
            ended_at=timezone.now(),
            result=_last(job),
        )
        if done:
            job.refresh_from_db()
            swept.append(job)
    return swept


def _last(job: Job) -> dict[str, Any]:
    """A job's last progress, as its worker last wrote it."""
    return progress(job).last()


def retry(job: Job) -> bool:
    """A failed, retryable job queued again (its input kept); False for any other job."""
    if job.state != Job.State.FAILED or not job.retryable:
        return False
    updated = Job.objects.filter(pk=job.pk, state=Job.State.FAILED, retryable=True).update(
        state=Job.State.QUEUED, reason="", retryable=False, result={}, ended_at=None
    )
    if updated:
        job.progress_path().unlink(missing_ok=True)
        job.cancel_path().unlink(missing_ok=True)
        job.refresh_from_db()
    return bool(updated)


def first_waiting(key: str) -> Job | None:
    """The job of ``key`` that runs now or will run next (its elders have ended)."""
    return (
        Job.objects.filter(key=key, state__in=[Job.State.QUEUED, Job.State.RUNNING])
        .order_by("pk")
        .first()
    )


def _claim(job_id: int) -> Job | None:
    """The job, now running, if its turn has come; None if it is not to run (ended, or
    running elsewhere) or must wait for an elder of its key (then still queued)."""
    sweep()
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state != Job.State.QUEUED:
            return None
        elder = (
            Job.objects.filter(
                key=job.key, pk__lt=job.pk, state__in=[Job.State.QUEUED, Job.State.RUNNING]
            )
            .order_by("pk")
            .first()
        )
        if elder is not None:
            return None
        job.state = Job.State.RUNNING
        job.started_at = timezone.now()
        job.attempts += 1
        job.save(update_fields=["state", "started_at", "attempts"])
    return job


@contextmanager
def _beating(job: Job, progress: Progress) -> Iterator[None]:
    """The job's heartbeat, from a thread of its own while the work runs."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(BEAT):
            progress.write()

    progress.write()
    thread = threading.Thread(target=beat, name=f"job-{job.pk}-beat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


Work = Callable[[Job, Progress], dict[str, Any]]
"""A job's work: given its row and its progress, it returns the result to keep; it raises
:class:`Cancelled` (through :meth:`Progress.step`) or :class:`Failed`."""


def run(job_id: int, work: Work, requeue: Callable[[int], None]) -> str:
    """Runs job ``job_id`` with ``work``, if its turn has come; else ``requeue`` asks the
    worker to come back to it in :data:`WAIT` seconds. Returns the job's state."""
    job = _claim(job_id)
    if job is None:
        waiting = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).exists()
        if waiting:
            requeue(job_id)
            return str(Job.State.QUEUED)
        return str(Job.objects.filter(pk=job_id).values_list("state", flat=True).first())
    job.folder().mkdir(parents=True, exist_ok=True)
    now = time.time()
    progress = Progress(
        total=job.total,
        started=now,
        beat=now,
        path=job.progress_path(),
        cancel_path=job.cancel_path(),
    )
    try:
        with _beating(job, progress):
            if job.cancel_path().exists():
                raise Cancelled
            result = work(job, progress)
    except Cancelled:
        _end(job, Job.State.CANCELLED, progress.last())
    except Failed as failed:
        _end(job, Job.State.FAILED, {**progress.last(), **failed.result}, reason=failed.reason)
    except Exception as error:
        # A fault of the server (its database gone, a bug): tried again once it is mended.
        _end(job, Job.State.FAILED, progress.last(), reason=repr(error)[:500], retryable=True)
        raise
    else:
        _end(job, Job.State.DONE, {**progress.last(), **result})
    return str(job.state)


def _end(
    job: Job, state: str, result: dict[str, Any], reason: str = "", retryable: bool = False
) -> None:
    job.state, job.result, job.reason, job.retryable = state, result, reason, retryable
    job.ended_at = timezone.now()
    job.save(update_fields=["state", "result", "reason", "retryable", "ended_at"])
    if not retryable:
        job.input_path().unlink(missing_ok=True)
    job.progress_path().unlink(missing_ok=True)
    job.cancel_path().unlink(missing_ok=True)


def wait_seconds() -> timedelta:
    return timedelta(seconds=WAIT)
