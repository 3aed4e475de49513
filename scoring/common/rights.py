"""Who may do what, and who did: the one declared policy of the site.

:data:`POLICY` says, for each :class:`Action`, which :class:`Role` may take it. Roles are
what a request *is* towards a game or a club: the phone that started a game, the account
that started it, a phone handed one of its scorer links, or a club's admin, scorer, member
or guest, or a stranger. Each context says how a request comes to hold a role (the table
for games, clubs for clubs and their games: scoring/table/access.py,
scoring/clubs/access.py); views only declare the action they need, and the server checks
it before the view runs, never by hiding a button.

A phone's rights live in one signed cookie: the games it started, the games it was
handed by a scorer link, and the seats it took by a seat's code (each by the link's id,
checked against revocation on each use). A
phone that started a game for the account that owns it (a club game) holds that game while
the account's own right does (:data:`FOR_OWNER`).
:class:`RequestRights` reads it once per request, lazily, as ``request.phone``, and who
the request is for the history as ``request.actor``.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject


class Role(StrEnum):
    OWNER_PHONE = "owner phone"
    """The phone that started the game (for the account that owns it: while its right holds)."""
    OWNER_ACCOUNT = "owner account"
    """The account that started the game, from any phone. For a game another context keeps
    (a club game), while that context says its right holds (clubs: while he is a scorer or
    an admin of the club): the rights of whoever started it follow his current role."""
    SCORER_LINK = "scorer link"
    """A phone handed one of the game's scorer links, not revoked since."""
    SEAT_HOLDER = "seat holder"
    """A phone that took one of the game's seats by its code (its seat link not revoked
    since), or the account of the club member seated there: it watches the game as that
    seat's player, and scores only with a scorer link."""
    CLUB_ADMIN = "club admin"
    CLUB_SCORER = "club scorer"
    CLUB_MEMBER = "club member"
    CLUB_GUEST = "club guest"
    FEDERATION_ADMIN = "federation admin"
    FEDERATION_MEMBER = "federation member"
    """A member (not a guest) of one of a federation's clubs."""
    STRANGER = "stranger"
    """Anyone: every request holds this role."""


class Action(StrEnum):
    WATCH_GAME = "watch a game"
    SCORE_GAME = "score a game"
    """Record, edit, undo and redo hands, play one card by card, abandon, resume."""
    SHARE_GAME = "share a game's scoring"
    """See, make and revoke the game's scorer links."""
    CONFIRM_GAME = "confirm a game's hands"
    """Confirm a hand another seat entered, or sign the game's result (issue 40.2): the
    player of a seat, from a phone holding it."""
    DISPUTE_GAME = "dispute a game's hand"
    """Dispute a hand not yet confirmed, with a reason (issue 40.3): the player of a seat,
    from a phone holding it."""
    REFEREE_GAME = "decide a game's disputes"
    """Confirm a disputed hand as it stands or correct it, with a reason: a club game's
    referee is an admin of its club (clubs answer it, scoring/clubs/access.py); another
    game's is its owner. (An event's organiser, once events exist: issue 41.)"""
    REMATCH_GAME = "start a game's rematch"
    """A new game with the same seats and rules, which belongs to the game's owner; the phone
    that asks keeps on it the right it had (a scorer link's ends with the link). A club
    game's rematch is a club game: clubs answer it as SCORE_CLUB (scoring/clubs/access.py)."""
    SEE_CLUB = "see a club"
    """Its pages, standings, players, nights and records."""
    SCORE_CLUB = "score a club's games"
    """Start club games, organise club nights."""
    RUN_CLUB = "run a club"
    """Its settings, members, invites, seasons and imports."""
    ORGANISE_EVENT = "organise a club's events"
    """Make, change and delete its events (issue 41), enter and withdraw their players,
    declare the pairs never seated together, draw, swap and publish rounds, settle tables,
    draw finals: the club's admins. They alone see an event's draft round and its ranking
    through its hidden last rounds."""
    EXPORT_MEMBER_DATA = "download a member's data"
    """All the club keeps about one of its players, as JSON: at his request."""
    REMOVE_MEMBER = "remove a member"
    """At his request: his account detached, his name made anonymous; his results stay."""
    SEE_FEDERATION = "see a federation"
    """Its page, its ranking and their CSV, PDF and API."""
    RUN_FEDERATION = "run a federation"
    """Its settings, its admins (another added, one removed, never the last), the clubs it
    invites (each club's admin accepts, and makes it leave: RUN_CLUB), and its deletion
    once no club is a member."""
    NAME_MEMBER_IN_PUBLIC = "choose how a member is shown to the public"
    """By his full name, or by his first name and initial. A member may choose it for
    himself too (scoring/clubs/views/privacy.py): that is who he is, not a role."""


GAME_SCORERS = frozenset(
    {Role.OWNER_PHONE, Role.OWNER_ACCOUNT, Role.SCORER_LINK, Role.CLUB_ADMIN, Role.CLUB_SCORER}
)
POLICY: dict[Action, frozenset[Role]] = {
    Action.WATCH_GAME: frozenset(Role),
    Action.SCORE_GAME: GAME_SCORERS,
    # A scorer link hands the scoring of one game: not the right to hand it on.
    Action.SHARE_GAME: GAME_SCORERS - {Role.SCORER_LINK},
    Action.CONFIRM_GAME: frozenset({Role.SEAT_HOLDER}),
    Action.DISPUTE_GAME: frozenset({Role.SEAT_HOLDER}),
    Action.REFEREE_GAME: frozenset({Role.OWNER_PHONE, Role.OWNER_ACCOUNT, Role.CLUB_ADMIN}),
    Action.REMATCH_GAME: frozenset({Role.OWNER_PHONE, Role.OWNER_ACCOUNT, Role.SCORER_LINK}),
    Action.SEE_CLUB: frozenset({Role.CLUB_ADMIN, Role.CLUB_SCORER, Role.CLUB_MEMBER}),
    Action.SCORE_CLUB: frozenset({Role.CLUB_ADMIN, Role.CLUB_SCORER}),
    Action.RUN_CLUB: frozenset({Role.CLUB_ADMIN}),
    Action.ORGANISE_EVENT: frozenset({Role.CLUB_ADMIN}),
    Action.EXPORT_MEMBER_DATA: frozenset({Role.CLUB_ADMIN}),
    Action.REMOVE_MEMBER: frozenset({Role.CLUB_ADMIN}),
    Action.NAME_MEMBER_IN_PUBLIC: frozenset({Role.CLUB_ADMIN}),
    Action.SEE_FEDERATION: frozenset({Role.FEDERATION_ADMIN, Role.FEDERATION_MEMBER}),
    Action.RUN_FEDERATION: frozenset({Role.FEDERATION_ADMIN}),
}
"""Who may do what."""
PUBLIC_CLUB_ACTIONS = frozenset({Action.SEE_CLUB})
"""What anyone may do with a club whose standings are public."""

PUBLIC_FEDERATION_ACTIONS = frozenset({Action.SEE_FEDERATION})
"""What anyone may do with a federation whose ranking is public."""


def allows(action: Action, role: Role) -> bool:
    return role in POLICY[action]


def first_allowed(action: Action, checks: Iterable[tuple[Role, Callable[[], bool]]]) -> bool:
    """Whether any role that ``action`` allows is held, trying each check in turn (so that
    the cheap ones, read from the cookie, spare the database)."""
    allowed = POLICY[action]
    return Role.STRANGER in allowed or any(role in allowed and holds() for role, holds in checks)


COOKIE = "boulmous_scorer"
SALT = "boulmous.rights"
STARTED = 0
"""The right of the phone that started the game, in place of a scorer link's id."""
FOR_OWNER = -1
"""The right of a phone that started the game for the account that owns it, in place of a
scorer link's id: it holds while the account's right does (a club game's starter: while he
is a scorer or an admin of the club)."""
KEPT = 100
"""Rights kept per phone: the most recent games (the cookie stays under 4 KB)."""
KEPT_SEATS = 20
"""Seats kept per phone: the most recent games' (one seat a game)."""
YEAR = 365 * 24 * 3600


@dataclass
class PhoneRights:
    """What this phone's cookie says: the games it may score, the seat it holds in a game
    (its seat link's id, by the game's public id), and the name it goes by."""

    games: dict[str, int] = field(default_factory=dict)
    label: str = ""
    seats: dict[str, int] = field(default_factory=dict)

    def take_seat(self, public_id: str, link_id: int) -> None:
        """This phone holds the seat of this link in the game, in place of any other of it."""
        self.seats.pop(public_id, None)
        self.seats[public_id] = link_id
        for oldest in list(self.seats)[: max(0, len(self.seats) - KEPT_SEATS)]:
            del self.seats[oldest]

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
    seats = payload.get("s", {}) if isinstance(payload, dict) else None
    if not isinstance(games, dict):
        return PhoneRights()
    return PhoneRights(_ids(games), label if isinstance(label, str) else "", _ids(seats))


def _ids(found: object) -> dict[str, int]:
    """The ``public id: link id`` pairs of a cookie's part, what is not one left out."""
    if not isinstance(found, dict):
        return {}
    return {
        key: value
        for key, value in found.items()
        if isinstance(key, str) and isinstance(value, int) and not isinstance(value, bool)
    }


def cookie_value(rights: PhoneRights) -> str:
    """The cookie's value for ``rights``: signed, so that a phone cannot grant itself any."""
    kept: dict[str, object] = {"g": rights.games, "l": rights.label}
    if rights.seats:
        kept["s"] = rights.seats
    value = json.dumps(kept, separators=(",", ":"))
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


class RequestRights:
    """Middleware: ``request.phone`` (this phone's rights) and ``request.actor`` (who makes
    a change), each read once, when first asked."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        phone: PhoneRights = SimpleLazyObject(lambda: read(request))  # type: ignore[assignment]
        request.phone = phone  # type: ignore[attr-defined]
        request.actor = SimpleLazyObject(lambda: actor(request, phone))  # type: ignore[attr-defined]
        return self.get_response(request)
