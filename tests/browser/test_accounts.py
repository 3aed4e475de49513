"""Accounts on a 360x640 phone: signing up, logging out and in again by taps, in English and
Arabic; every account page and state passes axe in Arabic, and one page per template in
English and French (tests/browser/test_accessibility.py says why; there, a form refused is
not sent: it redraws the template checked before), the 429 page of a login locked out
too; and the header, with its account link, stays on one line. That a wrong password is
said in an alert is the server's (tests/accounts/test_accounts.py).
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.tokens import default_token_generator
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from scoring.accounts.models import AccountEmail
from scoring.accounts.verification import make_token
from tests.browser.axe import report, violations
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.browser.templates import rendered_templates

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
HEADER_HEIGHT = 48
"""The most the header may take: one line of thumb-sized controls."""
NAMES = {"en": ("Log in", "amina"), "ar": ("تسجيل الدخول", "أمينة")}
"""What the header's account link is called, logged out and in; the username to sign up."""


@pytest.fixture
def amina(transactional_db):
    return User.objects.create_user("amina", "amina@example.com", PASSWORD)


def header(page):
    """Whether the header is one line high, the page's width, and where the account link goes."""
    return (
        page.locator("header.top").bounding_box()["height"] <= HEADER_HEIGHT,
        scroll_width(page),
        page.locator("header.top .account-link").get_attribute("href"),
    )


def submit(page):
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


def log_in(page, username, password):
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    submit(page)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_signup_logout_login_by_taps(phone, live_server, transactional_db, lang):
    log_in_name, username = NAMES[lang]
    page = phone(lang)
    page.goto("/rules")

    page.get_by_role("link", name=log_in_name).click()
    page.locator(".account .links a[href^='/accounts/signup/']").click()
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    submit(page)
    expect(page).to_have_url(f"{live_server.url}/rules")
    signed_up = header(page)

    page.get_by_role("link", name=username).click()
    with page.expect_navigation():
        page.locator("form[action='/accounts/logout/'] button").click()
    logged_out = header(page)

    page.get_by_role("link", name=log_in_name).click()
    log_in(page, username, PASSWORD)
    logged_in = header(page)

    assert (signed_up, logged_out, logged_in) == (
        (True, PHONE_WIDTH, "/accounts/"),
        (True, PHONE_WIDTH, "/accounts/login/?next=/"),
        (True, PHONE_WIDTH, "/accounts/"),
    )
    assert page.get_by_role("link", name=username, exact=True).count() == 1
    assert page.locator("header.top .account-link .initial").inner_text() == username[0].upper()
    assert User.objects.get().username == username


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Too many attempts"), ("ar", "محاولات كثيرة جدًا")]
)
def test_login_locked_shows_the_429_page_at_a_phone_width(phone, amina, lang, title):
    page = phone(lang)
    page.goto("/accounts/login/")

    for _ in range(10):
        log_in(page, "amina", "wrong")

    assert page.locator("h1").inner_text() == title
    assert (report(page), header(page)[:2]) == (([], 1), (True, PHONE_WIDTH))
    assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")


def give_email(page, address):
    page.fill("#id_email", address)
    with page.expect_navigation():
        page.locator("form.email button[type=submit]").click()


def lapse_claim(user):
    """The account's address, given 4 days ago and never verified."""
    AccountEmail.objects.filter(user=user).update(claimed_at=timezone.now() - timedelta(days=4))


def reset_address(user):
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/accounts/reset/{uid}/{default_token_generator.make_token(user)}/"


def logged_out_page(lang):
    """The page Django's LogoutView draws when no LOGOUT_REDIRECT_URL sends one home."""
    request = RequestFactory().get("/accounts/logout/")
    request.user = AnonymousUser()
    with translation.override(lang):
        return render_to_string("registration/logged_out.html", request=request)


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_account_page_has_one_h1_and_no_axe_violation(phone, amina, lang):
    page = phone(lang)
    found = {}
    seen = set()

    def check(name, address=None, then=None, *, refused=False):
        if refused and lang != "ar":
            # A refusal redraws the page's template, checked on the step before.
            return
        templates.forget()
        if address:
            page.goto(address)
        if then:
            then()
        # axe on every page in Arabic, on each template's first in English and French.
        template = templates.first(otherwise=name)
        found[name] = (
            violations(page) if lang == "ar" or template not in seen else [],
            page.locator("h1").count(),
            header(page)[:2],
        )
        seen.add(template)

    with rendered_templates() as templates:
        check("login", "/accounts/login/")
        check("login, wrong password", then=lambda: log_in(page, "amina", "wrong"), refused=True)
        check("signup", "/accounts/signup/")
        check("signup, errors", then=lambda: submit(page), refused=True)
        check("password reset", "/accounts/password_reset/")
        check("password reset, error", then=lambda: submit(page), refused=True)
        check("password reset, sent", "/accounts/password_reset/done/")
        check("new password", reset_address(amina))
        check("new password, errors", then=lambda: submit(page), refused=True)
        check("reset link used", "/accounts/reset/MQ/used-token/")
        check("password set", "/accounts/reset/done/")
        page.goto("/")
        check("logged out", then=lambda: page.set_content(logged_out_page(lang)))
        page.goto("/accounts/login/")
        log_in(page, "amina", PASSWORD)
        check("home, logged in")
        check("account", "/accounts/")
        check("account, email refused", then=lambda: give_email(page, "not-an-email"), refused=True)
        check("email sent", then=lambda: give_email(page, "amina@example.com"))
        check("account, email not verified", "/accounts/")
        check("verify link", f"/accounts/email/verify/{make_token(amina.pk, 'amina@example.com')}/")
        check("email verified", then=lambda: submit(page))
        check("verify link refused", "/accounts/email/verify/nonsense/")
        check("password change", "/accounts/password_change/")
        check("password change, errors", then=lambda: submit(page), refused=True)
        check("password changed", "/accounts/password_change/done/")
        page.goto("/accounts/")
        give_email(page, "amina.b@example.com")
        lapse_claim(amina)
        check("account, email lapsed", "/accounts/")
        check("delete account", "/accounts/delete/")
        check("delete account, errors", then=lambda: submit(page), refused=True)

    assert found == dict.fromkeys(found, ([], 1, (True, PHONE_WIDTH)))
    assert len(found) == (26 if lang == "ar" else 19)
