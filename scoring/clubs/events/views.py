"""A club's events (issue 41): the list, an event's page, and the forms its organisers
(the club's admins: Action.ORGANISE_EVENT) send. Members see the club's events
(Action.SEE_CLUB), anyone a public one. Each form is a plain POST that calls one service
and leads back to the event's page; what was typed wrong is said beside it (422), a
refusal of the service on the page (409), and nothing changes."""

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec
from zoneinfo import ZoneInfo

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...common.words import isolate
from ..access import club_may, club_member, user_id_of, with_club
from ..forms import look_alike_message
from ..models import Club, Event, EventEntry, Member
from ..names import sees_full_names
from ..nights import services as nights
from ..services import NameLooksLike, NameTaken
from . import services
from .exports import prizes_csv
from .exports import ranking_pdf as ranking_pdf_bytes
from .forms import (
    DrawForm,
    EntryForm,
    EventCheckInForm,
    EventForm,
    NewEventForm,
    NightFields,
    PairForm,
    PublishForm,
    SettleForm,
    SwapForm,
)
from .pages import event_lines, event_page, events_of, ranking_csv
from .screen_views import screen_address

P = ParamSpec("P")

EventView = Callable[Concatenate[HtmxHttpRequest, Club, Member | None, Event, P], HttpResponseBase]


def with_event(need: Action) -> Callable[[EventView[P]], Callable[..., HttpResponseBase]]:
    """The club and its event named in the address (a 404 if none), and the request's member,
    who must be able to take ``need``; a public event shows (Action.SEE_CLUB) to anyone.
    Someone signed out who may not is asked to sign in. Runs in the club's time zone."""

    def decorator(view: EventView[P]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, club: str, event: int, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            found = get_object_or_404(Club, slug=club)
            shown = get_object_or_404(Event.objects.select_related("club"), club=found, pk=event)
            member = club_member(request, found)
            public = need is Action.SEE_CLUB and shown.public
            if not public and not club_may(need, found, member):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied
            with timezone.override(found.time_zone):
                return view(request, found, member, shown, *args, **kwargs)

        return wrapper

    return decorator


def _organiser(club: Club, member: Member | None) -> bool:
    return club_may(Action.ORGANISE_EVENT, club, member)


def _players(names: dict[int, str], ids: Any) -> list[tuple[int, str]]:
    return sorted(((one, names.get(one, "?")) for one in ids), key=lambda pair: pair[1].casefold())


def _page(
    request: HtmxHttpRequest,
    club: Club,
    member: Member | None,
    event: Event,
    *,
    bound: dict[str, Any] | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """The event's page; ``bound`` the form sent, drawn again with its errors."""
    organiser = _organiser(club, member)
    page = event_page(event, organiser=organiser, public=not sees_full_names(member))
    forms: dict[str, Any] = {}
    if organiser:
        entered = {entry.member_id for entry in page.entries}
        members = _active_members(club)
        active = [entry.member_id for entry in page.entries if entry.withdrawn_round is None]
        candidates = [
            (one, name) for one, name in page.names.items() if one not in entered and one in members
        ]
        forms = {
            "enter": EntryForm(players=sorted(candidates, key=lambda pair: pair[1].casefold())),
            "check_in": EventCheckInForm(
                players=_players(dict(page.names), active),
                initial={
                    "present": list(page.checked_in),
                    "night": page.next_night.pk if page.next_night else None,
                },
            ),
            "pair": PairForm(players=_players(dict(page.names), members)),
            "draw": DrawForm(initial={"number": page.next_number, "method": _method_offered(page)}),
            "night": NightFields(),
        }
        draft = page.draft
        if draft is not None:
            seated = [seat.member_id for table in draft.tables for seat in table.players]
            seated += [seat.member_id for seat in draft.sitting_out]
            forms["swap"] = SwapForm(
                players=_players(dict(page.names), seated),
                initial={"number": draft.round.number, "key": draft.key},
            )
            forms["redraw"] = DrawForm(
                initial={
                    "number": draft.round.number,
                    "method": draft.round.method,
                    "again": True,
                    "key": draft.key,
                }
            )
            forms["publish"] = PublishForm(initial={"number": draft.round.number, "key": draft.key})
        forms["settle"] = SettleForm()
        forms.update(bound or {})
    context = {
        "club": club,
        "member": member,
        "event": event,
        "page": page,
        "organiser": organiser,
        # A public event's players link to their pages for those who may see the club.
        "sees_club": club_may(Action.SEE_CLUB, club, member),
        "forms": forms,
        "notice": notice,
        "screen": screen_address(event, signed=organiser and not event.public),
    }
    return render(request, "clubs/event.html", context, status=status)


def _active_members(club: Club) -> set[int]:
    """The club's members not retired (who may be entered or paired)."""
    return set(
        Member.objects.filter(club=club, retired_at__isnull=True).values_list("pk", flat=True)
    )


def _method_offered(page: Any) -> str:
    """The first round is drawn at random; the others by Swiss, unless the organiser
    chooses."""
    return "random" if page.next_number == 1 else "swiss"


def _to(event: Event, anchor: str = "") -> HttpResponse:
    return redirect(reverse("event", args=[event.club.slug, event.pk]) + anchor)


def refused(error: Exception, names: dict[int, str] | None = None) -> str:
    """A service's refusal, as the event's page says it."""
    if isinstance(error, services.EventOver):
        return gettext("The event is over.")
    if isinstance(error, services.LateEntry):
        return gettext(
            "%(drawn)s of the %(planned)s rounds planned are drawn: entries closed once half "
            "of them were."
        ) % {"drawn": error.drawn, "planned": error.planned}
    if isinstance(error, services.Withdrawn):
        return gettext("%(name)s withdrew from the event: he cannot enter again.") % {
            "name": isolate(error.member.name)
        }
    if isinstance(error, services.RoundDrawnMeanwhile):
        return gettext(
            "Round %(number)s was just drawn, changed or published by another organiser: "
            "here it is as it is now."
        ) % {"number": error.number}
    if isinstance(error, services.DraftWaiting):
        return gettext(
            "Round %(number)s is drawn but not published: publish it, or draw it again."
        ) % {"number": error.number}
    if isinstance(error, services.RoundPlaying):
        return ngettext(
            "Round %(number)s is still playing at table %(tables)s: wait for it, or settle it.",
            "Round %(number)s is still playing at tables %(tables)s: wait for them, or settle "
            "them.",
            len(error.tables),
        ) % {"number": error.number, "tables": ", ".join(map(str, error.tables))}
    if isinstance(error, services.RoundDisputed):
        return ngettext(
            "%(count)s hand of the event is disputed: the next round is drawn once the "
            "referee has decided it.",
            "%(count)s hands of the event are disputed: the next round is drawn once the "
            "referee has decided them.",
            error.disputed,
        ) % {"count": error.disputed}
    if isinstance(error, services.NoNightLeft):
        return gettext(
            "Every night of the event has played its rounds: add a night to draw another."
        )
    if isinstance(error, services.TooFewEntrants):
        return ngettext(
            "%(count)s entrant is checked in: a table needs four.",
            "%(count)s entrants are checked in: a table needs four.",
            error.present,
        ) % {"count": error.present}
    if isinstance(error, services.CannotSeat):
        if error.names:
            return gettext(
                "Round %(number)s cannot be seated without putting %(first)s and %(second)s "
                "together, who are never seated together: nothing was drawn. Remove the pair, "
                "or check in other players."
            ) % {
                "number": error.number,
                "first": isolate(error.names[0]),
                "second": isolate(error.names[1]),
            }
        return gettext(
            "Round %(number)s cannot be seated with the pairs never seated together: nothing "
            "was drawn."
        ) % {"number": error.number}
    if isinstance(error, services.NotSeated):
        return gettext("That player is not in the round drawn.")
    if isinstance(error, services.TableFinished):
        return gettext("Table %(table)s of round %(number)s has finished: it counts as won.") % {
            "table": error.table,
            "number": error.number,
        }
    if isinstance(error, services.NoTable):
        return gettext("No such table in a published round.")
    if isinstance(error, services.FinalFinished):
        if error.kind == "consolation":
            return gettext("The consolation final has finished: it counts as won.")
        return gettext("The final has finished: it counts as won.")
    if isinstance(error, services.NoFinal):
        if error.reason == "none":
            return gettext("The event has no final.")
        if error.reason == "eligible":
            return ngettext(
                "%(count)s player may play the final: it needs four.",
                "%(count)s players may play the final: it needs four.",
                error.eligible,
            ) % {"count": error.eligible}
        if error.reason == "table":
            return gettext("No such final table.")
        return gettext("The final is drawn once every round planned has been played.")
    raise error


# The club's events.


@require_safe
@with_club(Action.SEE_CLUB)
def events(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    organiser = _organiser(club, member)
    context = {
        "club": club,
        "events": events_of(club),
        "organiser": organiser,
    }
    return render(request, "clubs/events.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.ORGANISE_EVENT)
def new_event(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """An event with its first night: the club's rules and scheme unless changed."""
    today = timezone.localdate(timezone=ZoneInfo(club.time_zone))
    form = NewEventForm(
        request.POST if request.method == "POST" else None,
        initial={**EventForm.initial_of_club(club), "date": today, "rounds": 3},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        made = make_once(
            data["once"],
            lambda: services.create_event(
                club=club,
                settings=form.settings(),
                rules=data["rules"],
                night=(data["date"], data["place"], data["rounds"]),
                by=request.actor,
            ),
            lambda event: reverse("event", args=[club.slug, event.pk]),
        )
        return made_before(request, made) if made.again else redirect(made.address)
    context = {"club": club, "form": form, "event": None}
    return render(request, "clubs/event_form.html", context, status=422 if form.errors else 200)


@require_safe
@with_event(Action.SEE_CLUB)
def event(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    return _page(request, club, member, event)


@require_http_methods(["GET", "HEAD", "POST"])
@with_event(Action.ORGANISE_EVENT)
def edit_event(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    form = EventForm(
        request.POST if request.method == "POST" else None, initial=EventForm.of_event(event)
    )
    if request.method == "POST" and form.is_valid():
        services.update_event(
            event_id=event.pk,
            settings=form.settings(),
            rules=form.cleaned_data["rules"],
            by=request.actor,
        )
        return _to(event)
    context = {"club": club, "form": form, "event": event}
    return render(request, "clubs/event_form.html", context, status=422 if form.errors else 200)


def _refusing(
    request: HtmxHttpRequest,
    club: Club,
    member: Member | None,
    event: Event,
    write: Callable[[], Any],
) -> HttpResponse | None:
    """``write()``, or the page saying its refusal (409)."""
    try:
        write()
    except services.REFUSALS as error:
        return _page(request, club, member, event, notice=refused(error), status=409)
    return None


@require_POST
@with_event(Action.ORGANISE_EVENT)
def add_night(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    form = NightFields(request.POST)
    if not form.is_valid():
        return _page(request, club, member, event, bound={"night": form}, status=422)
    data = form.cleaned_data
    already = event.nights.filter(date=data["date"], place=data["place"], rounds=data["rounds"])
    if already.exists():  # sent twice: the night is there
        return _to(event, "#nights")
    answer = _refusing(
        request,
        club,
        member,
        event,
        lambda: services.add_night(
            event_id=event.pk,
            date=data["date"],
            place=data["place"],
            rounds=data["rounds"],
            by=request.actor,
        ),
    )
    return answer or _to(event, "#nights")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def end_event(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    services.end_event(event_id=event.pk, by=request.actor)
    return _to(event, "#ranking")


# Entries and pairs.


@require_POST
@with_event(Action.ORGANISE_EVENT)
def enter(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    # Those entered already may be ticked again: the form sent twice enters them once.
    members = Member.objects.filter(club=club, retired_at__isnull=True)
    form = EntryForm(request.POST, players=list(members.values_list("pk", "name")))
    if not form.is_valid():
        return _page(request, club, member, event, bound={"enter": form}, status=422)
    try:
        services.enter(
            event_id=event.pk,
            member_ids=form.cleaned_data["present"],
            guests=form.cleaned_data["guests"],
            by=request.actor,
        )
    except NameLooksLike as alike:
        form.add_error("guests", look_alike_message(alike.name, alike.like))
        return _page(request, club, member, event, bound={"enter": form}, status=422)
    except NameTaken:
        notice = gettext("A player was just added under one of these names: enter them again.")
        return _page(request, club, member, event, notice=notice, status=409)
    except services.REFUSALS as error:
        return _page(request, club, member, event, notice=refused(error), status=409)
    return _to(event, "#entries")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def withdraw(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event, member_id: int
) -> HttpResponse:
    get_object_or_404(EventEntry, event=event, member_id=member_id)
    services.withdraw(event_id=event.pk, member_id=member_id, by=request.actor)
    return _to(event, "#entries")


def _too_many(error: nights.TooManyPlayers) -> str:
    return gettext(
        "A draw seats at most %(most)s players: %(count)s would be present. Check fewer in."
    ) % {"most": error.most, "count": error.present}


@require_POST
@with_event(Action.ORGANISE_EVENT)
def check_in(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    """Who of the entrants is present at the night of the next round."""
    entrants = list(
        EventEntry.objects.filter(event=event, withdrawn_round__isnull=True).values_list(
            "member_id", "member__name"
        )
    )
    form = EventCheckInForm(request.POST, players=entrants)
    if not form.is_valid():
        return _page(request, club, member, event, bound={"check_in": form}, status=422)
    night = get_object_or_404(event.nights, pk=form.cleaned_data["night"])
    try:
        # The entrants listed: the others (not entered, withdrawn) stay as they were.
        nights.check_in(
            night_id=night.pk,
            member_ids=form.cleaned_data["present"],
            guests=[],
            among=[member_id for member_id, _ in entrants],
        )
    except nights.TooManyPlayers as many:
        form.add_error("present", _too_many(many))
        return _page(request, club, member, event, bound={"check_in": form}, status=422)
    except nights.NightOver:
        notice = gettext("The night is over.")
        return _page(request, club, member, event, notice=notice, status=409)
    return _to(event, "#check-in")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def forbid_pair(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    members = Member.objects.filter(club=club, retired_at__isnull=True)
    form = PairForm(request.POST, players=list(members.values_list("pk", "name")))
    if not form.is_valid():
        return _page(request, club, member, event, bound={"pair": form}, status=422)
    data = form.cleaned_data
    services.forbid_pair(
        club=club,
        event_id=event.pk if data["scope"] == PairForm.EVENT else None,
        first_id=data["first"],
        second_id=data["second"],
        by=request.actor,
    )
    return _to(event, "#pairs")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def allow_pair(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event, pair: int
) -> HttpResponse:
    found = club.forbidden_pairs.filter(Q(event=event) | Q(event__isnull=True), pk=pair)
    if found.exists():
        services.allow_pair(club=club, pair_id=pair, by=request.actor)
    return _to(event, "#pairs")


# Rounds.


@require_POST
@with_event(Action.ORGANISE_EVENT)
def draw(request: HtmxHttpRequest, club: Club, member: Member | None, event: Event) -> HttpResponse:
    form = DrawForm(request.POST)
    name = "redraw" if request.POST.get("again") else "draw"
    if not form.is_valid():
        return _page(request, club, member, event, bound={name: form}, status=422)
    data = form.cleaned_data
    answer = _refusing(
        request,
        club,
        member,
        event,
        lambda: services.draw_round(
            event_id=event.pk,
            number=data["number"],
            method=data["method"],
            again=data["again"],
            key=data["key"],
            by=request.actor,
        ),
    )
    return answer or _to(event, "#draft")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def swap(request: HtmxHttpRequest, club: Club, member: Member | None, event: Event) -> HttpResponse:
    draft = event.rounds.filter(published_at__isnull=True).first()
    seated = (
        [one for table in draft.tables for one in table] + list(draft.sitting_out) if draft else []
    )
    names = dict(Member.objects.filter(pk__in=seated).values_list("pk", "name"))
    form = SwapForm(request.POST, players=list(names.items()))
    if not form.is_valid():
        return _page(request, club, member, event, bound={"swap": form}, status=422)
    data = form.cleaned_data
    try:
        services.swap(
            event_id=event.pk,
            number=data["number"],
            first_id=data["first"],
            second_id=data["second"],
            key=data["key"],
            by=request.actor,
        )
    except services.REFUSALS as error:
        return _page(request, club, member, event, notice=refused(error), status=409)
    # What it now seats that a draw would not (warned) is said on the draft, which lists it.
    return _to(event, "#draft")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def publish(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    form = PublishForm(request.POST)
    if not form.is_valid():
        return _page(request, club, member, event, bound={"publish": form}, status=422)
    data = form.cleaned_data
    answer = _refusing(
        request,
        club,
        member,
        event,
        lambda: services.publish(
            event_id=event.pk,
            number=data["number"],
            key=data["key"],
            owner_id=user_id_of(request),
            by=request.actor,
        ),
    )
    return answer or _to(event, "#rounds")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def settle(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    form = SettleForm(request.POST)
    if not form.is_valid():
        # A final's form says what is wrong in the final's section, a round's in the rounds'.
        name = "settle_final" if request.POST.get("final") else "settle"
        return _page(request, club, member, event, bound={name: form}, status=422)
    data = form.cleaned_data
    if data["final"]:
        answer = _refusing(
            request,
            club,
            member,
            event,
            lambda: services.settle_final(
                event_id=event.pk,
                kind=data["final"],
                totals=data["totals"],
                reason=data["reason"] or "",
                by=request.actor,
            ),
        )
        return answer or _to(event, "#final")
    answer = _refusing(
        request,
        club,
        member,
        event,
        lambda: services.settle_table(
            event_id=event.pk,
            number=data["number"],
            table=data["table"],
            totals=data["totals"],
            reason=data["reason"] or "",
            by=request.actor,
        ),
    )
    return answer or _to(event, "#rounds")


@require_POST
@with_event(Action.ORGANISE_EVENT)
def final(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    answer = _refusing(
        request,
        club,
        member,
        event,
        lambda: services.draw_final(
            event_id=event.pk, owner_id=user_id_of(request), by=request.actor
        ),
    )
    return answer or _to(event, "#final")


# Exports.


@require_safe
@with_event(Action.SEE_CLUB)
def ranking_file(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    """``ranking.csv``, as the contract's "Exports" says."""
    response = HttpResponse(
        ranking_csv(event, public=not sees_full_names(member)),
        content_type="text/csv; charset=utf-8",
    )
    attachment(response, f"{club.slug}-event-{event.pk}-ranking.csv")
    return response


@require_safe
@with_event(Action.SEE_CLUB)
def records_file(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> StreamingHttpResponse:
    """``event.jsonl``, as the contract's "Exports" says."""
    response = StreamingHttpResponse(
        event_lines(event, public=not sees_full_names(member)),
        content_type="application/jsonl; charset=utf-8",
    )
    attachment(response, f"{club.slug}-event-{event.pk}.jsonl")
    return response


@require_safe
@with_event(Action.SEE_CLUB)
def ranking_pdf(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    """The ranking with its prizes, to print (exports.py ``ranking_pdf``)."""
    response = HttpResponse(
        ranking_pdf_bytes(event, public=not sees_full_names(member)),
        content_type="application/pdf",
    )
    attachment(response, f"{club.slug}-event-{event.pk}-ranking.pdf")
    return response


@require_safe
@with_event(Action.SEE_CLUB)
def prizes_file(
    request: HtmxHttpRequest, club: Club, member: Member | None, event: Event
) -> HttpResponse:
    """``prizes.csv``: each place's prize (exports.py ``prizes_csv``)."""
    response = HttpResponse(
        prizes_csv(event, public=not sees_full_names(member)),
        content_type="text/csv; charset=utf-8",
    )
    attachment(response, f"{club.slug}-event-{event.pk}-prizes.csv")
    return response
