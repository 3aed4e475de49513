"""The portable game record: export one game, import one, and the health check."""

import json

from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest, attachment
from ...common.once import made_before, make_once
from ...engine import record_to_dict
from ...infra.pagecache import cacheable, cached_page, page_key
from ...infra.throttles import GAME_IMPORT, throttled
from .. import services
from ..access import Access, load_shown, with_game
from ..forms import ImportForm
from ..models import Game
from ..state import exported
from .cached import record_shown


@require_safe
@with_game()
def record_json(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    def draw() -> str:
        record = exported(load_shown(request, game, can_score=access.can_score))
        return json.dumps(record_to_dict(record), ensure_ascii=False, indent=2)

    shown = record_shown(request, game, can_score=access.can_score)
    content_type = "application/json; charset=utf-8"
    if shown is None or not cacheable(request):
        response = HttpResponse(draw(), content_type=content_type)
    else:
        # The record says no word of the site's and no time in a zone: one per version and
        # names shown, whatever the language or the phone.
        key = page_key("record.json", *shown, language=False)
        response = cached_page(request, key, draw, content_type=content_type)
    attachment(response, f"boulmous-{game.public_id}.json")
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(GAME_IMPORT)
def import_game(request: HtmxHttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        user = getattr(request, "user", None)
        phone = request.phone
        made = make_once(
            form.cleaned_data["once"],
            lambda: services.import_record(
                record=form.cleaned_data["record"],
                owner_id=user.pk if user is not None and user.is_authenticated else None,
                by=request.actor,
            ),
            lambda state: reverse("game", args=[state.game.public_id]),
        )
        if made.thing is None:
            return made_before(request, made)
        response = redirect(made.address)
        phone.grant(made.thing.game.public_id)
        rights.write(response, phone)
        return response
    return render(request, "table/import.html", {"form": form}, status=422 if form.errors else 200)


@require_safe
def healthz(request: HtmxHttpRequest) -> JsonResponse:
    """Liveness and database reachability, for a load balancer or a monitor."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok"})
