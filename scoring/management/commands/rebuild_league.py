"""``manage.py rebuild_league [--club SLUG]``: a club's results, ratings and players'
totals, made again from its games' hands, compared with what was stored, the differences
said and repaired, and written to the club's history: the same code as the rebuild an
admin asks for from the club's settings page (clubs/league/checked.py)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...clubs.face import Club, ClubResult, rebuild_checked


class Command(BaseCommand):
    help = (
        "Rebuild the league (each counted game's results, the ratings and each player's "
        "totals) of one club, or of every club, from the games' hands, by the engine; say "
        "what differed from the stored figures (repaired) and write it to the club's history."
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
            checked = rebuild_checked(club)
            games = checked.games
            results = ClubResult.objects.filter(club=club).count()
            self.stdout.write(
                f"{club.slug}: {games} counted game{'' if games == 1 else 's'}, "
                f"{results} result{'' if results == 1 else 's'}"
            )
            if not checked.equal:
                self.stdout.write(
                    f"  repaired: {checked.rows} league row{'' if checked.rows == 1 else 's'}, "
                    f"the totals of {', '.join(checked.players) or 'no player'}"
                )
            total_clubs += 1
            total_games += games
        self.stdout.write(
            f"rebuilt the league of {total_clubs} club{'' if total_clubs == 1 else 's'}, "
            f"{total_games} counted game{'' if total_games == 1 else 's'}"
        )
