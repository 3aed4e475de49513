"""Who asks: a signed-in session (the site's cookie), a personal API token sent as
``Authorization: Bearer <secret>`` (scoring/accounts/tokens.py), a game's scorer link's
secret sent the same way, or anyone. A token stands for its account: the request is then
that account's, for the same rights as the pages (scoring/clubs/access.py), and no phone's
(the scorer cookie is not read). A scorer link's secret (any secret without the tokens'
``bm_`` prefix) stands for a phone handed that link, and nothing more: it may score the
link's game while the link is not revoked (scoring/table/access.py checks it, as for a
phone). A secret that is neither is refused whatever it asks.
"""

import hashlib
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.security import HttpBearer

from ..accounts.face import PREFIX, user_of
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
    """ninja's bearer scheme, optional: without the header a request reads as itself."""

    def __call__(self, request: HttpRequest) -> Any:
        seconds = refused_for(API_REQUESTS, request, key=_caller)
        if seconds is not None:
            raise errors.ApiError(429, "too_many_requests", errors.TOO_MANY, retry_after=seconds)
        header = request.headers.get(self.header, "")
        if not header:
            return ANYONE
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != self.openapi_scheme:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        return self.authenticate(request, secret.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        if not token.startswith(PREFIX):
            return self.scorer_link(request, token)
        user = user_of(token)
        if user is None:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        request.user = user
        request.phone = PhoneRights()  # type: ignore[attr-defined]
        request.actor = Actor(user_id=user.pk)  # type: ignore[attr-defined]
        return user

    def scorer_link(self, request: HttpRequest, secret: str) -> ScorerLink:
        """The request as a phone handed this link (one query): revoked, it holds the link
        still, and the game's policy refuses its writes, saying why."""
        link = (
            ScorerLink.objects.filter(secret=secret)
            .select_related("game")
            .only("pk", "game__public_id")
            .first()
            if 0 < len(secret) <= 100
            else None
        )
        if link is None:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        request.user = AnonymousUser()
        request.phone = PhoneRights({link.game.public_id: link.pk})  # type: ignore[attr-defined]
        request.actor = Actor(device=LINK_DEVICE)  # type: ignore[attr-defined]
        return link


def _caller(group: str, request: HttpRequest) -> str:
    """Who the API's throttle counts: the token sent (its digest: the cache never holds a
    secret), else the address."""
    header = request.headers.get("Authorization", "")
    if header:
        return "token:" + hashlib.sha256(header.encode()).hexdigest()
    return client_address(request)


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
