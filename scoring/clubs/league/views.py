"""A club's league: a season's standings (page, CSV, print page, PDF), a player's page, and
the club's records as JSON lines. Whoever may see the club may see these (Action.SEE_CLUB)."""

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action
from ...engine.league import standings_csv as csv_text
from ...engine.names import first_name_and_initial
from ...engine.trust import Listed
from ...infra.preview import preview_response
from ..access import club_may, may_name_in_public, with_club
from ..edits import moved_season
from ..embed import allow_frames, allow_origin
from ..forms import PublicNameForm
from ..models import Club, Member, Season
from ..names import sees_full_names
from ..pages.pdf import standings_pdf as pdf_of_standings
from ..pages.share import season_shared, share_context
from .handicap import cup_explained, season_cup
from .pages import (
    counted_games,
    headings,
    model_explained,
    player_stats,
    provisional_note,
    rating_explained,
    rating_lines,
    records_lines,
    standing_rows,
)
from .standings import (
    all_time_standings,
    provisional_games,
    ratings_of_lines,
    ratings_on,
    season_standings,
    season_winners,
)


def _ratings_context(
    club: Club, day: date, listed: tuple[list[Listed], list[Listed]]
) -> dict[str, Any]:
    """The club's ratings list on ``day``, the ranked players and the others apart, and what
    "?" says (league.md, "Ratings people trust")."""
    ranked, apart = listed
    rules = club.rating_rules
    return {
        "ratings_day": day,
        "ratings_ranked": rating_lines(ranked, rules),
        "ratings_apart": rating_lines(apart, rules),
        "rating_rules": rules,
        "provisional_note": provisional_note(rules),
    }


class SeasonMoved(Exception):
    """The season named in the address has another one now."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(slug)


def _seasons(club: Club, slug: str) -> tuple[Season, list[Season]]:
    """The season named in the address, and all the club's, newest first: one query. An
    address a season had before an admin changed it raises :class:`SeasonMoved`, to the
    one it has now (the club's history says which); any other is a 404."""
    seasons = list(Season.objects.filter(club=club))
    found = next((season for season in seasons if season.slug == slug), None)
    if found is None:
        moved = moved_season(club, slug)
        if moved is None:
            raise Http404
        raise SeasonMoved(moved)
    return found, seasons


SeasonView = Callable[[HtmxHttpRequest, Club, Member | None, str], HttpResponse]


def follows_season(view: SeasonView) -> SeasonView:
    """A season's page asked at an address it had before: redirected (302, as the old
    address may be given to another season later) to the same page at its new one."""

    @wraps(view)
    def wrapper(
        request: HtmxHttpRequest, club: Club, member: Member | None, season: str
    ) -> HttpResponse:
        try:
            return view(request, club, member, season)
        except SeasonMoved as moved:
            match = request.resolver_match
            if match is None or match.url_name is None:
                raise Http404 from None
            return redirect(match.url_name, club=club.slug, season=moved.slug)

    return wrapper


def _standings_page(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str, template: str
) -> HttpResponse:
    """The season's standings on screen, or on paper: the same figures."""
    found, seasons = _seasons(club, season)
    rows = standing_rows(club, season_standings(club, found, public=not sees_full_names(member)))
    context = {
        "club": club,
        "member": member,
        "season": found,
        "seasons": seasons,
        "rows": rows,
        "headings": headings(),
        "games": counted_games(rows),
        "provisional": provisional_games(club, found),
        "cup": season_cup(club, found, public=not sees_full_names(member))
        if found.handicap_cup
        else [],
        "cup_explained": cup_explained(found) if found.handicap_cup else "",
        "with_money": bool(club.stake),
        "rating_explained": rating_explained(),
        "provisional_note": provisional_note(club.rating_rules),
        "is_admin": club_may(Action.RUN_CLUB, club, member),
        "embed_url": request.build_absolute_uri(
            reverse("season_embed", args=[club.slug, found.slug])
        ),
    }
    if template == "clubs/season.html":
        day = min(timezone.localdate(), found.last_day)
        listed = ratings_on(club, day, public=not sees_full_names(member))
        context.update(_ratings_context(club, day, listed))
        shared, preview = season_shared(request, club, found, rows)
        image = reverse("season_preview", args=[club.slug, found.slug])
        context.update(share_context(request, club, shared, preview, image))
    return render(request, template, context)


@require_safe
@with_club(Action.SEE_CLUB)
@follows_season
def season(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    return _standings_page(request, club, member, season, "clubs/season.html")


@require_safe
@with_club(Action.SEE_CLUB)
@follows_season
def season_preview(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    """The season's standings as a preview image (1200x630 PNG), for whoever may see them."""
    found, _ = _seasons(club, season)
    rows = standing_rows(club, season_standings(club, found, public=not sees_full_names(member)))
    _, preview = season_shared(request, club, found, rows)
    return preview_response(request, "season", preview)


@require_safe
@with_club(Action.SEE_CLUB)
def all_time(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """Every counted game of the club in one table, and the seasons with their winners."""
    public = not sees_full_names(member)
    lines = all_time_standings(club, public=public)
    rows = standing_rows(club, lines)
    today = timezone.localdate()
    seasons = list(Season.objects.filter(club=club))
    winners = season_winners(club, seasons, public=public)
    context = {
        "club": club,
        "member": member,
        "rows": rows,
        "headings": headings(),
        "games": counted_games(rows),
        "with_money": bool(club.stake),
        "rating_explained": rating_explained(),
        "archive": [(season, winners[season.pk]) for season in seasons],
        # Every game counts up to today: the list is read from these standings.
        **_ratings_context(club, today, ratings_of_lines(club, lines, today)),
    }
    return render(request, "clubs/all_time.html", context)


@require_safe
@with_club(Action.SEE_CLUB)
@follows_season
def standings_csv(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    found, _ = _seasons(club, season)
    lines = season_standings(club, found, public=not sees_full_names(member))
    response = HttpResponse(
        csv_text(line.standing for line in lines), content_type="text/csv; charset=utf-8"
    )
    attachment(response, f"{club.slug}-{found.slug}-standings.csv")
    allow_origin(request, response, club)
    return response


@require_safe
@xframe_options_exempt
def season_embed(request: HtmxHttpRequest, club: str, season: str) -> HttpResponse:
    """The season's standings for a frame on the club's own website (clubs/embed.py): no
    script, the names as the public sees them, framed only by the origins the club lists.
    What anyone may see (a public club), else a 404, whoever asks: a frame is for the
    public."""
    found = get_object_or_404(Club, slug=club)
    if not club_may(Action.SEE_CLUB, found, None):
        raise Http404
    with timezone.override(found.time_zone):
        try:
            shown, _ = _seasons(found, season)
        except SeasonMoved as moved:
            return allow_frames(redirect("season_embed", club=found.slug, season=moved.slug), found)
        rows = standing_rows(found, season_standings(found, shown, public=True))
        context = {
            "club": found,
            "season": shown,
            "rows": rows,
            "cup": season_cup(found, shown, public=True) if shown.handicap_cup else [],
            "cup_explained": cup_explained(shown) if shown.handicap_cup else "",
            "headings": headings(),
            "games": counted_games(rows),
            "with_money": bool(found.stake),
            "rating_explained": rating_explained(),
            "provisional_note": provisional_note(found.rating_rules),
        }
        response = render(request, "clubs/season_embed.html", context)
    return allow_frames(response, found)


@require_safe
@with_club(Action.SEE_CLUB)
@follows_season
def standings_print(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    return _standings_page(request, club, member, season, "clubs/standings_print.html")


@require_safe
@with_club(Action.SEE_CLUB)
@follows_season
def standings_pdf(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    found, _ = _seasons(club, season)
    public = not sees_full_names(member)
    rows = standing_rows(club, season_standings(club, found, public=public))
    cup = season_cup(club, found, public=public) if found.handicap_cup else None
    response = HttpResponse(
        pdf_of_standings(club, found, rows, counted_games(rows), cup),
        content_type="application/pdf",
    )
    attachment(response, f"{club.slug}-{found.slug}-standings.pdf")
    return response


@require_safe
@with_club(Action.SEE_CLUB)
def player(
    request: HtmxHttpRequest, club: Club, member: Member | None, member_id: int
) -> HttpResponse:
    return player_page(request, club, member, get_object_or_404(Member, club=club, pk=member_id))


def player_page(
    request: HtmxHttpRequest,
    club: Club,
    member: Member | None,
    shown: Member,
    *,
    form: PublicNameForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """A player's page; with, for himself or an admin, how the public sees him."""
    may_choose = may_name_in_public(club, member, shown)
    if may_choose and form is None:
        choice = PublicNameForm.SHORT if shown.short_in_public else PublicNameForm.FULL
        form = PublicNameForm(initial={"shown": choice})
    context = {
        "club": club,
        "member": member,
        "player": shown,
        "stats": player_stats(club, shown, public=not sees_full_names(member)),
        "with_money": bool(club.stake),
        "rating_explained": rating_explained(),
        "model_explained": model_explained(),
        "provisional_note": provisional_note(club.rating_rules),
        "name_form": form if may_choose else None,
        "short_name": first_name_and_initial(shown.name),
    }
    return render(request, "clubs/player.html", context, status=status)


@require_safe
@with_club(Action.SEE_CLUB)
def records_jsonl(
    request: HtmxHttpRequest, club: Club, member: Member | None
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        records_lines(club, public=not sees_full_names(member)),
        content_type="application/jsonl; charset=utf-8",
    )
    attachment(response, f"{club.slug}-records.jsonl")
    return response
