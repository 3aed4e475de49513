"""An unverified address lapses (issue 39, item 6): each address keeps when it was given
(``claimed_at``), and one not verified within its link's 3 days lapses, its address
emptied. The rows there are get this migration's time, verified or not: an unverified one
lapses 3 days after the deploy, never at once. An emptied address is never a verified one."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0030_history_members"),
    ]

    operations = [
        # The default is called once, for every row there is: the migration's time.
        migrations.AddField(
            model_name="accountemail",
            name="claimed_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddConstraint(
            model_name="accountemail",
            constraint=models.CheckConstraint(
                condition=~models.Q(address="") | models.Q(verified_at__isnull=True),
                name="account_email_lapsed_unverified",
            ),
        ),
    ]
