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

from .api import EXAMPLES, api

SUMMARIES: dict[str, Promise] = {
    "club": _("The club: its name, time zone, rules and league points, and its seasons."),
    "standings": _(
        "A season's standings: one object per line of its standings.csv, its columns' names "
        "as keys, in the same order."
    ),
    "federation_ranking": _(
        "A federation's ranking today: one object per line of its ranking.csv, and its clubs."
    ),
    "ratings": _(
        "The club's ratings list on a day: the ranked players, then the others apart with "
        "their reason, as its season page shows it."
    ),
    "club_games": _("The club's games, newest first, filtered, 50 a page."),
    "player": _("A player's figures, as his page shows them."),
    "nights": _("The club's nights, the latest first."),
    "night": _("A night: its rounds, their tables and who sat out."),
    "events": _("The club's events, newest first: its public ones for anyone else."),
    "event": _(
        "An event: its nights, its published rounds and their tables, its ranking with each "
        "tie-break value, its finals and its prizes."
    ),
    "game": _("A game's boulmous/1 record and the engine's report of it."),
    "changes": _(
        "The club's history, for its admins: every change and who made it, newest first, 50 a page."
    ),
    "record_hand": _(
        "Record the game's next hand, as the game page's form does; the same token sent "
        "again records nothing more. Answers the game as it now stands."
    ),
    "edit_hand": _(
        "Change a recorded hand, as its edit page does; the hands after it are scored again."
    ),
    "undo_hand": _("Undo the game's last hand, as the game page's Undo does."),
}
"""What each endpoint answers, by its name, in the page's language."""

PARAMETERS: dict[tuple[str, str], Promise] = {
    ("path", "club"): _("The club's address (demo in /clubs/demo)."),
    ("path", "season"): _("The season's address, as in its page's."),
    ("path", "federation"): _("The federation's address (sahel in /federations/sahel/)."),
    ("path", "player_id"): _("A player's number, as in his page's address."),
    ("path", "night_id"): _("A night's number, as in its page's address."),
    ("path", "event_id"): _("An event's number, as in its page's address."),
    ("path", "game_id"): _("A game's identifier, as in its page's address."),
    ("path", "number"): _("The hand's number in the game, from 1."),
    ("query", "season"): _("A season's address: its days' games."),
    ("query", "player"): _("A player's number: his games."),
    ("query", "night"): _("A night's number: its games."),
    ("query", "status"): _("playing, won or abandoned: the games in that state."),
    ("query", "since"): _("From this day on, in the club's zone."),
    ("query", "until"): _("Up to this day, in the club's zone."),
    ("query", "day"): _("The list's day, in the club's zone; today if not given."),
    ("query", "page"): _("The page of 50 lines (games, changes), from 1."),
    ("query", "kind"): _("A kind of change, as the history keeps it: its changes alone."),
}
"""What each parameter is, by where it is given and its name, in the page's language (the
OpenAPI document says it in English only)."""


BODIES = {
    "record_hand": '{"number": 1, "token": "UUID", "taker": 1, "bid": 4, "trump": "H", '
    '"tricks": [1, 4, 0]}',
    "edit_hand": '{"taker": 2, "bid": 4, "trump": "S", "tricks": [1, 0, 4]}',
}
"""The body each write's curl line sends."""

ADMINS_ONLY = {"changes"}
"""The reads a club's admins alone may make: their curl line sends a token."""


def _curl(method: str, name: str, url: str) -> str:
    """The curl line of an endpoint: a write, or a read for admins, with its token; a
    write with its body."""
    if method == "GET":
        token = " -H 'Authorization: Bearer $TOKEN'" if name in ADMINS_ONLY else ""
        return f"curl -H 'Accept-Language: en'{token} {url}"
    line = f"curl -X {method} -H 'Authorization: Bearer $TOKEN'"
    if name in BODIES:
        line += f" -H 'Content-Type: application/json' -d '{BODIES[name]}'"
    return f"{line} {url}"


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
                            "description": PARAMETERS.get(
                                (parameter["in"], parameter["name"]),
                                parameter.get("description", ""),
                            ),
                        }
                        for parameter in parameters
                    ],
                    "curl": _curl(method.upper(), name, request.build_absolute_uri(example)),
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
