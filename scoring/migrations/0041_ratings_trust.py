"""The club's rating settings (league.md, "Ratings people trust"). Idle growth is on for
clubs made from now on; the clubs already there keep their ratings as they are (off) until
an admin turns it on, which rates their games again."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0040_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="idle_growth",
            field=models.BooleanField(default=False, verbose_name="idle growth"),
        ),
        migrations.AlterField(
            model_name="club",
            name="idle_growth",
            field=models.BooleanField(default=True, verbose_name="idle growth"),
        ),
        migrations.AddField(
            model_name="club",
            name="idle_rate",
            field=models.FloatField(default=0.04, verbose_name="idle rate"),
        ),
        migrations.AddField(
            model_name="club",
            name="provisional_games",
            field=models.PositiveIntegerField(default=10, verbose_name="provisional games"),
        ),
        migrations.AddField(
            model_name="club",
            name="provisional_sigma",
            field=models.FloatField(default=6.0, verbose_name="provisional sigma"),
        ),
        migrations.AddField(
            model_name="club",
            name="ranked_days",
            field=models.PositiveIntegerField(default=60, verbose_name="ranked days"),
        ),
        migrations.AddField(
            model_name="club",
            name="ranked_games",
            field=models.PositiveIntegerField(default=20, verbose_name="ranked games"),
        ),
    ]
