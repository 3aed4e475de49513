"""Personal API tokens (docs/api.md): made and revoked on the account page, sent to the read
API as ``Authorization: Bearer <secret>``.

A token's secret is 32 random bytes (``secrets.token_urlsafe``) after the prefix ``bm_``;
the database keeps its SHA-256 alone, so that a copy of the database holds no usable
token, and the secret is shown once, on the page that made it. A token reads what its
account may read: it is the account, for the API, and nothing more.
"""

import hashlib
import secrets
from typing import NamedTuple

from django.contrib.auth.models import User
from django.db import transaction

from .models import ApiToken

PREFIX = "bm_"
MOST = 20
"""Tokens one account may hold at once: one per script, with room to spare."""


class TooManyTokens(Exception):
    """The account holds :data:`MOST` tokens already."""


class NewToken(NamedTuple):
    token: ApiToken
    secret: str
    """The secret, to be shown once: it is kept nowhere."""


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(*, user: User, name: str) -> NewToken:
    """A new token for ``user``; TooManyTokens past :data:`MOST`."""
    secret = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # The account's row, locked: two forms sent at once count one after the other.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MOST:
            raise TooManyTokens
        token = ApiToken.objects.create(
            user=user, name=name, digest=digest_of(secret), hint=secret[: len(PREFIX) + 4]
        )
    return NewToken(token, secret)


def revoke_token(*, user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens: at once, for every request after. Whether it was his."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def user_of(secret: str) -> User | None:
    """The active account whose token this is (one query), or None."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest_of(secret), user__is_active=True)
        .first()
    )
    return token.user if token is not None else None
