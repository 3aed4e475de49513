"""Thin views: each reads a form or a game, calls a service, and renders a partial or a page."""

import json
import uuid

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import retarget

from . import services
from .engine import Trump, record_to_dict, trump_order
from .forms import HandForm, ImportForm, NewGameForm, hand_initial
from .models import Game, Player
from .pdf import settlement_sheet_pdf
from .sheet import game_summaries, score_sheet, settle_up

HISTORY_LENGTH = 30


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
        form = HandForm(state=state, initial=hand_initial(state.hands[number - 1]))
    return render(
        request,
        "scoring/edit_hand.html",
        {"form": form, "state": state, "number": number},
        status=422 if form.errors else 200,
    )


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
