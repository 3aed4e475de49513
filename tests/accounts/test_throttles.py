"""Throttles (issue 18): logging in locks after 10 failures per account and per address, the
right password included, for 15 minutes; each other throttled form answers 429 past its
figure from one address, and not before; the 429 page in every language."""

import re
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

import pytest
from axes.handlers.proxy import AxesProxyHandler
from django.contrib import auth
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.translation import ngettext

from scoring.accounts import services as account_services
from scoring.clubs import services as club_services
from scoring.engine import Rules
from scoring.infra import throttles
from scoring.infra.throttles import KEYED_LIMITS, LIMITS, client_address
from scoring.table import services
from tests.conftest import REDIS_URL, SMALL_LIMIT, ScorerClient
from tests.factories import account

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "felt-and-trumps-21"
HERE = "203.0.113.5"
ELSEWHERE = "198.51.100.7"
TITLE = {"en": "Too many attempts", "fr": "Trop de tentatives", "ar": "محاولات كثيرة جدًا"}
FIFTEEN_MINUTES = {
    "en": "Try again in 15 minutes.",
    "fr": "Réessayez dans 15 minutes.",
    "ar": "أعد المحاولة بعد 15 دقيقة.",
}


@pytest.fixture
def amina():
    return User.objects.create_user("amina", "amina@example.com", PASSWORD)


def log_in(username, password, address=HERE, **headers):
    """One login from ``address`` (as nginx passes it on), in a browser of its own."""
    browser = Client()
    response = browser.post(
        "/accounts/login/",
        {"username": username, "password": password},
        HTTP_X_FORWARDED_FOR=address,
        **headers,
    )
    return response, browser


def statuses(username, password, times, address=HERE):
    return [log_in(username, password, address)[0].status_code for _ in range(times)]


@contextmanager
def later(seconds):
    """The clock ``seconds`` from now, for the cache's expiries and the limits' windows."""
    now = time.time()
    with patch("time.time", return_value=now + seconds):
        yield


# --- Logging in ------------------------------------------------------------------------------


def test_login_tenth_wrong_password_locks_the_account(amina):
    assert statuses("amina", "wrong", 10) == [200] * 9 + [429]


def test_login_locked_refuses_the_right_password(amina):
    statuses("amina", "wrong", 10)

    response, browser = log_in("amina", PASSWORD)

    assert (response.status_code, response["Retry-After"]) == (429, "900")
    assert auth.get_user(browser).is_authenticated is False


def test_login_thirty_wrong_passwords_answer_429_after_the_tenth(amina):
    answers = statuses("amina", "wrong", 30)

    assert (answers.count(200), answers[10:] == [429] * 20) == (9, True)


def test_login_nine_wrong_passwords_leave_the_right_one_working(amina):
    statuses("amina", "wrong", 9)

    response, browser = log_in("amina", PASSWORD)

    assert (response.status_code, auth.get_user(browser) == amina) == (302, True)


def test_login_locks_an_address_trying_many_accounts(amina):
    for number in range(10):
        log_in(f"player{number}", "wrong")

    here, _ = log_in("amina", PASSWORD)
    elsewhere, _ = log_in("amina", PASSWORD, address=ELSEWHERE)

    assert (here.status_code, elsewhere.status_code) == (429, 302)


def test_login_locks_one_ipv4_mapped_address_not_its_neighbours(amina):
    for number in range(10):
        log_in(f"player{number}", "wrong", address="::ffff:10.0.0.1")

    here, _ = log_in("amina", PASSWORD, address="10.0.0.1")
    neighbour, browser = log_in("amina", PASSWORD, address="::ffff:10.0.0.2")

    assert (here.status_code, neighbour.status_code, auth.get_user(browser) == amina) == (
        429,
        302,
        True,
    )


def test_login_locks_an_account_tried_from_many_addresses(amina):
    bilal = User.objects.create_user("bilal", password=PASSWORD)
    for number in range(10):
        log_in("amina", "wrong", address=f"192.0.2.{number}")

    refused, _ = log_in("amina", PASSWORD, address="192.0.2.200")
    other, browser = log_in("bilal", PASSWORD, address="192.0.2.1")

    assert (refused.status_code, other.status_code, auth.get_user(browser) == bilal) == (
        429,
        302,
        True,
    )


def test_login_lock_ends_fifteen_minutes_after_the_last_attempt(amina):
    statuses("amina", "wrong", 10)
    log_in("amina", PASSWORD)  # refused: the pause starts again from here

    with later(14 * 60):
        still, _ = log_in("amina", PASSWORD)
    with later(14 * 60 + 15 * 60 + 1):
        after, browser = log_in("amina", PASSWORD)

    assert (still.status_code, after.status_code, auth.get_user(browser) == amina) == (
        429,
        302,
        True,
    )


def test_login_lock_lifted_by_axes_reset_commands(amina):
    statuses("amina", "wrong", 10)

    call_command("axes_reset_username", "amina")
    call_command("axes_reset_ip", HERE)
    response, _ = log_in("amina", PASSWORD)

    assert response.status_code == 302


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_login_locked_page_says_when_to_try_again_in_each_language(amina, language):
    statuses("amina", "wrong", 10)

    response, _ = log_in("amina", PASSWORD, HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert (response.status_code, response["Retry-After"]) == (429, "900")
    assert (f"<h1>{TITLE[language]}</h1>" in page, FIFTEEN_MINUTES[language] in page) == (
        True,
        True,
    )
    assert (f'lang="{language}"' in page, 'dir="rtl"' in page) == (True, language == "ar")
    assert "429.html" in [template.name for template in response.templates]


@pytest.fixture
def redis_cache(settings):
    """The throttles' cache in Redis, as in production (this worktree's database 5)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "boulmous-tests",
        }
    }
    AxesProxyHandler.get_implementation(force=True)  # axes keeps the cache it was given
    cache.clear()
    yield
    cache.clear()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    AxesProxyHandler.get_implementation(force=True)


def test_login_locks_in_redis_too(amina, redis_cache):
    answers = statuses("amina", "wrong", 10)
    refused, _ = log_in("amina", PASSWORD)

    assert (answers, refused.status_code) == ([200] * 9 + [429], 429)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def redis_down(settings):
    """The throttles' cache in a Redis that does not answer (nothing listens on its port)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    AxesProxyHandler.get_implementation(force=True)
    yield
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    AxesProxyHandler.get_implementation(force=True)


def test_login_with_redis_down_is_let_through_and_logged(amina, redis_down, caplog):
    wrong, _ = log_in("amina", "wrong")
    right, browser = log_in("amina", PASSWORD)

    assert (wrong.status_code, right.status_code, auth.get_user(browser) == amina) == (
        200,
        302,
        True,
    )
    assert "throttles: the cache does not answer" in caplog.text


def test_throttled_form_with_redis_down_is_let_through(redis_down, caplog):
    response = Client().post("/accounts/signup/", {"username": "bilal"})

    assert (response.status_code, "sign-up let through uncounted" in caplog.text) == (422, True)


# --- The other forms -------------------------------------------------------------------------


def signed_in(username):
    browser = Client()
    browser.force_login(User.objects.create(username=username))
    return browser


def posting(limit):
    """A browser, and the address and data of one post of ``limit``'s form."""
    if limit.name == "sign-up":
        return Client(), "/accounts/signup/", {"username": "bilal"}
    if limit.name == "password-reset":
        return Client(), "/accounts/password_reset/", {"email": "bilal@example.com"}
    if limit.name == "game-import":
        return Client(), "/games/import", {"text": "{}"}
    if limit.name == "api-token":
        return signed_in("zied"), "/accounts/tokens/new", {"name": ""}
    game = services.create_game(names=("A", "B", "C", "D"), rules=Rules(), first_dealer=0).game
    if limit.name == "waiting-hands":
        return ScorerClient([game.public_id]), f"/games/{game.public_id}/waiting", {"count": "2"}
    if limit.name == "scorer-link-join":
        link = services.make_scorer_link(public_id=game.public_id)
        return Client(), f"/games/{game.public_id}/score/{link.secret}", {"label": "Table 1"}
    if limit.name == "seat-take":
        seat = services.make_seat_links(public_id=game.public_id)[1]
        return Client(), "/seat", {"code": seat.code}
    admin = signed_in("amina")
    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=User.objects.get(username="amina").pk,
        admin_name="Amina",
    )
    if limit.name == "club-join":
        return signed_in("bilal"), f"/clubs/sfax/join/{club.invite_secret}", {"name": ""}
    assert limit.name == "club-import"
    return admin, "/clubs/sfax/import", {"text": ""}


@pytest.mark.parametrize("limit", LIMITS, ids=[limit.name for limit in LIMITS])
def test_throttled_form_answers_429_past_its_figure_and_not_before(limit, small_limits):
    browser, address, data = posting(limit)

    answers = [
        browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE).status_code
        for _ in range(limit.count)
    ]
    refused = browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE)
    elsewhere = browser.post(address, data, HTTP_X_FORWARDED_FOR=ELSEWHERE)

    assert (429 in answers, max(answers) < 500) == (False, True)
    assert (refused.status_code, 0 < int(refused["Retry-After"]) <= limit.seconds) == (429, True)
    assert elsewhere.status_code != 429


@pytest.mark.parametrize("limit", LIMITS, ids=[limit.name for limit in LIMITS])
def test_throttled_form_shows_its_page_whatever_the_count(limit, small_limits):
    browser, address, data = posting(limit)
    for _ in range(limit.count + 1):
        browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE)

    shown = browser.get(address, HTTP_X_FORWARDED_FOR=HERE)

    assert shown.status_code in (200, 302)


def test_throttled_form_counts_again_after_its_window(small_limits):
    browser, address, data = posting(throttles.PASSWORD_RESET)
    for _ in range(throttles.PASSWORD_RESET.count + 1):
        browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE)

    with later(throttles.PASSWORD_RESET.seconds + 1):
        response = browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE)

    assert response.status_code == 302


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_throttled_form_page_is_translated(language, small_limits):
    browser, address, data = posting(throttles.SIGN_UP)
    for _ in range(throttles.SIGN_UP.count):
        browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE)
    response = browser.post(address, data, HTTP_X_FORWARDED_FOR=HERE, HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    minutes = -(-int(response["Retry-After"]) // 60)
    assert (response.status_code, f"<h1>{TITLE[language]}</h1>" in page) == (429, True)
    with translation.override(language):
        # Said as the catalogue says it: in Arabic, one and two minutes are words.
        said = ngettext(
            "Try again in %(counter)s minute.", "Try again in %(counter)s minutes.", minutes
        )
    assert said % {"counter": minutes} in page.split("<time", 1)[1].split("</time>", 1)[0]


def test_throttled_signup_creates_no_account(small_limits):
    browser, address, _ = posting(throttles.SIGN_UP)
    for _ in range(throttles.SIGN_UP.count):
        browser.post(address, {"username": "x"}, HTTP_X_FORWARDED_FOR=HERE)

    response = browser.post(
        address,
        {"username": "bilal", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_X_FORWARDED_FOR=HERE,
    )

    assert (response.status_code, User.objects.count()) == (429, 0)


def per(limit):
    """A limit's figure as docs/deploy.md writes it: ``10 per hour``, ``1 per 5 minutes``."""
    if limit.seconds in (throttles.HOUR, throttles.DAY):
        return f"{limit.count} per {'hour' if limit.seconds == throttles.HOUR else 'day'}"
    return f"{limit.count} per {limit.seconds // 60} minutes"


def test_deploy_doc_gives_each_limit():
    """The declared figures, which the tests above count to patched small (small_limits)."""
    text = (ROOT / "docs" / "deploy.md").read_text()

    rows = re.findall(r"^\| `([a-z-]+)` \| [^|]+ \| (\d+ per [a-z0-9 ]+) \|", text, re.M)
    limits = (*LIMITS, throttles.API_REQUESTS, *KEYED_LIMITS)
    assert rows == [(limit.name, per(limit)) for limit in limits]


# --- Mail to an address (issue 39 finding 1) -------------------------------------------------


def with_address(username, address="amina@example.com"):
    """A signed-in account whose address is given, not verified yet."""
    user = User.objects.create(username=username)
    account_services.change_email(user=user, address=address)
    browser = Client()
    browser.force_login(user)
    return browser


def test_verification_mail_past_the_accounts_figure_is_refused():
    """20 resends and 5 address changes from one account sent 25 mails: now at most one
    account's hourly figure, each refusal a 429 that changes nothing."""
    browser = with_address("amina")
    resends = [
        browser.post("/accounts/email/resend/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code
        for n in range(20)
    ]
    changes = [
        browser.post(
            "/accounts/email/", {"email": f"other{n}@example.com"}, HTTP_X_FORWARDED_FOR=HERE
        ).status_code
        for n in range(5)
    ]

    assert len(mail.outbox) <= throttles.VERIFY_MAIL_ACCOUNT.count
    assert (resends[0], set(resends[1:]), set(changes)) == (302, {429}, {429})
    assert User.objects.get(username="amina").email == "amina@example.com"


def test_verification_mail_refusal_says_why_and_when(small_limits):
    browser = with_address("amina")
    for _ in range(SMALL_LIMIT):
        browser.post("/accounts/email/resend/", HTTP_X_FORWARDED_FOR=HERE)

    refused = browser.post("/accounts/email/resend/", HTTP_X_FORWARDED_FOR=HERE)

    page = refused.content.decode()
    assert (refused.status_code, 0 < int(refused["Retry-After"]) <= throttles.HOUR) == (429, True)
    assert "Too many emails were asked for, for this account or this email address" in page
    assert len(mail.outbox) == SMALL_LIMIT


def test_verification_mail_to_one_address_from_many_accounts_is_refused(small_limits):
    """Accounts each under their figure, from addresses of their own, still mail one email
    address no more than its figure: its cool-down counts them all."""
    answers = [
        with_address(f"player{n}", "other@example.com")
        .post("/accounts/email/resend/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
        .status_code
        for n in range(SMALL_LIMIT + 2)
    ]

    assert answers == [302] * SMALL_LIMIT + [429, 429]
    assert len(mail.outbox) == SMALL_LIMIT


def test_verification_mail_from_one_address_for_many_accounts_is_refused(small_limits):
    answers = [
        with_address(f"player{n}", f"player{n}@example.com")
        .post("/accounts/email/resend/", HTTP_X_FORWARDED_FOR=HERE)
        .status_code
        for n in range(SMALL_LIMIT + 1)
    ]

    assert answers == [302] * SMALL_LIMIT + [429]


def test_email_change_refused_changes_nothing(small_limits):
    browser = with_address("amina")
    for n in range(SMALL_LIMIT):
        browser.post("/accounts/email/", {"email": f"a{n}@example.com"}, HTTP_X_FORWARDED_FOR=HERE)

    refused = browser.post("/accounts/email/", {"email": "late@example.com"})

    assert (refused.status_code, User.objects.get(username="amina").email) == (
        429,
        f"a{SMALL_LIMIT - 1}@example.com",
    )


def test_signup_past_an_addresses_figure_sends_nothing_and_answers_the_same(small_limits):
    """Sign-ups giving one address make their accounts as ever; the address gets no more
    mail than its figure, and the page does not say so."""
    answers = [
        Client()
        .post(
            "/accounts/signup/",
            {
                "username": f"player{n}",
                "email": "victim@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
        .status_code
        for n in range(SMALL_LIMIT + 2)
    ]

    assert (answers, len(mail.outbox)) == ([302] * (SMALL_LIMIT + 2), SMALL_LIMIT)


# --- The address -----------------------------------------------------------------------------


def request_from(peer, forwarded=None):
    headers = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **headers)


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("127.0.0.1", None, "127.0.0.1"),
        ("127.0.0.1", HERE, HERE),
        # nginx adds the address it saw after whatever the phone sent.
        ("127.0.0.1", f"10.0.0.1, {HERE}", HERE),
        # Anyone else's header is not believed.
        (ELSEWHERE, HERE, ELSEWHERE),
        ("127.0.0.1", "not an address", "127.0.0.1"),
        # An IPv6 phone counts by its /64.
        ("127.0.0.1", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        # An IPv4 phone seen by a dual-stack listener counts by its IPv4 address.
        ("127.0.0.1", "::ffff:10.0.0.1", "10.0.0.1"),
        ("::ffff:10.0.0.2", None, "10.0.0.2"),
        ("::ffff:127.0.0.1", HERE, HERE),
        # A Unix socket has no peer address: only this machine's nginx reaches it.
        ("", HERE, HERE),
        ("", None, "unknown"),
    ],
)
def test_client_address_believes_only_the_proxy(peer, forwarded, expected):
    assert client_address(request_from(peer, forwarded)) == expected


def test_client_address_believes_the_proxies_given(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]

    assert [
        client_address(request_from("10.1.2.3", HERE)),
        client_address(request_from("127.0.0.1", HERE)),
    ] == [HERE, "127.0.0.1"]


def test_password_reset_to_one_address_from_many_addresses_sends_its_figure(small_limits):
    """Each address under its own figure, the email address still gets no more than its
    own; the page answers the same whether it sent or not."""
    account("amina", "amina@example.com")
    answers = [
        Client()
        .post(
            "/accounts/password_reset/",
            {"email": "amina@example.com"},
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
        .status_code
        for n in range(SMALL_LIMIT + 2)
    ]

    assert (answers, len(mail.outbox)) == ([302] * (SMALL_LIMIT + 2), SMALL_LIMIT)
