"""The portable game record: export one game, import one, and the health check."""

import json

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from .. import services
from ..engine import record_to_dict
from ..forms import ImportForm
from ..models import Game
from ..state import exported, load_game
from .preconditions import with_game


@require_GET
@with_game
def record_json(request: HttpRequest, game: Game) -> HttpResponse:
    record = exported(load_game(game))
    response = HttpResponse(
        json.dumps(record_to_dict(record), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="boulmous-{game.pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
def import_game(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        state = services.import_record(record=form.cleaned_data["record"])
        return redirect("game", pk=state.game.pk)
    return render(
        request, "scoring/import.html", {"form": form}, status=422 if form.errors else 200
    )


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database reachability, for a load balancer or a monitor."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
