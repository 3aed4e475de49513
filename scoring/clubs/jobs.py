"""A club's jobs (scoring/infra/jobs.py): its imports and its league's rebuild, queued by
its admins, run by the worker one after another (their key is the club's), and what the
club's pages read of them."""

import os
import shutil
import uuid
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone, translation
from django_tasks import task

from ..common.rights import Actor
from ..infra import jobs
from .imports.jobs import import_work
from .league.checked import rebuild_checked
from .models import Club

IMPORT = "club_import"
REBUILD = "league_rebuild"


def key_of(club: Club) -> str:
    """The key of a club's jobs: they run one after another."""
    return f"club:{club.pk}"


def _arguments(club: Club, by: Actor, language: str, **more: Any) -> dict[str, Any]:
    return {
        "club": club.pk,
        "user": by.user_id,
        "device": by.device,
        "language": language,
        **more,
    }


def queue_import(
    *,
    club: Club,
    source: "UploadedFile[bytes] | bytes",
    lines: int,
    owner_id: int | None,
    by: Actor,
    language: str,
) -> jobs.Job:
    """A club's records (checked by the import's form) queued for import: kept on disk
    beside the job, which runs once the club's jobs before it have ended."""
    job = jobs.new_job(
        kind=IMPORT,
        key=key_of(club),
        total=lines,
        arguments=_arguments(club, by, language, owner=owner_id),
    )
    _keep(source, job.input_path())
    run_job.enqueue(job.pk)
    return job


def queue_rebuild(*, club: Club, by: Actor, language: str) -> jobs.Job:
    """The club's league queued for its rebuild and check; the rebuild that waits already,
    if one does: it will read every change made until it starts, so a second would find
    nothing more (the form sent twice). One that runs is not waited on: changes made since
    it began are the next one's. The club's row is not locked: an import holds it for its
    whole transaction, and the request would wait for it; two admins asking at the very
    same moment may queue two rebuilds, the second finding everything equal."""
    waiting = (
        jobs.Job.objects.filter(kind=REBUILD, key=key_of(club), state=jobs.Job.State.QUEUED)
        .order_by("pk")
        .first()
    )
    if waiting is not None:
        return waiting
    job = jobs.new_job(kind=REBUILD, key=key_of(club), arguments=_arguments(club, by, language))
    run_job.enqueue(job.pk)
    return job


def _keep(source: "UploadedFile[bytes] | bytes", path: Path) -> None:
    """The records written to ``path``: an upload Django streamed to a temporary file is
    moved there (copied if it is on another disk), a small one written by chunks."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, bytes):
        path.write_bytes(source)
        return
    temporary = getattr(source, "temporary_file_path", None)
    if temporary is not None:
        try:
            os.replace(temporary(), path)
            return
        except OSError:  # another file system: copied
            with open(temporary(), "rb") as kept, path.open("wb") as out:
                shutil.copyfileobj(kept, out)
            return
    source.seek(0)
    with path.open("wb") as out:
        for chunk in source.chunks():
            out.write(chunk)


def retry(job: jobs.Job) -> bool:
    """A club's job that failed for the server's fault queued again; False if it cannot."""
    if not jobs.retry(job):
        return False
    run_job.enqueue(job.pk)
    return True


def rebuild_work(job: jobs.Job, progress: jobs.Progress) -> dict[str, Any]:
    """The job's work: the league rebuilt and checked (clubs/league/checked.py)."""
    arguments = job.arguments
    club = Club.objects.get(pk=arguments["club"])
    by = Actor(user_id=arguments.get("user"), device=arguments.get("device") or "")

    def step(read: int, total: int) -> None:
        progress.total = total
        progress.step(read)

    with translation.override(arguments.get("language") or None):
        checked = rebuild_checked(club, by=by, step=step)
    return {"games": checked.games, "rows": checked.rows, "players": checked.players[:20]}


WORKS: dict[str, jobs.Work] = {IMPORT: import_work, REBUILD: rebuild_work}
"""Each kind of a club's job, and its work."""


@task()
def run_job(job_id: int) -> str:
    """The worker's entry to a club's job."""
    job = jobs.Job.objects.filter(pk=job_id).only("kind").first()
    if job is None:
        return "gone"
    return jobs.run(job_id, WORKS[job.kind], _again)


def _again(job_id: int) -> None:
    """The job looked at again once its elder may have ended."""
    run_job.using(run_after=timezone.now() + jobs.wait_seconds()).enqueue(job_id)


def of_club(club: Club) -> "list[jobs.Job]":
    """The club's jobs not ended (the dead ones swept first), oldest first."""
    return jobs.unended(key_of(club))


def job_of(club: Club, public: uuid.UUID) -> jobs.Job | None:
    """The club's job at this address, its state swept first."""
    jobs.sweep(key_of(club))
    return jobs.Job.objects.filter(key=key_of(club), public=public).first()
