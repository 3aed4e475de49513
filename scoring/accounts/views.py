"""Accounts, which nobody needs to score a game: signing up, one's account page and its
email address, and the link that verifies it. Logging in and out and the password pages are
Django's own views (django.contrib.auth.urls), drawn by the templates in
templates/registration/; the password reset's form sends its link to a verified address
only."""

import json

from django.contrib.auth import login, logout
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..common.http import attachment
from ..common.once import made_before, make_once
from ..common.words import elide, isolate
from ..infra.throttles import (
    API_TOKEN,
    MAIL_PAUSED,
    PASSWORD_RESET,
    SIGN_UP,
    VERIFY_MAIL_ACCOUNT,
    VERIFY_MAIL_ADDRESS,
    refused_for,
    throttled,
    too_many,
)
from . import services, tokens
from .forms import (
    ApiTokenForm,
    DeleteAccountForm,
    EmailForm,
    SignUpForm,
    VerifiedPasswordResetForm,
)
from .models import LINK_DAYS, AccountEmail, ApiToken
from .verification import (
    LinkExpired,
    LinkInvalid,
    read_token,
    recipient_refused,
    send_link,
)


class CountedPasswordReset(PasswordResetView):
    """Django's view, sending nothing to an address that has had its mails for now (its
    cool-down, its day's figure), however many phones ask: the page answers the same."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if recipient_refused(self.request, form.cleaned_data["email"]) is not None:
            return HttpResponseRedirect(self.get_success_url())
        response: HttpResponse = super().form_valid(form)
        return response


password_reset = throttled(PASSWORD_RESET)(
    CountedPasswordReset.as_view(
        form_class=VerifiedPasswordResetForm,
        email_template_name="registration/password_reset_email.txt",
    )
)
"""Django's view, with the email's text in a .txt template (plain text, not HTML), sent to
a verified address only. Each request mails someone: a script must not make it mail the
world."""


def safe_next(request: HttpRequest) -> str:
    """Where to go once done (``next``, posted or in the address): only an address on this
    site, else nothing."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if allowed else ""


def signed_in(request: HttpRequest) -> User:
    """The account of a request that login_required let through."""
    assert isinstance(request.user, User)
    return request.user


def mail_link(request: HttpRequest, user: User, email: AccountEmail) -> None:
    send_link(request, username=user.get_username(), user_id=user.pk, address=email.address)


def mail_refused(request: HttpRequest, user: User, address: str) -> HttpResponse | None:
    """The 429 page if the account, the request's address or the email address has been
    mailed enough for now; else None, each counted one mail more. Checked before anything
    changes: a refusal changes nothing."""

    def account_key(group: str, request: HttpRequest) -> str:
        return str(user.pk)

    seconds = (
        refused_for(VERIFY_MAIL_ACCOUNT, request, account_key)
        or refused_for(VERIFY_MAIL_ADDRESS, request)
        or recipient_refused(request, address)
    )
    return too_many(request, MAIL_PAUSED, seconds) if seconds is not None else None


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(SIGN_UP)
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = services.create_account(
                username=data["username"], email=data["email"], password=data["password1"]
            )
        except services.UsernameTaken:  # signed up meanwhile, by another request
            form.add_error("username", User._meta.get_field("username").error_messages["unique"])
        else:
            # The account just made needs no password check: Django's own backend logs it in.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # An address mailed enough for now gets nothing, and the page says the same:
            # the account page sends the link later.
            if user.email and recipient_refused(request, user.email) is None:
                send_link(
                    request, username=user.get_username(), user_id=user.pk, address=user.email
                )
            return redirect(safe_next(request) or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": safe_next(request)},
        status=422 if form.errors else 200,
    )


def account_page(
    request: HttpRequest,
    form: EmailForm | None = None,
    *,
    token_form: ApiTokenForm | None = None,
    new_token: tokens.NewToken | None = None,
) -> HttpResponse:
    user = signed_in(request)
    row = services.address_row(user.pk)
    email = row if row is not None and row.address else None
    if form is None:
        form = EmailForm(user=user, initial={"email": email.address if email else ""})
    token_form = token_form or ApiTokenForm()
    response = render(
        request,
        "registration/account.html",
        {
            "email": email,
            "lapsed": row if row is not None and not row.address else None,
            "days": LINK_DAYS,
            "email_form": form,
            "token_form": token_form,
            "api_tokens": ApiToken.objects.filter(user=user),
            "new_token": new_token,
            "most_tokens": tokens.MOST,
        },
        status=422 if form.errors or token_form.errors else 200,
    )
    if new_token is not None:
        response["Cache-Control"] = "private, no-store"  # the page shows the secret
    return response


@require_safe
@login_required
def account(request: HttpRequest) -> HttpResponse:
    return account_page(request)


@require_POST
@login_required
def change_email(request: HttpRequest) -> HttpResponse:
    """Set or change the account's address: a new one is unverified, and gets its link."""
    user = signed_in(request)
    form = EmailForm(request.POST, user=user)
    if form.is_valid():
        address = form.cleaned_data["email"]
        current = services.email_of(user.pk)
        if current is not None and current.verified and current.address == address:
            return redirect("account")  # no change, no mail
        if refused := mail_refused(request, user, address):
            return refused
        email = services.change_email(user=user, address=address)
        mail_link(request, user, email)
        return redirect("email_sent")
    return account_page(request, form)


@require_POST
@login_required
def resend_link(request: HttpRequest) -> HttpResponse:
    """The verification link again, for an address not verified yet (and not lapsed): the
    address is claimed anew, for as long as the new link lasts."""
    user = signed_in(request)
    email = services.email_of(user.pk)
    if email is None or email.verified:
        return redirect("account")
    if refused := mail_refused(request, user, email.address):
        return refused
    email = services.change_email(user=user, address=email.address)
    mail_link(request, user, email)
    return redirect("email_sent")


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(API_TOKEN)
@login_required
def new_api_token(request: HttpRequest) -> HttpResponse:
    """A personal API token: its secret shown on the page this answers, and never again.
    Its form is on the account page, where a GET is sent."""
    if request.method != "POST":
        return redirect("account")
    form = ApiTokenForm(request.POST)
    if form.is_valid():
        try:
            made = make_once(
                form.cleaned_data["once"],
                lambda: tokens.create_token(
                    user=signed_in(request), name=form.cleaned_data["name"]
                ),
                lambda _: reverse("account"),
            )
        except tokens.TooManyTokens:
            form.add_error(
                None,
                ngettext(
                    "An account holds at most %(count)s token: revoke one first.",
                    "An account holds at most %(count)s tokens: revoke one first.",
                    tokens.MOST,
                )
                % {"count": tokens.MOST},
            )
        else:
            if made.thing is None:  # its secret was shown once, to the first sending
                return made_before(request, made)
            return account_page(request, new_token=made.thing)
    return account_page(request, token_form=form)


@require_POST
@login_required
def revoke_api_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of one's tokens: the API refuses it from the next request on."""
    tokens.revoke_token(user=signed_in(request), token_id=token_id)
    return redirect("account")


@require_safe
@login_required
def email_sent(request: HttpRequest) -> HttpResponse:
    email = services.email_of(signed_in(request).pk)
    return render(request, "registration/email_sent.html", {"email": email, "days": LINK_DAYS})


@require_http_methods(["GET", "HEAD", "POST"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an address. A GET only asks to confirm (mail scanners open links);
    the POST of that page verifies. A link that cannot be believed changes nothing."""
    try:
        claim = read_token(token)
    except LinkExpired:
        return link_refused(request, "expired")
    except LinkInvalid:
        return link_refused(request, "invalid")
    if request.method == "POST":
        try:
            email = services.verify_email(user_id=claim.user_id, address=claim.address)
        except services.EmailTaken:  # another account verified it first
            return link_refused(request, "taken")
        if email is None:
            return link_refused(request, "stale")
        return render(request, "registration/email_verified.html", {"email": email})
    email = services.email_of(claim.user_id)
    if email is None or email.address != claim.address:
        return link_refused(request, "stale")
    return render(request, "registration/email_verify.html", {"address": claim.address})


def link_refused(request: HttpRequest, reason: str) -> HttpResponse:
    return render(
        request,
        "registration/email_link_refused.html",
        {"reason": reason, "days": LINK_DAYS},
        status=400,
    )


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
    attachment(response, "boulmous-my-data.json")
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
            if needed.clubs:
                message = ngettext(
                    "You are the only admin of %(clubs)s with an account: make another member "
                    "an admin first.",
                    "You are the only admin of these clubs with an account: %(clubs)s. Make "
                    "another member an admin of each first.",
                    len(needed.clubs),
                )
                clubs = gettext(", ").join(isolate(club) for club in needed.clubs)
                form.add_error(None, elide(message % {"clubs": clubs}, [clubs]))
            if needed.federations:
                message = ngettext(
                    "You are the only admin of the federation %(names)s: add another admin, "
                    "or delete it, first.",
                    "You are the only admin of these federations: %(names)s. Add another "
                    "admin to each, or delete it, first.",
                    len(needed.federations),
                )
                names = gettext(", ").join(isolate(name) for name in needed.federations)
                form.add_error(None, elide(message % {"names": names}, [names]))
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
