"""A game: its ``boulmous/1`` record and the engine's report of it (docs/record-format.md),
with the rights of its page (Action.WATCH_GAME: anyone given its id) and its players named
as its page names them for this request."""

from typing import Any

from django.http import HttpRequest
from ninja import Router

from ..common.rights import Action
from ..engine import record_to_dict, result_to_dict
from ..table.face import Game, exported, finality, hooks, load_shown, may
from . import errors
from .schemas import ERRORS, GameId, GameOut

router = Router(tags=["games"])


@router.get(
    "/games/{game_id}", response={200: GameOut, **ERRORS}, url_name="game", operation_id="game"
)
def game(request: HttpRequest, game_id: GameId) -> dict[str, Any]:
    """A game's record, as its page exports it, and the engine's report of it: each hand
    scored, the totals, the winner, the boîtes and boulmous, and the money's settlement."""
    found = Game.objects.select_related(*hooks.loaded_with_game).filter(public_id=game_id).first()
    if found is None:
        raise errors.not_found(errors.NO_GAME)
    can_score = may(request, Action.SCORE_GAME, game_id, found)  # type: ignore[arg-type]
    state = load_shown(request, found, can_score=can_score)
    return {
        "id": found.public_id,
        "record": record_to_dict(exported(state)),
        "report": result_to_dict(state.result),
        "finality": finality(state),
    }
