"""A club's records imported (scoring/clubs/imports/services.py): the form, read and checked
line by line, then every game, or none.

The view reads the form, calls one service, and redirects; what a request may do is
checked by :func:`with_club` (clubs/access.py) before the view runs."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from ...common.http import HtmxHttpRequest
from ...common.once import Made, made_before, make_once
from ...common.rights import Action
from ...infra.bulk import collector_paused
from ...infra.deadline import Deadline, DeadlinePassed
from ...infra.throttles import CLUB_IMPORT, throttled
from ..access import user_id_of, with_club
from ..forms import look_alike_message
from ..models import Club, Member
from ..services import NameLooksLike
from . import services
from .forms import ClubImportForm, already_messages, too_long_message


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(CLUB_IMPORT)
@with_club(Action.RUN_CLUB)
def import_records(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A club's records.jsonl, from paper or from another site: every game, or none."""
    # The whole request's time, from here: reading the file counts.
    deadline = Deadline(settings.IMPORT_SECONDS)
    form = ClubImportForm(request.POST or None, request.FILES or None, deadline=deadline)
    if request.method == "POST":
        # One pause of the collector over reading and writing, and the records let go
        # before it runs again: what the import made is freed as it ends, and no collection
        # walks through hundreds of thousands of objects, now or in a later request.
        with collector_paused():
            try:
                made = _import_records(request, club, form, deadline)
            finally:
                form.let_go()
        if made is not None:
            return made_before(request, made) if made.again else redirect(made.address)
    imported = request.GET.get("imported", "") if request.method != "POST" else ""
    done = int(imported) if imported.isdigit() else None
    context = {
        "form": form,
        "club": club,
        "imported": done,
        # Grouped as the language groups it ("20,000"), as the form's limit is.
        "imported_shown": number_format(done, force_grouping=True) if done is not None else "",
    }
    return render(request, "clubs/club_import.html", context, status=422 if form.errors else 200)


def _import_records(
    request: HtmxHttpRequest, club: Club, form: ClubImportForm, deadline: Deadline
) -> Made[int] | None:
    """The records imported: how many, made once by the form; None if the form or the import
    refused them, the form then saying why."""
    if not form.is_valid():
        return None
    try:
        return make_once(
            form.cleaned_data["once"],
            lambda: services.import_club_records(
                club=club,
                records=form.cleaned_data["records"],
                owner_id=user_id_of(request),
                by=request.actor,
                results=form.cleaned_data["results"],
                lines=form.cleaned_data["lines"],
                deadline=deadline,
            ),
            lambda count: reverse("club_import", args=[club.slug]) + f"?imported={count}",
        )
    except DeadlinePassed as passed:
        form.add_error(None, too_long_message(passed, len(form.cleaned_data["records"])))
    except services.AlreadyInClub as already:
        for message in already_messages(already.duplicates, form.MAX_PROBLEMS):
            form.add_error(None, message)
    except NameLooksLike as alike:
        form.add_error(
            None,
            gettext("line %(number)s: %(problem)s")
            % {"number": alike.line, "problem": look_alike_message(alike.name, alike.like)},
        )
    return None
