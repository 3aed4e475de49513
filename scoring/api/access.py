"""Who reads: a signed-in session (the site's cookie), a personal API token sent as
``Authorization: Bearer <secret>`` (scoring/accounts/tokens.py), or anyone. A token
stands for its account: the request is then that account's, for the same rights as the
pages (scoring/clubs/access.py), and a token that is not valid is refused whatever it asks.
"""

import hashlib
from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from ..accounts.tokens import user_of
from ..clubs.access import club_may, club_member
from ..clubs.models import Club, Member
from ..common.rights import Action
from ..common.throttles import API_REQUESTS, client_address, refused_for
from . import errors

ANYONE = "anyone"
"""What a request without a token reads as: whoever its session says, else a stranger."""


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
        user = user_of(token)
        if user is None:
            raise errors.ApiError(401, "invalid_token", errors.BAD_TOKEN)
        request.user = user
        return user


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
