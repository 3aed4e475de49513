from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.middleware.csrf import get_token
from django.template import loader
from django.urls import include, path

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


handler500 = server_error
