"""What the shared layer keeps itself: the one-time tokens of the forms that make
something (scoring/common/once.py)."""

from django.db import models
from django.utils import timezone


class FormSent(models.Model):
    """A form that makes something, sent once: its one-time token and the address of what
    it made, so that the same form sent again (Back and resend, a double tap, a retry)
    leads there and makes nothing more. Kept as long as a token is good
    (:data:`~scoring.common.once.GOOD_FOR`)."""

    token = models.UUIDField(primary_key=True)
    address = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(default=timezone.now, db_index=True)
