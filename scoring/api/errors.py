"""The API's errors: JSON with a stable code and a message in the request's language
(Accept-Language: en, fr, ar), ``{"error": {"code": "not_found", "message": "…"}}``."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

NOT_FOUND = _("Nothing has this address.")
NO_CLUB = _("No club has this address.")
NO_FEDERATION = _("No federation has this address.")
NOT_OF_FEDERATION = _("Only the federation's admins and its clubs' members see its ranking.")
NO_SEASON = _("The club has no season at this address.")
NO_PLAYER = _("The club has no player of this number.")
NO_NIGHT = _("The club has no night of this number.")
NO_GAME = _("No game has this id.")
NO_EVENT = _("The club has no event of this number.")
NO_PAGE = _("There is no page of this number.")
SIGN_IN = _(
    "This club is private: sign in, or send a personal API token (Authorization: Bearer …)."
)
BAD_TOKEN = _("This API token is not valid: it was revoked, or is mistyped.")
NOT_MEMBER = _("This club is private, and shows its data to its members only.")
ADMINS_ONLY = _(
    "The club's history is shown to its admins only: sign in as one, or send an admin's "
    "personal API token (Authorization: Bearer …)."
)
INVALID = _("The request is not valid: see each field's problem.")
NOT_ALLOWED = _("This address does not take this method: its Allow header says which it takes.")
TOO_MANY = _(
    "Too many requests from this token, or from this address, in a short time: wait the "
    "seconds Retry-After gives."
)
TOO_LARGE = _("The request's body is over the limit of %(limit)s bytes: this API takes no more.")
SERVER_ERROR = _("The server failed to answer. Try again later.")


class ApiError(Exception):
    """An answer other than the one asked for, with its status, code and message."""

    def __init__(self, status: int, code: str, message: str | Promise, **more: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
        self.more = more


def not_found(message: str | Promise = NOT_FOUND) -> ApiError:
    return ApiError(404, "not_found", message)


def too_large() -> ApiError:
    """A body over the limit Django reads (DATA_UPLOAD_MAX_MEMORY_SIZE), saying it."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return ApiError(413, "too_large", TOO_LARGE % {"limit": limit}, limit=limit)


def error_response(request: HttpRequest, error: ApiError) -> JsonResponse:
    body: dict[str, Any] = {"code": error.code, "message": str(error.message), **error.more}
    response = JsonResponse({"error": body}, status=error.status)
    if error.status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="boulmous"'
    if "retry_after" in error.more:
        response["Retry-After"] = str(error.more["retry_after"])
    return response
