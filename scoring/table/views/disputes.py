"""Disputes and the referee (issue 40.3): a seat holder disputes a hand not yet confirmed,
saying why; the referee (a club game's: an admin of its club; another game's: its owner)
confirms it as it stands or corrects it, always with a reason, which every phone shows."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from ...common.http import HtmxHttpRequest
from ...common.rights import Action, Actor
from .. import services
from ..access import REFEREE, phone_of, seat_held, writes_game
from ..confirming import agreement_of
from ..forms import DecisionForm, DisputeForm, HandForm, hand_initial
from ..models import Game
from ..pages.agreement import dispute_lines
from ..pages.game import game_clock
from ..state import load_game
from ..writes import refused_notice
from .table import agreement_answer


def _refusal_words(refused: services.DisputeRefused) -> str:
    match refused.why:
        case "changed":
            return gettext(
                "Hand %(number)s was changed since you saw it: here it is as it now stands."
            ) % {"number": refused.number}
        case "gone":
            return gettext("Hand %(number)s is no longer in the game.") % {"number": refused.number}
        case "confirmed":
            return gettext(
                "Hand %(number)s is confirmed already: only the referee may change it now."
            ) % {"number": refused.number}
        case "none":
            return gettext("Hand %(number)s has no dispute to decide.") % {"number": refused.number}
        case _:
            return gettext("This game’s rules ask for no confirmation.")


@require_POST
@writes_game(Action.DISPUTE_GAME)
def dispute_hand(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    """The player of the seat this phone holds disputes a hand, saying why. Sent twice,
    disputed once; a hand changed since, or confirmed already, is refused and said why."""
    held = seat_held(request, gid)
    form = DisputeForm(request.POST)
    if held is None or not form.is_valid():
        state = load_game(get_object_or_404(Game, public_id=gid))
        errors = [str(error) for errors in form.errors.values() for error in errors]
        words = " ".join(errors) or gettext("This dispute could not be read.")
        return agreement_answer(request, state, "invalid", 400, words)
    number = form.cleaned_data["number"]
    try:
        state = load_game(get_object_or_404(Game, public_id=gid))
        version = form.cleaned_data["version"]
        if version is None and 1 <= number <= len(state.hands):
            version = state.hands[number - 1].version
        state = services.dispute_hand(
            public_id=gid,
            number=number,
            version=version or 0,
            seat=held[0],
            reason=form.cleaned_data["reason"],
            by=by,
            phone=phone_of(request, gid, held[1]),
            token=form.cleaned_data["token"],
        )
    except services.DisputeRefused as refused:
        words = _refusal_words(refused)
        return agreement_answer(request, refused.state, "refused", 409, words, number)
    return agreement_answer(request, state, "disputed", number=number)


@require_http_methods(["GET", "HEAD", "POST"])
@writes_game(Action.REFEREE_GAME)
def decide(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    """The referee's page for a disputed hand: the dispute, the hand's form filled as it
    stands, his reason; he confirms it as it stands, or saves his correction."""
    state = load_game(get_object_or_404(Game, public_id=gid))
    if not 1 <= number <= len(state.hands):
        raise Http404
    decision = DecisionForm(request.POST if request.method == "POST" else None)
    hand = state.record.hands[number - 1]
    form = HandForm(initial=hand_initial(number, state.game.first_dealer, hand))
    notice, status = "", 200
    if request.method == "POST":
        data = request.POST.copy()
        data["number"] = str(number)
        corrected = data.get("outcome") == "corrected"
        if corrected:
            form = HandForm(data)
            form.name_seats(state.names)
        if decision.is_valid() and (not corrected or form.is_valid()):
            try:
                services.decide_dispute(
                    public_id=gid,
                    number=number,
                    reason=decision.cleaned_data["reason"],
                    hand=form.cleaned_data["hand"] if corrected else None,
                    by=by,
                    phone=REFEREE,
                )
            except services.DisputeRefused as refused:
                notice, status = _refusal_words(refused), 409
            except services.Closed as refused:
                notice, status = refused.why.message, 409
            except services.WriteRefused as refused:
                notice, status = refused_notice(refused), 409
            except (services.EndsEarly, services.RulesBroken):
                notice = gettext(
                    "This correction does not fit the game as it is recorded (it would end "
                    "the game before its last hand, or breaks its rules): change it again."
                )
                status = 409
            else:
                return redirect("game", gid=gid)
        else:
            status = 400
    form.name_seats(state.names)
    agreement = agreement_of(state)
    lines = [line for line in dispute_lines(agreement, state.names) if line.number == number]
    context = {
        "state": state,
        "number": number,
        "form": form,
        "decision": decision,
        "lines": lines,
        "open": number <= len(agreement.hands) and agreement.hands[number - 1].disputed,
        "notice": notice,
    }
    with game_clock(state.game):
        return render(request, "table/decide.html", context, status=status)
