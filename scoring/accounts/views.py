"""Accounts, which nobody needs to score a game: signing up, and one's account page.
Logging in and out and the password pages are Django's own views (django.contrib.auth.urls),
drawn by the templates in templates/registration/."""

import json

from django.contrib.auth import login, logout
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from . import services
from .forms import DeleteAccountForm, SignUpForm

password_reset = PasswordResetView.as_view(
    email_template_name="registration/password_reset_email.txt"
)
"""Django's view, with the email's text in a .txt template: it is plain text, not HTML."""


def safe_next(request: HttpRequest) -> str:
    """Where to go once done (``next``, posted or in the address): only an address on this
    site, else nothing."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if allowed else ""


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save())
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


def _account(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in account, behind ``login_required``."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    return user


@require_safe
@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    """Everything the site keeps about this account, as one JSON file (docs/privacy.md)."""
    data = services.account_data(_account(request).pk)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="boulmous-my-data.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """The account deleted, once its password is typed again: signed out everywhere, its
    games and results kept under the name it chose."""
    user = _account(request)
    form = DeleteAccountForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.delete_account(user_id=user.pk, anonymous=form.anonymous)
        except services.AccountNeeded as needed:
            message = ngettext(
                "You are the only admin of %(clubs)s with an account: make another member "
                "an admin first.",
                "You are the only admin of these clubs with an account: %(clubs)s. Make "
                "another member an admin of each first.",
                len(needed.clubs),
            )
            form.add_error(None, message % {"clubs": gettext(", ").join(needed.clubs)})
        else:
            logout(request)
            return redirect("account_deleted")
    return render(
        request,
        "registration/delete_account.html",
        {"form": form},
        status=422 if form.errors else 200,
    )


@require_safe
def account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account_deleted.html")
