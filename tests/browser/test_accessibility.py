"""axe-core (WCAG 2.2 A and AA, and best practices) finds nothing on any page, in any state
(tests/checked_pages.py). axe checks every page in Arabic, the language with the most to
break (right to left, its own script and plurals), and in English and French one page per
template: a template's other pages differ by their data, which the Arabic pass checks. The
template of a page is the one the test client's visit renders, so that an English or
French page whose template was checked is not loaded at all. That each page has one h1, in
every language, is the server's (tests/site/test_headings.py).

The game page's own states (start, mid-game, an error, finished) are checked where
they are reached by taps, in test_one_screen.py.
"""

import pytest
from django.test import Client

from scoring.common.rights import COOKIE
from tests.browser.axe import violations
from tests.checked_pages import ADMIN, WATCH, club_pages, game_pages, page_template
from tests.conftest import scorer_cookie

pytestmark = pytest.mark.browser

EVERY_PAGE = {"ar"}
"""The languages axe checks on every page; the others on the first page of each template."""


def to_check(lang, pages, client_of):
    """Of ``pages`` ((name, address, ...)), those axe checks in ``lang``: all of them, or the
    first of each template, as ``client_of(page)``'s visit draws it."""
    if lang in EVERY_PAGE:
        return pages
    checked, drawn = [], set()
    for page in pages:
        template = page_template(client_of(page).get(page[1], follow=True))
        if template not in drawn:
            checked.append(page)
        drawn.add(template)
    return checked


@pytest.fixture
def games(transactional_db):
    return game_pages()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_page_has_no_axe_violation(phone, games, made_games, lang):
    scorer, watcher = Client(), Client()
    scorer.cookies[COOKIE] = scorer_cookie(made_games)
    pages = to_check(lang, games, lambda page: watcher if page[2] == WATCH else scorer)
    page = phone(lang)
    found = {}

    for name, address, first in pages:
        if first == WATCH:
            page = phone(lang, scorer=False)
        page.goto(address)
        if first and first != WATCH:
            page.locator(first).click()
        found[name] = violations(page)

    assert found == {name: [] for name, _address, _first in pages}
    assert (len(pages) == len(games)) == (lang in EVERY_PAGE)


@pytest.fixture
def club(transactional_db):
    return club_pages()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_club_page_has_no_axe_violation(phone, club, lang):
    admin, every_page = club
    client = Client()
    client.force_login(admin)
    pages = to_check(lang, every_page, lambda page: client)
    page = phone(lang)
    page.goto("/accounts/login/")
    page.fill("#id_username", ADMIN[0])
    page.fill("#id_password", ADMIN[1])
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    found = {}

    for name, address in pages:
        page.goto(address)
        found[name] = violations(page)

    assert found == {name: [] for name, _address in pages}
    assert (len(pages) == len(every_page)) == (lang in EVERY_PAGE)
