"""A result's Share button (issue 22.3) in Chromium: where the phone has no Web Share API it
copies the text and the link, and says so; without JavaScript there is no button."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from tests.factories import NAMES

pytestmark = pytest.mark.browser

NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


@pytest.fixture
def won(transactional_db):
    """A game Amina won by four boulmous (24 to 0)."""
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    for number in range(1, 5):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(0, 6, Trump.HEARTS), (6, 0, 0, 0)),
            token=None,
        )
    return game


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_share_button_without_web_share_copies_the_text_and_link(phone, live_server, won, lang):
    page = phone(lang, scorer=False)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script(NO_SHARE)
    page.goto(f"/games/{won.public_id}/")
    button = page.locator("button[data-share]")
    text = button.get_attribute("data-share")

    button.click()

    expect(page.locator("button[data-share] + output")).to_have_text(
        {"en": "Copied", "ar": "تم النسخ"}[lang]
    )
    link = f"{live_server.url}/games/{won.public_id}/"
    assert page.evaluate("navigator.clipboard.readText()") == f"{text} {link}"
    assert text.startswith({"en": "Game of ", "ar": "مباراة "}[lang])


def test_share_button_copy_refused_shows_the_text_to_copy(phone, live_server, won):
    page = phone(scorer=False)
    page.add_init_script(
        NO_SHARE + "navigator.clipboard.writeText = () => Promise.reject(new Error('no'));"
    )
    page.goto(f"/games/{won.public_id}/")
    button = page.locator("button[data-share]")
    text = button.get_attribute("data-share")

    button.click()

    link = f"{live_server.url}/games/{won.public_id}/"
    expect(page.locator("button[data-share] + output")).to_have_text(f"{text} {link}")


def test_share_button_is_absent_without_javascript(phone, won):
    page = phone(javascript=False, scorer=False)
    page.goto(f"/games/{won.public_id}/")

    expect(page.locator("button[data-share]")).to_be_hidden()
    expect(page.locator("h1")).to_have_text("Amina wins!")
