"""``manage.py score_record FILE``: score a ``boulmous/1`` game record (``-`` for stdin)."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from scoring.engine import RecordError, loads, score


class Command(BaseCommand):
    help = (
        "Score a boulmous/1 game record and print the result as JSON. "
        "An invalid record prints one problem per line on standard error and exits 1."
    )
    requires_system_checks: tuple[str, ...] = ()
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: object, **options: str) -> None:
        path = options["file"]
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as error:
            self._fail([f"{path}: {error.strerror}"])
        try:
            result = score(loads(text))
        except RecordError as error:
            self._fail(str(error).splitlines())
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _fail(self, lines: list[str]) -> None:
        for line in lines:
            self.stderr.write(line, style_func=lambda text: text)
        sys.exit(1)
