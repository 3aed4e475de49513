"""The read API's ninja application: its endpoints, who reads (:class:`.access.Reader`),
and every error as JSON (:mod:`.errors`)."""

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from . import clubs, errors, games, writes
from .access import Reader

log = logging.getLogger(__name__)

api = NinjaAPI(
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
api.add_router("", games.router)
api.add_router("", writes.router)


@api.exception_handler(errors.ApiError)
def api_error(request: HttpRequest, error: errors.ApiError) -> HttpResponse:
    return errors.error_response(request, error)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return errors.error_response(request, errors.not_found())


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
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
