"""What a view needs before it runs, checked in one place: the game named in the address,
and whether this request may change it."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from ..models import Club, Game, Member, ScorerLink
from ..rights import STARTED, Actor, PhoneRights, actor, read

P = ParamSpec("P")


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (installed for every request)."""

    htmx: HtmxDetails


@dataclass(frozen=True)
class Access:
    """What this request may do with the game, and who it is."""

    can_score: bool
    rights: PhoneRights
    actor: Actor


class GameView(Protocol[P]):
    """A view of the game named in the address, as Django calls it: ``gid`` by keyword."""

    def __call__(
        self, request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse: ...


def wants_json(request: HttpRequest) -> bool:
    """The request asks for JSON first (``Accept: application/json``), as the offline queue
    (static/js/offline.js) does: a hand's write then answers what it did in JSON
    (views/table.py). A browser's form, htmx and ``*/*`` get the page, as before."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def may_score(request: HttpRequest, gid: str, rights: PhoneRights, game: Game | None) -> bool:
    """The phone that started the game, a phone handed a scorer link not revoked since, the
    account that started it, or an admin of its club. A link is checked in the database
    (one query), the rest from the signed cookie and the session (and one query)."""
    claim = rights.games.get(gid)
    if claim == STARTED:
        return True
    if claim is not None:
        links = ScorerLink.objects.filter(pk=claim, game__public_id=gid, revoked_at=None)
        if links.exists():
            return True
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    if game is not None:
        if game.owner_id == user.pk:
            return True
        if game.club_id is None:
            return False
        admins = Member.objects.filter(club=game.club_id, user=user.pk, role=Member.Role.ADMIN)
        return admins.exists()
    club_admin = Q(club__members__user=user.pk, club__members__role=Member.Role.ADMIN)
    return Game.objects.filter(Q(owner_id=user.pk) | club_admin, public_id=gid).exists()


def with_game(
    view: Callable[Concatenate[HtmxHttpRequest, Game, Access, P], HttpResponse],
) -> GameView[P]:
    """The game named in the address (one query), or a 404; and what this request may do."""

    @wraps(view)
    def wrapper(
        request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        game = get_object_or_404(Game, public_id=gid)
        rights = read(request)
        access = Access(may_score(request, gid, rights, game), rights, actor(request, rights))
        return view(request, game, access, *args, **kwargs)

    return wrapper


def writes_game(
    view: Callable[Concatenate[HtmxHttpRequest, str, Actor, P], HttpResponse],
) -> GameView[P]:
    """A change to the game named in the address, by a request that may make it: else a 403
    that changes nothing. The service locks and reads the game itself, so for the phone
    that started it nothing more is read here; a game that does not exist is a 404."""

    @wraps(view)
    def wrapper(
        request: HtmxHttpRequest, gid: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        rights = read(request)
        if not may_score(request, gid, rights, None):
            if Game.objects.filter(public_id=gid).exists():
                if wants_json(request):
                    return JsonResponse({"status": "forbidden"}, status=403)
                raise PermissionDenied
            raise Http404
        try:
            return view(request, gid, actor(request, rights), *args, **kwargs)
        except Game.DoesNotExist:
            raise Http404 from None

    return wrapper


class ClubView(Protocol[P]):
    """A view of the club named in the address, as Django calls it: ``club`` by keyword."""

    def __call__(
        self, request: HtmxHttpRequest, club: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponseBase: ...


SEES = "sees"
SCORES = "scores"
ADMINS = "admins"
ROLES = {
    SEES: {Member.Role.ADMIN, Member.Role.SCORER, Member.Role.MEMBER},
    SCORES: {Member.Role.ADMIN, Member.Role.SCORER},
    ADMINS: {Member.Role.ADMIN},
}


def club_member(request: HttpRequest, club: Club) -> Member | None:
    """The member this request's account is in the club, if any (one query)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(club=club, user=user.pk).first()


def with_club(
    need: str,
) -> Callable[
    [Callable[Concatenate[HtmxHttpRequest, Club, Member | None, P], HttpResponseBase]],
    ClubView[P],
]:
    """The club named in the address (one query), or a 404; and the request's member, who
    must be able to do what the view ``need``s: see the club (anyone, where its standings
    are public), score its games, or run it. Someone signed out is asked to sign in."""

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, Club, Member | None, P], HttpResponseBase],
    ) -> ClubView[P]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, club: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            found = get_object_or_404(Club, slug=club)
            member = club_member(request, found)
            allowed = (need == SEES and found.public) or (
                member is not None and member.role in ROLES[need]
            )
            if not allowed:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied
            return view(request, found, member, *args, **kwargs)

        return wrapper

    return decorator
