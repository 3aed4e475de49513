"""The club's history (scoring/clubs/history.py): what each admin changed, for its admins."""

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ..access import with_club
from ..history import label
from ..models import Club, Member

PER_PAGE = 50


@require_safe
@with_club(Action.RUN_CLUB)
def club_history(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    changes = club.changes.select_related("by_user")
    page: Page[Any] = Paginator(changes, PER_PAGE).get_page(request.GET.get("page"))
    changes_said = [(change, label(change.action)) for change in page]
    return render(
        request, "clubs/club_history.html", {"club": club, "page": page, "changes": changes_said}
    )
