"""Every page of the site fits a 360 px phone (issue 37): each address of the URL conf
that answers a GET with HTML, over a club whose names, place and money are long or
negative (conftest.py ``long_club``), seen by the one it is for (a stranger, a member or
the club's admin), is no wider than the screen, and no table on it sticks out of the
screen (a table in a box that scrolls or clips hides its columns without widening the
page).

Every page in French and Arabic, one page per template in English: French has the
widest words and glues its punctuation to them with no-break spaces, and Arabic lays the
page out right to left, where a negative margin or a long Latin name pushes it wider; the
same data in English's shorter words breaks nothing they do not, and a template's other
pages differ only by their data, which the other two check. The template of an address
is the one its HEAD rendered (tests/browser/templates.py), so that an English page is
not loaded at all when its template was measured.

One browser, a context for each part of a language's pages (PARTS), the pages visited in
a loop: the widths measured go to /tmp/page-widths-<lang>-<part>.json."""

import json

import pytest

from tests.browser.phone import PHONE, PHONE_WIDTH, scroll_width, session_cookie
from tests.browser.templates import rendered_templates
from tests.factories import POST_ONLY, address, url_names

pytestmark = pytest.mark.browser

LANGUAGES = ["fr", "ar", "en"]
EVERY_PAGE = {"fr", "ar"}
"""The languages measured on every page; the others on the first page of each template
(for each viewer)."""
PARTS = {"fr": 2, "ar": 2, "en": 1}
"""Each language's pages measured in this many tests, each every so many of its pages, so
that two workers share them evenly."""
FOR_STRANGERS = {
    "account_deleted",
    "join",
    "join_club",
    "login",
    "password_reset",
    "password_reset_complete",
    "password_reset_confirm",
    "password_reset_done",
    "signup",
}
"""Pages for someone signed out: signed in, he is sent on, or sees another page."""
FOR_MEMBERS = {"club", "club_player", "event", "night"}
"""Pages a member sees otherwise than the admin: seen by both."""
FRAGMENTS = {"game_live"}
"""Answers in HTML that are no page: the live view's fragment, that live.js puts in one."""
CUT_TABLES = """() => [...document.querySelectorAll("table")]
  .filter(table => table.offsetParent !== null)
  .map(table => table.getBoundingClientRect())
  .filter(box => box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5)
  .map(box => Math.round(Math.max(box.right, document.documentElement.clientWidth - box.left)))"""
"""The width each table shown that sticks out of the screen would need, where a scrolling box
beside them or a clipping one would hide their columns from a page's width."""


def visits(club):
    """(viewer, name, address) of every page, the game still playing as well."""
    names = [name for name in url_names() if name not in POST_ONLY | FRAGMENTS]
    for name in names:
        url = address(name, club["arguments"], club["secrets"])
        if name in FOR_STRANGERS:
            yield "stranger", name, url
            continue
        yield "admin", name, url
        if name in FOR_MEMBERS:
            yield "member", name, url
    yield "admin", "game (playing)", f"/games/{club['playing']}/"


def measure(context, server, club, lang, part, templates):
    """The widths of the pages ``server`` shows in ``lang``, by "viewer name", and the (viewer,
    template) pairs measured: every HTML page of ``part`` (every PARTS-th visit from the
    part's own), or in a language not in EVERY_PAGE the first page of each pair."""
    page = context.new_page()
    widths, measured = {}, set()
    viewer = "stranger"
    ordered = sorted(visits(club), key=lambda visit: visit[0] != "stranger")
    for who, name, url in ordered[part :: PARTS[lang]]:
        if who != viewer:
            context.clear_cookies()
            context.add_cookies([session_cookie(club[who], server)])
            viewer = who
        templates.forget()
        kind = page.request.head(url).headers.get("content-type", "")
        template = (who, templates.first(otherwise=name))
        if not kind.startswith("text/html"):
            continue
        if lang not in EVERY_PAGE and template in measured:
            continue
        measured.add(template)
        page.goto(url)
        widths[f"{who} {name}"] = max([scroll_width(page), *page.evaluate(CUT_TABLES)])
    return widths, measured


@pytest.mark.parametrize(
    ("lang", "part"), [(lang, part) for lang in LANGUAGES for part in range(PARTS[lang])]
)
def test_every_page_is_no_wider_than_the_phone(browser, live_server, long_club, lang, part):
    context = browser.new_context(
        viewport=PHONE,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        base_url=live_server.url,
    )
    with rendered_templates() as templates:
        widths, measured = measure(context, live_server.url, long_club, lang, part, templates)
    context.close()

    with open(f"/tmp/page-widths-{lang}-{part}.json", "w") as out:
        json.dump(widths, out, indent=1, ensure_ascii=False)
    assert {page: width for page, width in widths.items() if width > PHONE_WIDTH} == {}
    # Every page of the part in French and Arabic; each template once in English.
    if lang in EVERY_PAGE:
        assert len(widths) > 60 / PARTS[lang]
    else:
        assert (len(widths), len(widths) > 30) == (len(measured), True)
