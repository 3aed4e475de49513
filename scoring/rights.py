"""Who may change a game, and who did.

A phone's rights live in one signed cookie: the games it started, and the games it was
handed by a scorer link (by the link's id, checked against revocation on each use). An
account may also change the games it started, from any phone. Everyone else only watches.
The views ask here through their decorators (scoring/views/preconditions.py), and nowhere
else.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "boulmous_scorer"
SALT = "boulmous.rights"
STARTED = 0
"""The right of the phone that started the game, in place of a scorer link's id."""
KEPT = 100
"""Rights kept per phone: the most recent games (the cookie stays under 4 KB)."""
YEAR = 365 * 24 * 3600


@dataclass
class PhoneRights:
    """What this phone's cookie says: the games it may score, and the name it goes by."""

    games: dict[str, int] = field(default_factory=dict)
    label: str = ""

    def grant(self, public_id: str, link_id: int = STARTED) -> None:
        self.games.pop(public_id, None)
        self.games[public_id] = link_id
        for oldest in list(self.games)[: max(0, len(self.games) - KEPT)]:
            del self.games[oldest]

    def forget(self, public_id: str) -> None:
        self.games.pop(public_id, None)

    @property
    def public_ids(self) -> Iterable[str]:
        return reversed(list(self.games))


@dataclass(frozen=True)
class Actor:
    """Who makes a change, as the history says it."""

    user_id: int | None = None
    device: str = ""


NOBODY = Actor()
"""Changes made by no one in particular: an import from a command, a migration."""


def read(request: HttpRequest) -> PhoneRights:
    """This phone's rights; a missing, forged or unreadable cookie gives none."""
    try:
        payload: Any = json.loads(
            request.get_signed_cookie(COOKIE, default="{}", salt=SALT) or "{}"
        )
    except (signing.BadSignature, ValueError):
        return PhoneRights()
    games = payload.get("g") if isinstance(payload, dict) else None
    label = payload.get("l") if isinstance(payload, dict) else None
    if not isinstance(games, dict):
        return PhoneRights()
    kept = {
        key: value
        for key, value in games.items()
        if isinstance(key, str) and isinstance(value, int) and not isinstance(value, bool)
    }
    return PhoneRights(kept, label if isinstance(label, str) else "")


def cookie_value(rights: PhoneRights) -> str:
    """The cookie's value for ``rights``: signed, so that a phone cannot grant itself any."""
    value = json.dumps({"g": rights.games, "l": rights.label}, separators=(",", ":"))
    return signing.get_cookie_signer(salt=COOKIE + SALT).sign(value)


def write(response: HttpResponse, rights: PhoneRights) -> None:
    """Keep ``rights`` on this phone for a year, Secure as the site's other cookies are."""
    response.set_cookie(
        COOKIE,
        cookie_value(rights),
        max_age=YEAR,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def actor(request: HttpRequest, rights: PhoneRights) -> Actor:
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    return Actor(user_id=user_id, device=rights.label)
