"""``manage.py export_all DIR``: every game as a ``boulmous/1`` record file, for a backup.

One file per game, ``<record id>.json``, holding what the game's download holds: the
record with its descriptive keys. ``import_all DIR`` restores them.
"""

import gc
import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import dumps
from scoring.models import Game
from scoring.state import exported, load_games

BATCH = 200
"""Games loaded at a time (three queries each): memory stays flat however many there are."""


def file_name(record_id: str) -> str:
    """The file of a game: its record id, with ``%`` escapes for what a file name cannot
    hold (``/`` above all). Ids drawn by this site are letters, digits, ``-`` and ``_``;
    an id imported from elsewhere so long once escaped that no file name could hold it is
    cut short, and a hash of it keeps the name its own."""
    name = quote(record_id, safe="")
    if len(name) > 200:  # file names have 255 bytes at most
        name = f"{name[:150]}~{hashlib.sha256(record_id.encode()).hexdigest()[:32]}"
    return name + ".json"


class Command(BaseCommand):
    help = (
        "Write every game to DIR as a boulmous/1 record file, <record id>.json, with its "
        "descriptive keys. DIR is created if need be, and must be empty. "
        "import_all DIR restores them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", help="where to write: a new or empty directory")

    def handle(self, *args: Any, **options: Any) -> None:
        directory = Path(options["directory"])
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if any(directory.iterdir()):
                raise CommandError(f"{directory}: not empty; export to a new directory")
            count = self._export(directory)
        except OSError as error:
            raise CommandError(f"{error.filename or directory}: {error.strerror}") from None
        self.stdout.write(f"exported {count} game{'' if count == 1 else 's'} to {directory}")

    def _export(self, directory: Path) -> int:
        written: set[str] = set()
        last: int | None = 0
        while last is not None:
            last = self._export_batch(directory, last, written)
            # A batch's rows hold one another (a game its hands, each hand its game), so
            # they are freed by the collector, not when let go: collect them now.
            gc.collect()
        return len(written)

    @staticmethod
    def _export_batch(directory: Path, after: int, written: set[str]) -> int | None:
        """The games after pk ``after``, one batch of them: the last pk written, or None
        when there were none left. The batch is let go before the next is loaded."""
        states = load_games(Game.objects.filter(pk__gt=after).order_by("pk")[:BATCH])
        for state in states:
            name = file_name(state.game.record_id)
            # Two ids may differ only in case, which some file systems do not tell apart.
            if name.casefold() in written:
                raise CommandError(f"{directory / name}: two games would share this file")
            written.add(name.casefold())
            (directory / name).write_text(dumps(exported(state)) + "\n", encoding="utf-8")
        return states[-1].game.pk if states else None
