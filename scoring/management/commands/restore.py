"""``manage.py restore FILE``: a backup that ``manage.py backup`` wrote, into a new,
migrated, empty database (scoring/management/backup.py; README, "Backup and restore")."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS

from ..backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore the backup FILE into this database, which must be migrated to the "
        "backup's migrations and empty; in one transaction, keeping every row's id. "
        "Anything refused or damaged leaves the database as it was."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file manage.py backup wrote")
        parser.add_argument(
            "--database", default=DEFAULT_DB_ALIAS, help="the database to restore into"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            done = restore(path, options["database"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"restored {done.rows} rows of {done.tables} tables from {path}")
