"""The club's admin actions that ask, then do, declared once (docs/architecture.md, "A new
admin action"): each says what it is about, the page that asks (what follows, and what
cannot be undone), the service it calls (which writes the history line in its own
transaction), what it says when done and where it leads. Who may take it is its line's in
the club's history (``CLUB_ACTIONS``, the policy's action). One view asks and does them
all, on one template, clubs/admin_action.html; their addresses follow, in
:data:`urlpatterns`."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from ...common.clock import day
from ...common.http import HtmxHttpRequest
from ...common.rights import Actor
from ...common.words import elide, isolate, number
from ...table.face import Summary
from .. import edits, privacy
from ..access import with_club
from ..events import services as events
from ..federation import services as federations
from ..history import CLUB_ACTIONS, label, lines
from ..league.standings import season_games
from ..members import care
from ..members.forms import AnonymiseForm
from ..members.views import members_page
from ..models import (
    Club,
    ClubChange,
    ClubGame,
    ClubResult,
    Event,
    Federation,
    FederationClub,
    Member,
    Night,
    Round,
    Season,
)
from ..nights import calendar


def said(text: str, **names: str | int) -> SafeString:
    """A translated sentence whose markup (``<bdi>``) is the catalogue's, its names escaped,
    as ``{% blocktranslate %}`` gives it."""
    return mark_safe(text % {key: conditional_escape(str(value)) for key, value in names.items()})


def paragraph(*sentences: str) -> SafeString:
    return format_html("<p>{}</p>", mark_safe(" ".join(conditional_escape(s) for s in sentences)))


def listed(*items: str) -> SafeString:
    return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((i,) for i in items)))


@dataclass(frozen=True)
class Asked:
    """What an action's page says before it is done."""

    title: str
    heading: str
    crumb: tuple[str, str] | None
    """A page between the club's and this one: its address and its words."""
    says: Sequence[str]
    """What follows, as safe HTML blocks."""
    button: str
    cancel: str
    """Where Cancel leads."""
    named: str = ""
    """Who the button acts on, said to a screen reader after its words."""
    undone: bool = False
    """It cannot be undone: said in a danger zone."""
    refusal: str = ""
    """Why it cannot be done (then no form): said instead of what follows."""
    instead: tuple[str, str] | None = None
    """What to do instead when refused: its address and its words."""


@dataclass(frozen=True)
class AdminAction:
    """An action an admin asks for, then does (a POST), on one thing of the club."""

    name: str
    """Its address's name."""
    route: str
    """Its address after ``clubs/<slug:club>/``."""
    kind: str
    """The kind of line its service writes in the club's history: who may take it."""
    find: Callable[..., Any]
    """The thing, from the club and the address's arguments; a 404 if there is none."""
    do: Callable[[Club, Any, Actor], Any]
    """The service call: its one transaction writes the history line."""
    done: Callable[[Any, Any], str]
    """What is said once done, from the thing and what the service returned."""
    leads: Callable[[Club, Any], str]
    """Where it leads once done."""
    ask: Callable[[Club, Any], Asked] | None
    """What its page says; None for a POST alone (a button of another page)."""
    form: Callable[[Any, QueryDict | None], forms.Form] | None = None
    """A form to fill in before it is done, beside what the page says."""
    refused: Mapping[
        type[Exception],
        Callable[[HtmxHttpRequest, "AdminAction", Club, Any, Exception], HttpResponse],
    ] = field(default_factory=dict)
    """The service's refusals, and the page each answers with (nothing changed)."""


def _ask_page(
    request: HtmxHttpRequest, action: AdminAction, club: Club, thing: Any, form: Any, status: int
) -> HttpResponse:
    assert action.ask is not None
    context = {"club": club, "asked": action.ask(club, thing), "form": form}
    return render(request, "clubs/admin_action.html", context, status=status)


def asked_again(
    request: HtmxHttpRequest, action: AdminAction, club: Club, thing: Any, error: Exception
) -> HttpResponse:
    """A refusal the ask page says (it asks again, now knowing why), with a 409."""
    return _ask_page(request, action, club, thing, None, 409)


def last_admin(
    request: HtmxHttpRequest, action: AdminAction, club: Club, thing: Any, error: Exception
) -> HttpResponse:
    """The club's only admin with an account: said on the members page, with a 409."""
    notice = gettext(
        "%(name)s is the club's only admin with an account: make another member an admin first."
    )
    return members_page(request, club, notice=notice % {"name": isolate(error.args[0])}, status=409)


def ask_then_do(action: AdminAction) -> Callable[..., Any]:
    """The view of an action: its page on a GET, done on a POST (once its form, if any, is
    filled in right)."""
    need = CLUB_ACTIONS[action.kind].who
    if need is None:
        raise ValueError(f"{action.kind}: an admin action needs the policy's action")

    def view(
        request: HtmxHttpRequest, club: Club, member: Member | None, /, **address: Any
    ) -> HttpResponse:
        thing = action.find(club, **address)
        posted = request.POST if request.method == "POST" else None
        form = action.form(thing, posted) if action.form else None
        if posted is not None and (form is None or form.is_valid()):
            try:
                result = action.do(club, thing, request.actor)
            except ObjectDoesNotExist:  # deleted meanwhile
                raise Http404 from None
            except tuple(action.refused) as refusal:
                return action.refused[type(refusal)](request, action, club, thing, refusal)
            messages.success(request, action.done(thing, result))
            return redirect(action.leads(club, thing))
        return _ask_page(request, action, club, thing, form, 422 if form and form.errors else 200)

    view.__name__ = view.__qualname__ = action.name
    methods = ["GET", "HEAD", "POST"] if action.ask else ["POST"]
    return require_http_methods(methods)(with_club(need)(view))


# The members (scoring/clubs/members/care.py, privacy.py): retired and back, deleted, anonymised.


def _player(club: Club, member_id: int) -> Member:
    return get_object_or_404(Member.objects.select_related("user"), club=club, pk=member_id)


def _members(club: Club, thing: Any = None) -> str:
    return reverse("club_members", args=[club.slug])


def _members_crumb(club: Club) -> tuple[str, str]:
    return _members(club), gettext("Members and invite")


def _retire_asked(club: Club, player: Member) -> Asked:
    games = care.games_of(club, player)
    kept = ngettext(
        "<bdi>%(name)s</bdi>'s %(counter)s game stays his, with its results, in the past "
        "standings and on his page.",
        "<bdi>%(name)s</bdi>'s %(counter)s games stay his, with their results, in the past "
        "standings and on his page.",
        games,
    )
    return Asked(
        title=said(gettext("%(name)s: retire a player"), name=isolate(club.name)),
        heading=said(gettext("Retire <bdi>%(name)s</bdi>?"), name=player.name),
        crumb=_members_crumb(club),
        says=[
            listed(
                elide(said(kept, name=player.name, counter=games), [player.name]),
                gettext(
                    "He leaves the club's lists of players, the names offered for a new game "
                    "and the nights' check-in."
                ),
                gettext("You may bring him back from the members page at any time."),
            )
        ],
        button=gettext("Retire"),
        named=player.name,
        cancel=_members(club),
    )


def _delete_member_asked(club: Club, player: Member) -> Asked:
    games, rounds = care.games_of(club, player), care.drawn_in(club, player)
    refusal = ""
    if games:
        refusal = ngettext(
            "<bdi>%(name)s</bdi> sat in %(counter)s of the club's games: he cannot be deleted, "
            "so that it keeps its players. Retire him instead.",
            "<bdi>%(name)s</bdi> sat in %(counter)s of the club's games: he cannot be deleted, "
            "so that they keep their players. Retire him instead.",
            games,
        )
    elif rounds:
        refusal = gettext(
            "<bdi>%(name)s</bdi> was drawn at a club night: he cannot be deleted, so that its "
            "rounds keep their players. Retire him instead."
        )
    never = gettext(
        "<bdi>%(name)s</bdi> never played a game of the club: he is no longer one of its "
        "players, and his account, if he has one, no longer its member. The club's history "
        "keeps his name."
    )
    retire = reverse("member_retire", args=[club.slug, player.pk])
    return Asked(
        title=said(gettext("%(name)s: delete a player"), name=isolate(club.name)),
        heading=said(gettext("Delete <bdi>%(name)s</bdi>?"), name=player.name),
        crumb=_members_crumb(club),
        says=[paragraph(said(never, name=player.name))],
        button=gettext("Delete"),
        named=player.name,
        cancel=_members(club),
        refusal=said(refusal, name=player.name, counter=games) if refusal else "",
        instead=(retire, gettext("Retire")),
    )


def _remove_asked(club: Club, player: Member) -> Asked:
    anonymous = privacy.anonymous_name(club)
    links = format_html(
        '<p class="links"><a href="{}" download>{}</a> · <a href="{}">{}</a></p>',
        reverse("member_data", args=[club.slug, player.pk]),
        gettext("Download this member's data"),
        reverse("member_retire", args=[club.slug, player.pk]),
        gettext("Retire him instead (his name stays)"),
    )
    return Asked(
        title=said(gettext("%(name)s: make a member anonymous"), name=isolate(club.name)),
        heading=said(gettext("Make <bdi>%(name)s</bdi> anonymous, for ever?"), name=player.name),
        crumb=_members_crumb(club),
        says=[
            paragraph(
                said(
                    gettext(
                        "At his request only: <bdi>%(name)s</bdi> is replaced by "
                        "<bdi>%(anonymous)s</bdi> in every game and record of the club, its "
                        "results and standings, for ever. Nobody can bring the name back, not "
                        "even an admin."
                    ),
                    name=player.name,
                    anonymous=anonymous,
                )
            ),
            paragraph(
                said(
                    gettext(
                        "His results stay, under <bdi>%(anonymous)s</bdi>, and so do the "
                        "ratings. His account, if he has one, is no longer his player."
                    ),
                    anonymous=anonymous,
                )
            ),
            links,
        ],
        button=gettext("Make anonymous for ever"),
        cancel=_members(club),
        undone=True,
    )


def _name_typed(player: Member, data: QueryDict | None) -> forms.Form:
    form = AnonymiseForm(data, expected=player.name)
    form.fields["name"].label = said(
        gettext("Type <bdi>%(name)s</bdi> to confirm"), name=player.name
    )
    return form


def _feed_key_asked(club: Club, player: Member) -> Asked:
    refusal = ""
    if player.user_id is None or player.retired_at is not None:
        refusal = said(
            gettext(
                "<bdi>%(name)s</bdi> has no calendar link: only the club's members with an "
                "account, not retired, have one."
            ),
            name=player.name,
        )
    return Asked(
        title=said(gettext("%(name)s: change a member's calendar link"), name=isolate(club.name)),
        heading=elide(
            said(gettext("Change <bdi>%(name)s</bdi>'s calendar link?"), name=player.name),
            [player.name],
        ),
        crumb=_members_crumb(club),
        says=[
            paragraph(
                said(
                    gettext(
                        "At his request: the address his calendar apps read the club's nights "
                        "from stops working at once, for him and for anyone he gave it to. The "
                        "club page then gives <bdi>%(name)s</bdi> a new one."
                    ),
                    name=player.name,
                )
            )
        ],
        button=gettext("Change the calendar link"),
        named=player.name,
        cancel=_members(club),
        refusal=refusal,
    )


# Seasons, nights and club games (scoring/clubs/edits.py).


def _season(club: Club, season: str) -> Season:
    return get_object_or_404(Season, club=club, slug=season)


def _season_asked(club: Club, season: Season) -> Asked:
    games = season_games(club, season)
    page = reverse("season", args=[club.slug, season.slug])
    stay = ngettext(
        "Its %(counter)s game stays: in the club's games, in the all-time standings and in the "
        "ratings, which do not change.",
        "Its %(counter)s games stay: in the club's games, in the all-time standings and in the "
        "ratings, which do not change.",
        games,
    )
    return Asked(
        title=said(
            gettext("%(name)s: delete %(season)s"),
            name=isolate(club.name),
            season=isolate(season.name),
        ),
        heading=said(gettext("Delete the season <bdi>%(name)s</bdi>?"), name=season.name),
        crumb=(page, season.name),
        says=[
            paragraph(
                said(
                    gettext(
                        "Its standings page, from %(first)s to %(last)s, goes with it, and its "
                        "standings.csv, printable page and PDF."
                    ),
                    first=day(season.first_day),
                    last=day(season.last_day),
                )
            ),
            paragraph(
                said(stay, counter=games), gettext("The club's history keeps the season as it was.")
            ),
        ],
        button=gettext("Delete the season"),
        cancel=page,
    )


def _night(club: Club, night: int) -> Night:
    return get_object_or_404(Night, club=club, pk=night)


def _night_of(night: Night) -> str:
    return said(gettext("Night of %(date)s"), date=day(night.date))


def _night_asked(club: Club, night: Night) -> Asked:
    games = ClubGame.objects.filter(round__night=night)
    rounds = Round.objects.filter(night=night).count()
    present = night.attendances.count()
    count = games.count()
    playing = games.filter(game__summary__status=Summary.Status.PLAYING).count()
    page = reverse("night", args=[club.slug, night.pk])
    going = [
        *(
            [
                said(
                    ngettext(
                        "its check-in (%(counter)s player);",
                        "its check-in (%(counter)s players);",
                        present,
                    ),
                    counter=present,
                )
            ]
            if present
            else []
        ),
        *(
            [
                said(
                    ngettext(
                        "its %(counter)s round drawn, with its table sheet;",
                        "its %(counter)s rounds drawn, with their table sheets;",
                        rounds,
                    ),
                    counter=rounds,
                )
            ]
            if rounds
            else []
        ),
        gettext("its table cards: their QR codes no longer score the tables' games;"),
        gettext("its ranking page, CSV and PDF."),
    ]
    stay = ngettext(
        "Its %(counter)s game stays in the club, as a club game of no night: in the club's "
        "games, the standings and the ratings, which do not change.",
        "Its %(counter)s games stay in the club, as club games of no night: in the club's "
        "games, the standings and the ratings, which do not change.",
        count,
    )
    still = ngettext(
        "%(counter)s is still playing: the club's scorers and admins may go on scoring it.",
        "%(counter)s are still playing: the club's scorers and admins may go on scoring them.",
        playing,
    )
    return Asked(
        title=said(
            gettext("%(name)s: delete the night of %(date)s"),
            name=isolate(club.name),
            date=day(night.date),
        ),
        heading=said(gettext("Delete the night of %(date)s?"), date=day(night.date)),
        crumb=(page, _night_of(night)),
        says=[
            paragraph(gettext("These go with it:")),
            listed(*going),
            paragraph(
                said(stay, counter=count),
                *([said(still, counter=playing)] if playing else []),
                gettext(
                    "To take a game out of the standings too, delete it from the club's games."
                ),
            ),
            paragraph(
                gettext(
                    "The club's history keeps the night as it was: who was checked in, each "
                    "round's tables, and its games."
                )
            ),
        ],
        button=gettext("Delete the night"),
        cancel=page,
    )


def _event(club: Club, event: int) -> Event:
    return get_object_or_404(Event, club=club, pk=event)


def _event_asked(club: Club, event: Event) -> Asked:
    page = reverse("event", args=[club.slug, event.pk])
    games = ClubGame.objects.filter(round__event_round__event=event).count()
    games += event.finals.exclude(game=None).count()
    entries = event.entries.count()
    rounds = event.rounds.count()
    going = [
        said(
            ngettext(
                "its %(counter)s entry, and its pairs never seated together;",
                "its %(counter)s entries, and its pairs never seated together;",
                entries,
            ),
            counter=entries,
        ),
        said(
            ngettext(
                "its %(counter)s round drawn, and its tables settled;",
                "its %(counter)s rounds drawn, and their tables settled;",
                rounds,
            ),
            counter=rounds,
        ),
        gettext("its ranking, prize list and final."),
    ]
    stay = ngettext(
        "Its %(counter)s game stays in the club, with its nights: in the club's games, the "
        "standings and the ratings, which do not change.",
        "Its %(counter)s games stay in the club, with its nights: in the club's games, the "
        "standings and the ratings, which do not change.",
        games,
    )
    return Asked(
        title=said(
            gettext("%(name)s: delete the event %(event)s"),
            name=isolate(club.name),
            event=isolate(event.name),
        ),
        heading=said(gettext("Delete the event %(event)s?"), event=isolate(event.name)),
        crumb=(page, event.name),
        says=[
            paragraph(gettext("These go with it:")),
            listed(*going),
            paragraph(
                said(stay, counter=games),
                gettext("The club's history keeps the event's settings and who entered it."),
            ),
        ],
        button=gettext("Delete the event"),
        cancel=page,
        undone=True,
    )


def _events(club: Club, thing: Any = None) -> str:
    return reverse("events", args=[club.slug])


def _club_game(club: Club, gid: str) -> ClubGame:
    return get_object_or_404(
        ClubGame.objects.select_related("game__summary", "round__night"),
        club=club,
        game__public_id=gid,
    )


def _games(club: Club, thing: Any = None) -> str:
    return reverse("club_games", args=[club.slug])


def _status(summary: Summary) -> str:
    if summary.status == Summary.Status.WON:
        return gettext("won")
    if summary.status == Summary.Status.ABANDONED:
        return gettext("abandoned")
    return gettext("playing")


def _game_asked(club: Club, club_game: ClubGame) -> Asked:
    summary = club_game.game.summary
    night = club_game.round.night if club_game.round else None
    counted = ClubResult.objects.filter(game=club_game.game_id)
    later = ClubResult.objects.filter(
        club=club, seat=0, position__gt=counted.values("position")[:1]
    ).count()
    facts = [
        _status(summary),
        said(
            ngettext("%(counter)s hand", "%(counter)s hands", summary.hands), counter=summary.hands
        ),
        *([_night_of(night)] if night else []),
        format_html(
            '<a href="{}">{}</a>',
            reverse("game", args=[club_game.game.public_id]),
            gettext("Score sheet"),
        ),
    ]
    if counted.exists():
        leaves = [
            said(
                ngettext(
                    "It leaves the standings (its season's and the all-time standings) and the "
                    "ratings, which are re-computed without it: the %(counter)s game counted "
                    "after it is re-rated.",
                    "It leaves the standings (its season's and the all-time standings) and the "
                    "ratings, which are re-computed without it: the %(counter)s games counted "
                    "after it are re-rated.",
                    later,
                ),
                counter=later,
            ),
            *([gettext("It leaves its night's ranking too.")] if night else []),
        ]
    else:
        leaves = [gettext("It counts in no standings: they and the ratings stay as they are.")]
    return Asked(
        title=said(gettext("%(name)s: delete a game"), name=isolate(club.name)),
        heading=gettext("Delete this game?"),
        crumb=(_games(club), gettext("Games")),
        says=[
            format_html(
                '<ul class="game-scores">{}</ul>',
                format_html_join(
                    "",
                    "<li><bdi>{}</bdi> <b>{}</b></li>",
                    # Each total read left to right on an Arabic page: -3, not 3-.
                    (
                        (name, number(total))
                        for name, total in zip(summary.names, summary.totals, strict=True)
                    ),
                ),
            ),
            format_html(
                '<p class="muted">{}</p>',
                mark_safe(" · ".join(conditional_escape(f) for f in facts)),
            ),
            paragraph(
                gettext("The game goes with its hands, its history and its scorer links."), *leaves
            ),
            paragraph(
                gettext(
                    "The club's history keeps its record (boulmous/1), as the club's "
                    "records.jsonl gives it."
                )
            ),
        ],
        button=gettext("Delete the game"),
        cancel=_games(club),
    )


def _game_deleted(club_game: ClubGame, result: Any) -> str:
    players = ", ".join(isolate(name) for name in club_game.game.summary.names)
    done = gettext(
        "The game of %(players)s is deleted: the standings and ratings are re-computed "
        "without it. The club's history keeps its record."
    )
    return elide(done % {"players": players}, [players])


def _club(club: Club, thing: Any = None) -> str:
    return reverse("club", args=[club.slug])


def _night_label(night: Night) -> str:
    return date_format(night.date, "DATE_FORMAT")


# The club's last change undone (scoring/clubs/members/care.py).


def _last_change(club: Club) -> ClubChange:
    last = care.last_change(club)
    if last is None:
        raise Http404
    return last


def _history(club: Club, thing: Any = None) -> str:
    return reverse("club_history", args=[club.slug])


def _undo_asked(club: Club, change: ClubChange) -> Asked:
    (shown,) = lines([change])
    line = said(
        gettext("<strong>%(what)s</strong>: <bdi>%(subject)s</bdi>"),
        what=shown.words,
        subject=shown.subject,
    )
    changed = [
        said(gettext("%(words)s: <bdi>%(value)s</bdi>"), words=one.words, value=one.after)
        if one.before is None
        else said(
            gettext("%(words)s: <bdi>%(before)s</bdi> → <bdi>%(after)s</bdi>"),
            words=one.words,
            before=one.before,
            after=one.after,
        )
        for one in shown.details
    ]
    refusal = ""
    if change.action not in care.UNDOABLE:
        refusal = gettext(
            "This change cannot be undone here: only a player's rename, role change, "
            "retirement or return can be, while it is the club's last change."
        )
    return Asked(
        title=said(gettext("%(name)s: undo the last change"), name=isolate(club.name)),
        heading=gettext("Undo the last change?"),
        crumb=(_history(club), gettext("The club's history")),
        says=[
            paragraph(line),
            *([listed(*changed)] if changed else []),
            paragraph(
                gettext(
                    "It is put back as it was before it, and the club's history keeps both lines."
                )
            ),
        ],
        button=gettext("Undo the change"),
        cancel=_history(club),
        refusal=refusal,
    )


# A federation left (scoring/clubs/federation/services.py).


def _federation(club: Club, federation: str) -> Federation:
    return get_object_or_404(Federation, slug=federation)


def _federations(club: Club, thing: Any = None) -> str:
    return reverse("club_federations", args=[club.slug])


def _leave_asked(club: Club, federation: Federation) -> Asked:
    member = FederationClub.objects.filter(
        federation=federation, club=club, joined_at__isnull=False, left_at__isnull=True
    ).exists()
    refusal = ""
    if not member:
        refusal = said(
            gettext(
                "The club is no member of <bdi>%(federation)s</bdi>: there is nothing to leave."
            ),
            federation=federation.name,
        )
    return Asked(
        title=said(gettext("%(name)s: leave a federation"), name=isolate(club.name)),
        heading=said(gettext("Leave the federation <bdi>%(name)s</bdi>?"), name=federation.name),
        crumb=(_federations(club), gettext("Federations")),
        says=[
            paragraph(
                gettext(
                    "The club's nights, past and to come, no longer count in the federation's "
                    "ranking: its players leave it, unless they play in another of its clubs."
                ),
                gettext(
                    "The club's own standings and ratings do not change. The federation's "
                    "admin may invite the club again."
                ),
            )
        ],
        button=gettext("Leave the federation"),
        named=federation.name,
        cancel=_federations(club),
        refusal=refusal,
    )


def left_already(
    request: HtmxHttpRequest, action: AdminAction, club: Club, thing: Any, error: Exception
) -> HttpResponse:
    """The club is no member (it left already: the form sent twice): nothing changes, and
    the club's Federations page says so."""
    messages.info(request, gettext("The club is no member of this federation."))
    return redirect(_federations(club))


DECLARED: Sequence[AdminAction] = (
    AdminAction(
        name="member_retire",
        route="members/<int:member_id>/retire",
        kind="member_retired",
        find=_player,
        do=lambda club, player, by: care.retire_member(club=club, member_id=player.pk, by=by),
        done=lambda player, retired: (
            gettext("%(name)s is retired: his games and results stay his.")
            % {"name": isolate(retired.name)}
        ),
        leads=_members,
        ask=_retire_asked,
        refused={care.LastAdmin: last_admin},
    ),
    AdminAction(
        name="member_return",
        route="members/<int:member_id>/return",
        kind="member_returned",
        find=_player,
        do=lambda club, player, by: care.bring_back(club=club, member_id=player.pk, by=by),
        done=lambda player, back: (
            gettext("%(name)s is back among the club's players.") % {"name": isolate(back.name)}
        ),
        leads=_members,
        ask=None,
    ),
    AdminAction(
        name="member_delete",
        route="members/<int:member_id>/delete",
        kind="member_removed",
        find=_player,
        do=lambda club, player, by: care.delete_member(club=club, member_id=player.pk, by=by),
        done=lambda player, gone: (
            gettext("%(name)s is deleted from the club.") % {"name": isolate(player.name)}
        ),
        leads=_members,
        ask=_delete_member_asked,
        refused={care.HasGames: asked_again, care.LastAdmin: last_admin},
    ),
    AdminAction(
        name="member_remove",
        route="members/<int:member_id>/remove",
        kind="member_anonymised",
        find=lambda club, member_id: get_object_or_404(Member, club=club, pk=member_id),
        do=lambda club, player, by: privacy.remove_member(club=club, member_id=player.pk, by=by),
        done=lambda player, removed: (
            gettext("%(name)s is now %(anonymous)s, for ever: his results stay under that name.")
            % {"name": isolate(player.name), "anonymous": isolate(removed.name)}
        ),
        leads=_members,
        ask=_remove_asked,
        form=_name_typed,
        refused={privacy.LastAdmin: last_admin},
    ),
    AdminAction(
        name="member_feed_key",
        route="members/<int:member_id>/calendar-key",
        kind="feed_key_changed",
        find=_player,
        do=lambda club, player, by: calendar.change_feed_key(club=club, member_id=player.pk, by=by),
        done=lambda player, changed: (
            gettext(
                "%(name)s's calendar link is changed: the old address no longer reads the "
                "club's nights."
            )
            % {"name": isolate(changed.name)}
        ),
        leads=_members,
        ask=_feed_key_asked,
        refused={calendar.NoFeedKey: asked_again},
    ),
    AdminAction(
        name="season_delete",
        route="seasons/<slug:season>/delete",
        kind="season_deleted",
        find=_season,
        do=lambda club, season, by: edits.delete_season(club=club, season_id=season.pk, by=by),
        done=lambda season, result: (
            gettext(
                "The season %(name)s is deleted. Its games stay in the club and in the all-time "
                "standings."
            )
            % {"name": isolate(season.name)}
        ),
        leads=_club,
        ask=_season_asked,
    ),
    AdminAction(
        name="night_delete",
        route="nights/<int:night>/delete",
        kind="night_deleted",
        find=_night,
        do=lambda club, night, by: edits.delete_night(club=club, night_id=night.pk, by=by),
        done=lambda night, result: (
            gettext("The night of %(date)s is deleted. Its games stay in the club.")
            % {"date": _night_label(night)}
        ),
        leads=_club,
        ask=_night_asked,
    ),
    AdminAction(
        name="event_delete",
        route="events/<int:event>/delete",
        kind="event_deleted",
        find=_event,
        do=lambda club, event, by: events.delete_event(event_id=event.pk, by=by),
        done=lambda event, result: (
            gettext("The event %(name)s is deleted. Its games stay in the club.")
            % {"name": isolate(event.name)}
        ),
        leads=_events,
        ask=_event_asked,
    ),
    AdminAction(
        name="club_game_delete",
        route="games/<slug:gid>/delete",
        kind="game_deleted",
        find=_club_game,
        do=lambda club, club_game, by: edits.delete_club_game(
            club=club, public_id=club_game.game.public_id, by=by
        ),
        done=_game_deleted,
        leads=_games,
        ask=_game_asked,
    ),
    AdminAction(
        name="club_undo",
        route="history/undo",
        kind="change_undone",
        find=_last_change,
        do=lambda club, change, by: care.undo_last_change(club=club, change_id=change.pk, by=by),
        done=lambda change, member: (
            gettext("The last change is undone (%(what)s): %(name)s is as he was before it.")
            % {"what": label(change.action), "name": isolate(member.name)}
        ),
        leads=_history,
        ask=_undo_asked,
        refused={care.NotUndoable: asked_again, care.LastAdmin: last_admin},
    ),
    AdminAction(
        name="club_federation_leave",
        route="federations/<slug:federation>/leave",
        kind="federation_left",
        find=_federation,
        do=lambda club, federation, by: federations.leave_federation(
            club=club, federation=federation, by=by
        ),
        done=lambda federation, row: (
            gettext("The club left %(federation)s: its nights no longer count in its ranking.")
            % {"federation": isolate(federation.name)}
        ),
        leads=_federations,
        ask=_leave_asked,
        refused={federations.FederationRefused: left_already},
    ),
)
"""Every admin action that asks, then does."""

ACTIONS: dict[str, AdminAction] = {action.name: action for action in DECLARED}

urlpatterns: list[URLPattern] = [
    path(f"clubs/<slug:club>/{action.route}", ask_then_do(action), name=action.name)
    for action in DECLARED
]
"""Their addresses, in the club's URL conf."""
