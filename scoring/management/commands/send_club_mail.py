"""``manage.py send_club_mail``: the club mail still due (scoring/clubs/mail.py), from cron."""

from typing import Any

from django.core.management.base import BaseCommand

from ...clubs.face import send_due


class Command(BaseCommand):
    help = (
        "Send the club mail members asked for and have not had: nights ended, seasons over."
        " Run again, it sends nothing more."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        sent = send_due()
        self.stdout.write(f"{sent} mail(s) sent.")
