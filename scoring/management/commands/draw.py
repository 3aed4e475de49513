"""``manage.py draw --players N --rounds R [--seed S]``: a club night's table draw as JSON."""

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...engine import RulesError
from ...engine.draw import check_size, draw, draw_json


class Command(BaseCommand):
    help = (
        "Print the table draw of players numbered 1..N over R rounds as JSON (league.md). "
        "Invalid arguments print one line on standard error and exit 1."
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
        parser.add_argument("--players", type=int, required=True, help="players, 4 or more")
        parser.add_argument("--rounds", type=int, required=True, help="rounds, 1 or more")
        parser.add_argument("--seed", type=int, default=0, help="the same seed, the same draw")

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
        except CommandError as error:
            self.fail(str(error).removeprefix("Error: "))

    def fail(self, message: str) -> NoReturn:
        self.stderr.write(f"draw: {message}", style_func=lambda text: text)
        sys.exit(1)

    def handle(self, *args: object, **options: Any) -> None:
        players, rounds = options["players"], options["rounds"]
        try:
            check_size(players, rounds)  # before numbering them: -5 players are not 0
            planned = draw(range(1, players + 1), rounds, seed=options["seed"])
        except RulesError as error:
            self.fail(str(error))
        else:
            self.stdout.write(draw_json(planned))
