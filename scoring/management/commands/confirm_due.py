"""``manage.py confirm_due``: the won games whose result became final by time alone since
their last change (scoring/table/services.py ``count_due``) are counted now, by a club's
league as by anything that counts final results; from cron, every few minutes."""

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from ...table.face import count_due, due_games


class Command(BaseCommand):
    help = (
        "Count the won games whose result became final by time alone (a hand, the"
        " signatures or the settlement confirmed by its minutes) since their last change."
        " Run again, it changes nothing more."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=7,
            help="Look at the games changed within this many days (default 7).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        since = timezone.now() - timedelta(days=options["days"])
        games = due_games(since).values_list("public_id", flat=True)
        counted = sum(count_due(public_id=public_id) for public_id in games)
        self.stdout.write(f"{counted} game(s) final by time counted.")
