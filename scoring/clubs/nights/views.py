"""A club night (issue 12): check-in, rounds drawn to tables, the organiser's live view, the
table sheet and cards, and the night's ranking.

The organiser is a scorer or an admin of the club (Action.SCORE_CLUB); members may watch the night
page (Action.SEE_CLUB). Each view reads a form or calls one service, then redirects to the night; a
service that refuses (a round still playing, the night over, too few players) is said on
the night page with a 409.
"""

import hashlib
import json
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Count, Max, QuerySet, Subquery, Sum
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...common.words import isolate
from ...engine.league import standings_csv as csv_text
from ...infra.etags import etag, unchanged
from ...infra.preview import preview_response
from ...infra.qr import qr_code
from ...infra.throttles import NIGHT_CREATE, NIGHTS_PAUSED, refused_for, too_many
from ...table.face import Summary
from ..access import club_may, user_id_of, with_club
from ..forms import look_alike_message
from ..league.pages import counted_games, standing_rows
from ..league.standings import night_standings
from ..models import Attendance, Club, EventRound, Member, Night, Round
from ..names import sees_full_names
from ..pages.pdf import night_pdf
from ..pages.share import night_shared, share_context
from ..services import NameLooksLike, NameTaken
from . import services
from .forms import CheckInForm, NewNightForm
from .pages import NightState, club_names, night_money, night_state, round_state, season_of_night


def _organiser(club: Club, member: Member | None) -> bool:
    return club_may(Action.SCORE_CLUB, club, member)


def _night(club: Club, night_id: int) -> Night:
    return get_object_or_404(Night.objects.select_related("club"), club=club, pk=night_id)


def _round(night: Night, number: int) -> Round:
    return get_object_or_404(Round, night=night, number=number)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SCORE_CLUB)
def new_night(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A night: today (in the club's time zone) unless said otherwise, a place, and rounds."""
    today = timezone.localdate(timezone=ZoneInfo(club.time_zone))
    form = NewNightForm(request.POST or None, initial={"date": today})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # Counted per club, not per address: a scorer making nights by the dozen fills the
        # club's history and calendar (docs/deploy.md, "Throttles").
        if seconds := refused_for(NIGHT_CREATE, request, lambda group, request: str(club.pk)):
            return too_many(request, NIGHTS_PAUSED, seconds)
        made = make_once(
            data["once"],
            lambda: services.create_night(
                club=club,
                date=data["date"],
                place=data["place"],
                rounds=data["rounds"],
                by=request.actor,
            ),
            lambda night: reverse("night", args=[club.slug, night.pk]),
        )
        return made_before(request, made) if made.again else redirect(made.address)
    context = {"form": form, "club": club}
    return render(request, "clubs/night_form.html", context, status=422 if form.errors else 200)


def _night_page(
    request: HtmxHttpRequest,
    club: Club,
    member: Member | None,
    night: Night,
    *,
    form: CheckInForm | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """The organiser's page, or, asked by htmx, its live tables alone: a 204 with nothing
    when the tables are as the page shows them (their version, sent as If-None-Match)."""
    organiser = _organiser(club, member)
    tables = bool(request.htmx and not request.htmx.boosted)
    # Read before the night's state: a change made meanwhile is drawn under the older
    # version, and sent again at the next ask, rather than never. The whole page goes
    # without (its query budget): its first ask gets the tables and their version.
    version = _tables_version(night, organiser) if tables else ""
    if tables and status == 200 and unchanged(request.META.get("HTTP_IF_NONE_MATCH", ""), version):
        # htmx swaps nothing on a 204; a 304 would be swapped in as an empty answer.
        unchanged_response = HttpResponse(status=204)
        unchanged_response["ETag"] = etag(version)
        patch_vary_headers(unchanged_response, ["HX-Request"])
        return unchanged_response
    state = night_state(night, public=not sees_full_names(member))
    if form is None and organiser:
        form = _check_in_form(state)
    present, present_counts = _present_counts(state, form if organiser else None)
    context: dict[str, Any] = {
        "club": club,
        "member": member,
        "night": night,
        "state": state,
        "organiser": organiser,
        "is_admin": not tables and club_may(Action.RUN_CLUB, club, member),
        "form": form,
        "notice": notice,
        "version": version,
        "present": present,
        "present_counts": present_counts,
    }
    template = "clubs/night.html"
    if tables:
        template += "#tables"
    response = render(request, template, context, status=status)
    if tables:
        response["ETag"] = etag(version)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _tables_version(night: Night, organiser: bool) -> str:
    """What the live tables show, in one query of counts, never scoring a game: the rounds
    drawn and closed, the players present, and the night's games (their hands, how many
    still play, their summaries' last change, which every change of a game writes)."""
    games = Summary.objects.filter(game__club_game__round__night=night).order_by()
    rounds = Round.objects.filter(night=night).order_by()
    present = Attendance.objects.filter(night=night, present=True).order_by()

    def one(queryset: QuerySet[Any], value: Any) -> Subquery:
        return Subquery(queryset.annotate(value=value).values("value")[:1])

    facts = list(
        Night.objects.filter(pk=night.pk).values_list(
            one(rounds.values("night"), Count("pk")),
            one(rounds.values("night"), Count("closed_at")),
            one(present.values("night"), Count("pk")),
            one(games.values("game__club_game__round__night"), Count("pk")),
            one(
                games.filter(status=Summary.Status.PLAYING).values("game__club_game__round__night"),
                Count("pk"),
            ),
            one(games.values("game__club_game__round__night"), Sum("hands")),
            one(games.values("game__club_game__round__night"), Max("changed_at")),
        )
    )
    seen = (facts, night.ended_at, organiser)
    return hashlib.blake2b(repr(seen).encode(), digest_size=8).hexdigest()


def _present_count(count: int) -> str:
    return ngettext("%(counter)s present", "%(counter)s present", count) % {"counter": count}


def _present_counts(state: NightState, form: CheckInForm | None) -> tuple[str, str]:
    """The check-in's count as the page draws it (the players ticked in the form, as sent
    or as saved), and, for the organiser's form, its words for every count it may reach, in
    JSON: static/js/table.js says the count again at each tap, in the page's language."""
    if form is None:
        return _present_count(state.present), ""
    ticked = form["present"].value() or []
    choices = len(form["present"].subwidgets)
    words = [_present_count(count) for count in range(choices + 1)]
    return _present_count(len(ticked)), json.dumps(words, ensure_ascii=False)


def _check_in_form(state: NightState, data: Any = None) -> CheckInForm:
    players = [
        (player.member_id, gettext("%(name)s (guest)") % {"name": isolate(player.name)})
        if player.guest
        else (player.member_id, player.name)
        for player in state.players
    ]
    initial = {"present": [player.member_id for player in state.players if player.present]}
    return CheckInForm(data, players=players, initial=initial)


@require_safe
@with_club(Action.SEE_CLUB)
def night(request: HtmxHttpRequest, club: Club, member: Member | None, night: int) -> HttpResponse:
    return _night_page(request, club, member, _night(club, night))


@require_POST
@with_club(Action.SCORE_CLUB)
def check_in(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """Who is present now: counts at the next draw."""
    found = _night(club, night)

    def over() -> HttpResponse:
        notice = gettext("The night is over.")
        return _night_page(request, club, member, found, notice=notice, status=409)

    if found.ended_at is not None:
        return over()
    form = _check_in_form(night_state(found), request.POST)
    if not form.is_valid():
        return _night_page(request, club, member, found, form=form, status=422)
    try:
        services.check_in(
            night_id=found.pk,
            member_ids=form.cleaned_data["present"],
            guests=form.cleaned_data["guests"],
        )
    except services.NightOver:  # ended meanwhile
        return over()
    except NameTaken:  # a player of this name was added meanwhile: once more
        notice = gettext("A player was just added under one of these names: check in again.")
        return _night_page(request, club, member, found, notice=notice, status=409)
    except services.TooManyPlayers as many:  # said where they were typed, or ticked
        form.add_error("guests" if form.cleaned_data["guests"] else "present", _too_many(many))
        return _night_page(request, club, member, found, form=form, status=422)
    except NameLooksLike as alike:
        form.add_error("guests", look_alike_message(alike.name, alike.like))
        return _night_page(request, club, member, found, form=form, status=422)
    return redirect(reverse("night", args=[club.slug, found.pk]) + "#check-in")


def _too_many(error: services.TooManyPlayers) -> str:
    return gettext(
        "A draw seats at most %(most)s players: %(count)s would be present. Check fewer in."
    ) % {"most": error.most, "count": error.present}


def _refused(error: Exception) -> str:
    """A service's refusal, as the night page says it."""
    if isinstance(error, services.RoundPlaying):
        return ngettext(
            "Round %(number)s is still playing at %(count)s table: wait for it to finish, "
            "or close the round.",
            "Round %(number)s is still playing at %(count)s tables: wait for them to finish, "
            "or close the round.",
            error.playing,
        ) % {"number": error.round.number, "count": error.playing}
    if isinstance(error, services.RoundDisputed):
        return ngettext(
            "%(count)s hand of this night is disputed: the next round is drawn once the "
            "referee has decided it.",
            "%(count)s hands of this night are disputed: the next round is drawn once the "
            "referee has decided them.",
            error.disputed,
        ) % {"count": error.disputed}
    if isinstance(error, services.TooManyPlayers):
        return gettext(
            "A draw seats at most %(most)s players: %(count)s are present. Check some out first."
        ) % {"most": error.most, "count": error.present}
    if isinstance(error, services.TooFewPlayers):
        return ngettext(
            "%(count)s player is present: a table needs four. Check in the players first.",
            "%(count)s players are present: a table needs four. Check in the players first.",
            error.present,
        ) % {"count": error.present}
    if isinstance(error, services.EventNight):
        return gettext("This night is an event’s: its rounds are drawn on the event’s page.")
    return gettext("The night is over: no more rounds.")


@require_POST
@with_club(Action.SCORE_CLUB)
def draw(request: HtmxHttpRequest, club: Club, member: Member | None, night: int) -> HttpResponse:
    """The next round: the players present drawn to tables, each table's game started."""
    found = _night(club, night)
    try:
        services.draw_round(
            night_id=found.pk,
            owner_id=user_id_of(request),
            by=request.actor,
        )
    except (
        services.RoundPlaying,
        services.RoundDisputed,
        services.NightOver,
        services.TooFewPlayers,
        services.TooManyPlayers,
        services.EventNight,
    ) as error:
        return _night_page(request, club, member, found, notice=_refused(error), status=409)
    return redirect(reverse("night", args=[club.slug, found.pk]) + "#tables")


def _abandoning(
    request: HtmxHttpRequest, club: Club, night: Night, *, ending: bool
) -> HttpResponse | None:
    """The question asked before tables still playing are recorded as abandoned, naming
    them; None once asked (the form posts ``confirm``) or when no table would be. A GET
    asks it too, as do the night page's buttons while tables play."""
    if request.method == "POST" and request.POST.get("confirm"):
        return None
    current = night_state(night).current
    playing = [table for table in current.tables if table.playing] if current else []
    if request.method == "POST" and not playing:
        return None
    context = {"club": club, "night": night, "ending": ending, "playing": playing}
    return render(request, "clubs/night_confirm.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SCORE_CLUB)
def close(request: HtmxHttpRequest, club: Club, member: Member | None, night: int) -> HttpResponse:
    """The round is closed now: its tables still playing are recorded as abandoned, once
    the organiser has seen which."""
    found = _night(club, night)
    if asked := _abandoning(request, club, found, ending=False):
        return asked
    services.close_round(night_id=found.pk, by=request.actor)
    return redirect(reverse("night", args=[club.slug, found.pk]) + "#tables")


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SCORE_CLUB)
def end(request: HtmxHttpRequest, club: Club, member: Member | None, night: int) -> HttpResponse:
    """The night is over: its last round closed, as :func:`close` does. With tables still
    playing the organiser chooses: wait for them (the night goes on, and the page says which
    tables still play), or settle them as they stand, counted nowhere, and end it."""
    found = _night(club, night)
    if request.method == "POST" and request.POST.get("choice") == "wait":
        return _night_page(request, club, member, found, notice=_still_playing(found))
    if asked := _abandoning(request, club, found, ending=True):
        return asked
    services.end_night(night_id=found.pk, by=request.actor)
    return redirect("night_ranking", club=club.slug, night=found.pk)


def _still_playing(night: Night) -> str:
    """Which tables of the night still play, said to an organiser who chose to wait."""
    current = night_state(night).current
    playing = [str(table.number) for table in current.tables if table.playing] if current else []
    if not playing:
        return gettext("No table is still playing: the night may end.")
    return ngettext(
        "The night goes on: table %(tables)s still plays.",
        "The night goes on: tables %(tables)s still play.",
        len(playing),
    ) % {"tables": ", ".join(playing)}


@require_POST
@with_club(Action.RUN_CLUB)
def reopen(request: HtmxHttpRequest, club: Club, member: Member | None, night: int) -> HttpResponse:
    """An admin reopens a night that ended, to correct its games: they score again, and its
    mail goes out again, as a correction, when it ends again."""
    found = _night(club, night)
    services.reopen_night(night_id=found.pk, by=request.actor)
    return redirect("night", club=club.slug, night=found.pk)


@require_safe
@with_club(Action.SEE_CLUB)
def sheet(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int, number: int
) -> HttpResponse:
    """The round's table sheet, to print: each table's players by seat, who sits out."""
    found = _night(club, night)
    names, shown = club_names(found, public=not sees_full_names(member))
    drawn = round_state(_round(found, number), names, shown=shown)
    context = {"club": club, "night": found, "round": drawn, **_event_of(found, drawn.round)}
    return render(request, "clubs/night_sheet.html", context)


def _event_of(night: Night, drawn: Round) -> dict[str, Any]:
    """For a night of an event (issue 41): the event, and the round's number in it (one
    query); nothing for another night."""
    if night.event_id is None:
        return {}
    row = (
        EventRound.objects.filter(round=drawn)
        .select_related("event")
        .only("number", "event__name")
        .first()
    )
    return {} if row is None else {"event": row.event, "event_round": row.number}


@require_safe
@with_club(Action.SCORE_CLUB)
def cards(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int, number: int
) -> HttpResponse:
    """A card per table, to cut out: its players, and the QR code of its scorer link, which
    hands the scoring of that table's game, and no other, to the phone that opens it."""
    found = _night(club, night)
    drawn = round_state(_round(found, number), {}, with_links=True)
    title = gettext("Scorer link")
    tables = []
    for table in drawn.tables:
        url, qr = "", None
        if table.link is not None:
            url = request.build_absolute_uri(
                reverse("join", args=[table.public_id, table.link.secret])
            )
            qr = qr_code(url, title)
        tables.append((table, url, qr))
    context = {
        "club": club,
        "night": found,
        "round": drawn,
        "tables": tables,
        **_event_of(found, drawn.round),
    }
    response = render(request, "clubs/night_cards.html", context)
    response["Cache-Control"] = "private, no-store"  # the cards carry scorer rights
    return response


@require_safe
@with_club(Action.SEE_CLUB)
def ranking(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """The night's ranking: league points by the club's scheme, then wins, then points."""
    found = _night(club, night)
    public = not sees_full_names(member)
    rows = standing_rows(club, night_standings(found, public=public))
    context = {
        "club": club,
        "night": found,
        "rows": rows,
        "games": counted_games(rows),
        "season": season_of_night(found),
        "money": night_money(club, found, public=public),
        # Said to whoever ended it: no member waits for a mail that will not come.
        # (rows come from counted games only, as mail.mailed asks).
        "unmailed": found.ended_at is not None and not rows,
    }
    shared, preview = night_shared(request, club, found, rows)
    image = reverse("night_preview", args=[club.slug, found.pk])
    context.update(share_context(request, club, shared, preview, image))
    return render(request, "clubs/night_ranking.html", context)


@require_safe
@with_club(Action.SEE_CLUB)
def ranking_preview(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """The night's ranking as a preview image (1200x630 PNG), for whoever may see it."""
    found = _night(club, night)
    rows = standing_rows(club, night_standings(found, public=not sees_full_names(member)))
    _, preview = night_shared(request, club, found, rows)
    return preview_response(request, "night", preview)


@require_safe
@with_club(Action.SEE_CLUB)
def ranking_csv(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    """The night's ranking in standings.csv's columns (league.md), ranked by the night."""
    found = _night(club, night)
    lines = night_standings(found, public=not sees_full_names(member))
    response = HttpResponse(
        csv_text(line.standing for line in lines), content_type="text/csv; charset=utf-8"
    )
    attachment(response, f"{club.slug}-night-{found.date.isoformat()}.csv")
    return response


@require_safe
@with_club(Action.SEE_CLUB)
def ranking_pdf(
    request: HtmxHttpRequest, club: Club, member: Member | None, night: int
) -> HttpResponse:
    found = _night(club, night)
    public = not sees_full_names(member)
    rows = standing_rows(club, night_standings(found, public=public))
    response = HttpResponse(
        night_pdf(club, found, rows, counted_games(rows), night_money(club, found, public=public)),
        content_type="application/pdf",
    )
    attachment(response, f"{club.slug}-night-{found.date.isoformat()}.pdf")
    return response
