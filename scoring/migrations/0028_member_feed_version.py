from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0027_boulmous_doubled'),
    ]

    operations = [
        migrations.AddField(
            model_name='member',
            name='feed_version',
            field=models.PositiveIntegerField(default=0),
        ),
    ]
