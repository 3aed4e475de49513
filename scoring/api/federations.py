"""A federation's endpoint: its ranking, as its page and its ranking.csv show it, with the
same rights (Action.SEE_FEDERATION: its admins and its clubs' members, anyone for a public
one), the players named as its page names them for this request."""

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router

from ..clubs.face import (
    Federation,
    federation_may,
    federation_ranking,
    ranking_rows,
    ranking_values,
    sees_federation_names,
)
from ..common.rights import Action
from . import errors
from .schemas import ERRORS, FederationOut, Slug

router = Router(tags=["federations"])


@router.get(
    "/federations/{federation}/ranking",
    response={200: FederationOut, **ERRORS},
    url_name="federation_ranking",
    operation_id="federation_ranking",
)
def federation_ranking_of(request: HttpRequest, federation: Slug) -> dict[str, Any]:
    """A federation's ranking today: one object per line of its ranking.csv, with the
    CSV's column names as keys, and its member clubs."""
    found = Federation.objects.filter(slug=federation).first()
    if found is None:
        raise errors.not_found(errors.NO_FEDERATION)
    user = request.user
    user_id = user.pk if user.is_authenticated else None
    if not federation_may(Action.SEE_FEDERATION, found, user_id):
        if user_id is None:
            raise errors.ApiError(401, "unauthorized", errors.SIGN_IN)
        raise errors.ApiError(403, "forbidden", errors.NOT_OF_FEDERATION)
    ranking = federation_ranking(
        found, timezone.now().date(), public=not sees_federation_names(found, user_id)
    )
    return {
        "federation": found.slug,
        "name": found.name,
        "day": ranking.day,
        "clubs": [club.slug for club in ranking.clubs],
        "rows": [ranking_values(row) for row in ranking_rows(ranking)],
    }
