"""Every write of an account, each one transaction: signing up, giving an email address,
and verifying it. An address belongs to one account, whatever its case: the database's
constraint decides (AccountEmail), so that two requests giving one address at once cannot
both have it."""

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import AccountEmail


class UsernameTaken(Exception):
    """Another account has this username (signed up meanwhile)."""


class EmailTaken(Exception):
    """Another account has this email address, in some case or other."""


def _claim(user: User, address: str) -> AccountEmail:
    """Give ``user`` the address, unverified, in Django's field too; EmailTaken if another
    account has it."""
    try:
        with transaction.atomic():
            email, _ = AccountEmail.objects.update_or_create(
                user=user, defaults={"address": address, "verified_at": None}
            )
    except IntegrityError:
        raise EmailTaken(address) from None
    User.objects.filter(pk=user.pk).update(email=address)
    user.email = address
    return email


@transaction.atomic
def create_account(*, username: str, email: str, password: str) -> User:
    """A new account, with its address (unverified) if one is given."""
    try:
        with transaction.atomic():
            user = User.objects.create_user(username, password=password)
    except IntegrityError:
        raise UsernameTaken(username) from None
    if email:
        _claim(user, email)
    return user


@transaction.atomic
def change_email(*, user: User, address: str) -> AccountEmail:
    """The account's address, now ``address``. A new address is unverified until its link
    is opened; giving the same one again changes nothing."""
    current = AccountEmail.objects.select_for_update().filter(user=user).first()
    if current is not None and current.address == address:
        return current
    return _claim(user, address)


@transaction.atomic
def verify_email(*, user_id: int, address: str) -> AccountEmail | None:
    """Mark the address verified, if it is still this account's (exactly as the link gave
    it); None when the account no longer has it."""
    email = (
        AccountEmail.objects.select_for_update().filter(user_id=user_id, address=address).first()
    )
    if email is None:
        return None
    if email.verified_at is None:
        email.verified_at = timezone.now()
        email.save(update_fields=["verified_at"])
    return email
