"""``manage.py rebuild_league [--club SLUG]``: a club's results, ratings and players'
totals, made again from its games' hands."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from ...clubs.face import Club, ClubResult, rebuild_league


class Command(BaseCommand):
    help = (
        "Rebuild the league (each counted game's results, the ratings and each player's "
        "totals) of one club, or of every club, from the games' hands, by the engine."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", metavar="SLUG", help="only this club (its address)")

    def handle(self, *args: Any, **options: Any) -> None:
        slug: str | None = options["club"]
        clubs = Club.objects.order_by("slug")
        if slug is not None:
            clubs = clubs.filter(slug=slug)
            if not clubs.exists():
                raise CommandError(f"--club {slug}: no club has this address")
        total_clubs = total_games = 0
        for club in clubs:
            with transaction.atomic():
                games = rebuild_league(club)
                results = ClubResult.objects.filter(club=club).count()
            self.stdout.write(
                f"{club.slug}: {games} counted game{'' if games == 1 else 's'}, "
                f"{results} result{'' if results == 1 else 's'}"
            )
            total_clubs += 1
            total_games += games
        self.stdout.write(
            f"rebuilt the league of {total_clubs} club{'' if total_clubs == 1 else 's'}, "
            f"{total_games} counted game{'' if total_games == 1 else 's'}"
        )
