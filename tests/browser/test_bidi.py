"""Arabic reads right, French keeps its figures whole (issue 37): over a club of long Latin
names, a mixed-script place and negative money (conftest.py ``long_club``), its standings,
night, night's ranking, a game and its settlement, read from the page as drawn: a minus
drawn before its number, a name cut at its end, the place apart from the words around it,
and in French no line break inside a number or an amount."""

import pytest

from tests.browser.phone import (
    PHONE,
    breakable_figures,
    isolated,
    misread_signs,
    names_cut_at_their_start,
    session_cookie,
)
from tests.factories import LONG_MEMBERS, address

pytestmark = pytest.mark.browser

PAGES = ["season", "all_time", "night", "night_ranking", "club_player", "settlement", "game"]
PLACE = "Café Central 2, La Marsa"


def read(browser, live_server, club, lang):
    """What each page shows a signed-in admin in ``lang``: its misread signs, its names cut
    at their start, its figures a line may break, whether the night's place stands apart."""
    context = browser.new_context(
        viewport=PHONE,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        base_url=live_server.url,
    )
    context.add_cookies([session_cookie(club["admin"], live_server.url)])
    page = context.new_page()
    urls = {name: address(name, club["arguments"], club["secrets"]) for name in PAGES}
    urls["game (playing)"] = f"/games/{club['playing']}/"
    found = {}
    for name, url in urls.items():
        page.goto(url)
        found[name] = {
            "signs": misread_signs(page),
            "cut": names_cut_at_their_start(page, LONG_MEMBERS),
            "breakable": breakable_figures(page),
            "place": isolated(page, PLACE),
        }
    context.close()
    return found


def test_arabic_pages_draw_signs_before_numbers_names_from_their_start(
    browser, live_server, long_club
):
    found = read(browser, live_server, long_club, "ar")

    assert {name: page["signs"] for name, page in found.items() if page["signs"]} == {}
    assert {name: page["cut"] for name, page in found.items() if page["cut"]} == {}
    assert {name: page["place"] for name, page in found.items() if page["place"]} == {
        "night": [True],
        "night_ranking": [True],
    }


def test_french_pages_keep_numbers_and_amounts_on_one_line(browser, live_server, long_club):
    found = read(browser, live_server, long_club, "fr")

    assert {name: page["breakable"] for name, page in found.items() if page["breakable"]} == {}
    assert {name: page["signs"] for name, page in found.items() if page["signs"]} == {}
