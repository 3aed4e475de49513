"""Accounts: signing up, logging in and out, changing and resetting a password, in every
language; and nobody needs one to score a game."""

import re

import pytest
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser, User
from django.core import mail
from django.template.loader import render_to_string

from scoring.table.models import Game
from tests.factories import account, new_game_data
from tests.site.fresh_python import settings_value

pytestmark = pytest.mark.django_db

PASSWORD = "felt-and-trumps-21"
NEW_PASSWORD = "jack-of-diamonds-9"


@pytest.fixture
def amina():
    return account("amina", "amina@example.com", PASSWORD)


def signup_data(**changes):
    data = {
        "username": "bilal",
        "email": "bilal@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(changes)
    return data


def field_errors(response, name):
    """The errors shown in the field ``name``'s own box, beside its input."""
    html = response.content.decode()
    box = next(part for part in html.split('<div class="field">') if f'name="{name}"' in part)
    found = re.search(rf'<ul class="errorlist" id="id_{name}_error">(.*?)</ul>', box)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def reset_link(message):
    return re.search(r"https?://testserver(/accounts/reset/\S+/)", message.body).group(1)


# --- Signing up ----------------------------------------------------------------------------


@pytest.mark.smoke
@pytest.mark.usefixtures("site_password_hashing")
def test_signup_valid_form_creates_the_user_and_logs_in(client):
    response = client.post("/accounts/signup/", signup_data())

    user = User.objects.get()
    assert (response.status_code, response.headers["Location"]) == (302, "/")
    assert (user.username, user.email, user.check_password(PASSWORD)) == (
        "bilal",
        "bilal@example.com",
        True,
    )
    assert auth.get_user(client) == user


def test_signup_without_email_creates_the_user(client):
    response = client.post("/accounts/signup/", signup_data(email=""))

    assert (response.status_code, User.objects.get().email) == (302, "")


def test_signup_bad_input_keeps_it_and_shows_errors_beside_fields(client, amina):
    response = client.post(
        "/accounts/signup/",
        signup_data(username="Amina", email="not-an-email", password2="something-else"),
    )

    html = response.content.decode()
    assert response.status_code == 422
    assert (field_errors(response, "username"), field_errors(response, "email")) == (
        ["A user with that username already exists."],
        ["Enter a valid email address."],
    )
    assert field_errors(response, "password2") == ["The two password fields didn’t match."]
    assert ('value="Amina"' in html, 'value="not-an-email"' in html) == (True, True)
    assert html.count('<div class="field-errors" role="alert">') == 3
    assert User.objects.count() == 1
    assert auth.get_user(client).is_authenticated is False


def test_signup_weak_password_is_refused_by_the_validators(client):
    response = client.post("/accounts/signup/", signup_data(password1="12345", password2="12345"))

    assert field_errors(response, "password2") == [
        "This password is too short. It must contain at least 8 characters.",
        "This password is too common.",
        "This password is entirely numeric.",
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "Les deux mots de passe ne correspondent pas."),
        ("ar", "حقلا كلمة المرور غير متطابقين."),
    ],
)
def test_signup_errors_come_in_the_page_language(client, language, expected):
    response = client.post(
        "/accounts/signup/", signup_data(password2="other-one-9"), HTTP_ACCEPT_LANGUAGE=language
    )

    assert field_errors(response, "password2") == [expected]


@pytest.mark.parametrize(
    ("next_url", "expected"), [("/rules", "/rules"), ("/games/new", "/games/new")]
)
def test_signup_safe_next_is_followed(client, next_url, expected):
    response = client.post(f"/accounts/signup/?next={next_url}", signup_data())

    assert response.headers["Location"] == expected


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", "javascript:x"])
def test_signup_unsafe_next_goes_home(client, next_url):
    response = client.post("/accounts/signup/", signup_data(next=next_url))

    assert response.headers["Location"] == "/"


def signup_form_next(response):
    """The ``next`` the signup form posts, if any."""
    form = re.search(
        r'<form [^>]*action="/accounts/signup/".*?</form>', response.content.decode(), re.S
    )
    return re.findall(r'name="next" value="([^"]*)"', form.group())


@pytest.mark.parametrize(
    ("next_url", "expected"), [("/rules", ["/rules"]), ("https://evil.example/", [])]
)
def test_signup_page_keeps_a_safe_next_only(client, next_url, expected):
    response = client.get(f"/accounts/signup/?next={next_url}")

    assert signup_form_next(response) == expected


def test_signup_refuses_other_methods(client):
    response = client.put("/accounts/signup/")

    assert response.status_code == 405


# --- Logging in and out -----------------------------------------------------------------------


@pytest.mark.smoke
@pytest.mark.usefixtures("site_password_hashing")
def test_login_right_password_logs_in_and_goes_home(client, amina):
    response = client.post("/accounts/login/", {"username": "amina", "password": PASSWORD})

    assert (response.status_code, response.headers["Location"]) == (302, "/")
    assert auth.get_user(client) == amina


def test_login_wrong_password_says_so_in_an_alert(client, amina):
    response = client.post("/accounts/login/", {"username": "amina", "password": "wrong"})

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'<div class="errors" role="alert">.*?<li>(.*?)</li>', html).group(1) == (
        "Please enter a correct username and password. Note that both fields may be case-sensitive."
    )
    assert 'value="amina"' in html
    assert auth.get_user(client).is_authenticated is False


@pytest.mark.parametrize(
    ("next_url", "expected"), [("/rules", "/rules"), ("https://evil.example/", "/")]
)
def test_login_next_is_followed_only_when_safe(client, amina, next_url, expected):
    response = client.post(
        "/accounts/login/", {"username": "amina", "password": PASSWORD, "next": next_url}
    )

    assert response.headers["Location"] == expected


def test_logout_by_post_logs_out_and_goes_home(client, amina):
    client.force_login(amina)

    response = client.post("/accounts/logout/")

    assert (response.status_code, response.headers["Location"]) == (302, "/")
    assert auth.get_user(client).is_authenticated is False


def test_logout_by_get_is_refused(client, amina):
    client.force_login(amina)

    response = client.get("/accounts/logout/")

    assert response.status_code == 405
    assert auth.get_user(client) == amina


# --- The account page and the header -------------------------------------------------------


def test_account_page_shows_username_password_link_and_logout_form(client, amina):
    client.force_login(amina)

    response = client.get("/accounts/")

    html = response.content.decode()
    assert response.status_code == 200
    assert ("<bdi>amina</bdi>" in html, 'href="/accounts/password_change/"' in html) == (True, True)
    assert '<form class="logout" method="post" action="/accounts/logout/">' in html


def test_account_page_without_login_asks_to_log_in(client):
    response = client.get("/accounts/")

    assert response.headers["Location"] == "/accounts/login/?next=/accounts/"


def test_header_anonymous_links_to_login_coming_back(client):
    html = client.get("/rules").content.decode()

    link = re.search(r'<a class="account-link" href="([^"]*)"', html).group(1)
    assert link == "/accounts/login/?next=/rules"


def test_header_logged_in_links_to_the_account(client, amina):
    client.force_login(amina)

    html = client.get("/").content.decode()

    link = re.search(r'<a class="account-link" href="([^"]*)"[^>]*>(.*?)</a>', html)
    assert link.groups() == (
        "/accounts/",
        '<span class="initial" aria-hidden="true">A</span>'
        '<span class="visually-hidden">amina</span>',
    )


# --- Passwords --------------------------------------------------------------------------------


def test_password_change_sets_the_new_password_and_keeps_the_login(client, amina):
    client.force_login(amina)

    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    amina.refresh_from_db()
    assert response.headers["Location"] == "/accounts/password_change/done/"
    assert (amina.check_password(NEW_PASSWORD), auth.get_user(client) == amina) == (True, True)


def test_password_change_wrong_old_password_shows_error_beside_it(client, amina):
    client.force_login(amina)

    response = client.post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert field_errors(response, "old_password") == [
        "Your old password was entered incorrectly. Please enter it again."
    ]


@pytest.mark.smoke
def test_password_reset_sends_one_email_whose_link_sets_a_password(client, amina):
    response = client.post("/accounts/password_reset/", {"email": "AMINA@example.com"})
    link = reset_link(mail.outbox[0])
    form_page = client.get(link, follow=True)
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    amina.refresh_from_db()
    assert response.headers["Location"] == "/accounts/password_reset/done/"
    assert (len(mail.outbox), mail.outbox[0].to) == (1, ["amina@example.com"])
    assert mail.outbox[0].subject == "Your Boulmous password"
    assert done.headers["Location"] == "/accounts/reset/done/"
    assert amina.check_password(NEW_PASSWORD) is True


def test_password_reset_unknown_email_sends_nothing_and_says_the_same(client, amina):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})

    assert (response.headers["Location"], len(mail.outbox)) == ("/accounts/password_reset/done/", 0)


def test_password_reset_used_link_no_longer_works(client, amina):
    client.post("/accounts/password_reset/", {"email": "amina@example.com"})
    form_page = client.get(reset_link(mail.outbox[0]), follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    again = client.get(reset_link(mail.outbox[0]), follow=True)

    assert again.context["validlink"] is False
    assert "<h1>This link no longer works</h1>" in again.content.decode()


@pytest.mark.parametrize(
    ("language", "subject", "opening"),
    [
        ("en", "Your Boulmous password", "Hello amina,"),
        ("fr", "Votre mot de passe Boulmous", "Bonjour amina,"),
        ("ar", "كلمة مرورك في بولموس", "مرحبًا \u2068amina\u2069،"),
    ],
)
def test_password_reset_email_is_in_the_language_of_the_request(
    client, amina, language, subject, opening
):
    client.post(
        "/accounts/password_reset/",
        {"email": "amina@example.com"},
        HTTP_ACCEPT_LANGUAGE=language,
    )

    message = mail.outbox[0]
    assert (message.subject, message.body.splitlines()[0]) == (subject, opening)


# --- Every account page, in every language -------------------------------------------------


ANONYMOUS_PAGES = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/done/",
    "/accounts/reset/MQ/bad-token/",
]
LOGGED_IN_PAGES = ["/accounts/", "/accounts/password_change/", "/accounts/password_change/done/"]


def page_facts(client, path, language):
    """The page's status, its number of h1, and whether it is in ``language``."""
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    return response.status_code, html.count("<h1>"), f'<html lang="{language}"' in html


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_account_pages_answer_with_one_h1_in_every_language(client, amina, language):
    anonymous = {path: page_facts(client, path, language) for path in ANONYMOUS_PAGES}
    client.force_login(amina)
    logged_in = {path: page_facts(client, path, language) for path in LOGGED_IN_PAGES}

    assert {**anonymous, **logged_in} == dict.fromkeys(
        [*ANONYMOUS_PAGES, *LOGGED_IN_PAGES], (200, 1, True)
    )


def test_account_pages_links_stand_one_a_line_with_nothing_between_them(client, amina):
    # The account pages set their links one under another: a separator between two
    # would stand alone on a line of its own.
    client.force_login(amina)
    pages = {
        path: client.get(path).content.decode() for path in ("/accounts/", "/accounts/delete/")
    }

    between = {
        path: {
            re.sub(r"<a [^>]*>.*?</a>", "", links).strip()
            for links in re.findall(r'<p class="links">(.*?)</p>', html, re.DOTALL)
        }
        for path, html in pages.items()
    }

    assert between == {path: {""} for path in pages}


def test_logged_out_page_has_one_h1_and_a_way_back(rf):
    request = rf.get("/accounts/logout/")
    request.user = AnonymousUser()

    html = render_to_string("registration/logged_out.html", request=request)

    assert (html.count("<h1>"), 'href="/"' in html) == (1, True)


# --- Nobody needs an account to score a game ------------------------------------------------


def test_home_page_answers_without_an_account(client):
    response = client.get("/")

    assert response.status_code == 200


def test_new_game_starts_without_an_account(client):
    response = client.post("/games/new", new_game_data())

    game = Game.objects.get()
    assert (response.status_code, response.headers["Location"]) == (
        302,
        f"/games/{game.public_id}/",
    )
    assert client.get(response.headers["Location"]).status_code == 200


# --- Mail settings ------------------------------------------------------------------------------

EMAIL_SETTINGS = (
    "settings.EMAIL_BACKEND.rsplit('.', 2)[1], settings.EMAIL_PORT, settings.EMAIL_USE_TLS"
)


def test_email_without_a_host_is_printed_on_the_console():
    result = settings_value(EMAIL_SETTINGS, SECRET_KEY="x")

    assert result.stdout == "console 25 False\n"


def test_email_with_a_host_goes_by_smtp():
    result = settings_value(
        EMAIL_SETTINGS + ", settings.DEFAULT_FROM_EMAIL",
        SECRET_KEY="x",
        EMAIL_HOST="smtp.example.com",
        EMAIL_PORT="587",
        EMAIL_USE_TLS="1",
        DEFAULT_FROM_EMAIL="Boulmous <scores@example.com>",
    )

    assert result.stdout == "smtp 587 True Boulmous <scores@example.com>\n"


def test_email_port_that_is_not_a_number_is_refused():
    result = settings_value("settings.EMAIL_PORT", SECRET_KEY="x", EMAIL_PORT="smtp")

    assert result.stderr.splitlines()[-1] == (
        "django.core.exceptions.ImproperlyConfigured: EMAIL_PORT='smtp': use a number"
    )
