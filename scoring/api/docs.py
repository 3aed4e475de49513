"""The API's page: each endpoint of the OpenAPI document, what it answers, its parameters and
a curl line, drawn on the server in the site's style (no script, nothing from elsewhere: the
site's Content-Security-Policy holds)."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from .api import api

SUMMARIES: dict[str, Promise] = {
    "club": _("The club: its name, time zone, rules and league points, and its seasons."),
    "standings": _(
        "A season's standings: one object per line of its standings.csv, its columns' names "
        "as keys, in the same order."
    ),
    "club_games": _("The club's games, newest first, filtered, 50 a page."),
    "player": _("A player's figures, as his page shows them."),
    "nights": _("The club's nights, the latest first."),
    "night": _("A night: its rounds, their tables and who sat out."),
    "game": _("A game's boulmous/1 record and the engine's report of it."),
}
"""What each endpoint answers, by its name, in the page's language."""

EXAMPLES = {
    "club": "demo",
    "season": "march-may-2025",
    "player_id": "1",
    "night_id": "1",
    "game_id": "GAME_ID",
}


def _endpoints(request: HttpRequest) -> list[dict[str, Any]]:
    schema = api.get_openapi_schema()
    found = []
    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            name = operation["operationId"]
            parameters = operation.get("parameters", [])
            example = route
            for key, value in EXAMPLES.items():
                example = example.replace("{" + key + "}", value)
            found.append(
                {
                    "method": method.upper(),
                    "route": route,
                    "summary": SUMMARIES.get(name, operation.get("summary", "")),
                    "parameters": [
                        {
                            "name": parameter["name"],
                            "where": parameter["in"],
                            "required": parameter.get("required", False),
                            "description": parameter.get("description", ""),
                        }
                        for parameter in parameters
                    ],
                    "curl": f"curl -H 'Accept-Language: en' {request.build_absolute_uri(example)}",
                }
            )
    return found


@require_safe
def page(request: HttpRequest) -> HttpResponse:
    context = {
        "endpoints": _endpoints(request),
        "openapi": request.build_absolute_uri(reverse("api:openapi-json")),
    }
    return render(request, "api/docs.html", context)
