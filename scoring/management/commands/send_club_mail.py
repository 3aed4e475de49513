"""``manage.py send_club_mail``: the catch-up of the club mail still due
(scoring/clubs/mail.py): it queues a job for each, and the worker sends them. The daily job
runs it too (scoring/management/daily.py); a cron line is no longer needed."""

from typing import Any

from django.core.management.base import BaseCommand

from ...clubs.face import queue_due


class Command(BaseCommand):
    help = (
        "Queue a job for each club mail members asked for and have not had (nights ended,"
        " seasons over, disputes open), for the worker to send. A mail queued twice goes"
        " out once."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        queued = queue_due()
        self.stdout.write(f"{queued} mail(s) queued.")
