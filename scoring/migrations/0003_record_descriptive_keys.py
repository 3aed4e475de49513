import secrets

from django.db import migrations, models

import scoring.models


def draw_record_ids(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.filter(record_id__isnull=True).only("pk"):
        game.record_id = secrets.token_urlsafe(12)
        game.save(update_fields=["record_id"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_place_and_abandon"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="record_id",
            field=models.CharField(max_length=64, null=True, verbose_name="record id"),
        ),
        migrations.RunPython(draw_record_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="record_id",
            field=models.CharField(
                default=scoring.models.new_record_id,
                max_length=64,
                unique=True,
                verbose_name="record id",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="club_label",
            field=models.CharField(blank=True, max_length=80, verbose_name="club name"),
        ),
        migrations.AddField(
            model_name="game",
            name="season_label",
            field=models.CharField(blank=True, max_length=80, verbose_name="season name"),
        ),
    ]
