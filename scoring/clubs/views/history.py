"""The club's history (scoring/clubs/history.py): what each admin changed, for its admins,
every kind of change or one (``?kind=``)."""

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ..access import with_club
from ..history import CLUB_ACTIONS, PER_PAGE, lines, reading
from ..models import Club, Member


@require_safe
@with_club(Action.RUN_CLUB)
def club_history(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    kind = request.GET.get("kind", "")
    changes = reading(club.changes.all())
    if kind in CLUB_ACTIONS:
        changes = changes.filter(action=kind)
    else:
        kind = ""
    page: Page[Any] = Paginator(changes, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "club": club,
        "page": page,
        "changes": lines(page),
        "kind": kind,
        "kinds": [(one.kind, str(one.words)) for one in CLUB_ACTIONS.values()],
    }
    return render(request, "clubs/club_history.html", context)
