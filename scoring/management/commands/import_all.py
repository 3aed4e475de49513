"""``manage.py import_all DIR``: restore the games that ``export_all DIR`` wrote.

Each ``*.json`` file goes the way of an import on the site: the import form's checks,
then the import service, in one transaction per file. A game whose record id is already
here is skipped; a file refused is named on standard error with its problems, the others
are imported all the same, and the command then exits with status 1.
"""

import os
import sys
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.datastructures import MultiValueDict

from ...table.face import Game, ImportForm, import_record

IMPORTED, SKIPPED = "imported", "skipped"


class Command(BaseCommand):
    help = (
        "Import every boulmous/1 record file (*.json) in DIR, as export_all writes them, "
        "each checked as the import page checks it. Games already here (the same record id) "
        "are skipped. A file refused is named on standard error with its problems; the "
        "others are imported, and the command exits with status 1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", help="the directory export_all wrote")

    def handle(self, *args: Any, **options: Any) -> None:
        directory = Path(options["directory"])
        try:
            paths = sorted(path for path in directory.iterdir() if path.suffix == ".json")
        except OSError as error:
            raise CommandError(f"{directory}: {error.strerror}") from None
        counts = {IMPORTED: 0, SKIPPED: 0}
        failed = 0
        for path in paths:
            outcome = self._import(path)
            if isinstance(outcome, list):
                failed += 1
                for problem in outcome:
                    self.stderr.write(f"{path.name}: {problem}", style_func=lambda text: text)
            else:
                counts[outcome] += 1
        imported = counts[IMPORTED]
        self.stdout.write(
            f"imported {imported} game{'' if imported == 1 else 's'} from {directory}, "
            f"skipped {counts[SKIPPED]} already here, {failed} failed"
        )
        if failed:
            sys.exit(1)

    @staticmethod
    def _import(path: Path) -> str | list[str]:
        """IMPORTED or SKIPPED, or the problems that refused the file."""
        try:
            with path.open("rb") as handle:
                # As the page receives it: the size known, the file read only if not too large.
                upload = UploadedFile(handle, path.name, size=os.fstat(handle.fileno()).st_size)
                form = ImportForm({}, MultiValueDict({"file": [upload]}))
                valid = form.is_valid()
        except OSError as error:
            return [str(error.strerror)]
        if not valid:
            return [str(message) for messages in form.errors.values() for message in messages]
        record = form.cleaned_data["record"]
        with transaction.atomic():
            if record.about.id and Game.objects.filter(record_id=record.about.id).exists():
                return SKIPPED
            import_record(record=record)
        return IMPORTED
