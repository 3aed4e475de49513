"""An account's email address: ours to keep, beside Django's user, so that the database
itself holds one account per address whatever its case, and knows whether the address was
verified (a password reset goes to a verified address only)."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class AccountEmail(models.Model):
    """The email address of one account, verified or not yet.

    Django's ``User.email`` holds the same address (its forms and mails read it); the
    services write both in one transaction, and only this table's constraint decides
    whether an address is free."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_email",
    )
    address = models.EmailField(_("email address"), max_length=254)
    verified_at = models.DateTimeField(null=True, blank=True)
    """When the owner opened the signed link sent to this address; None until then."""

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("address"), name="account_email_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.address

    @property
    def verified(self) -> bool:
        return self.verified_at is not None
