"""Browser tests: Debian's Chromium, driven through Playwright, at a phone's size.

Skipped where /usr/bin/chromium is missing (CI installs it). Playwright's sync API
keeps an event loop running in the main thread, where the tests and pytest-django
also use the ORM: Django's async-safety check must be relaxed for the session.
"""

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from scoring.clubs.models import Member
from scoring.common.rights import COOKIE
from tests.clubs.test_privacy import PLAYERS, WON_BY_BILAL, new_club, play
from tests.conftest import scorer_cookie

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
HERE = Path(__file__).resolve().parent
PHONE = {"width": 360, "height": 640}
PASSWORD = "felt-and-trumps-21"
"""The password of the accounts the fixtures make."""


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"browser tests need Debian's Chromium at {CHROMIUM}")
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


def _whitenoise_only(handler):
    """No test static handler in front of the app: WhiteNoise serves /static/ itself."""
    return handler


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server, with static files served as in production.

    pytest-django puts staticfiles' test handler in front of the app, which answers
    /static/ from the finders: it knows no hashed name and 404s every asset that
    CompressedManifestStaticFilesStorage links. Here WhiteNoise serves them.
    """
    from pytest_django.live_server_helper import LiveServer

    addr = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    server.thread.static_handler = _whitenoise_only
    server.start()
    yield server
    server.stop()


@pytest.fixture
def phone(browser, live_server, made_games):
    """phone(lang="en", javascript=True, scorer=True, zone="UTC"): a new page in a fresh
    360x640 context, its clock in time zone ``zone``.

    A scorer phone may score the games the test made before it opened it, as the phone
    that started them; ``scorer=False`` gives a phone that never saw them.
    """
    contexts = []

    def open_phone(lang="en", *, javascript=True, scorer=True, zone="UTC"):
        context = browser.new_context(
            viewport=PHONE,
            locale=lang,
            timezone_id=zone,
            extra_http_headers={"Accept-Language": lang},
            java_script_enabled=javascript,
            base_url=live_server.url,
        )
        if scorer and made_games:
            cookie = {"name": COOKIE, "value": scorer_cookie(made_games), "url": live_server.url}
            context.add_cookies([cookie])
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def cafe(transactional_db):
    """A public club whose admins are Amina Belhaj (account amina) and Bilal Chebbi
    (account bilal), with a game played."""
    amina = User.objects.create_user("amina", "", PASSWORD)
    bilal = User.objects.create_user("bilal", "", PASSWORD)
    club = new_club(amina)
    play(club, WON_BY_BILAL, owner=amina)
    Member.objects.filter(club=club, name=PLAYERS[1]).update(user=bilal, role=Member.Role.ADMIN)
    return club
