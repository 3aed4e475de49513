"""The referee: a hand entered card by card, the trick calculator, the rules."""

import uuid
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseClientRedirect

from ..common.http import HtmxHttpRequest
from ..common.rights import Action
from ..common.words import rules_meanings
from ..infra.pagecache import (
    CSRF_PLACEHOLDER,
    account_shown,
    cacheable,
    cached_page,
    page_key,
)
from ..table.face import Access, Game, load_game, rules_of, with_game
from .forms import CalculatorQueryForm, PlayContractForm, PlayForm, RulesQueryForm, TrickForm
from .pages.calculator import calculator_context
from .pages.play import play_sheet
from .pages.rules import card_orders

PLAY_QUERY = ("taker", "bid", "trump", "cards")
"""Cards as the rules page lists them: each one's label, and its suit's colour."""


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules, in the project's words; with ?game=<id>, that game's own options too."""
    query = RulesQueryForm(request.GET)
    game = None
    if query.is_valid() and query.cleaned_data["game"]:
        game = Game.objects.filter(public_id=query.cleaned_data["game"]).first()
    # The game's own options, as the rules page says them (scoring/common/words.py).
    meanings = None if game is None else rules_meanings(rules_of(game))
    # Kept in the cache (scoring/infra/pagecache.py) with no query string, or one naming a
    # game (whose rules the page says): the same for everyone but the account in its header.
    query_string = request.META.get("QUERY_STRING", "")
    if not cacheable(request, query=True) or (
        query_string and (game is None or query_string != f"game={game.public_id}")
    ):
        context = {"orders": card_orders(), "game": game, "meanings": meanings}
        return render(request, "referee/rules.html", context)
    shown = None if game is None else (game.public_id, rules_of(game))

    def draw() -> str:
        context = {
            "orders": card_orders(),
            "game": game,
            "meanings": meanings,
            "csrf_token": CSRF_PLACEHOLDER,
        }
        return render_to_string("referee/rules.html", context, request)

    return cached_page(request, page_key("rules", shown, account_shown(request)), draw)


@require_safe
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """The trick calculator: a trump, four cards in the order played, and which wins, and why.

    With ?game=<id> of a game that exists, a way back to it, kept in every link."""
    form = TrickForm(request.GET)
    form.is_valid()  # a question with its bad parts left out; each one says why
    query = CalculatorQueryForm(request.GET)
    game = query.cleaned_data["game"] or None if query.is_valid() else None
    if game is not None and not Game.objects.filter(public_id=game).exists():
        game = None
    context = calculator_context(form.cleaned_data["trump"], form.cleaned_data["cards"], game)
    context["problems"] = [str(error) for errors in form.errors.values() for error in errors]
    partial = request.htmx and not request.htmx.history_restore_request
    template = "referee/calculator.html#calc" if partial else "referee/calculator.html"
    # Text too long to be a question is not one: a 400, and the page with what could be read.
    garbage = form.has_error("trump") or form.has_error("cards")
    response = render(request, template, context, status=400 if garbage else 200)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
@with_game(Action.SCORE_GAME)
def play_hand(request: HtmxHttpRequest, game: Game, access: Access, number: int) -> HttpResponse:
    """Hand ``number`` entered card by card: each tap is a link with one card more.

    Without a contract, the page asks for it first: a form that comes back here. It records
    a hand, so only those who may score the game see it."""
    state = load_game(game)
    if not 1 <= number <= state.next_number:
        raise Http404
    # Coming from the hand form, which sends all its fields: go to the play's own address.
    query = {name: request.GET[name] for name in PLAY_QUERY if name in request.GET}
    if set(request.GET) - set(PLAY_QUERY):
        url = f"{request.path}?{urlencode(query)}" if query else request.path
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    partial = request.htmx and not request.htmx.history_restore_request
    template = "referee/play.html#play" if partial else "referee/play.html"
    choice = PlayContractForm(request.GET, names=state.names)
    if not choice.is_valid() or "contract" not in choice.cleaned_data:
        context = {"state": state, "choice": choice, "number": number}
        return render(request, template, context, status=422 if choice.errors else 200)
    form = PlayForm(request.GET)
    if not form.is_valid():
        context = {"state": state, "form": form, "number": number}
        return render(request, template, context, status=400)
    sheet = play_sheet(state, number, form.cleaned_data["contract"], form.cleaned_data["play"])
    context = {
        "state": state,
        "form": form,
        "number": number,
        "play": sheet,
        "token": uuid.uuid4(),
        "editing": number < state.next_number,
    }
    return render(request, template, context)
