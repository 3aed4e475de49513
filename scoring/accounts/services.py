"""Every write of an account, each one transaction, and its reads beyond Django's:
signing up, giving an email address and verifying it; all its data, and its deletion.

An address belongs to the account that verified it, whatever its case: the database's
constraint decides (AccountEmail), so that two accounts verifying one address at once cannot
both have it. Giving an address is only a claim, unverified: it blocks nobody, and tells
nobody whether the address is known (its mail says so, to the address alone). A claim not
verified within LINK_DAYS days lapses, here alone (``lapse``): as the account's address is
read (``email_of``), and for the rest by ``manage.py expire_email_claims``. What
other contexts keep about an account they give and change through the hooks
(scoring/accounts/hooks.py): games and clubs are theirs, not the account's.
"""

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet, Value
from django.db.models.functions import Lower
from django.utils import timezone

from . import hooks
from .models import LINK_DAYS, AccountEmail

DATA_FORMAT = "boulmous-account-data/1"
"""The ``format`` of an account's data: the shape docs/privacy.md declares."""


class UsernameTaken(Exception):
    """Another account has this username (signed up meanwhile)."""


class EmailTaken(Exception):
    """Another account has verified this email address, in some case or other."""


def rows_of(address: str) -> QuerySet[AccountEmail]:
    """The rows of ``address`` whatever its case, compared as the database's constraint
    compares them."""
    return AccountEmail.objects.alias(key=Lower("address")).filter(key=Lower(Value(address)))


def verified_owner(address: str) -> AccountEmail | None:
    """The account that verified ``address``, in some case or other, if one did."""
    return rows_of(address).filter(verified_at__isnull=False).select_related("user").first()


def account_named(text: str) -> int | None:
    """The account someone names to give it a right (a federation's admin): by its username,
    as signing in takes it; never by an address, which would tell anyone whether an address
    has an account. None if none."""
    text = text.strip()
    if not text:
        return None
    found = get_user_model().objects.filter(username=text).values_list("pk", flat=True).first()
    return None if found is None else int(found)


def _lapsed(rows: QuerySet[AccountEmail]) -> QuerySet[AccountEmail]:
    """Those of ``rows`` that are claims older than LINK_DAYS days, not lapsed yet."""
    cutoff = timezone.now() - timedelta(days=LINK_DAYS)
    return rows.filter(verified_at__isnull=True, claimed_at__lt=cutoff).exclude(address="")


def lapse(rows: QuerySet[AccountEmail]) -> int:
    """The claims among ``rows`` not verified within LINK_DAYS days lapse: the account has
    no address any more, in Django's field neither, and the row keeps only when it was
    given (the account page says when it lapsed). How many lapsed; none the second time."""
    with transaction.atomic():
        # Locked first: an address given again meanwhile is a new claim, and stays.
        lapsing = _lapsed(rows).select_for_update().order_by("pk")  # in one order, as verifying
        users = list(lapsing.values_list("user_id", flat=True))
        if not users:
            return 0
        User.objects.filter(pk__in=users).update(email="")
        return _lapsed(AccountEmail.objects.filter(user_id__in=users)).update(address="")


def expire_claims() -> int:
    """Every claim not verified within LINK_DAYS days lapses (``manage.py
    expire_email_claims``, daily); how many did."""
    return lapse(AccountEmail.objects.all())


def address_row(user_id: int) -> AccountEmail | None:
    """The row of the account's address as it is now, a claim due to lapse lapsed first:
    None if none was ever given, its ``address`` empty if it lapsed (``lapses_at`` says
    when)."""
    row = AccountEmail.objects.filter(user_id=user_id).first()
    if row is None or not row.address or row.verified or timezone.now() < row.lapses_at:
        return row  # a read, no lock, unless the claim is due to lapse
    if lapse(AccountEmail.objects.filter(pk=row.pk)):
        row.address = ""
    return row


def email_of(user_id: int) -> AccountEmail | None:
    """The account's address, verified or not; None if it has none, or if its claim lapsed
    (now, if it was due to)."""
    row = address_row(user_id)
    return row if row is not None and row.address else None


def _claim(user: User, address: str) -> AccountEmail:
    """Give ``user`` the address, unverified, in Django's field too: a claim, which any
    number of accounts may hold, until one verifies it, for LINK_DAYS days from now."""
    email, _ = AccountEmail.objects.update_or_create(
        user=user,
        defaults={"address": address, "verified_at": None, "claimed_at": timezone.now()},
    )
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
    is opened; giving the verified one again changes nothing, giving an unverified one
    again (or asking for its link again) claims it anew, for LINK_DAYS days from now, as
    long as the new link lasts."""
    current = AccountEmail.objects.select_for_update().filter(user=user).first()
    if current is not None and current.verified and current.address == address:
        return current
    return _claim(user, address)


@transaction.atomic
def verify_email(*, user_id: int, address: str) -> AccountEmail | None:
    """Mark the address verified, if it is still this account's (exactly as the link gave
    it); None when the account no longer has it (its claim lapsed, maybe now), EmailTaken
    when another account verified it first. Other accounts' claims of it, unverified, go:
    it is this account's now."""
    # Every account's row of this address locked, in one order: two accounts verifying it
    # at once take turns (the second finds it verified, or its claim gone), never a deadlock.
    rows = list(rows_of(address).select_for_update().order_by("pk"))
    email = next((row for row in rows if row.user_id == user_id and row.address == address), None)
    if email is None or lapse(AccountEmail.objects.filter(pk=email.pk)):
        return None
    if email.verified_at is None:
        if any(row.verified for row in rows):
            raise EmailTaken(address)
        try:
            with transaction.atomic():
                email.verified_at = timezone.now()
                email.save(update_fields=["verified_at"])
        except IntegrityError:  # the constraint: verified by another account, maybe meanwhile
            raise EmailTaken(address) from None
        others = rows_of(address).filter(verified_at__isnull=True).exclude(user_id=user_id)
        User.objects.filter(pk__in=others.values("user_id")).update(email="")
        others.delete()
    return email


class AccountNeeded(Exception):
    """The account may not go yet: it is the only admin with an account of these clubs, or
    the only admin of these federations, which would be left with nobody to run them."""

    def __init__(self, clubs: Sequence[str], federations: Sequence[str] = ()) -> None:
        self.clubs = list(clubs)
        self.federations = list(federations)
        super().__init__(*clubs, *federations)


def account_data(user_id: int) -> dict[str, Any]:
    """Everything the site keeps about this account, as JSON data (docs/privacy.md): the
    account itself, then each context's sections."""
    row = address_row(user_id)  # first: a claim due to lapse lapses, Django's field too
    user = get_user_model().objects.get(pk=user_id)
    verified = row.verified_at if row is not None else None
    given = row.claimed_at if row is not None else None
    data: dict[str, Any] = {
        "format": DATA_FORMAT,
        "account": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "email_verified_at": verified.isoformat() if verified else None,
            "email_given_at": given.isoformat() if given else None,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
    }
    for part in hooks.data_parts:
        data.update(part(user_id))
    return data


@transaction.atomic
def delete_account(*, user_id: int, anonymous: bool) -> None:
    """The account goes, and with it every session's sign-in. His games and club results
    stay: under his player name, or, if ``anonymous``, under an anonymous name in each of
    his clubs (``Player 7``), rated as before. Games he started belong to nobody, the
    history lines he made name no account. One transaction: the account's row locked,
    then his clubs (the hooks); AccountNeeded if a club would be left without an admin,
    and nothing changes."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    for leave in hooks.leaving:
        leave(user_id, anonymous)
    user.delete()
