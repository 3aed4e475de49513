"""The websites a club lets show its standings in a frame (issue 22.4): none by default."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0019_mail_subscriptions")]

    operations = [
        migrations.AddField(
            model_name="club",
            name="embed_origins",
            field=models.JSONField(
                default=list, verbose_name="websites that may show the standings"
            ),
        ),
    ]
