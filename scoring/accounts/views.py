"""Accounts, which nobody needs to score a game: signing up, and one's account page.
Logging in and out and the password pages are Django's own views (django.contrib.auth.urls),
drawn by the templates in templates/registration/."""

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_safe

from ..common.throttles import PASSWORD_RESET, SIGN_UP, throttled
from .forms import SignUpForm

password_reset = throttled(PASSWORD_RESET)(
    PasswordResetView.as_view(email_template_name="registration/password_reset_email.txt")
)
"""Django's view, with the email's text in a .txt template: it is plain text, not HTML.
Each request mails someone: a script must not make it mail the world."""


def safe_next(request: HttpRequest) -> str:
    """Where to go once done (``next``, posted or in the address): only an address on this
    site, else nothing."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if allowed else ""


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(SIGN_UP)
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The account just made needs no password check: Django's own backend logs it in.
        login(request, form.save(), backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request) or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": safe_next(request)},
        status=422 if form.errors else 200,
    )


@require_safe
@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account.html")
