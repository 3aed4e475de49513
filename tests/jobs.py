"""The worker's part in a test: the jobs queued (django-tasks' database backend) run here,
in the test's own transaction, one by one as ``manage.py db_worker`` takes them."""

from typing import Any

from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult


def queued(task_path: str | None = None) -> list[DBTaskResult]:
    """The jobs waiting, soonest first (of one task's, given its ``module_path``)."""
    rows = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
    if task_path is not None:
        rows = rows.filter(task_path=task_path)
    return list(rows.order_by("run_after", "enqueued_at", "id"))


def run_jobs(*, later: bool = False, limit: int = 1000) -> list[Any]:
    """Every job whose time has come (``later``: those queued for later too, as if their
    time had come), and those they queue, until none is left; what each returned."""
    done = []
    for _ in range(limit):
        ran = run_next(later=later)
        if ran is None:
            return done
        done.append(ran[0])
    raise AssertionError(f"more than {limit} jobs")


def run_next(*, later: bool = False) -> tuple[Any] | None:
    """The next job whose time has come (``later``: or not), run: what it returned (in a
    tuple), or None when there was none."""
    rows = (
        DBTaskResult.objects.filter(status=TaskResultStatus.READY)
        if later
        else DBTaskResult.objects.ready()
    )
    row = rows.order_by("-priority", "run_after", "enqueued_at", "id").first()
    if row is None:
        return None
    row.claim("test")
    value = row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
    row.set_successful(value)
    return (value,)
