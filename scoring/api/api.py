"""The read API's ninja application: its endpoints, who reads (:class:`.access.Reader`),
and every error as JSON (:mod:`.errors`)."""

import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.schema import OpenAPISchema

from ..table.face import Game
from . import clubs, errors, events, federations, games, writes
from .access import Reader

log = logging.getLogger(__name__)

READS_MAY_SEND_NO_TOKEN: list[dict[str, list[str]]] = [{}]
"""A read needs no token: a public club's data answers anyone (docs/api.md); a token, or a
signed-in session, shows a private club's to its members."""


EXAMPLES = {
    "club": "demo",
    "season": "march-may-2025",
    "player_id": "1",
    "night_id": "1",
    "event_id": "1",
    "game_id": "GAME_ID",
    "number": "1",
    "federation": "sahel",
}
"""Each path parameter's example: the demo club's (``make demo``), in the OpenAPI document
and the API's page's curl lines."""


class Api(NinjaAPI):
    """ninja's application, its OpenAPI document saying what the API does: a read (GET)
    needs no token, though it may send one; and every operation may answer 429 (the
    throttle, scoring/infra/throttles.py)."""

    def get_openapi_schema(self, **kwargs: Any) -> OpenAPISchema:
        schema = super().get_openapi_schema(**kwargs)
        too_many = {
            "description": "Too many requests: wait the seconds Retry-After gives.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for operations in schema["paths"].values():
            for method, operation in operations.items():
                if method == "get" and "security" in operation:
                    operation["security"] = READS_MAY_SEND_NO_TOKEN + operation["security"]
                operation["responses"].setdefault(429, too_many)
                for parameter in operation.get("parameters", []):
                    if parameter["in"] == "path" and parameter["name"] in EXAMPLES:
                        example = EXAMPLES[parameter["name"]]
                        integer = parameter.get("schema", {}).get("type") == "integer"
                        parameter["example"] = int(example) if integer else example
        return schema


api = Api(
    title="Boulmous",
    version="1",
    description=(
        "The API of a Boulmous site: clubs, seasons' standings (standings.csv's "
        "columns), games (boulmous/1 records and their reports), players, nights and, for "
        "its admins, a club's history; "
        "and a table's writes: record a hand, edit one, undo the last, with a token of "
        "an account that may score the game or the game's scorer link's secret. "
        "Public clubs are read by anyone; a private club's data needs a signed-in session "
        "or a personal API token, made on the account page and sent as "
        "`Authorization: Bearer <token>`. docs/api.md says more."
    ),
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url=None,
    auth=Reader(),
)
api.add_router("", clubs.router)
api.add_router("", events.router)
api.add_router("", federations.router)
api.add_router("", games.router)
api.add_router("", writes.router)


@api.exception_handler(errors.ApiError)
def api_error(request: HttpRequest, error: errors.ApiError) -> HttpResponse:
    return errors.error_response(request, error)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return errors.error_response(request, errors.not_found())


@api.exception_handler(ObjectDoesNotExist)
def gone(request: HttpRequest, error: ObjectDoesNotExist) -> HttpResponse:
    """What the request reads or writes was deleted meanwhile (an admin deleted the game
    while a phone sent a hand): a 404, as it would answer a moment later."""
    message = errors.NO_GAME if isinstance(error, Game.DoesNotExist) else errors.NOT_FOUND
    return errors.error_response(request, errors.not_found(message))


@api.exception_handler(RequestDataTooBig)
def too_large(request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
    return errors.error_response(request, errors.too_large())


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    """A path that names nothing the API has (a parameter against its pattern: a NUL byte,
    overlong, not a number) is a 404, as an unknown address; any other problem a 422."""
    if any(problem.get("loc", ("",))[0] == "path" for problem in error.errors):
        return errors.error_response(request, errors.not_found())
    fields = [
        {
            "name": ".".join(str(part) for part in problem.get("loc", ())[1:]) or "request",
            "problem": str(problem.get("msg", "")),
        }
        for problem in error.errors
    ]
    return errors.error_response(
        request, errors.ApiError(422, "invalid_request", errors.INVALID, fields=fields)
    )


@api.exception_handler(AuthenticationError)
def unauthorized(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return errors.error_response(request, errors.ApiError(401, "unauthorized", errors.SIGN_IN))


@api.exception_handler(PermissionDenied)
def forbidden(request: HttpRequest, error: PermissionDenied) -> HttpResponse:
    return errors.error_response(request, errors.ApiError(403, "forbidden", errors.NOT_MEMBER))


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    if error.status_code == 404:
        return errors.error_response(request, errors.not_found())
    return errors.error_response(
        request, errors.ApiError(error.status_code, "invalid_request", errors.INVALID)
    )


@api.exception_handler(Exception)
def server_error(request: HttpRequest, error: Exception) -> HttpResponse:
    """Whatever else failed: logged with its traceback, answered in JSON."""
    log.error("api: %s failed", request.path, exc_info=error)
    return errors.error_response(request, errors.ApiError(500, "server_error", errors.SERVER_ERROR))
