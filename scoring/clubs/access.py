"""What a request may do with a club, by the site's policy (scoring/common/rights.py): a
member's role in the club is his role. Towards the club's games, which clubs keep
(scoring/table/access.py), its current admins and scorers hold the roles of club admin and
club scorer; the one who started a club game keeps his rights on it while he is one of
them, whatever his role when he started it; and its rematch starts a club game, which only
those who may start the club's games may do."""

from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from ..common.http import HtmxHttpRequest
from ..common.rights import PUBLIC_CLUB_ACTIONS, Action, Role, allows
from ..common.words import say_time
from ..table.face import CLOSED, GAME_ROLES, KEPT_ACTIONS, STARTER_RIGHTS, Game, Refusal, signed_in
from .league.results import club_game_of
from .models import Club, Member, Night

P = ParamSpec("P")

ROLE_OF_MEMBER = {
    Member.Role.ADMIN: Role.CLUB_ADMIN,
    Member.Role.SCORER: Role.CLUB_SCORER,
    Member.Role.MEMBER: Role.CLUB_MEMBER,
    Member.Role.GUEST: Role.CLUB_GUEST,
}


def user_id_of(request: HttpRequest) -> int | None:
    """The account making the request, if any."""
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


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


def may_name_in_public(club: Club, member: Member | None, shown: Member) -> bool:
    """Whether this request's member may choose how the public sees ``shown``: himself (a
    member of the club, not a guest), or whoever the policy lets
    (Action.NAME_MEMBER_IN_PUBLIC: its admins)."""
    himself = member is not None and member.pk == shown.pk and member.role != Member.Role.GUEST
    return himself or club_may(Action.NAME_MEMBER_IN_PUBLIC, club, member)


STARTERS = (Member.Role.ADMIN, Member.Role.SCORER)
"""The roles that may start the club's games (Action.SCORE_CLUB), and so keep the rights of
the one who started one."""


def _of_games_club(request: HtmxHttpRequest, gid: str, role: str) -> bool:
    """Whether the request's account is, now, of ``role`` in the club of the game."""
    user_id = signed_in(request)
    if user_id is None:
        return False
    return Member.objects.filter(
        club__club_games__game__public_id=gid, user=user_id, role=role
    ).exists()


def _admin_of_games_club(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    return _of_games_club(request, gid, Member.Role.ADMIN)


def _scorer_of_games_club(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool:
    return _of_games_club(request, gid, Member.Role.SCORER)


def starter_holds() -> Q:
    """The games whose starter keeps his rights: any that is no club game; a club game while
    he is a scorer or an admin of its club (demoted, he loses them at once)."""
    return Q(club_game__isnull=True) | Q(
        Exists(
            Member.objects.filter(
                club=OuterRef("club_game__club"), user=OuterRef("owner"), role__in=STARTERS
            )
        )
    )


def rematch_of_club_game(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool | None:
    """A club game's rematch is a club game: whether the request may start the club's games
    (None for a game that is no club game)."""
    if game is not None:
        club_game = club_game_of(game)
        club = club_game.club if club_game is not None else None
    else:
        club = Club.objects.filter(club_games__game__public_id=gid).first()
    if club is None:
        return None
    return club_may(Action.SCORE_CLUB, club, club_member(request, club))


def referee_of_club_game(request: HtmxHttpRequest, gid: str, game: Game | None) -> bool | None:
    """A club game's referee is an admin of its club, and no one else (None for a game that
    is no club game: its owner referees it)."""
    if game is not None:
        club_game = club_game_of(game)
        club = club_game.club if club_game is not None else None
    else:
        club = Club.objects.filter(club_games__game__public_id=gid).first()
    if club is None:
        return None
    return club_may(Action.RUN_CLUB, club, club_member(request, club))


def _night_end(gid: str, game: Game | None) -> tuple[datetime, str] | None:
    """When the night the game was drawn at ended, and its club's time zone, if it ended:
    read with the game where the table was asked to (``club_game__round__night``), else in
    one query."""
    if game is None:
        found = (
            Night.objects.filter(round_set__club_games__game__public_id=gid)
            .exclude(ended_at=None)
            .values_list("ended_at", "club__time_zone")
            .first()
        )
        return None if found is None or found[0] is None else (found[0], found[1])
    club_game = club_game_of(game)
    if club_game is None or club_game.round is None:
        return None
    ended = club_game.round.night.ended_at
    return None if ended is None else (ended, club_game.club.time_zone)


def night_closed(gid: str, game: Game | None) -> Refusal | None:
    """A game of a night that ended takes no more changes, from anyone: the night's ranking
    and money, mailed at its end, hold (an admin reopens the night to correct it)."""
    end = _night_end(gid, game)
    if end is None:
        return None
    ended_at, zone = end
    with timezone.override(zone):
        ended = say_time(ended_at)
    return Refusal(
        "closed",
        gettext("This night ended at %(time)s; its tables no longer score.") % {"time": ended},
    )


def subscribe() -> None:
    """A club's admins and scorers may do with its games what the policy lets club admins
    and scorers do; the club says how long a game's starter keeps his rights, and who may
    start a club game's rematch; a night's games close when it ends."""
    for role, check in (
        (Role.CLUB_ADMIN, _admin_of_games_club),
        (Role.CLUB_SCORER, _scorer_of_games_club),
    ):
        if (role, check) not in GAME_ROLES:
            GAME_ROLES.append((role, check))
    if starter_holds not in STARTER_RIGHTS:
        STARTER_RIGHTS.append(starter_holds)
    if (Action.REMATCH_GAME, rematch_of_club_game) not in KEPT_ACTIONS:
        KEPT_ACTIONS.append((Action.REMATCH_GAME, rematch_of_club_game))
    if (Action.REFEREE_GAME, referee_of_club_game) not in KEPT_ACTIONS:
        KEPT_ACTIONS.append((Action.REFEREE_GAME, referee_of_club_game))
    if night_closed not in CLOSED:
        CLOSED.append(night_closed)


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
    asked to sign in. The view runs in the club's time zone."""

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
            # Every time the club's pages show is in the club's zone (common/clock.py).
            with timezone.override(found.time_zone):
                return view(request, found, member, *args, **kwargs)

        return wrapper

    return decorator
