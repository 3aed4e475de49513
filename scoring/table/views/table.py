"""At the table: games and their hands. Each view reads a form, calls one service, and
draws the page from the state the service returns."""

import uuid
from dataclasses import replace
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import retarget

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.once import made_before, make_once
from ...common.rights import FOR_OWNER, STARTED, Action, Actor
from ...common.words import shown
from ...engine import Confirmation, Trump, trump_order
from ...infra.pagecache import (
    CSRF_PLACEHOLDER,
    TOKEN_PLACEHOLDER,
    cacheable,
    cached_page,
    page_key,
)
from ...infra.throttles import WAITING_HANDS, throttled
from .. import services, waiting, writes
from ..access import (
    Access,
    forbidden,
    held_seat,
    load_shown,
    lost_right,
    may,
    may_later,
    wants_json,
    with_game,
    writes_game,
)
from ..confirming import agreement_of
from ..forms import HandForm, NewGameForm, WaitingForm, hand_initial
from ..hooks import crumb_of
from ..models import Change, Game, Player, Summary
from ..pages.agreement import agreed, history_lines, with_history
from ..pages.game import game_clock, replay_url, score_sheet, version_of
from ..pages.home import game_summaries, summary_relations
from ..state import GameState, load_game
from .cached import game_shown
from .live_middleware import shown_version
from .share import preview_url, shared_game

HISTORY_LENGTH = 30
LISTED = 30


def _granted(request: HtmxHttpRequest, response: HttpResponse, public_id: str) -> HttpResponse:
    """``response``, and this phone may now score the game it started."""
    phone = request.phone
    phone.grant(public_id)
    rights.write(response, phone)
    return response


def _own_games(request: HtmxHttpRequest) -> QuerySet[Game]:
    """The games this phone may score, or its account started: what it lists and suggests."""
    mine = Q(public_id__in=list(request.phone.games))
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        mine |= Q(owner_id=user.pk)
    return Game.objects.filter(mine)


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    summaries = game_summaries(
        Summary.objects.filter(game__in=_own_games(request))
        .select_related(*summary_relations())
        .order_by("-changed_at")[:LISTED]
    )
    return render(
        request,
        "table/home.html",
        {
            "playing": [summary for summary in summaries if not summary.finished],
            "finished": [summary for summary in summaries if summary.finished][:10],
            "heart_trumps": shown(trump_order(Trump.HEARTS)),
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = getattr(request, "user", None)
        made = make_once(
            form.cleaned_data["once"],
            lambda: services.create_game(
                names=form.cleaned_data["names"],
                rules=form.cleaned_data["rules"],
                first_dealer=form.cleaned_data["first_dealer_seat"],
                place=form.cleaned_data["place"],
                owner_id=user.pk if user is not None and user.is_authenticated else None,
                by=request.actor,
            ),
            lambda state: reverse("game", args=[state.game.public_id]),
        )
        if made.thing is None:
            return made_before(request, made)
        response = redirect(made.address)
        return _granted(request, response, made.thing.game.public_id)
    known = (
        Player.objects.filter(seats__game__in=_own_games(request))
        .order_by("name")
        .values_list("name", flat=True)
        .distinct()
    )
    return render(
        request,
        "table/new_game.html",
        {"form": form, "known_names": known},
        status=422 if form.errors else 200,
    )


def game_page(
    request: HtmxHttpRequest,
    state: GameState,
    form: HandForm | None = None,
    *,
    notice: str = "",
    announce: str = "",
    announce_last: bool = False,
    can_score: bool = True,
    status: int = 200,
) -> HttpResponse:
    """The game page, or its swapped part under htmx, drawn from ``state``.

    ``announce`` is said by screen readers after a swap; with ``announce_last``, the
    last hand in one line is.
    """
    template = "table/game.html#game" if request.htmx else "table/game.html"
    with game_clock(state.game):
        context = game_context(request, state, form, can_score=can_score)
        context["notice"] = notice
        context["announce"] = context["sheet"].last if announce_last else announce
        return render(request, template, context, status=status)


def refused_page(
    request: HtmxHttpRequest, state: GameState, notice: str, status: int
) -> HttpResponse:
    """The game page as it now stands, saying why a write of this phone was refused, with
    the hand form only if this request may score."""
    can_score = may(request, Action.SCORE_GAME, state.game.public_id, state.game)
    return game_page(request, state, notice=notice, can_score=can_score, status=status)


def agreement_answer(
    request: HtmxHttpRequest,
    state: GameState,
    status: str,
    code: int = 200,
    message: str = "",
    number: int | None = None,
) -> HttpResponse:
    """What a confirmation, a signature or a dispute did, for a request that asks for JSON
    (a phone's queue replaying it once back online: static/js/agree.js): ``status``
    (``confirmed``, ``signed``, ``disputed``; ``refused``, ``invalid``), why in words, the
    hand it was about, and the game's version. A plain POST gets the game page: redirected
    to it when it went through, else drawn saying why (``refused_page``)."""
    if not wants_json(request):
        if code < 300:
            return redirect("game", gid=state.game.public_id)
        return refused_page(request, state, message, code)
    changes = Summary.objects.filter(game=state.game).values_list("changed_at", flat=True)
    gid = state.game.public_id
    versions = [
        shown_version(waiting.with_waiting(version_of(at), gid), request) for at in changes[:1]
    ]
    answer = {
        "status": status,
        "hand": number,
        "message": message,
        "version": versions[0] if versions else "",
    }
    return JsonResponse(answer, status=code)


def game_context(
    request: HtmxHttpRequest,
    state: GameState,
    form: HandForm | None = None,
    *,
    can_score: bool,
    version: str | None = None,
    token: object = None,
) -> dict[str, Any]:
    """What the game page, and the live view's fragments of it, are drawn from.

    The ``version`` the page shows is the one the live view (views/live.py) compares; when
    not given, it is read with the history, in the same query. The page shows it as drawn
    for this phone (``shown_version``: with the phone's time zone). Whether the request may
    share the game, or start its rematch, is asked only if the page offers it. The page says
    what the other phones hold waiting to be sent (scoring/table/waiting.py), which the
    version says too; and to a phone that lost its right to score the game, why. The hand
    form's one-use ``token`` is a new one unless given (a cached page's placeholder).
    """
    gid = state.game.public_id
    if form is None:
        initial = hand_initial(state.next_number, state.game.first_dealer)
        token = uuid.uuid4() if token is None else token
        form = HandForm(names=state.names, initial={**initial, "token": token})
    changes, read = _history(state)
    sheet = score_sheet(state, changes)
    agreement = agreement_of(state)
    if agreement.mode is not Confirmation.OFF:
        lines = history_lines(agreement, state.record.rules.confirmation_minutes)
        sheet = replace(sheet, history=with_history(sheet.history, lines, HISTORY_LENGTH))
    # Only a seat holder confirms or signs here: a scorer's page does not depend on a seat.
    seat = (
        None
        if can_score
        or (not agreement.waiting and agreement.signed is None and not agreement.proposals)
        else (held_seat(request, gid, state.game))
    )
    return {
        "state": state,
        "sheet": sheet,
        "agreed": agreed(state, agreement, seat),
        # When the page changes with nothing written (a hand confirmed by itself): live.js
        # then asks for it anew. Epoch milliseconds, as a string (no number formatting).
        "due": "" if agreement.due is None else str(int(agreement.due.timestamp() * 1000)),
        "can_referee": bool(agreement.disputed)
        and may_later(request, Action.REFEREE_GAME, gid, state.game),
        "form": form,
        "can_score": can_score,
        "can_share": can_score and may_later(request, Action.SHARE_GAME, gid, state.game),
        "can_rematch": can_score and may_later(request, Action.REMATCH_GAME, gid, state.game),
        "version": shown_version(
            waiting.with_waiting(read, gid) if version is None else version, request
        ),
        "crumb": crumb_of(state.game),
        "waiting": waiting.others(request, gid),
        "lost_right": None if can_score else lost_right(request, gid, state.game),
        "shared": shared_game(
            request, state.game, state.names, state.result.totals, state.result.winner
        ),
        "preview_url": preview_url(request, state.game, read),
        # Asked only where the page says it: a watcher's full page (not its swapped parts).
        "held_name": lambda: held_name(request, state),
    }


def held_name(request: HtmxHttpRequest, state: GameState) -> str:
    """The player of the seat this request holds in the game, as the page shows him; empty
    if it holds none."""
    seat = held_seat(request, state.game.public_id, state.game)
    return "" if seat is None else state.names[seat]


def _history(state: GameState) -> tuple[list[Change], str]:
    """The game's last changes, newest first, and the version of the game, in one query.

    The version is read after the state was: a change made in between would give a newer
    version with the older state, and the live view would then never send that change. So
    it is kept only where the summary still says what the state says (its hands, its
    status); else the page shows no version, and its first live ask gets the game anew.
    """
    summary = Summary.objects.filter(
        game=OuterRef("game_id"), hands=len(state.hands), status=state.ending.value
    )
    read = state.game.changes.select_related("by_user").annotate(
        summary_changed_at=Subquery(summary.values("changed_at")[:1])
    )[:HISTORY_LENGTH]
    changes: list[Change] = [*read]
    changed_at = getattr(changes[0], "summary_changed_at", None) if changes else None
    return changes, "" if changed_at is None else version_of(changed_at)


# --- A hand written, answered in JSON (the offline queue, static/js/offline.js) ------------


def _written(
    request: HtmxHttpRequest,
    state: GameState,
    status: str,
    hand: int | None,
    *,
    code: int = 200,
    errors: dict[str, list[str]] | None = None,
) -> JsonResponse:
    """What a write of hand ``hand`` did, for a request that asks for JSON (``wants_json``):
    the contract of scoring/table/writes.py (``hand_written``, with the ``errors`` by field
    of an invalid hand), and the game's version, as the live view's ETag has it
    (views/live.py): so that no script reads the page to learn what happened. ``state`` is
    the game as it now stands."""
    changes = Summary.objects.filter(game=state.game).values_list("changed_at", flat=True)
    gid = state.game.public_id
    versions = [waiting.with_waiting(version_of(at), gid) for at in changes[:1]]
    answer = writes.hand_written(state, status, hand)
    answer["version"] = shown_version(versions[0], request) if versions else ""
    if errors is not None:
        answer["errors"] = errors
    return JsonResponse(answer, status=code)


def _refused(request: HtmxHttpRequest, refused: services.WriteRefused) -> HttpResponse:
    """A write the game no longer allows: a 409 with the game as it now stands; a 403 that
    says why for a game closed to every scorer (a night that ended)."""
    if isinstance(refused, services.Closed):
        return forbidden(request, refused.state.game.public_id, refused.why)
    if wants_json(request):
        status_word, code = writes.refused_as(refused)
        return _written(
            request, refused.state, status_word, getattr(refused, "number", None), code=code
        )
    # An AlreadyRecorded is nothing wrong: the hand is there once; nor a correction proposed.
    status = 200 if isinstance(refused, services.AlreadyRecorded | services.Proposed) else 409
    notice = writes.refused_notice(refused)
    response = game_page(request, refused.state, notice=notice, announce=notice, status=status)
    return retarget(response, "#game") if request.htmx else response


def _new_taps(refused: services.AlreadyRecorded, form: HandForm) -> bool:
    """Whether a form that recorded a hand before came back with another hand tapped in it:
    a page reached by Back, its form tapped again for the next hand."""
    recorded = refused.state.record.hands[refused.number - 1]
    return bool(form.cleaned_data["hand"] != recorded)


def _kept_as_next(
    request: HtmxHttpRequest, refused: services.AlreadyRecorded, form: HandForm
) -> HttpResponse:
    """A form reached by Back, sent again with new taps: the game as it stands, what was
    tapped kept as a draft in its form, for the next hand, to check and save (nothing is
    recorded twice, nothing tapped is lost). The auction, called in another dealer's order,
    is left out, as a draft moved to another hand is in static/js/offline.js."""
    state = refused.state
    if state.ending.over:
        return _refused(request, refused)
    number = state.next_number
    taps = hand_initial(number, state.game.first_dealer, form.cleaned_data["hand"])
    kept = {name: value for name, value in taps.items() if not name.startswith("call_")}
    draft = HandForm(names=state.names, initial={**kept, "token": uuid.uuid4()})
    if form.cleaned_data["hand"].contract is None:  # all passed: nothing to keep but the tap
        notice = gettext(
            "This form had already recorded hand %(number)s, so the deal you marked all "
            "passed since was not recorded. If it was hand %(next)s, tap All passed again."
        )
    else:
        notice = gettext(
            "This form had already recorded hand %(number)s, so what you tapped since was "
            "not recorded: it is kept below as hand %(next)s. Check it, then save it."
        )
    notice %= {"number": refused.number, "next": number}
    response = game_page(request, state, draft, notice=notice, announce=notice, status=409)
    return retarget(response, "#game") if request.htmx else response


WAITING_BODY = 200
"""The most bytes a report of waiting hands may send (``count=12`` and a CSRF token)."""


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(WAITING_HANDS)
def waiting_hands(request: HtmxHttpRequest, gid: str) -> HttpResponse:
    """The hands this phone holds waiting to be sent, as it says (POST ``count``, by a phone
    that may score the game: else the 403 of a game write); what every phone holds, in
    JSON (GET, for anyone who may watch the game)."""
    if not Game.objects.filter(public_id=gid).exists():
        raise Http404
    if request.method == "POST":
        if not may(request, Action.SCORE_GAME, gid):
            return forbidden(request, gid)
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isdigit() or int(length) > WAITING_BODY:
            return JsonResponse({"status": "too_big"}, status=413)
        form = WaitingForm(request.POST)
        if not form.is_valid():
            errors = {name: [str(error) for error in each] for name, each in form.errors.items()}
            return JsonResponse({"status": "invalid", "errors": errors}, status=400)
        count = form.cleaned_data["count"]
        phone = waiting.phone_of(request, gid)
        waiting.report(gid, phone, waiting.name_of(request), count)
        return JsonResponse({"status": "reported", "count": count})
    reports = waiting.waiting(gid)
    return JsonResponse({"waiting": [{"text": each.text, "count": each.count} for each in reports]})


@require_safe
@with_game()
def game(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    can_score = access.can_score
    shown = game_shown(request, game, can_score=can_score, with_seat=True)
    if shown is None or not cacheable(request):
        state = load_shown(request, game, can_score=can_score)
        return game_page(request, state, can_score=can_score)
    template = "table/game.html#game" if request.htmx else "table/game.html"

    def draw() -> str:
        """The page as every request of this kind sees it, but for its own tokens."""
        state = load_shown(request, game, can_score=can_score)
        with game_clock(game):
            context = game_context(request, state, can_score=can_score, token=TOKEN_PLACEHOLDER)
            context.update(
                can_share=shown.can_share,
                can_rematch=shown.can_rematch,
                held_name="" if shown.seat is None else state.names[shown.seat],
                notice="",
                announce="",
                csrf_token=CSRF_PLACEHOLDER,
            )
            return render_to_string(template, context, request)

    # The page's addresses are absolute (its Open Graph tags): the host is in the key.
    host = request.build_absolute_uri("/")
    response = cached_page(request, page_key("game", template, host, *shown.parts), draw)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
@writes_game()
def add_hand(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    written = writes.record_hand(HandForm(request.POST), gid, by, held_seat(request, gid))
    form, state, refused = written.form, written.state, written.refused
    if isinstance(refused, services.AlreadyRecorded) and _new_taps(refused, form):
        if wants_json(request):
            # As a hand another phone took: offline.js keeps it as a draft to add next.
            return _written(request, refused.state, "conflict", refused.number, code=409)
        return _kept_as_next(request, refused, form)
    if refused is not None:
        return _refused(request, refused)
    if state is not None:
        if wants_json(request):
            return _written(request, state, "recorded", form.cleaned_data["number"], code=201)
        if not request.htmx:
            return redirect("game", gid=gid)
        return game_page(request, state, announce_last=True)
    state = load_game(get_object_or_404(Game, public_id=gid))
    form.name_seats(state.names)
    if wants_json(request):
        number = form.cleaned_data.get("number")
        errors = writes.form_errors(form)
        return _written(request, state, "invalid", number, code=400, errors=errors)
    if request.htmx:
        context = {"form": form, "state": state, "sheet": score_sheet(state)}
        response = render(request, "table/game.html#hand-form", context, status=422)
        return retarget(response, "#entry")
    return game_page(request, state, form, status=422)


@require_http_methods(["GET", "HEAD", "POST"])
@writes_game()
def edit_hand(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    form = None
    if request.method == "POST":
        data = request.POST.copy()
        data["number"] = str(number)  # the hand is the one in the address
        referee = may_later(request, Action.REFEREE_GAME, gid)  # asked of a confirmed hand
        seat = held_seat(request, gid)
        written = writes.edit_hand(HandForm(data), gid, number, by, seat, referee=referee)
        form = written.form
        if written.refused is not None:
            return _refused(request, written.refused)
        if written.state is not None:
            if wants_json(request):
                return _written(request, written.state, "edited", number)
            return redirect("game", gid=gid)
    state = load_game(get_object_or_404(Game, public_id=gid))
    if not 1 <= number <= len(state.hands):
        raise Http404
    hand = state.record.hands[number - 1]
    if form is None:
        form = HandForm(initial=hand_initial(number, state.game.first_dealer, hand))
    form.name_seats(state.names)
    if request.method == "POST" and wants_json(request):
        ends_early = form.ends_at is not None  # to be sent again with discard_after_end
        status_word, code = ("ends_early", 409) if ends_early else ("invalid", 400)
        errors = writes.form_errors(form)
        return _written(request, state, status_word, number, code=code, errors=errors)
    context = {
        "form": form,
        "state": state,
        "number": number,
        "play_url": replay_url(state.game, number, hand),
    }
    return render(request, "table/edit_hand.html", context, status=422 if form.errors else 200)


@require_POST
@writes_game()
def undo_hand(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    try:
        referee = may_later(request, Action.REFEREE_GAME, gid)  # asked of a confirmed hand
        state = services.undo_hand(public_id=gid, number=number, by=by, referee=referee)
    except services.WriteRefused as refused:
        return _refused(request, refused)
    if wants_json(request):
        return _written(request, state, "undone", number)
    if not request.htmx:
        return redirect("game", gid=gid)
    return game_page(
        request, state, announce=gettext("Hand %(number)s undone.") % {"number": number}
    )


@require_POST
@writes_game()
def redo_hand(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    try:
        state = services.redo_hand(public_id=gid, number=number, by=by)
    except services.WriteRefused as refused:
        return _refused(request, refused)
    if wants_json(request):
        return _written(request, state, "redone", number)
    if not request.htmx:
        return redirect("game", gid=gid)
    return game_page(request, state, announce_last=True)


@require_POST
@writes_game(Action.REMATCH_GAME)
def rematch(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    """The rematch, its owner's as the game was; this phone keeps on it the right it had on
    the game: the starter's, or a scorer link's, handed on, which ends with the link."""
    phone = request.phone
    claim = phone.games.get(gid)
    public_id = services.rematch(public_id=gid, by=by).public_id
    response = redirect("game", gid=public_id)
    if claim in (STARTED, FOR_OWNER):
        phone.grant(public_id, claim)
    elif claim is not None:
        link = services.hand_on_scorer_link(link_id=claim, public_id=gid, to=public_id)
        if link is None:  # revoked meanwhile: the rematch was the right of another role
            return response
        phone.grant(public_id, link.pk)
    else:  # allowed by an account's role, which holds on the rematch as on the game
        return response
    rights.write(response, phone)
    return response


@require_POST
@writes_game()
def abandon(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    try:
        services.abandon_game(public_id=gid, by=by)
    except services.Closed as closed:
        return forbidden(request, gid, closed.why)
    return redirect("settlement", gid=gid)


@require_POST
@writes_game()
def resume(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    try:
        services.resume_game(public_id=gid, by=by)
    except services.Closed as closed:
        return forbidden(request, gid, closed.why)
    return redirect("game", gid=gid)
