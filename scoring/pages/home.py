"""What the home page lists: each game in a line, from the engine's result."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..engine import Ending
from ..state import GameState


@dataclass(frozen=True)
class Summary:
    pk: int
    scores: Sequence[tuple[str, int]]
    hands: int
    finished: bool
    """Won, or abandoned."""
    abandoned: bool
    winner: str | None
    created_at: datetime


def game_summaries(states: Sequence[GameState]) -> list[Summary]:
    return [
        Summary(
            pk=state.game.pk,
            scores=list(zip(state.names, state.result.totals, strict=True)),
            hands=len(state.hands),
            finished=state.ending.over,
            abandoned=state.ending is Ending.ABANDONED,
            winner=None if state.result.winner is None else state.names[state.result.winner],
            created_at=state.game.created_at,
        )
        for state in states
    ]
