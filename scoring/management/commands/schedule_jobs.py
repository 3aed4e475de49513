"""``manage.py schedule_jobs``: exactly one daily job waiting in the queue, at the next
``BACKUP_AT`` (scoring/management/daily.py). ``make run`` and the worker's systemd unit run
it at start; run again, it changes nothing."""

from typing import Any

from django.core.management.base import BaseCommand

from ..daily import schedule


class Command(BaseCommand):
    help = (
        "Make sure exactly one daily job (the mail due, the backup) waits in the queue, at"
        " the next BACKUP_AT (UTC). Run again, it changes nothing."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        at = schedule()
        self.stdout.write(f"The daily job runs next at {at.isoformat()}.")
