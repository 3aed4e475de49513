"""The live view (issue 13): every open page of a game follows it within seconds.

A game's version is its summary's ``changed_at`` (``pages.game.version_of``), which every
change of the game writes in its own transaction. The game page shows the version it was
drawn from, and static/js/live.js asks ``games/<gid>/live`` every second and a half with
it, as ``If-None-Match``:

- unchanged: a 304 with no body, from one indexed query (the summary joined to the game's
  unique public id), reading no session, no account, no hand, and scoring nothing. It is
  what almost every ask gets; ``LiveMiddleware`` (views/live_middleware.py) gives it early
  in Django's middleware, after Django's security, so this view rarely has to.
- changed: a 200 with the page's fragments drawn anew, as this phone sees them (edit and
  undo for a scorer only): the board (winner, totals, tie, last hand), the scores (money,
  sheet, chart, history), and for a scorer of a game still playing, the next hand's form,
  from which live.js renumbers the form being filled without replacing it. The new version
  is its ETag, and the board's ``data-version``.

Anyone with the game's address may watch it: rights only decide what the fragments show.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ...infra.etags import etag, unchanged
from ..access import load_shown, may
from ..hooks import loaded_with_game
from ..models import Game
from ..pages.game import game_clock
from .live_middleware import (
    CACHE_CONTROL,
    current_version,
    not_modified,
    shown_version,
)
from .table import game_context


@require_safe
def game_live(request: HtmxHttpRequest, gid: str) -> HttpResponse:
    version = current_version(gid)
    if version is None:
        raise Http404
    shown = shown_version(version, request)
    if unchanged(request.META.get("HTTP_IF_NONE_MATCH", ""), shown):
        return not_modified(shown)
    # Read after the version: a change made meanwhile is drawn under the older version,
    # and the next ask gets it again, rather than never.
    game = get_object_or_404(Game.objects.select_related(*loaded_with_game), public_id=gid)
    can_score = may(request, Action.SCORE_GAME, gid, game)
    state = load_shown(request, game, can_score=can_score)
    with game_clock(game):
        context = game_context(request, state, can_score=can_score, version=version)
        response = render(request, "table/game.html#live", context)
    response["ETag"] = etag(shown)
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Cookie"])
    return response
