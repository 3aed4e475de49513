"""A night's mail is kept by the end it was sent for (``night_ended_at``): reopening a
night no longer deletes the rows of the mail that went out, and its next end is mailed
again, as a correction. The rows there are belong to their night's end as it stands
(reopening deleted them until now); a row whose night has no end, which none should,
takes its own sending time."""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce


def each_row_its_nights_end(apps, schema_editor):
    MailSent = apps.get_model("scoring", "MailSent")
    Night = apps.get_model("scoring", "Night")
    end = Subquery(Night.objects.filter(pk=OuterRef("night_id")).values("ended_at")[:1])
    MailSent.objects.filter(night__isnull=False).update(night_ended_at=Coalesce(end, F("sent_at")))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0033_confirmation"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="mailsent", name="mail_sent_night_once"),
        migrations.RemoveConstraint(model_name="mailsent", name="mail_sent_night_or_season"),
        migrations.AddField(
            model_name="mailsent",
            name="night_ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(each_row_its_nights_end, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="mailsent",
            constraint=models.UniqueConstraint(
                fields=("member", "night", "night_ended_at"), name="mail_sent_night_end_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="mailsent",
            constraint=models.CheckConstraint(
                condition=models.Q(night__isnull=True, night_ended_at__isnull=True)
                & models.Q(season__isnull=False)
                | models.Q(night__isnull=False, night_ended_at__isnull=False)
                & models.Q(season__isnull=True),
                name="mail_sent_night_or_season",
            ),
        ),
    ]
