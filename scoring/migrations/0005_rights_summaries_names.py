"""Game rights (unguessable ids, owners, scorer links), who made each change, names
compared the same way in every database, one game per new-game form, and per-game
summaries for lists, filled from the games already there."""

import secrets
import unicodedata

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import scoring.models


def key_players(apps, schema_editor):
    """Each player's compared name; players whose names now compare equal become one."""
    Player = apps.get_model("scoring", "Player")
    Seat = apps.get_model("scoring", "Seat")
    kept = {}
    for player in Player.objects.order_by("pk"):
        key = unicodedata.normalize("NFC", player.name).casefold()
        if key in kept:
            Seat.objects.filter(player=player).update(player=kept[key])
            player.delete()
            continue
        player.key = key
        player.save(update_fields=["key"])
        kept[key] = player


def draw_public_ids(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.filter(public_id__isnull=True).only("pk"):
        game.public_id = secrets.token_urlsafe(16)
        game.save(update_fields=["public_id"])


def summarise_games(apps, schema_editor):
    """The games already there, summarised by the engine from their hands."""
    from scoring.engine import FailedTaker, Record, Rules, dealer_of, decimals, hand_from_dict
    from decimal import Decimal

    Game = apps.get_model("scoring", "Game")
    Summary = apps.get_model("scoring", "Summary")
    for game in Game.objects.prefetch_related("seats__player", "hands", "changes"):
        names = [seat.player.name for seat in sorted(game.seats.all(), key=lambda s: s.position)]
        hands = sorted(game.hands.all(), key=lambda hand: hand.number)
        stake = Decimal(game.stake).quantize(Decimal(1).scaleb(-decimals(game.currency)))
        rules = Rules(game.target, FailedTaker(game.failed_taker), stake, game.currency)
        record = Record(
            tuple(names),
            game.first_dealer,
            rules,
            tuple(
                hand_from_dict(_hand_dict(hand), dealer_of(index, game.first_dealer))
                for index, hand in enumerate(hands)
            ),
        )
        result = record.score()
        status = "won" if result.finished else "abandoned" if game.abandoned_at else "playing"
        latest = max((change.at for change in game.changes.all()), default=game.created_at)
        Summary.objects.create(
            game=game,
            names=names,
            totals=list(result.totals),
            leaders=list(result.leading),
            status=status,
            hands=len(hands),
            winner=result.winner,
            changed_at=latest,
        )


def _hand_dict(hand):
    if not hand.trump:
        return {"calls": ["pass"] * 4}
    data = {"calls": hand.calls} if hand.calls else {"taker": hand.taker, "bid": hand.bid}
    data["trump"] = hand.trump
    if hand.plays:
        data["plays"] = hand.plays
    else:
        data["tricks"] = hand.tricks
    return data


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_change_redone"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_ignoring_case"),
        migrations.AddField(
            model_name="player",
            name="key",
            field=models.CharField(max_length=160, null=True),
        ),
        migrations.RunPython(key_players, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="key",
            field=models.CharField(max_length=160, unique=True),
        ),
        migrations.AddField(
            model_name="game",
            name="public_id",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(draw_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.CharField(
                default=scoring.models.new_public_id, max_length=32, unique=True
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="games",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="creation_token",
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="change",
            name="by_device",
            field=models.CharField(blank=True, max_length=60),
        ),
        migrations.AddField(
            model_name="change",
            name="by_user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.CreateModel(
            name="ScorerLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "secret",
                    models.CharField(
                        default=scoring.models.new_public_id, max_length=32, unique=True
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scorer_links",
                        to="scoring.game",
                    ),
                ),
            ],
            options={"ordering": ["created_at", "id"]},
        ),
        migrations.CreateModel(
            name="Summary",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        serialize=False,
                        to="scoring.game",
                    ),
                ),
                ("names", models.JSONField()),
                ("totals", models.JSONField()),
                ("leaders", models.JSONField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("playing", "playing"),
                            ("won", "won"),
                            ("abandoned", "abandoned"),
                        ],
                        max_length=10,
                    ),
                ),
                ("hands", models.PositiveSmallIntegerField()),
                ("winner", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("changed_at", models.DateTimeField()),
            ],
            options={
                "indexes": [models.Index(fields=["-changed_at"], name="summary_changed_at")]
            },
        ),
        migrations.RunPython(summarise_games, migrations.RunPython.noop),
    ]
