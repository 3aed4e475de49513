"""Who is in the club, and an organiser's care of its players: the admins' page of the
players (roles, claims, new players, the invite), an account joining through the invite
link, a member renamed, or merged into another (a page that shows what follows before it is
done). Admins only (Action.RUN_CLUB), but the joining; each calls one service
(scoring/clubs/members/services.py, care.py) and says what it did on the members page.
Retired, brought back and deleted, a member is an admin action of views/actions.py."""

from django.contrib import messages
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.http import HtmxHttpRequest
from ...common.names import sorted_by_name
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...common.words import isolate
from ...infra.qr import qr_code
from ...infra.throttles import CLUB_JOIN, throttled
from ..access import club_member, with_club
from ..forms import look_alike_message
from ..models import Club, Member
from ..services import NameLooksLike, NameTaken
from . import care, services
from .care import played
from .forms import (
    ClaimForm,
    ClubJoinForm,
    MemberForm,
    MergeForm,
    RenameForm,
    RoleForm,
    merge_refused_message,
)


def _name(member: Member) -> str:
    return member.name


def members_page(
    request: HttpRequest,
    club: Club,
    add_form: MemberForm | None = None,
    *,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """The admins' page of the club's players: roles, claims, new players, the invite."""
    players = sorted_by_name(club.members.select_related("user", "claimed_by"), _name)
    games = played(club)
    invite = request.build_absolute_uri(reverse("join_club", args=[club.slug, club.invite_secret]))
    context = {
        "club": club,
        "players": [
            (player, RoleForm(initial={"role": player.role}), games.get(player.key, 0))
            for player in players
            if player.retired_at is None
        ],
        "retired": [
            (player, games.get(player.key, 0))
            for player in players
            if player.retired_at is not None
        ],
        "claims": [player for player in players if player.claimed_by_id is not None],
        "add_form": add_form or MemberForm(),
        "invite": invite,
        "invite_qr": qr_code(invite, gettext("Invite link")),
        "notice": notice,
    }
    return render(request, "clubs/club_members.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def members(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """The players, and, posted here, a new one by name."""
    if request.method != "POST":
        return members_page(request, club)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            made = make_once(
                form.cleaned_data["once"],
                lambda: services.add_member(
                    club=club,
                    name=form.cleaned_data["name"],
                    role=form.cleaned_data["role"],
                    by=request.actor,
                ),
                lambda added: reverse("club_player", args=[club.slug, added.pk]),
            )
        except NameTaken:
            form.add_error("name", gettext("The club already has a player of this name."))
        except NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        else:
            if made.thing is None:
                return made_before(request, made)
            messages.success(
                request,
                gettext("%(name)s is a player of the club, as %(role)s.")
                % {"name": isolate(made.thing.name), "role": made.thing.get_role_display()},
            )
            return redirect("club_members", club=club.slug)
    return members_page(request, club, form, status=422)


@require_POST
@with_club(Action.RUN_CLUB)
def member_role(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    form = RoleForm(request.POST)
    if not form.is_valid():
        return members_page(request, club, notice=gettext("Choose a role."), status=422)
    role = form.cleaned_data["role"]
    try:
        changed = services.set_role(club=club, member_id=member_id, role=role, by=request.actor)
    except Member.DoesNotExist:
        raise Http404 from None
    if changed.role != role:
        notice = gettext("The club keeps at least one admin with an account: %(name)s stays one.")
        return members_page(
            request, club, notice=notice % {"name": isolate(changed.name)}, status=409
        )
    messages.success(
        request,
        gettext("%(name)s is now %(role)s.")
        % {"name": isolate(changed.name), "role": changed.get_role_display()},
    )
    return redirect("club_members", club=club.slug)


@require_POST
@with_club(Action.RUN_CLUB)
def member_claim(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return members_page(request, club, notice=gettext("Accept or refuse."), status=422)
    accept = form.cleaned_data["decision"] == "accept"
    try:
        decided = services.confirm_claim(
            club=club, member_id=member_id, accept=accept, by=request.actor
        )
    except Member.DoesNotExist:
        raise Http404 from None
    if accept and decided.user_id is not None:
        messages.success(
            request, gettext("%(name)s is in, with his account.") % {"name": isolate(decided.name)}
        )
    elif not accept:
        messages.success(
            request, gettext("The claim on %(name)s is refused.") % {"name": isolate(decided.name)}
        )
    # Decided from the club page, where admins see the claims too, or from the members page.
    back = "club" if request.POST.get("back") == "club" else "club_members"
    return redirect(back, club=club.slug)


@require_POST
@with_club(Action.RUN_CLUB)
def new_invite(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    services.new_invite(club=club, by=request.actor)
    messages.success(
        request, gettext("A new invite link replaces the old one, which no longer works.")
    )
    return redirect("club_members", club=club.slug)


@require_safe
@with_club(Action.RUN_CLUB)
def invite_qr(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """The invite link as a QR code, an SVG file to print or send."""
    invite = request.build_absolute_uri(reverse("join_club", args=[club.slug, club.invite_secret]))
    response = HttpResponse(
        qr_code(invite, gettext("Invite link")), content_type="image/svg+xml; charset=utf-8"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(CLUB_JOIN)
def join_club(request: HttpRequest, club: str, secret: str) -> HttpResponseBase:
    """The invite link: an account says which of the club's players it is, or gives a new
    name; it is in at once, or when an admin confirms, as the club chose."""
    found = get_object_or_404(Club, slug=club)
    if not constant_time_compare(secret, found.invite_secret):
        # A link replaced by "Make a new link", or mistyped: say so, and who can help.
        return render(request, "clubs/club_join_stale.html", {"club": found}, status=404)
    if not request.user.is_authenticated:
        # Logging in here, on the page that names the club, comes back to the link.
        here = request.get_full_path()
        heading = gettext("Log in to join %(club)s") % {"club": isolate(found.name)}
        asked = {"heading": heading, "login_action": here, "next": here}
        return LoginView.as_view(extra_context=asked)(request)
    already = club_member(request, found)
    if already is not None:
        return redirect("club", club=found.slug)
    pending = Member.objects.filter(club=found, claimed_by=request.user.pk).first()
    if pending is not None:
        if request.method == "POST":  # the form sent again: answered as it was the first time
            return redirect("join_club", club=found.slug, secret=secret)
        return render(request, "clubs/club_join.html", {"club": found, "pending": pending})
    players = Member.objects.filter(
        club=found, user=None, claimed_by=None, retired_at=None
    ).values_list("pk", "name")
    form = ClubJoinForm(
        request.POST or None, players=sorted_by_name(players, lambda player: player[1])
    )
    if request.method == "POST" and form.is_valid():
        try:
            joined = services.join_club(
                club=found,
                user_id=request.user.pk,
                member_id=form.cleaned_data["member"],
                name=form.cleaned_data["name"] or "",
            )
        except NameTaken:
            form.add_error(
                "name",
                gettext("The club already has a player of this name: if it is you, choose it."),
            )
        except NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        except Member.DoesNotExist:  # claimed or joined by someone else meanwhile
            form.add_error("member", gettext("This player was just taken: choose again."))
        else:
            if joined.user_id == request.user.pk:
                return redirect("club", club=found.slug)
            return redirect("join_club", club=found.slug, secret=secret)
    context = {"club": found, "form": form, "pending": None}
    return render(request, "clubs/club_join.html", context, status=422 if form.errors else 200)


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
            renamed = care.rename_member(
                club=club, member_id=found.pk, name=form.cleaned_data["name"], by=request.actor
            )
        except care.NameTaken:
            form.add_error("name", gettext("The club already has a player of this name."))
        except care.NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        except Member.DoesNotExist:  # deleted meanwhile
            raise Http404 from None
        else:
            if renamed.name != found.name:
                messages.success(
                    request,
                    gettext("%(old)s is now %(name)s, in every game of the club.")
                    % {"old": isolate(found.name), "name": isolate(renamed.name)},
                )
            return redirect("club_members", club=club.slug)
    context = {"club": club, "player": found, "form": form, "games": care.games_of(club, found)}
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
        (
            one.pk,
            gettext("%(name)s (retired)") % {"name": isolate(one.name)}
            if one.retired_at
            else one.name,
        )
        for one in others
    ]
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "into" in request.GET else None)
    form = MergeForm(data, players=players)
    context = {
        "club": club,
        "player": found,
        "form": form,
        "games": care.games_of(club, found),
        "kept": None,
        "refusal": "",
    }
    status = 200
    if form.is_bound and form.is_valid():
        kept = next(one for one in others if one.pk == form.cleaned_data["into"])
        context["kept"] = kept
        refusal = care.merge_refusal(club, found, kept)
        if posted and refusal is None:
            try:
                merged = care.merge_members(
                    club=club, gone_id=found.pk, kept_id=kept.pk, by=request.actor
                )
            except care.MergeRefused as late:  # a game or a draw together meanwhile
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
                    % {
                        "gone": isolate(found.name),
                        "kept": isolate(merged.kept.name),
                        "count": merged.games,
                    },
                )
                return redirect("club_members", club=club.slug)
        if refusal is not None:
            context["refusal"] = merge_refused_message(refusal, found.name, kept.name)
            status = 409 if posted else 200
    elif form.is_bound:
        status = 422
    return render(request, "clubs/member_merge.html", context, status=status)
