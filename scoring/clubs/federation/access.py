"""What a request may do with a federation, by the site's policy
(scoring/common/rights.py): its admins run it; the members of its clubs (not guests) see
it; anyone sees a public one."""

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBase
from django.shortcuts import get_object_or_404

from ...common.http import HtmxHttpRequest
from ...common.rights import PUBLIC_FEDERATION_ACTIONS, Action, Role, first_allowed
from ...table.face import signed_in
from ..models import Federation, Member

P = ParamSpec("P")


def is_admin(federation: Federation, user_id: int | None) -> bool:
    return user_id is not None and federation.admins.filter(pk=user_id).exists()


def is_member(federation: Federation, user_id: int | None) -> bool:
    """Whether the account is a member (not a guest) of one of the federation's clubs."""
    if user_id is None:
        return False
    return (
        Member.objects.filter(
            user=user_id,
            club__federations__federation=federation,
            club__federations__joined_at__isnull=False,
            club__federations__left_at__isnull=True,
        )
        .exclude(role=Member.Role.GUEST)
        .exists()
    )


def federation_may(action: Action, federation: Federation, user_id: int | None) -> bool:
    """Whether the request of this account (None: signed out) may take ``action``."""
    if federation.public and action in PUBLIC_FEDERATION_ACTIONS:
        return True
    return first_allowed(
        action,
        (
            (Role.FEDERATION_ADMIN, lambda: is_admin(federation, user_id)),
            (Role.FEDERATION_MEMBER, lambda: is_member(federation, user_id)),
        ),
    )


def sees_full_names(federation: Federation, user_id: int | None) -> bool:
    """Whether the request is of the federation (an admin, or a member of one of its clubs):
    else it is the public, and a player who asked is shown by first name and initial."""
    return is_admin(federation, user_id) or is_member(federation, user_id)


FederationView = Callable[..., HttpResponseBase]


def with_federation(
    need: Action,
) -> Callable[
    [Callable[Concatenate[HtmxHttpRequest, Federation, int | None, P], HttpResponseBase]],
    Callable[..., HttpResponseBase],
]:
    """The federation named in the address (``federation``, by slug), or a 404; the request
    must be able to take the action the view ``need``s (someone signed out who may not is
    asked to sign in)."""

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, Federation, int | None, P], HttpResponseBase],
    ) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(
            request: HtmxHttpRequest, federation: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            found = get_object_or_404(Federation, slug=federation)
            user_id = signed_in(request)
            if not federation_may(need, found, user_id):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied
            return view(request, found, user_id, *args, **kwargs)

        return wrapper

    return decorator
