"""Running a club: its settings, members, invites, seasons, games and imported records.

Each view reads a form, calls one service, and redirects; what a request may do is checked
by :func:`with_club` (clubs/access.py, the policy of common/rights.py) before the view
runs, never by hiding a button.
"""

from dataclasses import replace
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.names import name_key, sorted_by_name
from ...common.once import Made, made_before, make_once
from ...common.rights import Action
from ...common.words import rules_sentence
from ...infra.bulk import collector_paused
from ...infra.deadline import Deadline, DeadlinePassed
from ...infra.throttles import CLUB_IMPORT, CLUB_JOIN, throttled
from ...table.models import Summary
from ...table.pages.home import game_summaries, summary_relations
from ...table.views.share import qr_code
from .. import services
from ..access import club_may, club_member, with_club
from ..forms import (
    ClaimForm,
    ClubGameForm,
    ClubImportForm,
    ClubJoinForm,
    ClubSettingsForm,
    MemberForm,
    NewClubForm,
    NewSeasonForm,
    RoleForm,
    already_messages,
    look_alike_message,
    too_long_message,
)
from ..members import played
from ..models import Club, Member
from ..names import Named, sees_full_names, shown_names
from .calendar import feed_address

RECENT_GAMES = 20


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


@require_safe
def clubs(request: HttpRequest) -> HttpResponse:
    """The clubs one is in, the clubs whose standings are public, and a way to make one."""
    user_id = _user_id(request)
    mine = (
        list(
            Member.objects.filter(user=user_id)
            .exclude(role=Member.Role.GUEST)
            .select_related("club")
        )
        if user_id is not None
        else []
    )
    public = Club.objects.filter(public=True).exclude(pk__in=[m.club_id for m in mine])
    context = {
        "mine": sorted_by_name(mine, lambda member: member.club.name),
        "public": sorted_by_name(public, lambda club: club.name),
    }
    return render(request, "clubs/clubs.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def new_club(request: HttpRequest) -> HttpResponse:
    form = NewClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user_id = _user_id(request)
        assert user_id is not None  # signed in: login_required
        try:
            made = make_once(
                data["once"],
                lambda: services.create_club(
                    name=data["name"],
                    slug=data["slug"],
                    time_zone=data["time_zone"],
                    rules=data["rules"],
                    points=data["league_points"],
                    public=data["public"],
                    invite_admits=data["invite_admits"],
                    admin_user_id=user_id,
                    admin_name=data["your_name"],
                ),
                lambda club: reverse("club", args=[club.slug]),
            )
        except IntegrityError:  # the address is taken (the one unique value given)
            form.add_error("slug", gettext("Another club has this address: choose another."))
        else:
            return made_before(request, made) if made.again else redirect(made.address)
    return render(
        request, "clubs/club_form.html", {"form": form}, status=422 if form.errors else 200
    )


@require_safe
@with_club(Action.SEE_CLUB)
def club_page(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """The club: its seasons, its records, its recent games and its players."""
    recent = (
        Summary.objects.filter(game__club_game__club=club)
        .select_related(*summary_relations())
        .order_by("-changed_at")[:RECENT_GAMES]
    )
    players = list(club.members.select_related("claimed_by"))
    shown = shown_names(
        (Named(one.pk, one.key, one.name, one.short_in_public) for one in players),
        public=not sees_full_names(member),
    )
    players = sorted_by_name(players, lambda one: shown[one.key])
    games = [
        replace(
            game,
            scores=[(shown.get(name_key(name), name), total) for name, total in game.scores],
            winner=shown.get(name_key(game.winner), game.winner) if game.winner else None,
        )
        for game in game_summaries(recent)
    ]
    feed = feed_address(request, club, member)
    seasons = list(club.seasons.all())
    today = timezone.localdate()
    shown_season = next(
        (one for one in seasons if one.first_day <= today <= one.last_day),
        max(seasons, key=lambda one: one.last_day, default=None),
    )
    context = {
        "club": club,
        "member": member,
        "can_score": club_may(Action.SCORE_CLUB, club, member),
        "is_admin": club_may(Action.RUN_CLUB, club, member),
        # Joins waiting for an admin, decided here as on the members page.
        "claims": [player for player in players if player.claimed_by_id is not None]
        if club_may(Action.RUN_CLUB, club, member)
        else [],
        "seasons": seasons,
        # The frame for the club's website, of the season in play (else the last one).
        "embed_season": shown_season,
        "embed_url": request.build_absolute_uri(
            reverse("season_embed", args=[club.slug, shown_season.slug])
        )
        if shown_season
        else "",
        "games": games,
        "members": [
            (player, shown[player.key])
            for player in players
            if player.role != Member.Role.GUEST and player.retired_at is None
        ],
        "guests": [
            (player, shown[player.key])
            for player in players
            if player.role == Member.Role.GUEST and player.retired_at is None
        ],
        # The nights' feed, to subscribe to: a private club's is the member's own.
        "nights_feed": feed,
        "nights_webcal": "webcal://" + feed.partition("://")[2] if feed else "",
    }
    return render(request, "clubs/club.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def club_settings(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    form = ClubSettingsForm(request.POST or None, initial=ClubSettingsForm.initial_of(club))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        services.update_club(
            club_id=club.pk,
            name=data["name"],
            time_zone=data["time_zone"],
            rules=data["rules"],
            points=data["league_points"],
            public=data["public"],
            invite_admits=data["invite_admits"],
            embed_origins=data["embed_origins"],
            colour=data["colour"],
            by=request.actor,
        )
        messages.success(request, gettext("The club's settings are saved."))
        return redirect("club", club=club.slug)
    context = {"form": form, "club": club}
    return render(request, "clubs/club_form.html", context, status=422 if form.errors else 200)


def _name(member: Member) -> str:
    return member.name


def _members_page(
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
        return _members_page(request, club)
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
        except services.NameTaken:
            form.add_error("name", gettext("The club already has a player of this name."))
        except services.NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        else:
            if made.thing is None:
                return made_before(request, made)
            messages.success(
                request,
                gettext("%(name)s is a player of the club, as %(role)s.")
                % {"name": made.thing.name, "role": made.thing.get_role_display()},
            )
            return redirect("club_members", club=club.slug)
    return _members_page(request, club, form, status=422)


@require_POST
@with_club(Action.RUN_CLUB)
def member_role(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _members_page(request, club, notice=gettext("Choose a role."), status=422)
    role = form.cleaned_data["role"]
    try:
        changed = services.set_role(club=club, member_id=member_id, role=role, by=request.actor)
    except Member.DoesNotExist:
        raise Http404 from None
    if changed.role != role:
        notice = gettext("The club keeps at least one admin with an account: %(name)s stays one.")
        return _members_page(request, club, notice=notice % {"name": changed.name}, status=409)
    messages.success(
        request,
        gettext("%(name)s is now %(role)s.")
        % {"name": changed.name, "role": changed.get_role_display()},
    )
    return redirect("club_members", club=club.slug)


@require_POST
@with_club(Action.RUN_CLUB)
def member_claim(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return _members_page(request, club, notice=gettext("Accept or refuse."), status=422)
    accept = form.cleaned_data["decision"] == "accept"
    try:
        decided = services.confirm_claim(
            club=club, member_id=member_id, accept=accept, by=request.actor
        )
    except Member.DoesNotExist:
        raise Http404 from None
    if accept and decided.user_id is not None:
        messages.success(
            request, gettext("%(name)s is in, with his account.") % {"name": decided.name}
        )
    elif not accept:
        messages.success(
            request, gettext("The claim on %(name)s is refused.") % {"name": decided.name}
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
        heading = gettext("Log in to join %(club)s") % {"club": found.name}
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
        except services.NameTaken:
            form.add_error(
                "name",
                gettext("The club already has a player of this name: if it is you, choose it."),
            )
        except services.NameLooksLike as alike:
            form.add_error("name", look_alike_message(alike.name, alike.like))
        except Member.DoesNotExist:  # claimed or joined by someone else meanwhile
            form.add_error("member", gettext("This player was just taken: choose again."))
        else:
            if joined.user_id == request.user.pk:
                return redirect("club", club=found.slug)
            return redirect("join_club", club=found.slug, secret=secret)
    context = {"club": found, "form": form, "pending": None}
    return render(request, "clubs/club_join.html", context, status=422 if form.errors else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def new_season(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    form = NewSeasonForm(request.POST or None, initial=NewSeasonForm.points_initial(club.points))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = make_once(
                data["once"],
                lambda: services.create_season(
                    club=club,
                    name=data["name"],
                    slug=data["slug"],
                    first_day=data["first_day"],
                    last_day=data["last_day"],
                    points=data["league_points"],
                    by=request.actor,
                ),
                lambda season: reverse("season", args=[club.slug, season.slug]),
            )
        except services.SeasonOverlaps as overlap:
            form.add_error(
                None,
                gettext("These days overlap those of the season %(name)s.")
                % {"name": overlap.other.name},
            )
        except IntegrityError:  # the address is taken in this club
            form.add_error("slug", gettext("Another season of the club has this address."))
        else:
            if made.again:
                return made_before(request, made)
            messages.success(
                request, gettext("The season %(name)s is made.") % {"name": data["name"]}
            )
            return redirect("club", club=club.slug)
    context = {"form": form, "club": club}
    return render(
        request, "clubs/club_season_form.html", context, status=422 if form.errors else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SCORE_CLUB)
def new_club_game(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A club game: four members or guests, with the club's rules."""
    form = ClubGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = make_once(
                form.cleaned_data["once"],
                lambda: services.start_club_game(
                    club=club,
                    names=form.cleaned_data["names"],
                    first_dealer=form.cleaned_data["first_dealer_seat"],
                    owner_id=_user_id(request),
                    by=request.actor,
                ),
                lambda state: reverse("game", args=[state.game.public_id]),
            )
        except services.NameTaken:  # a guest of this name joined meanwhile: try again
            form.add_error(None, gettext("A player was just added under one of these names."))
        except services.NameLooksLike as alike:
            names = form.cleaned_data["names"]
            field = form.NAME_FIELDS[names.index(alike.name)] if alike.name in names else None
            form.add_error(field, look_alike_message(alike.name, alike.like))
        else:
            if made.thing is None:
                return made_before(request, made)
            # As at any table, this phone may score the game it started: for its account,
            # while he may start the club's games (a scorer demoted loses it at once).
            response = redirect(made.address)
            phone = request.phone
            phone.grant(made.thing.game.public_id, rights.FOR_OWNER)
            rights.write(response, phone)
            return response
    names = sorted_by_name(club.members.filter(retired_at=None).values_list("name", flat=True), str)
    context: dict[str, Any] = {
        "form": form,
        "club": club,
        "known_names": names,
        "rules": rules_sentence(club.rules),
    }
    return render(request, "clubs/club_game_form.html", context, status=422 if form.errors else 200)


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
                owner_id=_user_id(request),
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
    except services.NameLooksLike as alike:
        form.add_error(
            None,
            gettext("line %(number)s: %(problem)s")
            % {"number": alike.line, "problem": look_alike_message(alike.name, alike.like)},
        )
    return None
