"""``manage.py export_all DIR``: every game as a ``boulmous/1`` record file, for a backup.

One file per game, ``<record id>.json``, holding what the game's download holds: the
record with its descriptive keys. ``import_all DIR`` restores them.
"""

import gc
import hashlib
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...engine import dumps
from ...table.face import Game, exported, load_games

BATCH = 200
"""Games loaded at a time (three queries each): memory stays flat however many there are."""


def file_name(record_id: str, *, hashed: bool = False) -> str:
    """The file of a game: its record id, with ``%`` escapes for what a file name cannot
    hold (``/`` above all). Ids drawn by this site are letters, digits, ``-`` and ``_``.

    ``hashed`` adds a hash of the id, which keeps apart ids that differ only in case (one
    file on some file systems); an id imported from elsewhere so long once escaped that
    no file name could hold it is cut short, and hashed too.
    """
    name = quote(record_id, safe="")
    if hashed or len(name) > 200:  # file names have 255 bytes at most
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
        # Ids that differ only in case get hashed names, whatever order the games are in.
        names = Counter(
            file_name(record_id).casefold()
            for record_id in Game.objects.values_list("record_id", flat=True).iterator()
        )
        clashing = {name for name, count in names.items() if count > 1}
        written: set[str] = set()
        last: int | None = 0
        while last is not None:
            last = self._export_batch(directory, last, clashing, written)
            # A batch's rows hold one another (a game its hands, each hand its game), so
            # they are freed by the collector, not when let go: collect them now.
            gc.collect()
        return len(written)

    @staticmethod
    def _export_batch(
        directory: Path, after: int, clashing: set[str], written: set[str]
    ) -> int | None:
        """The games after pk ``after``, one batch of them: the last pk written, or None
        when there were none left. The batch is let go before the next is loaded."""
        states = load_games(Game.objects.filter(pk__gt=after).order_by("pk")[:BATCH])
        for state in states:
            record_id = state.game.record_id
            name = file_name(record_id, hashed=file_name(record_id).casefold() in clashing)
            if name.casefold() in written:  # a game imported since the export began
                raise CommandError(f"{directory / name}: two games would share this file")
            written.add(name.casefold())
            (directory / name).write_text(dumps(exported(state)) + "\n", encoding="utf-8")
        return states[-1].game.pk if states else None
