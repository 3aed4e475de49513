"""A signed settlement (issue 40.4) in Chromium, four phones on 360x640, in English and
Arabic: a game played for money is won; each player takes his seat on his own phone, opens
the settlement and agrees to it; the page then says the four agreed and when, and the game
page marks the result final."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser


def isolated(name):
    return f"\u2068{name}\u2069"


@pytest.fixture
def won(transactional_db):
    """Bilal wins with five contracts of five spades made, for 0.50 EUR a stake."""
    rules = Rules(confirmation=Confirmation.WHOLE_GAME, stake="0.50", currency="EUR")
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    for number in range(1, 6):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(1, 5, Trump.SPADES), tricks=(0, 5, 1, 0)),
            token=None,
        )
    return game


@pytest.mark.parametrize(
    ("lang", "agreed", "final"),
    [
        ("en", "Agreed by Amina, Bilal, Chafik and Dalila at", "Final result"),
        (
            "ar",
            f"وافق على التسوية {isolated('Amina')}، {isolated('Bilal')}، {isolated('Chafik')} "
            f"و{isolated('Dalila')} في الساعة",
            "نتيجة نهائية",
        ),
    ],
)
def test_four_phones_agree_to_the_settlement_at_360px(phone, won, lang, agreed, final):
    codes = [link.code for link in services.make_seat_links(public_id=won.public_id)]
    widths, buttons = [], []
    for code in codes:
        player = phone(lang, scorer=False)
        player.goto(f"/seat/{code}")
        player.locator("form.seat button[type=submit]").click()
        player.goto(f"/games/{won.public_id}/settlement")
        button = player.locator(".agree button[type=submit]")
        buttons.append(button.bounding_box())
        widths.append(scroll_width(player))
        button.click()
        expect(player.locator(".agree button[type=submit]")).to_have_count(0)

    expect(player.locator(".agreed-settlement")).to_contain_text(agreed)
    player.screenshot(path=f"/tmp/settlement-agreed-{lang}.png")
    player.goto(f"/games/{won.public_id}/")
    expect(player.locator(".result-mark strong")).to_have_text(final)
    assert widths == [PHONE_WIDTH] * 4
    assert all(
        box is not None and 0 <= box["x"] <= box["x"] + box["width"] <= PHONE_WIDTH
        for box in buttons
    )
