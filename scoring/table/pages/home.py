"""What the home page lists: each game in a line, from its summary row (no scoring)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

from django.utils import timezone

from ..hooks import loaded_with_game, zone_of
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
    changed_at: datetime
    """The game's last change: what the lists are ordered by, and show."""
    zone: tzinfo
    """The zone its times are shown in: its context's (a club's), else the phone's."""
    final: bool | None = None
    """Whether a won game's result is final, where the list says it (a club's recent games:
    counted by its league); None where it does not."""


def summary_relations() -> list[str]:
    """What a summary row is read with for :func:`game_summaries`: its game, and what the
    hooks read of the game (its club, for its zone), in the same query."""
    return ["game", *(f"game__{relation}" for relation in loaded_with_game)]


def game_summaries(rows: Iterable[SummaryRow]) -> list[Summary]:
    """The rows' games (read with :func:`summary_relations`), each in its zone."""
    phone = timezone.get_current_timezone()
    summaries = []
    for row in rows:
        zone = zone_of(row.game)
        summaries.append(
            Summary(
                public_id=row.game.public_id,
                scores=list(zip(row.names, row.totals, strict=True)),
                hands=row.hands,
                finished=row.status != SummaryRow.Status.PLAYING,
                abandoned=row.status == SummaryRow.Status.ABANDONED,
                winner=None if row.winner is None else row.names[row.winner],
                changed_at=row.changed_at,
                zone=ZoneInfo(zone) if zone else phone,
            )
        )
    return summaries
