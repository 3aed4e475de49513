"""An admin edits a season, a night or a club game's date (issue 19): each edit is its
form (deleting them is an admin action of views/actions.py). One service
call a write (scoring/clubs/edits.py); a refusal is said on the field, with a 422, and
nothing changes; each change done says so on the page it leads to."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ...common.words import isolate, say_moment
from ...table.face import Game, NotWon, Summary
from .. import edits, services
from ..access import with_club
from ..forms import GameDateForm, SeasonEditForm, address_taken_message
from ..league.standings import season_games, season_of
from ..models import Club, ClubGame, ClubResult, Member, Night, Round, Season
from ..nights.forms import NightEditForm, rounds_drawn_message


def _season(club: Club, slug: str) -> Season:
    return get_object_or_404(Season, club=club, slug=slug)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def edit_season(
    request: HtmxHttpRequest, club: Club, member: Member | None, season: str
) -> HttpResponse:
    """A season's name, address, days and league points; its games follow its days."""
    found = _season(club, season)
    others = list(Season.objects.filter(club=club).exclude(pk=found.pk))
    form = SeasonEditForm(
        request.POST if request.method == "POST" else None,
        initial=SeasonEditForm.initial_of(found),
        others=others,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = edits.edit_season(
                club=club,
                season_id=found.pk,
                name=data["name"],
                slug=data["slug"],
                first_day=data["first_day"],
                last_day=data["last_day"],
                points=data["league_points"],
                handicap_cup=data["handicap_cup"],
                by=request.actor,
            )
        except services.SeasonOverlaps as overlap:  # made or changed meanwhile
            form.refuse_overlap(overlap.other)
        except edits.AddressTaken:
            form.add_error("slug", address_taken_message())
        except Season.DoesNotExist:  # deleted meanwhile
            raise Http404 from None
        else:
            count = season_games(club, saved)
            messages.success(
                request,
                ngettext(
                    "The season %(name)s is saved: %(count)s game counts in it.",
                    "The season %(name)s is saved: %(count)s games count in it.",
                    count,
                )
                % {"name": isolate(saved.name), "count": count},
            )
            return redirect("season", club=club.slug, season=saved.slug)
    context = {"form": form, "club": club, "season": found}
    return render(
        request, "clubs/club_season_form.html", context, status=422 if form.errors else 200
    )


def _night(club: Club, night_id: int) -> Night:
    return get_object_or_404(Night, club=club, pk=night_id)


def _night_label(night: Night) -> str:
    return date_format(night.date, "DATE_FORMAT")


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def edit_night(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """A night's date, place and rounds planned: never fewer than it has drawn."""
    found = _night(club, night)
    drawn = Round.objects.filter(night=found).count()
    form = NightEditForm(
        request.POST if request.method == "POST" else None,
        initial={"date": found.date, "place": found.place, "rounds": found.rounds},
        drawn=drawn,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = edits.edit_night(
                club=club,
                night_id=found.pk,
                date=data["date"],
                place=data["place"],
                rounds=data["rounds"],
                by=request.actor,
            )
        except edits.RoundsDrawn as error:  # drawn meanwhile
            form.add_error("rounds", rounds_drawn_message(error.drawn))
        except Night.DoesNotExist:  # deleted meanwhile
            raise Http404 from None
        else:
            messages.success(
                request,
                gettext("The night of %(date)s is saved.") % {"date": _night_label(saved)},
            )
            return redirect("night", club=club.slug, night=saved.pk)
    context = {"form": form, "club": club, "night": found, "drawn": drawn}
    return render(request, "clubs/night_form.html", context, status=422 if form.errors else 200)


def _season_words(season: Season | None) -> str:
    return isolate(season.name) if season is not None else gettext("no season")


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.RUN_CLUB)
def game_date(
    request: HtmxHttpRequest, club: Club, member: Member | None, gid: str
) -> HttpResponse:
    """A won game's date, changed by an admin: the page first says which season the new date
    puts it in (a plain POST, ``previewed`` then the moment shown), then saves it when
    confirmed for that same moment (one service call, one line of the club's history)."""
    club_game = get_object_or_404(
        ClubGame.objects.select_related("game__summary"),
        club=club,
        game__public_id=gid,
        game__summary__status=Summary.Status.WON,
    )
    game = club_game.game
    current = game.finished_at or (
        ClubResult.objects.filter(game=game, seat=0).values_list("finished_at", flat=True).first()
    )
    form = GameDateForm(
        request.POST if request.method == "POST" else None,
        initial={"finished_at": current},
    )
    seasons = list(Season.objects.filter(club=club))
    now_in = season_of(seasons, current, club.time_zone) if current else None
    preview, previewed = "", ""
    if request.method == "POST" and form.is_valid():
        moment = form.cleaned_data["finished_at"]
        shown = form["finished_at"].value()
        if request.POST.get("confirm") and request.POST.get("previewed") == shown:
            try:
                edits.move_club_game(club=club, public_id=gid, finished_at=moment, by=request.actor)
            except (Game.DoesNotExist, NotWon):  # deleted, or no longer won, meanwhile
                raise Http404 from None
            messages.success(
                request,
                gettext("The game of %(players)s is dated %(moment)s, in %(season)s.")
                % {
                    "players": ", ".join(isolate(name) for name in game.summary.names),
                    "moment": say_moment(moment),
                    "season": _season_words(season_of(seasons, moment, club.time_zone)),
                },
            )
            return redirect("club_games", club=club.slug)
        moves_to = season_of(seasons, moment, club.time_zone)
        words = {"from": _season_words(now_in), "to": _season_words(moves_to)}
        if moves_to == now_in:
            preview = gettext("At this date it stays in %(to)s.") % words
        else:
            preview = gettext("At this date it moves from %(from)s to %(to)s.") % words
        previewed = str(shown)
    context = {
        "club": club,
        "game": game,
        "scores": list(zip(game.summary.names, game.summary.totals, strict=True)),
        "form": form,
        "now_in": _season_words(now_in),
        "preview": preview,
        "previewed": previewed,
    }
    return render(request, "clubs/game_date.html", context, status=422 if form.errors else 200)
