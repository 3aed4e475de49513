"""The one-time tokens of the forms that make something (scoring/common/once.py), for every
create form; the new-game form's own token column, which they replace, goes."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0024_finish_kept_and_night_reopened'),
    ]

    operations = [
        migrations.CreateModel(
            name='FormSent',
            fields=[
                ('token', models.UUIDField(primary_key=True, serialize=False)),
                ('address', models.CharField(blank=True, max_length=300)),
                ('sent_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
            ],
        ),
        migrations.RemoveField(
            model_name='game',
            name='creation_token',
        ),
    ]
