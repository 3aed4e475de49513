from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_club_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="member",
            name="retired_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="retired"),
        ),
    ]
