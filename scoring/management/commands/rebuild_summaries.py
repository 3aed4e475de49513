"""``manage.py rebuild_summaries``: every game's summary row, made again from its hands."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Max

from ...table.face import Game, Summary, load_games, summary_of

BATCH = 200


class Command(BaseCommand):
    help = "Rebuild every game's summary row (what lists show) from its hands, by the engine."

    def handle(self, *args: Any, **options: Any) -> None:
        ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(ids), BATCH):
            with transaction.atomic():
                games = (
                    Game.objects.filter(pk__in=ids[start : start + BATCH])
                    .annotate(latest=Max("changes__at"))
                    .order_by("pk")
                )
                for state in load_games(games):
                    changed = getattr(state.game, "latest", None) or state.game.created_at
                    Summary.objects.update_or_create(
                        game=state.game, defaults={**summary_of(state), "changed_at": changed}
                    )
        self.stdout.write(f"rebuilt the summaries of {len(ids)} games")
