"""Thin views: each reads a form or a game, calls a service, and renders a partial or a page."""

import json
import uuid
from urllib.parse import urlencode

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, retarget

from . import services
from .calculator import calculator_context
from .engine import (
    Card,
    Suit,
    Trump,
    format_cards,
    record_to_dict,
    suit_order,
    trump_order,
)
from .forms import (
    HandForm,
    ImportForm,
    NewGameForm,
    PlayForm,
    TrickForm,
    hand_initial,
)
from .models import Game, Player
from .pdf import settlement_sheet_pdf
from .play_sheet import play_sheet
from .sheet import game_summaries, score_sheet, settle_up

HISTORY_LENGTH = 30


def plain_orders(trump: Trump) -> list[tuple[Suit, tuple[Card, ...]]]:
    """Each suit that is not trump, strongest card first, under ``trump``."""
    return [(suit, suit_order(suit, trump)) for suit in Suit if suit is not trump.suit]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    summaries = game_summaries(services.load_games(Game.objects.all()[:30]))
    return render(
        request,
        "scoring/home.html",
        {
            "playing": [summary for summary in summaries if not summary.finished],
            "finished": [summary for summary in summaries if summary.finished][:10],
            "heart_trumps": trump_order(Trump.HEARTS),
        },
    )


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules, in the project's words; with ?game=<id>, that game's own options too."""
    game = None
    if request.GET.get("game", "").isdigit():
        game = Game.objects.filter(pk=int(request.GET["game"])).first()
    orders = [(trump, trump_order(trump), plain_orders(trump)) for trump in Trump]
    return render(request, "scoring/rules.html", {"orders": orders, "game": game})


@require_GET
def calculator(request: HttpRequest) -> HttpResponse:
    """The trick calculator: a trump, four cards in the order played, and which wins, and why."""
    form = TrickForm(request.GET)
    form.is_valid()  # a question with its bad parts left out; each one says why
    context = calculator_context(form.cleaned_data["trump"], form.cleaned_data["cards"])
    context["problems"] = [str(error) for errors in form.errors.values() for error in errors]
    partial = request.htmx and not request.htmx.history_restore_request
    template = "scoring/calculator.html#calc" if partial else "scoring/calculator.html"
    # Text too long to be a question is not one: a 400, and the page with what could be read.
    garbage = form.has_error("trump") or form.has_error("cards")
    response = render(request, template, context, status=400 if garbage else 200)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database reachability, for a load balancer or a monitor."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game = services.create_game(
            names=form.cleaned_data["names"],
            rules=form.cleaned_data["rules"],
            first_dealer=form.cleaned_data["first_dealer_seat"],
            place=form.cleaned_data["place"],
        )
        return redirect("game", pk=game.pk)
    known = Player.objects.order_by("name").values_list("name", flat=True)
    return render(
        request,
        "scoring/new_game.html",
        {"form": form, "known_names": known},
        status=422 if form.errors else 200,
    )


def _game_page(
    request: HttpRequest,
    game: Game,
    form: HandForm | None = None,
    *,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    state = services.load_game(game)
    if form is None:
        form = HandForm(
            state=state,
            initial={"number": len(state.hands) + 1, "token": uuid.uuid4()},
        )
    template = "scoring/game.html#game" if request.htmx else "scoring/game.html"
    sheet = score_sheet(state, game.changes.all()[:HISTORY_LENGTH])
    context = {"state": state, "sheet": sheet, "form": form, "notice": notice}
    return render(request, template, context, status=status)


@require_GET
def game(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_page(request, get_object_or_404(Game, pk=pk))


@require_POST
def add_hand(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    form = HandForm(request.POST, state=services.load_game(game))
    if not form.is_valid():
        return _invalid_hand(request, game, form)
    try:
        services.record_hand(
            game=game,
            number=form.cleaned_data["number"],
            hand=form.cleaned_data["hand"],
            token=form.cleaned_data["token"],
        )
    except services.HandTaken as taken:
        notice = gettext("Hand %(number)s was just recorded by someone else: here is the game now.")
        return _game_page(request, game, notice=notice % {"number": taken.number}, status=409)
    if not request.htmx:
        return redirect("game", pk=game.pk)
    return _game_page(request, game)


def _invalid_hand(request: HttpRequest, game: Game, form: HandForm) -> HttpResponse:
    if request.htmx:
        response = render(
            request, "scoring/game.html#hand-form", {"form": form, "state": form.state}, status=422
        )
        return retarget(response, "#entry")
    return _game_page(request, game, form, status=422)


@require_http_methods(["GET", "POST"])
def edit_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    state = services.load_game(game)
    if not 1 <= number <= len(state.hands):
        raise Http404
    if request.method == "POST":
        data = request.POST.copy()
        data["number"] = str(number)  # the hand is the one in the address
        form = HandForm(data, state=state)
        if form.is_valid():
            services.edit_hand(
                game=game,
                number=number,
                hand=form.cleaned_data["hand"],
                discard_after_end=form.cleaned_data["discard_after_end"],
            )
            return redirect("game", pk=game.pk)
    else:
        form = HandForm(state=state, initial=hand_initial(number, state.record.hands[number - 1]))
    hand = state.record.hands[number - 1]
    play_url = None
    if hand.plays is not None and hand.contract is not None:
        contract = hand.contract
        query = {"taker": contract.taker, "bid": contract.bid, "trump": contract.trump.value}
        query["cards"] = format_cards([card for trick in hand.plays for card in trick])
        play_url = reverse("play_hand", args=[game.pk, number]) + "?" + urlencode(query)
    return render(
        request,
        "scoring/edit_hand.html",
        {"form": form, "state": state, "number": number, "play_url": play_url},
        status=422 if form.errors else 200,
    )


PLAY_QUERY = ("taker", "bid", "trump", "cards")


@require_GET
def play_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Hand ``number`` entered card by card: each tap is a link with one card more."""
    game = get_object_or_404(Game, pk=pk)
    state = services.load_game(game)
    if not 1 <= number <= len(state.hands) + 1:
        raise Http404
    # Coming from the hand form, which sends all its fields: go to the play's own address.
    query = {name: request.GET[name] for name in PLAY_QUERY if name in request.GET}
    if set(request.GET) - set(PLAY_QUERY):
        url = f"{request.path}?{urlencode(query)}"
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    form = PlayForm(request.GET)
    if not form.is_valid():
        return render(
            request,
            "scoring/play.html",
            {"state": state, "form": form, "number": number},
            status=400,
        )
    sheet = play_sheet(state, number, form.cleaned_data["contract"], form.cleaned_data["play"])
    context = {
        "state": state,
        "form": form,
        "number": number,
        "play": sheet,
        "token": uuid.uuid4(),
        "editing": number <= len(state.hands),
    }
    template = "scoring/play.html#play" if request.htmx else "scoring/play.html"
    return render(request, template, context)


@require_POST
def undo_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    services.undo_hand(game=game, number=number)
    if not request.htmx:
        return redirect("game", pk=game.pk)
    return _game_page(request, game)


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    game = services.rematch(game=get_object_or_404(Game, pk=pk))
    return redirect("game", pk=game.pk)


@require_GET
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    state = services.load_game(game)
    context = {"state": state, "sheet": score_sheet(state), "settle": settle_up(state)}
    return render(request, "scoring/settlement.html", context)


@require_GET
def settlement_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    state = services.load_game(game)
    pdf = settlement_sheet_pdf(state, score_sheet(state), settle_up(state))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="boulmous-{pk}.pdf"'
    return response


@require_POST
def abandon(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    services.abandon_game(game=game)
    return redirect("settlement", pk=game.pk)


@require_POST
def resume(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    services.resume_game(game=game)
    return redirect("game", pk=game.pk)


@require_GET
def record_json(request: HttpRequest, pk: int) -> HttpResponse:
    state = services.load_game(get_object_or_404(Game, pk=pk))
    response = HttpResponse(
        json.dumps(record_to_dict(state.record), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="boulmous-{pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
def import_game(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        game = services.import_record(record=form.cleaned_data["record"])
        return redirect("game", pk=game.pk)
    return render(
        request, "scoring/import.html", {"form": form}, status=422 if form.errors else 200
    )
