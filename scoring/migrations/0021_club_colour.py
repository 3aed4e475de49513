"""A club's colour, for its standings framed on its website (issue 22.4): the site's green
unless an admin chooses another."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0020_club_embed_origins")]

    operations = [
        migrations.AddField(
            model_name="club",
            name="colour",
            field=models.CharField(default="#0f5132", max_length=7, verbose_name="colour"),
        ),
    ]
