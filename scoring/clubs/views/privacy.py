"""A member's privacy in his club (docs/privacy.md): his data downloaded, and whether the
public sees him by his first name and initial, which he chooses for himself, or an admin
for him. His removal, by an admin at his request, is an admin action of views/actions.py."""

import json

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from .. import privacy
from ..access import may_name_in_public, with_club
from ..forms import PublicNameForm
from ..league.views import player_page
from ..models import Club, Member

MEMBER_DATA_FORMAT = "boulmous-member-data/1"


@require_safe
@with_club(Action.EXPORT_MEMBER_DATA)
def member_data(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """What the club keeps about one of its players, as JSON: his part of his account's
    download (docs/privacy.md)."""
    found = get_object_or_404(Member.objects.select_related("club"), club=club, pk=member_id)
    data = {"format": MEMBER_DATA_FORMAT, **privacy.memberships_data([found])[0]}
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    attachment(response, f"{club.slug}-member-{found.pk}-data.json")
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@with_club(Action.SEE_CLUB)
def public_name(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """A member's choice for himself, or an admin's for him at his request."""
    found = get_object_or_404(Member, club=club, pk=member_id)
    if not may_name_in_public(club, member, found):
        raise PermissionDenied
    form = PublicNameForm(request.POST)
    if not form.is_valid():
        return player_page(request, club, member, found, form=form, status=422)
    privacy.set_short_in_public(club=club, member_id=found.pk, short=form.short, by=request.actor)
    return redirect("club_player", club=club.slug, member_id=found.pk)
