"""The link that verifies an email address: signed with the site's key, for one account
and one address, for a few days. A link for an address the account no longer has stops
working, since the address it names is no longer the account's."""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from ..infra.retries import retry_at, worth_retrying
from ..infra.throttles import VERIFY_MAIL_COOL_DOWN, VERIFY_MAIL_RECIPIENT, refused_for
from .models import LINK_DAYS
from .services import verified_owner

logger = logging.getLogger(__name__)

SALT = "boulmous.accounts.verify_email"
MAX_AGE = timedelta(days=LINK_DAYS)


@dataclass(frozen=True)
class Claim:
    """What a verification link says: this account owns this address."""

    user_id: int
    address: str


class LinkExpired(Exception):
    """The link was right, but is older than :data:`LINK_DAYS` days: the address it
    verifies, unverified that long, has lapsed (services.py ``lapse``)."""


class LinkInvalid(Exception):
    """The link was not made by this site, or was changed on the way."""


def make_token(user_id: int, address: str) -> str:
    return signing.dumps([user_id, address], salt=SALT)


def read_token(token: str) -> Claim:
    """The claim a token carries; LinkExpired or LinkInvalid if it cannot be believed."""
    try:
        user_id, address = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkExpired from None
    except (signing.BadSignature, ValueError, TypeError):
        raise LinkInvalid from None
    if not isinstance(user_id, int) or not isinstance(address, str):
        raise LinkInvalid
    return Claim(user_id, address)


def recipient_refused(request: HttpRequest, address: str) -> int | None:
    """Count one mail to ``address`` (whatever its case) against its cool-down and its day's
    figure; past either, the seconds until it may have one again, else None."""

    def key(group: str, request: HttpRequest) -> str:
        return address.casefold()

    for limit in (VERIFY_MAIL_COOL_DOWN, VERIFY_MAIL_RECIPIENT):
        seconds = refused_for(limit, request, key)
        if seconds is not None:
            return seconds
    return None


def send_link(request: HttpRequest, *, username: str, user_id: int, address: str) -> None:
    """Mail the link to ``address``, in the request's language; or, when another account
    verified the address, say so to it instead, with how to log in there (the address is
    that account's: no link would verify it). The page that sent it says the same either
    way. The mail is a job (``send_account_mail``), sent by the worker and tried again
    while the mail server refuses it; the account page offers the link again."""
    owner = verified_owner(address)
    context: dict[str, object]
    if owner is not None and owner.user_id != user_id:
        context = {
            "username": owner.user.get_username(),
            "login": request.build_absolute_uri(reverse("login")),
            "reset": request.build_absolute_uri(reverse("password_reset")),
        }
        template = "registration/email_in_use"
    else:
        link = request.build_absolute_uri(
            reverse("email_verify", kwargs={"token": make_token(user_id, address)})
        )
        context = {"username": username, "link": link, "days": LINK_DAYS}
        template = "registration/verify_email"
    subject = "".join(render_to_string(f"{template}_subject.txt").splitlines())
    body = render_to_string(f"{template}.txt", context)
    send_account_mail.enqueue(subject, body, address)


SENT = "sent"
RETRY = "retry"
FAILED = "failed"


@task()
def send_account_mail(
    subject: str, body: str, address: str, html: str = "", attempt: int = 1
) -> str:
    """A mail of the account's (a verification link, a password reset), rendered by the
    request that asked for it: sent, or tried again 1, 5 and 30 minutes then 6 hours
    later while the mail server refuses it or cannot be reached (scoring/infra/retries.py),
    then given up and logged. Each try is one job, queued only once the one before
    failed: a mail the server took is not sent again."""
    message = EmailMultiAlternatives(subject, body, to=[address]) if html else None
    if message is not None:
        message.attach_alternative(html, "text/html")
    try:
        (message or EmailMessage(subject, body, to=[address])).send()
    except Exception as error:  # any backend's failure: tried again, or given up
        later = retry_at(attempt, timezone.now()) if worth_retrying(error) else None
        if later is None:
            logger.error("Gave up an account's mail after %s tries", attempt, exc_info=error)
            return FAILED
        logger.warning("An account's mail failed (try %s): %s", attempt, error)
        send_account_mail.using(run_after=later).enqueue(subject, body, address, html, attempt + 1)
        return RETRY
    return SENT
