"""A game's settlement (who pays whom), its PDF, and the players' agreement to it (issue
40.4): each player agrees on his own phone holding his seat, or on the scorer's phone
passed round, typing his seat's short code; the page, its print and its PDF say who agreed
and when, or who has not yet."""

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.rights import Action, Actor
from ...engine import Confirmation
from ...infra.pagecache import CSRF_PLACEHOLDER, cacheable, cached_page, page_key
from ...infra.throttles import SEAT_TAKE, throttled
from .. import services
from ..access import Access, held_seat, load_shown, may, with_game, writes_game
from ..confirming import agreement_of, settled
from ..forms import AgreeForm, AgreeWithCodeForm
from ..models import Game
from ..pages.game import game_clock, score_sheet
from ..pages.pdf import settlement_sheet_pdf
from ..pages.settlement import settle_up, settlement_agreed
from ..state import GameState, load_game
from .cached import game_shown


def _context(
    state: GameState,
    *,
    can_score: bool,
    seat: int | None,
    code_form: AgreeWithCodeForm | None = None,
    notice: str = "",
) -> dict[str, Any]:
    """What the settlement page is drawn from: three queries more than the game's own for a
    game played for money once it is over (the confirmations, the disputes, the agreements;
    the last alone for a game played without confirmation)."""
    agreement = agreement_of(state)
    shown = agreement.settlement if agreement.mode is not Confirmation.OFF else settled(state)
    return {
        "state": state,
        "sheet": score_sheet(state),
        "settle": settle_up(state),
        "can_score": can_score,
        "disputed": [hand.number for hand in agreement.disputed],
        "unconfirmed": [hand.number for hand in agreement.waiting],
        "agreed": settlement_agreed(state, shown, seat, can_score),
        "typed": _typed(code_form),
        "notice": notice,
    }


def _typed(form: AgreeWithCodeForm | None) -> dict[str, object] | None:
    """A code form refused, as its seat's field shows it again: the seat, the code as
    typed, the first error."""
    if form is None:
        return None
    seat = form.data.get("seat", "")
    errors = [str(error) for errors in form.errors.values() for error in errors]
    return {
        "seat": int(seat) if str(seat).isdigit() else None,
        "code": form.data.get("code", ""),
        "error": errors[0] if errors else "",
    }


@require_safe
@with_game()
def settlement(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    shown = game_shown(request, game, can_score=access.can_score, with_seat=True)

    def context(seat: int | None) -> dict[str, Any]:
        state = load_shown(request, game, can_score=access.can_score)
        return _context(state, can_score=access.can_score, seat=seat)

    if shown is None or not cacheable(request):
        seat = None if access.can_score else held_seat(request, game.public_id, game)
        with game_clock(game):
            return render(request, "table/settlement.html", context(seat))

    def draw() -> str:
        with game_clock(game):
            page = {**context(shown.seat), "csrf_token": CSRF_PLACEHOLDER}
            return render_to_string("table/settlement.html", page, request)

    return cached_page(request, page_key("settlement", *shown.parts), draw)


@require_safe
@with_game()
def settlement_pdf(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    state = load_shown(request, game, can_score=access.can_score)
    with game_clock(game):
        agreed = _context(state, can_score=False, seat=None)["agreed"]
        pdf = settlement_sheet_pdf(state, score_sheet(state), settle_up(state), agreed)
    response = HttpResponse(pdf, content_type="application/pdf")
    attachment(response, f"boulmous-{game.public_id}.pdf")
    return response


def refusal_words(refused: services.SettleRefused) -> str:
    """Why an agreement to the settlement was refused, in the player's words."""
    numbers = ", ".join(str(number) for number in refused.numbers)
    count = len(refused.numbers)
    match refused.why:
        case "free":
            return gettext("This game is played for no money: there is no settlement to agree.")
        case "playing":
            return gettext("The settlement is agreed once the game is over.")
        case "disputed":
            return ngettext(
                "Hand %(numbers)s is disputed: the settlement is agreed once the referee "
                "has decided it.",
                "Hands %(numbers)s are disputed: the settlement is agreed once the referee "
                "has decided them.",
                count,
            ) % {"numbers": numbers}
        case "waiting":
            return ngettext(
                "Hand %(numbers)s waits for confirmation: the settlement would not be final. "
                "Confirm it first.",
                "Hands %(numbers)s wait for confirmation: the settlement would not be final. "
                "Confirm them first.",
                count,
            ) % {"numbers": numbers}
        case "changed":
            return gettext(
                "The hands changed since you saw this settlement: here it is as it now "
                "stands. Agree to it again if it is right."
            )
        case _:
            return gettext("This is not this seat’s code: each player types his own.")


def _page(
    request: HtmxHttpRequest,
    state: GameState,
    *,
    status: int,
    notice: str = "",
    code_form: AgreeWithCodeForm | None = None,
) -> HttpResponse:
    """The settlement page as the game now stands, saying why this phone's agreement was
    refused (with the code form as typed, on the scorer's phone)."""
    gid = state.game.public_id
    can_score = may(request, Action.SCORE_GAME, gid, state.game)
    seat = None if can_score else held_seat(request, gid, state.game)
    with game_clock(state.game):
        context = _context(
            state, can_score=can_score, seat=seat, code_form=code_form, notice=notice
        )
        return render(request, "table/settlement.html", context, status=status)


@require_POST
@writes_game(Action.CONFIRM_GAME)
def agree(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    """The player of the seat this phone holds agrees to the settlement as his page showed
    it. Sent twice, agreed once; a settlement changed since is refused and shown anew; a
    seat the phone does not hold is refused (403)."""
    seat = held_seat(request, gid)
    form = AgreeForm(request.POST)
    if seat is None:
        raise Http404
    if not form.is_valid():
        state = load_game(get_object_or_404(Game, public_id=gid))
        return _page(
            request, state, status=400, notice=gettext("This agreement could not be read.")
        )
    asked = form.cleaned_data["seat"]
    if asked is not None and asked != seat:
        state = load_game(get_object_or_404(Game, public_id=gid))
        words = gettext("This phone holds another seat: each player agrees for his own.")
        return _page(request, state, status=403, notice=words)
    try:
        services.agree_settlement(public_id=gid, seat=seat, content=form.cleaned_data["key"], by=by)
    except services.SettleRefused as refused:
        return _page(request, refused.state, status=409, notice=refusal_words(refused))
    return redirect("settlement", gid=gid)


@require_POST
@throttled(SEAT_TAKE)
@writes_game(Action.SCORE_GAME)
def agree_with_code(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    """The scorer's phone passed round: a player agrees for his seat by typing its short
    code (counted by the seat-take throttle, as a seat taken by its code is). A code that is
    not that seat's is said on the field (422)."""
    form = AgreeWithCodeForm(request.POST)
    if not form.is_valid():
        state = load_game(get_object_or_404(Game, public_id=gid))
        return _page(request, state, status=422, code_form=form)
    try:
        services.agree_settlement(
            public_id=gid,
            seat=form.cleaned_data["seat"],
            content=form.cleaned_data["key"],
            code=form.cleaned_data["code"],
            by=by,
        )
    except services.SettleRefused as refused:
        if refused.why == "not_his":
            form.add_error("code", refusal_words(refused))
            return _page(request, refused.state, status=422, code_form=form)
        return _page(request, refused.state, status=409, notice=refusal_words(refused))
    return redirect("settlement", gid=gid)
