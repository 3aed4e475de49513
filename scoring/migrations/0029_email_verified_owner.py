"""An address is unique among verified addresses only (issue 39): an unverified claim blocks
nobody. A partial unique index, so that two accounts verifying one address at once cannot
both have it."""

import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0028_member_feed_version"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="accountemail",
            name="account_email_unique_ci",
        ),
        migrations.AddConstraint(
            model_name="accountemail",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("address"),
                condition=models.Q(verified_at__isnull=False),
                name="account_email_verified_unique_ci",
            ),
        ),
    ]
