"""Each player's sums over his club's counted games, kept in one row (PlayerTotals), so that
his page reads it rather than adding up his thousands of league rows; counted here for the
clubs there are, from their league rows (scoring/clubs/league/totals.py ``tally``)."""

import django.db.models.deletion
from django.db import migrations, models


def count_all(apps, schema_editor):
    from scoring.clubs.league.totals import tally

    # The rows and totals as they are at this migration, whatever columns later ones add.
    results = apps.get_model("scoring", "ClubResult")
    totals = apps.get_model("scoring", "PlayerTotals")
    columns = [field.attname for field in results._meta.concrete_fields if not field.primary_key]
    kept = {field.name for field in totals._meta.concrete_fields}
    for club_id in apps.get_model("scoring", "Club").objects.values_list("pk", flat=True):
        rows = results.objects.filter(club_id=club_id).values_list(*columns)
        totals.objects.bulk_create(
            totals(
                club_id=club_id,
                key=key,
                **{name: value for name, value in sums.fields().items() if name in kept},
            )
            for key, sums in tally(rows, columns).items()
        )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0022_fewer_index_entries")]

    operations = [
        migrations.CreateModel(
            name="PlayerTotals",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=160)),
                ("figures", models.JSONField(default=dict)),
                ("amount", models.DecimalField(decimal_places=4, max_digits=18, null=True)),
                ("contracts", models.JSONField(default=dict)),
                ("meetings", models.JSONField(default=dict)),
                (
                    "club",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="totals",
                        to="scoring.club",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("club", "key"), name="player_totals_unique")
                ],
            },
        ),
        migrations.RunPython(count_all, migrations.RunPython.noop, elidable=False),
    ]
