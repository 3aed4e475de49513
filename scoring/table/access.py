"""What a request may do with a game, by the site's policy (scoring/common/rights.py): the
table says how a request holds a role towards a game; other contexts that keep some games
(clubs: club games) add theirs through :data:`GAME_ROLES` (a club game's club's admins and
scorers), say through :data:`STARTER_RIGHTS` how long the one who started such a game keeps
his rights, and answer through :data:`KEPT_ACTIONS` the actions on their games that are
theirs to allow (a club game's rematch starts a club game)."""

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial, wraps
from typing import Concatenate, ParamSpec, Protocol, cast

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from ..common.http import HtmxHttpRequest
from ..common.rights import FOR_OWNER, STARTED, Action, Actor, Role, first_allowed
from ..infra.compiled import CompiledQuery
from . import hooks
from .models import Game, ScorerLink, SeatLink
from .state import GameState, load_game

P = ParamSpec("P")

GameRoleCheck = Callable[[HtmxHttpRequest, str, Game | None], bool]
"""Whether the request holds a role towards the game of this public id (the game itself
when it is already read, else None)."""


STARTER_RIGHTS: list[Callable[[], Q]] = []
"""Filters of the games whose starting account still holds its rights, as the owner account
and through the phone it started them from (:data:`~scoring.common.rights.FOR_OWNER`): a
context that keeps some games says until when (clubs: a club game's starter, while he is
a scorer or an admin of its club). A game that no filter leaves out is its starter's."""


def _starter_holds(games: QuerySet[Game]) -> bool:
    """Whether the game of ``games`` (one at most) is there, its starter's rights holding."""
    for rights in STARTER_RIGHTS:
        games = games.filter(rights())
    return games.exists()


def _the_game(gid: str, game: Game | None) -> QuerySet[Game]:
    if game is not None:
        return Game.objects.filter(pk=game.pk)
    return Game.objects.filter(public_id=gid)


def _owner_phone(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    """The cookie says so (no query); for a phone that started the game for its owner, the
    owner's right is checked in the database (one query): his role may have changed."""
    claim = request.phone.games.get(gid)
    if claim == STARTED:
        return True
    return claim == FOR_OWNER and _starter_holds(_the_game(gid, game).exclude(owner=None))


def _scorer_link(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    """A link is checked in the database (one query): it may have been revoked since."""
    claim = request.phone.games.get(gid)
    if claim is None or claim <= STARTED:
        return False
    return ScorerLink.objects.filter(pk=claim, game__public_id=gid, revoked_at=None).exists()


def signed_in(request: HttpRequest) -> int | None:
    """The account's id, if the request is signed in."""
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def _owner_account(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    user_id = signed_in(request)
    if user_id is None or (game is not None and game.owner_id != user_id):
        return False
    if game is not None and not STARTER_RIGHTS:
        return True
    return _starter_holds(_the_game(gid, game).filter(owner_id=user_id))


def held_seat(request: HtmxHttpRequest, gid: str, game: Game | None = None) -> int | None:
    """The seat this request holds in the game: the phone's, by the seat link its cookie
    names (one query: it may have been revoked since), else the account's, where another
    context seats it (:func:`~scoring.table.hooks.seat_of_account`: clubs, a member's club
    game). None for a request that holds none, which costs no query if it has no seat's
    cookie and is not signed in."""
    held = seat_held(request, gid, game)
    return None if held is None else held[0]


SEAT_CODE = "seat"
"""A seat held by the phone's own seat code (its cookie names the seat link)."""
SEAT_ACCOUNT = "account"
"""A seat held through the account the request is signed in on."""
SCORER_PHONE = "scorer"
"""A write made from a phone that scores the game (and holds the seat, if one is named)."""
REFEREE = "referee"
"""A write made by the game's referee."""


def seat_held(
    request: HtmxHttpRequest, gid: str, game: Game | None = None
) -> tuple[int, str] | None:
    """:func:`held_seat`, and how it is held: by the phone's seat code (:data:`SEAT_CODE`)
    or through the account (:data:`SEAT_ACCOUNT`)."""
    claim = request.phone.seats.get(gid)
    if claim is not None:
        live = SeatLink.objects.filter(pk=claim, game__public_id=gid, revoked_at=None)
        seat = live.values_list("seat", flat=True).first()
        if seat is not None:
            return seat, SEAT_CODE
    user_id = signed_in(request)
    if user_id is None or not hooks.seats_of_account:
        return None
    found = game if game is not None else Game.objects.filter(public_id=gid).first()
    seat = None if found is None else hooks.seat_of_account(found, user_id)
    return None if seat is None else (seat, SEAT_ACCOUNT)


def phone_of(request: HtmxHttpRequest, gid: str, how: str) -> str:
    """Which phone a seat holder's write comes from, for the history: the scorer's (a phone
    that may score the game, passed round), else how the seat is held (``how``)."""
    return SCORER_PHONE if may(request, Action.SCORE_GAME, gid) else how


def _seat_holder(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    return held_seat(request, gid, game) is not None


GAME_ROLES: list[tuple[Role, GameRoleCheck]] = [
    (Role.OWNER_PHONE, _owner_phone),
    (Role.SCORER_LINK, _scorer_link),
    (Role.OWNER_ACCOUNT, _owner_account),
    (Role.SEAT_HOLDER, _seat_holder),
]
"""How a request comes to hold a role towards a game, cheapest check first."""

KeptCheck = Callable[[HtmxHttpRequest, str, Game | None], bool | None]
"""Whether the request may take an action on the game of this public id, if the context
that registered the check keeps the game; None for a game it does not keep."""

KEPT_ACTIONS: list[tuple[Action, KeptCheck]] = []
"""Actions on their games that the contexts keeping them answer, in place of the table's
roles (clubs: a club game's rematch starts a club game, which only those who may start the
club's games may do, Action.SCORE_CLUB)."""


@dataclass(frozen=True)
class Refusal:
    """Why this phone may not score the game: ``reason`` for scripts (the 403's
    ``X-Boulmous-Refused`` header, its JSON), ``message`` for people."""

    reason: str
    message: str


ClosedCheck = Callable[[str, Game | None], Refusal | None]
"""Why the game of this public id (the game itself when it is already read, else None)
takes no more changes from anyone, if the context keeping it closed it; else None."""

CLOSED: list[ClosedCheck] = []
"""Games that a context keeping them closed to every scorer (clubs: the games of a night
that ended, until an admin reopens it), whatever the role: :func:`may` refuses
Action.SCORE_GAME on them where the game is read already (a page: no query), each write
service on the game it locked (scoring/table/services.py ``Closed``: no query either, and
no write slips in between), and :func:`refusal` and :func:`lost_right` say why."""


def closed(gid: str, game: Game | None = None) -> Refusal | None:
    """Why nobody may score this game now, if a context closed it."""
    return next((why for check in CLOSED if (why := check(gid, game)) is not None), None)


def may(request: HtmxHttpRequest, action: Action, gid: str, game: Game | None = None) -> bool:
    """Whether this request may take ``action`` on the game of public id ``gid``. A game
    closed (:data:`CLOSED`) is refused here when it is given; else by the write's service."""
    if action is Action.SCORE_GAME and game is not None and closed(gid, game) is not None:
        return False
    for kept, check in KEPT_ACTIONS:
        if kept is action and (answer := check(request, gid, game)) is not None:
            return answer
    return first_allowed(
        action, ((role, partial(check, request, gid, game)) for role, check in GAME_ROLES)
    )


def wants_json(request: HttpRequest) -> bool:
    """The request asks for JSON first (``Accept: application/json``), as the offline queue
    (static/js/offline.js) does: a hand's write then answers what it did in JSON
    (views/table.py). A browser's form, htmx and ``*/*`` get the page, as before."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def may_later(request: HtmxHttpRequest, action: Action, gid: str, game: Game | None = None) -> bool:
    """:func:`may`, asked only if a page shows what the action allows (a button, a link)."""
    return cast(bool, SimpleLazyObject(lambda: may(request, action, gid, game)))


REFUSED_HEADER = "X-Boulmous-Refused"
"""The 403 of a game write says why in this header (``closed``, ``revoked``, ``ended``,
``none``), and in its body (the 403 page's ``[data-refused]``, or the JSON's ``reason``
and ``message``): static/js/offline.js turns what was tapped into a draft and shows the
game as it may be."""


def lost_right(request: HtmxHttpRequest, gid: str, game: Game | None = None) -> Refusal | None:
    """Why this phone, which held a right to score the game, holds it no more: its scorer
    link was revoked, or the account it scored for lost the right (one query); or the game
    was closed to every scorer (:data:`CLOSED`), which every phone is told (no query when
    ``game`` is given). None for a phone that never held one, or whose right the link's game
    does not say."""
    if (why := closed(gid, game)) is not None:
        return why
    claim = request.phone.games.get(gid)
    if claim is None or claim == STARTED:
        return None
    if claim == FOR_OWNER:
        return Refusal(
            "ended",
            gettext(
                "This phone scored this game for the account that started it, which may no "
                "longer score it: this phone may watch the game, no longer change it."
            ),
        )
    if ScorerLink.objects.filter(pk=claim, game__public_id=gid).exclude(revoked_at=None).exists():
        return Refusal(
            "revoked",
            gettext(
                "This phone’s scorer link was revoked: it may watch this game, no longer change it."
            ),
        )
    return None


def refusal(request: HtmxHttpRequest, gid: str) -> Refusal:
    """Why this request may not score the game (:func:`lost_right`, else it never could)."""
    return lost_right(request, gid) or Refusal(
        "none",
        gettext(
            "This phone may watch this game, not change it. Only the phone that started it, "
            "a phone handed a scorer link, or the account that started it may."
        ),
    )


def forbidden(request: HtmxHttpRequest, gid: str, why: Refusal | None = None) -> HttpResponse:
    """The 403 of a change this request may not make, saying why (``why``, else
    :func:`refusal`): in JSON for a request that asks for it (the offline queue), else the
    403 page; the reason in a header too."""
    why = why or refusal(request, gid)
    response: HttpResponse
    if wants_json(request):
        answer = {"status": "forbidden", "reason": why.reason, "message": why.message}
        response = JsonResponse(answer, status=403)
    else:
        response = render(request, "403.html", {"refusal": why}, status=403)
    response[REFUSED_HEADER] = why.reason
    return response


@dataclass(frozen=True)
class Access:
    """What this request may do with the game, and who it is."""

    can_score: bool
    actor: Actor


class GameView(Protocol[P]):
    """A view of the game named in the address, as Django calls it: ``gid`` by keyword."""

    def __call__(
        self, request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse: ...


GAME_WITH_SUMMARY = CompiledQuery(
    lambda gid: (
        Game.objects.select_related("summary", *hooks.loaded_with_game)
        .filter(public_id=gid)
        .order_by()
    )  # one game: the model's order would only cost a sort
)
"""The game of an address, with its summary: its version, for the pages kept in the cache
(scoring/infra/pagecache.py), costs no query of its own. Compiled once: on a cached
page's hit, making this query's SQL cost more than running it."""


def with_game(
    need: Action = Action.WATCH_GAME,
) -> Callable[[Callable[Concatenate[HtmxHttpRequest, Game, Access, P], HttpResponse]], GameView[P]]:
    """The game named in the address (one query), or a 404; a 403 unless the request may
    take the action the view ``need``s; and whether it may score the game."""

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, Game, Access, P], HttpResponse],
    ) -> GameView[P]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponse:
            game = GAME_WITH_SUMMARY.first(gid)
            if game is None:
                raise Http404
            can_score = may(request, Action.SCORE_GAME, gid, game)
            if need is not Action.WATCH_GAME and not (
                can_score if need is Action.SCORE_GAME else may(request, need, gid, game)
            ):
                if need is Action.SCORE_GAME:
                    return forbidden(request, gid)
                raise PermissionDenied
            return view(request, game, Access(can_score, request.actor), *args, **kwargs)

        return wrapper

    return decorator


def writes_game(
    need: Action = Action.SCORE_GAME,
) -> Callable[[Callable[Concatenate[HtmxHttpRequest, str, Actor, P], HttpResponse]], GameView[P]]:
    """A change to the game named in the address, by a request that may make it: else a 403
    that changes nothing. The service locks and reads the game itself, so for the phone
    that started it nothing more is read here; a game that does not exist is a 404."""

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, str, Actor, P], HttpResponse],
    ) -> GameView[P]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponse:
            if not may(request, need, gid):
                if not Game.objects.filter(public_id=gid).exists():
                    raise Http404
                if need is Action.SCORE_GAME:
                    return forbidden(request, gid)
                if wants_json(request):
                    return JsonResponse({"status": "forbidden"}, status=403)
                raise PermissionDenied
            try:
                return view(request, gid, request.actor, *args, **kwargs)
            except Game.DoesNotExist:
                raise Http404 from None

        return wrapper

    return decorator


def load_shown(request: HttpRequest, game: Game, *, can_score: bool) -> GameState:
    """The game, for a page that shows it: its players as typed for those who score it,
    else as the hooks say this request may see them (its record says the same names)."""
    state = load_game(game)
    if can_score:
        return state
    names = hooks.names_for(request, game, state.names)
    if names == state.names:
        return state
    return replace(state, names=names, record=replace(state.record, players=names))
