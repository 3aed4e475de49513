"""What a request may do with a club, by the site's policy (scoring/common/rights.py): a
member's role in the club is his role; a club's admins also hold the role of club admin
towards the club's games, which this module adds to the table's roles."""

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from ..common.http import HtmxHttpRequest
from ..common.rights import PUBLIC_CLUB_ACTIONS, Action, Role, allows
from ..table.access import GAME_ROLES, signed_in
from ..table.models import Game
from .models import Club, Member

P = ParamSpec("P")

ROLE_OF_MEMBER = {
    Member.Role.ADMIN: Role.CLUB_ADMIN,
    Member.Role.SCORER: Role.CLUB_SCORER,
    Member.Role.MEMBER: Role.CLUB_MEMBER,
    Member.Role.GUEST: Role.CLUB_GUEST,
}


def club_member(request: HttpRequest, club: Club) -> Member | None:
    """The member this request's account is in the club, if any (one query)."""
    user_id = signed_in(request)
    if user_id is None:
        return None
    return Member.objects.filter(club=club, user=user_id).first()


def club_may(action: Action, club: Club, member: Member | None) -> bool:
    """Whether the request of this member (None: not a member) may take ``action``."""
    if club.public and action in PUBLIC_CLUB_ACTIONS:
        return True
    role = Role.STRANGER if member is None else ROLE_OF_MEMBER[Member.Role(member.role)]
    return allows(action, role) or allows(action, Role.STRANGER)


def _admin_of_games_club(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    user_id = signed_in(request)
    if user_id is None:
        return False
    return Member.objects.filter(
        club__club_games__game__public_id=gid, user=user_id, role=Member.Role.ADMIN
    ).exists()


def subscribe() -> None:
    """A club's admins may do with its games what the policy lets club admins do."""
    if (Role.CLUB_ADMIN, _admin_of_games_club) not in GAME_ROLES:
        GAME_ROLES.append((Role.CLUB_ADMIN, _admin_of_games_club))


class ClubView(Protocol[P]):
    """A view of the club named in the address, as Django calls it: ``club`` by keyword."""

    def __call__(
        self, request: HtmxHttpRequest, club: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponseBase: ...


def with_club(
    need: Action,
) -> Callable[
    [Callable[Concatenate[HtmxHttpRequest, Club, Member | None, P], HttpResponseBase]],
    ClubView[P],
]:
    """The club named in the address (one query), or a 404; and the request's member, who
    must be able to take the action the view ``need``s. Someone signed out who may not is
    asked to sign in."""

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, Club, Member | None, P], HttpResponseBase],
    ) -> ClubView[P]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, club: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            found = get_object_or_404(Club, slug=club)
            member = club_member(request, found)
            if not club_may(need, found, member):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied
            return view(request, found, member, *args, **kwargs)

        return wrapper

    return decorator
