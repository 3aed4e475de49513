"""A member's privacy in his club (docs/privacy.md): his data downloaded and his removal, by
an admin at his request, and whether the public sees him by his first name and initial,
which he chooses for himself, or an admin for him."""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from .. import privacy
from ..access import may_name_in_public, with_club
from ..forms import AnonymiseForm, PublicNameForm
from ..models import Club, Member
from .club import _members_page
from .league import player_page

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


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.REMOVE_MEMBER)
def remove_member(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """Asked, then done once his name is typed again (it cannot be undone): the member's
    account detached and his name made anonymous."""
    found = get_object_or_404(Member, club=club, pk=member_id)
    form = AnonymiseForm(request.POST or None, expected=found.name)
    if request.method == "POST" and form.is_valid():
        try:
            removed = privacy.remove_member(club=club, member_id=found.pk, by=request.actor)
        except privacy.LastAdmin:
            notice = gettext(
                "%(name)s is the club's only admin with an account: "
                "make another member an admin first."
            )
            return _members_page(request, club, notice=notice % {"name": found.name}, status=409)
        messages.success(
            request,
            gettext("%(name)s is now %(anonymous)s, for ever: his results stay under that name.")
            % {"name": found.name, "anonymous": removed.name},
        )
        return redirect("club_members", club=club.slug)
    context = {
        "club": club,
        "player": found,
        "anonymous": privacy.anonymous_name(club),
        "form": form,
    }
    status = 422 if form.errors else 200
    return render(request, "clubs/member_remove.html", context, status=status)


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
