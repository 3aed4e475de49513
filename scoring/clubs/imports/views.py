"""A club's records imported (scoring/clubs/jobs.py): the form checks the upload is records
and queues its job; the job's page follows it (scoring/clubs/views/jobs.py).

The view reads the form, calls one service, and redirects; what a request may do is
checked by :func:`with_club` (clubs/access.py) before the view runs."""

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from ...common.http import HtmxHttpRequest
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...infra.throttles import CLUB_IMPORT, throttled
from .. import jobs
from ..access import user_id_of, with_club
from ..models import Club, Member
from .forms import ClubImportForm


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(CLUB_IMPORT)
@with_club(Action.RUN_CLUB)
def import_records(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A club's records.jsonl, from paper or from another site: checked to be records, then
    imported by a job (every game, or none), whose page the organiser is sent to."""
    form = ClubImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        made = make_once(
            data["once"],
            lambda: jobs.queue_import(
                club=club,
                source=data["source"],
                lines=data["lines"],
                owner_id=user_id_of(request),
                by=request.actor,
                language=get_language(),
            ),
            lambda job: reverse("club_job", args=[club.slug, job.public]),
        )
        return made_before(request, made) if made.again else redirect(made.address)
    context = {"form": form, "club": club, "running": jobs.of_club(club)}
    return render(request, "clubs/club_import.html", context, status=422 if form.errors else 200)
