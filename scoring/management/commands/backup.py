"""``manage.py backup FILE``: the whole database in one file, which ``restore`` reads back
into an empty one (scoring/management/backup.py; README, "Backup and restore")."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS

from ..backup import LEFT_OUT, BackupError, write_backup


class Command(BaseCommand):
    help = (
        "Write every table of the database to FILE (a new file), from one snapshot: "
        "accounts, clubs, games and all, but " + ", ".join(sorted(LEFT_OUT)) + ". "
        "restore FILE reads it back into a new, migrated, empty database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup to write: a new file")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database to back up")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            done = write_backup(path, options["database"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            raise CommandError(f"{error.filename or path}: {error.strerror}") from None
        self.stdout.write(f"backed up {done.rows} rows of {done.tables} tables to {path}")
