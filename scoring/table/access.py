"""What a request may do with a game, by the site's policy (scoring/common/rights.py): the
table says how a request holds a role towards a game; other contexts add theirs through
:data:`GAME_ROLES` (clubs: the admins of a club game's club)."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial, wraps
from typing import Concatenate, ParamSpec, Protocol

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404

from ..common.http import HtmxHttpRequest
from ..common.rights import STARTED, Action, Actor, Role, first_allowed
from . import hooks
from .models import Game, ScorerLink

P = ParamSpec("P")

GameRoleCheck = Callable[[HtmxHttpRequest, str, Game | None], bool]
"""Whether the request holds a role towards the game of this public id (the game itself
when it is already read, else None)."""


def _owner_phone(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    return request.phone.games.get(gid) == STARTED


def _scorer_link(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    """A link is checked in the database (one query): it may have been revoked since."""
    claim = request.phone.games.get(gid)
    if claim is None or claim == STARTED:
        return False
    return ScorerLink.objects.filter(pk=claim, game__public_id=gid, revoked_at=None).exists()


def signed_in(request: HttpRequest) -> int | None:
    """The account's id, if the request is signed in."""
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def _owner_account(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    user_id = signed_in(request)
    if user_id is None:
        return False
    if game is not None:
        return game.owner_id == user_id
    return Game.objects.filter(public_id=gid, owner_id=user_id).exists()


GAME_ROLES: list[tuple[Role, GameRoleCheck]] = [
    (Role.OWNER_PHONE, _owner_phone),
    (Role.SCORER_LINK, _scorer_link),
    (Role.OWNER_ACCOUNT, _owner_account),
]
"""How a request comes to hold a role towards a game, cheapest check first."""


def may(request: HtmxHttpRequest, action: Action, gid: str, game: Game | None = None) -> bool:
    """Whether this request may take ``action`` on the game of public id ``gid``."""
    return first_allowed(
        action, ((role, partial(check, request, gid, game)) for role, check in GAME_ROLES)
    )


def wants_json(request: HttpRequest) -> bool:
    """The request asks for JSON first (``Accept: application/json``), as the offline queue
    (static/js/offline.js) does: a hand's write then answers what it did in JSON
    (views/table.py). A browser's form, htmx and ``*/*`` get the page, as before."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


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
            game = get_object_or_404(
                Game.objects.select_related(*hooks.loaded_with_game), public_id=gid
            )
            can_score = may(request, Action.SCORE_GAME, gid, game)
            if need is not Action.WATCH_GAME and not (
                can_score if need is Action.SCORE_GAME else may(request, need, gid, game)
            ):
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
                if Game.objects.filter(public_id=gid).exists():
                    if wants_json(request):
                        return JsonResponse({"status": "forbidden"}, status=403)
                    raise PermissionDenied
                raise Http404
            try:
                return view(request, gid, request.actor, *args, **kwargs)
            except Game.DoesNotExist:
                raise Http404 from None

        return wrapper

    return decorator
