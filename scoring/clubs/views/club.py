"""Running a club: its settings, seasons and games.

Each view reads a form, calls one service, and redirects; what a request may do is checked
by :func:`with_club` (clubs/access.py, the policy of common/rights.py) before the view
runs, never by hiding a button."""

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.names import name_key, sorted_by_name
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...common.words import isolate, rules_sentence
from ...table.face import Game, Summary, game_summaries, open_disputes, summary_relations
from .. import services
from ..access import club_may, user_id_of, with_club
from ..forms import ClubGameForm, ClubSettingsForm, NewClubForm, NewSeasonForm, look_alike_message
from ..jobs import of_club
from ..models import Club, ClubResult, Member
from ..names import Named, sees_full_names, shown_names
from ..nights.calendar_views import feed_address

RECENT_GAMES = 20


@require_safe
def clubs(request: HttpRequest) -> HttpResponse:
    """The clubs one is in, the clubs whose standings are public, and a way to make one."""
    user_id = user_id_of(request)
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
        user_id = user_id_of(request)
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
    # A won game's result is final once the league counts it (issue 40.4): said in the list.
    counted = ClubResult.objects.filter(game=OuterRef("game_id"))
    recent = (
        Summary.objects.filter(game__club_game__club=club)
        .select_related(*summary_relations())
        .annotate(counted=Exists(counted))
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
            final=row.counted if game.winner else None,
        )
        for row, game in zip(recent, game_summaries(recent), strict=True)
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
        # Hands disputed, waiting for the referee: the club's admins (issue 40.3).
        "disputes": list(open_disputes(Game.objects.filter(club_game__club=club)))
        if club_may(Action.RUN_CLUB, club, member)
        else [],
        # The club's imports and rebuilds not ended (issue 43).
        "running": of_club(club) if club_may(Action.RUN_CLUB, club, member) else [],
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
            rating_rules=data["rating_rules"],
            by=request.actor,
        )
        messages.success(request, gettext("The club's settings are saved."))
        return redirect("club", club=club.slug)
    context = {"form": form, "club": club}
    return render(request, "clubs/club_form.html", context, status=422 if form.errors else 200)


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
                    handicap_cup=data["handicap_cup"],
                    by=request.actor,
                ),
                lambda season: reverse("season", args=[club.slug, season.slug]),
            )
        except services.SeasonOverlaps as overlap:
            form.add_error(
                None,
                gettext("These days overlap those of the season %(name)s.")
                % {"name": isolate(overlap.other.name)},
            )
        except IntegrityError:  # the address is taken in this club
            form.add_error("slug", gettext("Another season of the club has this address."))
        else:
            if made.again:
                return made_before(request, made)
            messages.success(
                request, gettext("The season %(name)s is made.") % {"name": isolate(data["name"])}
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
                    owner_id=user_id_of(request),
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
