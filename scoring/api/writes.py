"""What a table does, through the API (issue 22): record a hand, edit one, undo the last.
Each is the table's own write of a hand (scoring/table/writes.py, which the game page's
form answers with too: its form, the same fields, checks and words; its one service, the
same lock, idempotency token and engine; the same status words), with the same right
(Action.SCORE_GAME, by the table's policy), and answers the game as it now stands, as
``GET /api/v1/games/{id}`` does.

Who writes: a personal token of an account that may score the game, a scorer link's
secret (:mod:`.access`), or a session with its CSRF token (the site's cookie, as the
pages); a call with a token or a link's secret needs none, as no browser sends one
by itself.
"""

from typing import Any, cast

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from ninja import Router, Schema, Status
from ninja.utils import check_csrf

from ..common.rights import Action, Actor
from ..engine import record_to_dict, result_to_dict
from ..table import face as table
from . import errors
from .access import ANYONE
from .schemas import ERRORS, EditIn, ErrorOut, GameId, GameWritten, HandIn, Number

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

WRITE_ERRORS: dict[int, type[Schema]] = {**ERRORS, 400: ErrorOut, 409: ErrorOut, 413: ErrorOut}


def _game(state: table.GameState) -> dict[str, Any]:
    return {
        "id": state.game.public_id,
        "record": record_to_dict(table.exported(state)),
        "report": result_to_dict(state.result),
        "finality": table.finality(state),
    }


def _written(state: table.GameState, status: str, hand: int) -> dict[str, Any]:
    """The game, and what the write did: the table's contract (scoring/table/writes.py)."""
    return {**_game(state), **table.hand_written(state, status, hand)}


def _referee(request: HttpRequest, game_id: str) -> bool:
    """Whether the request is the game's referee, asked only of a confirmed hand, which the
    referee alone changes or undoes (docs/sharing.md): a lazy answer."""
    return cast(
        bool,
        SimpleLazyObject(lambda: table.may(request, Action.REFEREE_GAME, game_id)),  # type: ignore[arg-type]
    )


def _writer(request: HttpRequest, game_id: str) -> Actor:
    """Who makes the change, if the request may make it: else the error that says why (a
    404 for no game, a 403 for a session without its CSRF token, or without the right)."""
    if not table.Game.objects.filter(public_id=game_id).exists():
        raise errors.not_found(errors.NO_GAME)
    if request.auth is ANYONE:  # type: ignore[attr-defined]
        # Nothing says who writes: no token, no session, no phone's rights (its cookie).
        if not request.user.is_authenticated and not request.phone.games:  # type: ignore[attr-defined]
            raise errors.ApiError(401, "unauthorized", NO_CREDENTIALS)
        if check_csrf(request) is not None:
            raise errors.ApiError(403, "csrf_failed", BAD_CSRF)
    if not table.may(request, Action.SCORE_GAME, game_id):  # type: ignore[arg-type]
        if not table.Game.objects.filter(public_id=game_id).exists():  # deleted meanwhile
            raise errors.not_found(errors.NO_GAME)
        why = table.refusal(request, game_id)  # type: ignore[arg-type]
        raise errors.ApiError(403, "forbidden", why.message, reason=why.reason)
    return request.actor  # type: ignore[attr-defined,no-any-return]


def _invalid(game_id: str, form: table.HandForm) -> errors.ApiError:
    """The form's errors, in its words, the players named as the page names them."""
    form.name_seats(table.load_game(table.Game.objects.get(public_id=game_id)).names)
    fields = [
        {"name": "hand" if name == "__all__" else name, "problem": problem}
        for name, problems in table.form_errors(form).items()
        for problem in problems
    ]
    return errors.ApiError(422, "invalid_hand", errors.INVALID, fields=fields)


def _refused(refused: table.WriteRefused) -> errors.ApiError:
    if isinstance(refused, table.Closed):  # a night that ended: the right is gone
        return errors.ApiError(403, "forbidden", refused.why.message, reason=refused.why.reason)
    status, code = table.refused_as(refused)
    return errors.ApiError(
        code,
        status,
        table.refused_notice(refused),
        hand=getattr(refused, "number", None),
        game=_game(refused.state),
    )


@router.post(
    "/games/{game_id}/hands",
    response={200: GameWritten, 201: GameWritten, **WRITE_ERRORS},
    url_name="record_hand",
    operation_id="record_hand",
)
def record_hand(request: HttpRequest, game_id: GameId, body: HandIn) -> Status[dict[str, Any]]:
    """Record hand ``number`` (the game's next), as the game page's form does: a 201 with
    the game now; the same ``token`` sent again with the same hand records nothing more (a
    200, status ``duplicate``), with another hand it is a 422 ``token_reused``; a number
    another phone recorded first is a 409 ``conflict``."""
    by = _writer(request, game_id)
    form = table.HandForm(table.hand_data(body.number, body.model_dump()))
    written = table.record_hand(form, game_id, by)
    state, refused = written.state, written.refused
    if isinstance(refused, table.TokenReused):
        raise errors.ApiError(
            422,
            "token_reused",
            TOKEN_REUSED % {"number": refused.number},
            hand=refused.number,
            game=_game(refused.state),
        )
    if isinstance(refused, table.AlreadyRecorded):
        return Status(200, _written(refused.state, "duplicate", refused.number))
    if refused is not None:
        raise _refused(refused)
    if state is None:
        raise _invalid(game_id, form)
    return Status(201, _written(state, "recorded", form.cleaned_data["number"]))


@router.put(
    "/games/{game_id}/hands/{number}",
    response={200: GameWritten, **WRITE_ERRORS},
    url_name="hand",
    operation_id="edit_hand",
)
def edit_hand(
    request: HttpRequest, game_id: GameId, number: Number, body: EditIn
) -> dict[str, Any]:
    """Change hand ``number``, as its edit page does; everything after is scored again. An
    edit that wins the game before its last hand is a 409 ``ends_early``, unless sent with
    ``discard_after_end`` (the hands after the new end are then discarded)."""
    by = _writer(request, game_id)
    form = table.HandForm(table.hand_data(number, body.model_dump()))
    written = table.edit_hand(form, game_id, number, by, referee=_referee(request, game_id))
    if written.refused is not None:
        raise _refused(written.refused)
    if written.early is not None:
        raise errors.ApiError(
            409,
            "ends_early",
            table.ends_early_message(written.early),
            hand=number,
            won_at=written.early.won_at,
        )
    if written.state is None:
        raise _invalid(game_id, form)
    return _written(written.state, "edited", number)


@router.delete(
    "/games/{game_id}/hands/{number}",
    response={200: GameWritten, **WRITE_ERRORS},
    url_name="hand",
    operation_id="undo_hand",
)
def undo_hand(request: HttpRequest, game_id: GameId, number: Number) -> dict[str, Any]:
    """Undo hand ``number``, the game's last, as the game page's Undo does; sent again, it
    finds it gone and changes nothing more. A hand that is not the last is a 409
    ``conflict``: only the last hand can be undone."""
    by = _writer(request, game_id)
    try:
        state = table.undo_hand(
            public_id=game_id, number=number, by=by, referee=_referee(request, game_id)
        )
    except table.WriteRefused as refused:
        raise _refused(refused) from None
    return _written(state, "undone", number)
