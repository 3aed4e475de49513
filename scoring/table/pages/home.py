"""What the home page lists: each game in a line, from its summary row (no scoring)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from ..models import Summary as SummaryRow


@dataclass(frozen=True)
class Summary:
    public_id: str
    scores: list[tuple[str, int]]
    hands: int
    finished: bool
    """Won, or abandoned."""
    abandoned: bool
    winner: str | None
    created_at: datetime


def game_summaries(rows: Iterable[SummaryRow]) -> list[Summary]:
    return [
        Summary(
            public_id=row.game.public_id,
            scores=list(zip(row.names, row.totals, strict=True)),
            hands=row.hands,
            finished=row.status != SummaryRow.Status.PLAYING,
            abandoned=row.status == SummaryRow.Status.ABANDONED,
            winner=None if row.winner is None else row.names[row.winner],
            created_at=row.game.created_at,
        )
        for row in rows
    ]
