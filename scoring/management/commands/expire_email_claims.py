"""``manage.py expire_email_claims``: the addresses given and not verified within their
link's days lapse (scoring/accounts/services.py ``expire_claims``), from cron, daily."""

from typing import Any

from django.core.management.base import BaseCommand

from ...accounts.face import expire_claims


class Command(BaseCommand):
    help = (
        "Let the email addresses not verified as long as their link lasts lapse: their"
        " accounts have no address any more. Run again, it changes nothing more."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        lapsed = expire_claims()
        self.stdout.write(f"{lapsed} unverified address(es) lapsed.")
