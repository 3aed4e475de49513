"""A form refused far down a 360x640 phone's page, answered as a plain post: the page comes
back with the error beside its field, in view, and the field focused to type again.
"""

import pytest

from scoring.clubs.models import Member
from tests.browser.phone import log_in

pytestmark = pytest.mark.browser

LOOK_ALIKE = "\u0410mina Belhaj"  # a Cyrillic A: another player's name to the eye
CLASH = {
    "en": "“\u0410mina Belhaj” looks like “Amina Belhaj”, another player of the club",
    "ar": "«\u2068\u0410mina Belhaj\u2069» يشبه «\u2068Amina Belhaj\u2069»، وهو لاعب آخر في النادي",
}


def in_view(page, locator):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_player_added_under_a_look_alike_name_shows_the_clash_in_view(phone, cafe, lang):
    page = phone(lang)
    log_in(page, "amina")
    page.goto(f"/clubs/{cafe.slug}/members")
    added = page.locator(f'main form[action="/clubs/{cafe.slug}/members"]')
    before = in_view(page, added.locator("#id_name"))
    added.locator("#id_name").fill(LOOK_ALIKE)
    with page.expect_navigation():
        added.locator("button[type=submit]").click()
    error = page.locator(".field-errors", has_text=CLASH[lang])

    assert (before, in_view(page, error), in_view(page, page.locator("#id_name"))) == (
        False,
        True,
        True,
    )
    assert page.evaluate("document.activeElement.id") == "id_name"
    assert page.locator("#id_name").input_value() == LOOK_ALIKE
    assert Member.objects.filter(club=cafe).count() == 4


def test_page_without_an_error_keeps_its_top_and_focus(phone, cafe):
    page = phone("en")
    log_in(page, "amina")
    page.goto(f"/clubs/{cafe.slug}/members")

    assert (page.evaluate("window.scrollY"), page.evaluate("document.activeElement.tagName")) == (
        0,
        "BODY",
    )
