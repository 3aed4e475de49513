"""Seats on phones (issue 40.1) in Chromium, in Arabic on a 360 px phone: the scorer's seats
page shows each seat's QR code and code within the screen; a second phone opens a seat's
address (as its QR code reads), takes the seat, and its watch page says whose seat it holds,
within the screen too."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser


@pytest.fixture
def seated(transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    services.make_seat_links(public_id=game.public_id)
    return game


def test_second_phone_takes_a_seat_from_its_address_and_sees_it_at_360px_in_arabic(
    phone, live_server, seated
):
    scorer = phone("ar")
    scorer.goto(f"/games/{seated.public_id}/seats")
    seats_width = scroll_width(scorer)
    qr_codes = scorer.locator(".seat-link .qr svg").count()
    address = scorer.locator("#seat-1 ~ .share-url a").get_attribute("href")

    player = phone("ar", scorer=False)
    player.goto(address)
    player.locator("form.seat button[type=submit]").click()

    expect(player.locator(".seat-held")).to_have_text("أنت تشغل مقعد Bilal.")
    assert (seats_width, qr_codes, player.url, scroll_width(player)) == (
        PHONE_WIDTH,
        4,
        f"{live_server.url}/games/{seated.public_id}/",
        PHONE_WIDTH,
    )
    assert player.locator(".seat-held bdi").text_content() == "Bilal"
