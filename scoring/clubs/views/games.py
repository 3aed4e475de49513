"""The club's games (issue 19): every one, newest first, filtered, a page at a time."""

from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest
from ...common.names import sorted_by_name
from ...common.rights import Action
from ...common.words import say_day
from ..access import club_may, with_club
from ..forms import GamesFilterForm
from ..models import Club, Member
from ..names import NAMED_COLUMNS, Named, sees_full_names, shown_names
from ..pages.games import dated, filtered, games_page


@require_safe
@with_club(Action.SEE_CLUB)
def club_games(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    seasons = list(club.seasons.all())
    members = [Named(*row) for row in club.members.order_by("pk").values_list(*NAMED_COLUMNS)]
    shown = shown_names(members, public=not sees_full_names(member))
    players = sorted_by_name(((one.pk, shown[one.key]) for one in members), lambda pair: pair[1])
    nights = [
        (
            night.pk,
            say_day(night.date) + (f" · {night.place}" if night.place else ""),
        )
        for night in club.nights.order_by("-date", "-pk")
    ]
    form = GamesFilterForm(
        request.GET or None,
        seasons=[(season.slug, season.name) for season in seasons],
        players=players,
        nights=nights,
    )
    valid = form.is_valid() if form.is_bound else True
    filters = form.cleaned_data if form.is_bound else {}
    games = filtered(club, dated(club), filters, seasons, shown)
    page = games_page(games, request.GET.get("page"), shown)
    kept = {name: value for name, value in request.GET.items() if name != "page" and value}
    context = {
        "club": club,
        "member": member,
        "form": form,
        "page": page,
        "can_score": club_may(Action.SCORE_CLUB, club, member),
        "is_admin": club_may(Action.RUN_CLUB, club, member),
        "query": urlencode(kept),
    }
    return render(request, "clubs/club_games.html", context, status=200 if valid else 422)
