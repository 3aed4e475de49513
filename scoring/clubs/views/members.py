"""An organiser's care of the club's players: a member renamed, merged into another,
deleted (no games) or retired (games) and brought back. Admins only (Action.RUN_CLUB);
each asks first on a page that says what follows, and then calls one service
(scoring/clubs/members.py) and says what it did on the members page."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ...common.http import HtmxHttpRequest
from ...common.names import sorted_by_name
from ...common.rights import Action
from .. import members
from ..access import with_club
from ..forms import MergeForm, RenameForm, look_alike_message, merge_refused_message
from ..models import Club, Member
from .club import _members_page


def _name(member: Member) -> str:
    return member.name


def _player(club: Club, member_id: int) -> Member:
    return get_object_or_404(Member.objects.select_related("user"), club=club, pk=member_id)


def _last_admin(request: HtmxHttpRequest, club: Club, name: str) -> HttpResponse:
    notice = gettext(
        "%(name)s is the club's only admin with an account: make another member an admin first."
    )
    return _members_page(request, club, notice=notice % {"name": name}, status=409)


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


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def member_retire(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """Asked, then done: the member leaves the club's lists, his games stay his."""
    found = _player(club, member_id)
    if request.method != "POST":
        context = {"club": club, "player": found, "games": members.games_of(club, found)}
        return render(request, "clubs/member_retire.html", context)
    try:
        retired = members.retire_member(club=club, member_id=found.pk, by=request.actor)
    except members.LastAdmin:
        return _last_admin(request, club, found.name)
    except Member.DoesNotExist:
        raise Http404 from None
    messages.success(
        request,
        gettext("%(name)s is retired: his games and results stay his.") % {"name": retired.name},
    )
    return redirect("club_members", club=club.slug)


@require_POST
@with_club(Action.RUN_CLUB)
def member_return(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """A retired member back among the club's players."""
    try:
        back = members.bring_back(club=club, member_id=member_id, by=request.actor)
    except Member.DoesNotExist:
        raise Http404 from None
    messages.success(
        request, gettext("%(name)s is back among the club's players.") % {"name": back.name}
    )
    return redirect("club_members", club=club.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def member_delete(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    """Asked, then done: a member who never played deleted; one who did is retired instead."""
    found = _player(club, member_id)
    context = {
        "club": club,
        "player": found,
        "games": members.games_of(club, found),
        "rounds": members.drawn_in(club, found),
    }
    if request.method != "POST":
        return render(request, "clubs/member_delete.html", context)
    try:
        members.delete_member(club=club, member_id=found.pk, by=request.actor)
    except members.HasGames as played:
        context |= {"games": played.games, "rounds": played.rounds}
        return render(request, "clubs/member_delete.html", context, status=409)
    except members.LastAdmin:
        return _last_admin(request, club, found.name)
    except Member.DoesNotExist:
        raise Http404 from None
    messages.success(request, gettext("%(name)s is deleted from the club.") % {"name": found.name})
    return redirect("club_members", club=club.slug)
