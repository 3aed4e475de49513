"""Who asks: a signed-in session (the site's cookie), a personal API token sent as
``Authorization: Bearer <secret>`` (scoring/accounts/tokens.py), a game's scorer link's
secret sent the same way, or anyone. A token stands for its account: the request is then
that account's, for the same rights as the pages (scoring/clubs/access.py), and no phone's
(the scorer cookie is not read). A scorer link's secret (any secret without the tokens'
``bm_`` prefix) stands for a phone handed that link, and nothing more: it may score the
link's game while the link is not revoked (scoring/table/access.py checks it, as for a
phone). A secret that is neither is refused whatever it asks.
"""

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from ninja.security import HttpBearer

from ..accounts.face import PREFIX, digest_of, user_of
from ..clubs.face import Club, Member, club_may, club_member
from ..common.rights import Action, Actor, PhoneRights
from ..infra.throttles import API_REQUESTS, client_address, refused_for
from ..table.face import ScorerLink
from . import errors

ANYONE = "anyone"
"""What a request without a token reads as: whoever its session says, else a stranger."""

LINK_DEVICE = "API"
"""The device a change made with a scorer link's secret is said to come from, in the
game's history."""


class Reader(HttpBearer):
    """ninja's bearer scheme, optional: without the header a request reads as itself.

    The throttle counts the caller the header stands for, once it is known: a token by its
    stored digest, a scorer link by its id, anyone else (no header, or one that stands for
    nobody) by his address. However the header is spelt (the scheme in any case, any
    spaces), one caller is one count."""

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get(self.header, "")
        secret = bearer_secret(header, self.openapi_scheme) if header else None
        caller: User | ScorerLink | None = None
        if secret is not None:
            caller = user_of(secret) if secret.startswith(PREFIX) else self.link_of(secret)
        counted = _caller_key(caller, secret)
        seconds = refused_for(
            API_REQUESTS, request, key=lambda _group, asked: counted or client_address(asked)
        )
        if seconds is not None:
            raise errors.ApiError(429, "too_many_requests", errors.TOO_MANY, retry_after=seconds)
        if not header:
            return ANYONE
        if isinstance(caller, ScorerLink):
            return self.as_link(request, caller)
        if caller is None:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        return self.as_user(request, caller)

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        """ninja's hook, which :meth:`__call__` does not call: the same as it does."""
        user = user_of(token) if token.startswith(PREFIX) else None
        if user is not None:
            return self.as_user(request, user)
        link = self.link_of(token)
        if link is None:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        return self.as_link(request, link)

    def as_user(self, request: HttpRequest, user: User) -> User:
        request.user = user
        request.phone = PhoneRights()  # type: ignore[attr-defined]
        request.actor = Actor(user_id=user.pk)  # type: ignore[attr-defined]
        return user

    def link_of(self, secret: str) -> ScorerLink | None:
        """The scorer link whose secret this is (one query), revoked or not: revoked, the
        request holds the link still, and the game's policy refuses its writes, saying why."""
        if secret.startswith(PREFIX) or not 0 < len(secret) <= 100:
            return None
        return (
            ScorerLink.objects.filter(secret=secret)
            .select_related("game")
            .only("pk", "game__public_id")
            .first()
        )

    def as_link(self, request: HttpRequest, link: ScorerLink) -> ScorerLink:
        """The request as a phone handed this link."""
        request.user = AnonymousUser()
        request.phone = PhoneRights({link.game.public_id: link.pk})  # type: ignore[attr-defined]
        request.actor = Actor(device=LINK_DEVICE)  # type: ignore[attr-defined]
        return link


def bearer_secret(header: str, scheme: str = "bearer") -> str | None:
    """The secret in an ``Authorization`` header: after the scheme (in any case) and any
    whitespace, without the whitespace after it; None for another scheme."""
    parts = header.strip().split(None, 1)
    if not parts or parts[0].lower() != scheme.lower():
        return None
    return parts[1].strip() if len(parts) > 1 else ""


def _caller_key(caller: User | ScorerLink | None, secret: str | None) -> str:
    """Who the API's throttle counts, if the header stands for someone: a token by its
    digest, as stored (the cache never holds a secret), a scorer link by its id."""
    if isinstance(caller, ScorerLink):
        return f"link:{caller.pk}"
    if caller is not None and secret is not None:
        return "token:" + digest_of(secret)
    return ""


def readable_club(request: HttpRequest, slug: str) -> tuple[Club, Member | None]:
    """The club at ``slug`` (one query) and the request's member in it (one more, signed
    in), if the request may see it (Action.SEE_CLUB, as its pages): else a 404, a 401 for
    someone unknown, a 403 for an account that is no member."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise errors.not_found(errors.NO_CLUB)
    member = club_member(request, club)
    if not club_may(Action.SEE_CLUB, club, member):
        if not request.user.is_authenticated:
            raise errors.ApiError(401, "unauthorized", errors.SIGN_IN)
        raise errors.ApiError(403, "forbidden", errors.NOT_MEMBER)
    return club, member


def run_club(request: HttpRequest, slug: str) -> tuple[Club, Member | None]:
    """The club at ``slug`` and the request's member in it, if he may run it
    (Action.RUN_CLUB, as its history page: its admins); else as :func:`readable_club`
    says, and for one who may see the club but not run it, a 401 signed out, a 403 signed
    in. No query more than :func:`readable_club`."""
    club, member = readable_club(request, slug)
    if not club_may(Action.RUN_CLUB, club, member):
        if not request.user.is_authenticated:
            raise errors.ApiError(401, "unauthorized", errors.ADMINS_ONLY)
        raise errors.ApiError(403, "forbidden", errors.ADMINS_ONLY)
    return club, member
