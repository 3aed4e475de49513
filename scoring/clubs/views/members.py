"""An organiser's care of the club's players: a member renamed, or merged into another (a
page that shows what follows before it is done). Admins only (Action.RUN_CLUB); each calls
one service (scoring/clubs/members.py) and says what it did on the members page. Retired,
brought back and deleted, a member is an admin action of views/actions.py."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from ...common.http import HtmxHttpRequest
from ...common.names import sorted_by_name
from ...common.rights import Action
from .. import members
from ..access import with_club
from ..forms import MergeForm, RenameForm, look_alike_message, merge_refused_message
from ..models import Club, Member


def _name(member: Member) -> str:
    return member.name


def _player(club: Club, member_id: int) -> Member:
    return get_object_or_404(Member.objects.select_related("user"), club=club, pk=member_id)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def member_rename(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """A member's new name, everywhere the club shows him."""
    found = _player(club, member_id)
    form = RenameForm(request.POST or None, initial={"name": found.name})
    if request.method == "POST" and form.is_valid():
        try:
            renamed = members.rename_member(
                club=club, member_id=found.pk, name=form.cleaned_data["name"], by=request.actor
            )
        except members.NameTaken:
            form.add_error("name", gettext("The club already has a player of this name."))
        except members.NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        except Member.DoesNotExist:  # deleted meanwhile
            raise Http404 from None
        else:
            if renamed.name != found.name:
                messages.success(
                    request,
                    gettext("%(old)s is now %(name)s, in every game of the club.")
                    % {"old": found.name, "name": renamed.name},
                )
            return redirect("club_members", club=club.slug)
    context = {"club": club, "player": found, "form": form, "games": members.games_of(club, found)}
    status = 422 if form.errors else 200
    return render(request, "clubs/member_rename.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def member_merge(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """Choose the player this one is merged into (a GET form), see what follows, then merge
    (a POST)."""
    found = _player(club, member_id)
    others = sorted_by_name(club.members.exclude(pk=found.pk).select_related("user"), _name)
    players = [
        (one.pk, gettext("%(name)s (retired)") % {"name": one.name} if one.retired_at else one.name)
        for one in others
    ]
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "into" in request.GET else None)
    form = MergeForm(data, players=players)
    context = {
        "club": club,
        "player": found,
        "form": form,
        "games": members.games_of(club, found),
        "kept": None,
        "refusal": "",
    }
    status = 200
    if form.is_bound and form.is_valid():
        kept = next(one for one in others if one.pk == form.cleaned_data["into"])
        context["kept"] = kept
        refusal = members.merge_refusal(club, found, kept)
        if posted and refusal is None:
            try:
                merged = members.merge_members(
                    club=club, gone_id=found.pk, kept_id=kept.pk, by=request.actor
                )
            except members.MergeRefused as late:  # a game or a draw together meanwhile
                refusal = late
            except Member.DoesNotExist:  # one of them deleted meanwhile
                raise Http404 from None
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(gone)s is merged into %(kept)s: his %(count)s game is %(kept)s's.",
                        "%(gone)s is merged into %(kept)s: his %(count)s games are %(kept)s's.",
                        merged.games,
                    )
                    % {"gone": found.name, "kept": merged.kept.name, "count": merged.games},
                )
                return redirect("club_members", club=club.slug)
        if refusal is not None:
            context["refusal"] = merge_refused_message(refusal, found.name, kept.name)
            status = 409 if posted else 200
    elif form.is_bound:
        status = 422
    return render(request, "clubs/member_merge.html", context, status=status)
