"""An account's email address: ours to keep, beside Django's user, so that the database
itself holds one verified owner per address whatever its case, and knows whether the
address was verified (a password reset goes to a verified address only)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

LINK_DAYS = 3
"""How many days an unverified address lasts, and so the link that verifies it: once
they are over, the address lapses (accounts/services.py ``expire_claims``)."""


class AccountEmail(models.Model):
    """The email address of one account, verified or not yet.

    Django's ``User.email`` holds the same address (its forms and mails read it); the
    services write both in one transaction. An address belongs to the account that verified
    it: this table's constraint lets one account only have it verified, while any number
    may claim it unverified (a claim blocks nobody, and lasts :data:`LINK_DAYS` days, as its
    link does). A claim not verified by then lapses: its ``address`` is emptied, the row
    kept only to tell the account page when the address it gave lapsed (an empty address
    is no address: nothing reads it as one)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_email",
    )
    address = models.EmailField(_("email address"), max_length=254)
    verified_at = models.DateTimeField(null=True, blank=True)
    """When the owner opened the signed link sent to this address; None until then."""
    claimed_at = models.DateTimeField(default=timezone.now)
    """When the address was given (signing up, changing it, or asking for its link again):
    unverified, it lapses :data:`LINK_DAYS` days later. Rows before migration 0031 have
    the migration's time."""

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(address="") | Q(verified_at__isnull=True),
                name="account_email_lapsed_unverified",
            ),
            models.UniqueConstraint(
                Lower("address"),
                condition=Q(verified_at__isnull=False),
                name="account_email_verified_unique_ci",
            ),
        ]

    def __str__(self) -> str:
        return self.address

    @property
    def verified(self) -> bool:
        return self.verified_at is not None

    @property
    def lapses_at(self) -> datetime:
        """When the address lapses if it is not verified by then (or lapsed, if it did)."""
        return self.claimed_at + timedelta(days=LINK_DAYS)


class ApiToken(models.Model):
    """A personal token for the read API (docs/api.md), sent as ``Authorization: Bearer``:
    it reads what its account may read, nothing more. Only the SHA-256 of its secret is
    kept; the secret itself is shown once, when it is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    digest = models.CharField(max_length=64, unique=True)
    """The hex SHA-256 of the secret: what a request's token is looked up by."""
    hint = models.CharField(max_length=12)
    """The secret's first characters, for its owner to tell his tokens apart."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name
