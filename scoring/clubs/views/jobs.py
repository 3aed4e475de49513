"""A club's jobs (scoring/clubs/jobs.py): an import's or a rebuild's page, which follows it
(htmx every second, a plain reload every few seconds without JavaScript), cancels it or
retries it; and the league's rebuild, asked for from the club's settings page."""

import uuid
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods, require_POST

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ...infra import jobs as job_rows
from .. import jobs
from ..access import with_club
from ..models import Club, Member


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def club_job(
    request: HtmxHttpRequest, club: Club, member: Member | None, job: uuid.UUID
) -> HttpResponse:
    """A job's page: how far it is, its Cancel; once ended, its result (or its Retry)."""
    found = jobs.job_of(club, job)
    if found is None:
        raise Http404
    if request.method == "POST":
        if request.POST.get("action") == "retry":
            jobs.retry(found)
        else:  # cancel: harmless when sent twice, or once the job ended
            job_rows.cancel(found)
        return redirect("club_job", club=club.slug, job=found.public)
    context = {"club": club, **job_context(found)}
    if request.htmx and not request.htmx.boosted:
        return render(request, "clubs/club_job.html#job", context)
    return render(request, "clubs/club_job.html", context)


def job_context(job: job_rows.Job) -> dict[str, Any]:
    """What the job's page says of ``job``."""
    progress = job_rows.progress(job)
    left = progress.seconds_left()
    counts = progress.counts
    elder = job_rows.first_waiting(job.key)
    return {
        "job": job,
        "importing": job.kind == jobs.IMPORT,
        "waiting": job.state == job.State.QUEUED and elder is not None and elder.pk != job.pk,
        "cancelling": job_rows.cancel_asked(job),
        "progress": progress,
        "percent": round(progress.share * 100),
        "read": number_format(progress.done, force_grouping=True),
        "total": number_format(progress.total, force_grouping=True),
        "imported": number_format(counts.get("imported", 0), force_grouping=True),
        "refused": number_format(counts.get("refused", 0), force_grouping=True),
        "minutes_left": None if left is None else int(left // 60),
        "seconds_left": None if left is None else int(left % 60),
        "result": job.result,
        "games": number_format(
            job.result.get("imported", job.result.get("games", 0)), force_grouping=True
        ),
    }


@require_POST
@with_club(Action.RUN_CLUB)
def rebuild_league(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """The league's rebuild and check, queued; its page follows it."""
    job = jobs.queue_rebuild(club=club, by=request.actor, language=get_language())
    return redirect(reverse("club_job", args=[club.slug, job.public]))
