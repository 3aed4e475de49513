from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseServerError
from django.middleware.csrf import get_token
from django.template import loader
from django.urls import include, path

from scoring.common.forms import form_megabytes

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # Accounts: Django's own views (login, logout, password change and reset), signing up,
    # and one's account page.
    path("accounts/", include("scoring.accounts.urls")),
    path("", include("scoring.urls")),
]


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page in the site's style, rendered without the context processors.

    Like Django's own handler, it needs nothing that may be what failed: no context
    processor runs (the account's would read the session and the database). It is given
    the request and a CSRF token all the same, for the header's language switch.
    """
    page = loader.get_template("500.html").render(
        {"request": request, "csrf_token": get_token(request)}
    )
    return HttpResponseServerError(page)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 page, rendered as the 500 page is; for a form that sent more text than
    Django reads (DATA_UPLOAD_MAX_MEMORY_SIZE: a club's records pasted rather than chosen as
    a file), it says how much it reads and what to do instead."""
    page = loader.get_template("400.html").render(
        {
            "request": request,
            "csrf_token": get_token(request),
            "too_big": isinstance(exception, RequestDataTooBig),
            "megabytes": form_megabytes(),
        }
    )
    return HttpResponseBadRequest(page)


handler400 = bad_request
handler500 = server_error
