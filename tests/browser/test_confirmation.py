"""Confirmation (issue 40.2) in Chromium on a 360 px phone, in English and Arabic: the
scorer saves a hand; Chafik's phone, holding his seat, sees it wait for Amina, Chafik or
Dalila, confirms it with one tap, and the line is gone, the history saying who confirmed."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser


@pytest.fixture
def waiting(transactional_db):
    rules = Rules(confirmation=Confirmation.EACH_HAND)
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
        seat=1,
    )
    return game


@pytest.mark.parametrize(
    ("lang", "line", "confirmed"),
    [
        ("en", "Hand 1 waits for Amina, Chafik or Dalila", "hand confirmed, hand 1: Chafik"),
        ("ar", "الجولة 1 بانتظار Amina، Chafik أو Dalila", "تأكيد جولة، الجولة 1: Chafik"),
    ],
)
def test_seat_holder_confirms_a_hand_at_360px(phone, live_server, waiting, lang, line, confirmed):
    chafik_seat = services.make_seat_links(public_id=waiting.public_id)[2]
    chafik = phone(lang, scorer=False)
    chafik.goto(f"/seat/{chafik_seat.code}")
    chafik.locator("form.seat button[type=submit]").click()

    expect(chafik.locator(".waiting-hand span")).to_have_text(line)
    width = scroll_width(chafik)
    chafik.locator(".agreement").scroll_into_view_if_needed()
    chafik.screenshot(path=f"/tmp/confirm-{lang}.png")
    button = chafik.locator(".waiting-hand button").bounding_box()
    chafik.locator(".waiting-hand button").click()

    expect(chafik.locator(".history")).to_contain_text(confirmed)
    assert (width, chafik.locator(".waiting-hand").count()) == (PHONE_WIDTH, 0)
    assert button is not None
    assert (button["x"] >= 0, button["x"] + button["width"] <= PHONE_WIDTH) == (True, True)
