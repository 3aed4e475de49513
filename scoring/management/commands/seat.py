"""``manage.py seat FILE [--seed S]``: an event round's seating question answered as JSON."""

import sys
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...engine import RulesError
from ...engine.seating import seat_json


class Command(BaseCommand):
    help = (
        "Read a seating question (JSON: method, ranking, history, forbidden) from FILE and "
        "print the round's seating as JSON (events.md). A question that cannot be seated "
        "prints one line on standard error and exits 1."
    )
    # It computes and prints: no database, settings check or SECRET_KEY needed.
    requires_system_checks: tuple[str, ...] = ()
    requires_migrations_checks = False

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # A bad argument raises CommandError, as under call_command, instead of printing the
        # usage and exiting 2: run_from_argv makes it the one line and status 1 of the spec.
        parser.called_from_command_line = False
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the seating question, JSON ('-' for standard input)")
        parser.add_argument("--seed", default="0", help="the same seed, the same seating")

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
        except CommandError as error:
            self.fail(str(error).removeprefix("Error: "))

    def fail(self, message: str) -> NoReturn:
        self.stderr.write(f"seat: {message}", style_func=lambda text: text)
        sys.exit(1)

    def handle(self, *args: object, **options: Any) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self.fail(f"{name}: {error.strerror if isinstance(error, OSError) else error}")
        try:
            answer = seat_json(text, seed=options["seed"])
        except RulesError as error:
            self.fail(" ".join(str(error).split()))
        else:
            self.stdout.write(answer)
