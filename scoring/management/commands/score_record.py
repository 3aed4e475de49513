"""``manage.py score_record FILE``: ``boulmous-score`` as a Django command (``-`` for stdin)."""

import io
import sys

from django.core.management.base import BaseCommand, CommandParser

from ...engine.cli import score_file


class Command(BaseCommand):
    help = (
        "Score a boulmous/1 game record and print the result as JSON. "
        "An invalid record prints one problem per line on standard error and exits 1."
    )
    # It reads a file and needs no database, settings check or SECRET_KEY.
    requires_system_checks: tuple[str, ...] = ()
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: object, **options: str) -> None:
        # The console scorer does the work, so that both print the same bytes; its
        # output goes through the command's streams (call_command may capture them),
        # unstyled: an error line is not coloured.
        stdout, stderr = io.StringIO(), io.StringIO()
        status = score_file(options["file"], stdout=stdout, stderr=stderr)
        self.stdout.write(stdout.getvalue(), ending="")
        self.stderr.write(stderr.getvalue(), style_func=lambda text: text, ending="")
        if status:
            sys.exit(status)
