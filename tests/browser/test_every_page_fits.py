"""Every page of the site fits a 360 px phone (issue 37): each address of the URL conf
that answers a GET with HTML, over a club whose names, place and money are long or
negative (conftest.py ``long_club``), in English, French and Arabic, seen by the one it
is for (a stranger, a member or the club's admin), is no wider than the screen, and no
table on it sticks out of the screen (a table in a box that scrolls or clips hides its
columns without widening the page).

One browser, one context per language, the pages visited in a loop: the widths measured
go to /tmp/page-widths.json."""

import json

import pytest

from tests.browser.phone import PHONE, PHONE_WIDTH, scroll_width, session_cookie
from tests.factories import POST_ONLY, address, url_names

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "fr", "ar"]
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
FOR_MEMBERS = {"club", "club_player", "night"}
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


def test_every_page_is_no_wider_than_the_phone(browser, live_server, long_club):
    measured = {}
    for lang in LANGUAGES:
        context = browser.new_context(
            viewport=PHONE,
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            base_url=live_server.url,
        )
        page = context.new_page()
        viewer = "stranger"
        for who, name, url in sorted(visits(long_club), key=lambda visit: visit[0] != "stranger"):
            if who != viewer:
                context.clear_cookies()
                context.add_cookies([session_cookie(long_club[who], live_server.url)])
                viewer = who
            kind = page.request.head(url).headers.get("content-type", "")
            if not kind.startswith("text/html"):
                continue
            page.goto(url)
            measured[f"{lang} {who} {name}"] = max([scroll_width(page), *page.evaluate(CUT_TABLES)])
        context.close()

    with open("/tmp/page-widths.json", "w") as out:
        json.dump(measured, out, indent=1, ensure_ascii=False)
    too_wide = {page: width for page, width in measured.items() if width > PHONE_WIDTH}
    assert (too_wide, len(measured) > 3 * 60) == ({}, True)
