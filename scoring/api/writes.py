"""What a table does, through the API (issue 22): record a hand, edit one, undo the last.
Each goes through the table's own form (scoring/table/forms.py ``HandForm``: the same
fields, the same checks, the same words) and its one service (scoring/table/services.py:
the same lock, the same idempotency token, the same engine), with the same right
(Action.SCORE_GAME, by the table's policy), and answers the game as it now stands, as
``GET /api/v1/games/{id}`` does.

Who writes: a personal token of an account that may score the game, a scorer link's
secret (:mod:`.access`), or a session with its CSRF token (the site's cookie, as the
pages); a call with a token or a link's secret needs none, as no browser sends one
by itself.
"""

from typing import Any

from django.http import HttpRequest
from django.http.request import QueryDict
from django.utils.translation import gettext_lazy as _
from ninja import Router, Schema, Status
from ninja.utils import check_csrf

from ..common.forms import rules_error
from ..common.rights import Action, Actor
from ..engine import record_to_dict, result_to_dict
from ..table import services
from ..table.access import may, refusal
from ..table.forms import HandForm
from ..table.models import Game
from ..table.state import GameState, exported, load_game
from ..table.views.table import ends_early_message, refused_notice
from . import errors
from .access import ANYONE
from .schemas import ERRORS, EditIn, ErrorOut, GameWritten, HandFacts, HandIn

router = Router(tags=["writes"])

NO_CREDENTIALS = _(
    "This request sends no token and is not signed in: send a token (Authorization: Bearer "
    "…), or sign in and send the site's CSRF token."
)
TOKEN_REUSED = _(
    "This token was used for another hand (hand %(number)s): send a new token with each "
    "hand, the same one only to send the same hand again."
)
BAD_CSRF = _(
    "This request is signed in by the site's cookie, without its CSRF token: send it as "
    "X-CSRFToken, or send a token instead (Authorization: Bearer …)."
)

WRITE_ERRORS: dict[int, type[Schema]] = {**ERRORS, 400: ErrorOut, 409: ErrorOut}

REFUSED = {
    services.HandTaken: "conflict",
    services.GameWon: "won",
    services.GameClosed: "closed",
}
"""The error's code for a write the game no longer allows (a 409), by the service's refusal:
the words the table's JSON answers use (scoring/table/views/table.py ``REFUSED``)."""


def _game(state: GameState) -> dict[str, Any]:
    return {
        "id": state.game.public_id,
        "record": record_to_dict(exported(state)),
        "report": result_to_dict(state.result),
    }


def _written(state: GameState, status: str, hand: int) -> dict[str, Any]:
    return {
        **_game(state),
        "status": status,
        "hand": hand,
        "next_hand": None if state.ending.over else state.next_number,
    }


def _writer(request: HttpRequest, game_id: str) -> Actor:
    """Who makes the change, if the request may make it: else the error that says why (a
    404 for no game, a 403 for a session without its CSRF token, or without the right)."""
    if not Game.objects.filter(public_id=game_id).exists():
        raise errors.not_found(errors.NO_GAME)
    if request.auth is ANYONE:  # type: ignore[attr-defined]
        # Nothing says who writes: no token, no session, no phone's rights (its cookie).
        if not request.user.is_authenticated and not request.phone.games:  # type: ignore[attr-defined]
            raise errors.ApiError(401, "unauthorized", NO_CREDENTIALS)
        if check_csrf(request) is not None:
            raise errors.ApiError(403, "csrf_failed", BAD_CSRF)
    if not may(request, Action.SCORE_GAME, game_id):  # type: ignore[arg-type]
        why = refusal(request, game_id)  # type: ignore[arg-type]
        raise errors.ApiError(403, "forbidden", why.message, reason=why.reason)
    return request.actor  # type: ignore[attr-defined,no-any-return]


def _form_data(body: HandFacts, number: int) -> QueryDict:
    """The hand form's fields, as the page's form sends them."""
    data = QueryDict(mutable=True)
    data["number"] = str(number)
    for name in ("dealer", "taker", "bid", "trump", "token", "plays"):
        value = getattr(body, name, None)
        if value is not None and value != "":
            data[name] = str(value)
    for seat, count in enumerate(body.tricks):
        if count is not None and count != "":
            data[f"tricks_{seat}"] = str(count)
    for position, call in enumerate(body.calls):
        data[f"call_{position}"] = call
    if body.void:
        data["void"] = "on"
    if isinstance(body, EditIn) and body.discard_after_end:
        data["discard_after_end"] = "on"
    return data


def _invalid(game_id: str, form: HandForm) -> errors.ApiError:
    """The form's errors, in its words, the players named as the page names them."""
    form.name_seats(load_game(Game.objects.get(public_id=game_id)).names)
    fields = [
        {"name": "hand" if name == "__all__" else name, "problem": str(problem)}
        for name, problems in form.errors.items()
        for problem in problems
    ]
    return errors.ApiError(422, "invalid_hand", errors.INVALID, fields=fields)


def _refused(refused: services.WriteRefused) -> errors.ApiError:
    if isinstance(refused, services.Closed):  # a night that ended: the right is gone
        return errors.ApiError(403, "forbidden", refused.why.message, reason=refused.why.reason)
    return errors.ApiError(
        409,
        REFUSED.get(type(refused), "conflict"),
        refused_notice(refused),
        hand=getattr(refused, "number", None),
        game=_game(refused.state),
    )


@router.post(
    "/games/{game_id}/hands",
    response={200: GameWritten, 201: GameWritten, **WRITE_ERRORS},
    url_name="record_hand",
    operation_id="record_hand",
)
def record_hand(request: HttpRequest, game_id: str, body: HandIn) -> Status[dict[str, Any]]:
    """Record hand ``number`` (the game's next), as the game page's form does: a 201 with
    the game now; the same ``token`` sent again with the same hand records nothing more (a
    200, status ``duplicate``), with another hand it is a 422 ``token_reused``; a number
    another phone recorded first is a 409 ``conflict``."""
    by = _writer(request, game_id)
    form = HandForm(_form_data(body, body.number))
    if not form.is_valid():
        raise _invalid(game_id, form)
    try:
        state = services.record_hand(
            public_id=game_id,
            number=form.cleaned_data["number"],
            hand=form.cleaned_data["hand"],
            token=form.cleaned_data["token"],
            by=by,
        )
    except services.TokenReused as reused:
        raise errors.ApiError(
            422,
            "token_reused",
            TOKEN_REUSED % {"number": reused.number},
            hand=reused.number,
            game=_game(reused.state),
        ) from None
    except services.AlreadyRecorded as again:
        return Status(200, _written(again.state, "duplicate", again.number))
    except services.WriteRefused as refused:
        raise _refused(refused) from None
    except services.RulesBroken as broken:
        form.add_error(None, rules_error(broken.error))
        raise _invalid(game_id, form) from None
    return Status(201, _written(state, "recorded", form.cleaned_data["number"]))


@router.put(
    "/games/{game_id}/hands/{number}",
    response={200: GameWritten, **WRITE_ERRORS},
    url_name="hand",
    operation_id="edit_hand",
)
def edit_hand(request: HttpRequest, game_id: str, number: int, body: EditIn) -> dict[str, Any]:
    """Change hand ``number``, as its edit page does; everything after is scored again. An
    edit that wins the game before its last hand is a 409 ``ends_early``, unless sent with
    ``discard_after_end`` (the hands after the new end are then discarded)."""
    by = _writer(request, game_id)
    form = HandForm(_form_data(body, number))
    if not form.is_valid():
        raise _invalid(game_id, form)
    try:
        state = services.edit_hand(
            public_id=game_id,
            number=number,
            hand=form.cleaned_data["hand"],
            discard_after_end=form.cleaned_data["discard_after_end"],
            by=by,
        )
    except services.WriteRefused as refused:
        raise _refused(refused) from None
    except services.RulesBroken as broken:
        form.add_error(None, rules_error(broken.error))
        raise _invalid(game_id, form) from None
    except services.EndsEarly as early:
        raise errors.ApiError(
            409, "ends_early", ends_early_message(early), hand=number, won_at=early.won_at
        ) from None
    return _written(state, "edited", number)


@router.delete(
    "/games/{game_id}/hands/{number}",
    response={200: GameWritten, **WRITE_ERRORS},
    url_name="hand",
    operation_id="undo_hand",
)
def undo_hand(request: HttpRequest, game_id: str, number: int) -> dict[str, Any]:
    """Undo hand ``number``, the game's last, as the game page's Undo does; sent again, it
    finds it gone and changes nothing more. A hand that is not the last is a 409
    ``conflict``: only the last hand can be undone."""
    by = _writer(request, game_id)
    try:
        state = services.undo_hand(public_id=game_id, number=number, by=by)
    except services.WriteRefused as refused:
        raise _refused(refused) from None
    return _written(state, "undone", number)
