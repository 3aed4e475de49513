"""A hand form reached by Back, tapped again for the next hand: nothing is recorded twice,
and nothing tapped is lost. The form had recorded its hand already (its one-time token is
used), so the page keeps the new taps as a draft in its form, for the next hand, to check
and save.

Back, on a phone, shows the page as it was left (its back-forward cache): the game page
with the form for the hand just saved. Headless Chromium restores no same-site page from
that cache (BrowsingInstanceNotSwapped), and its HTTP cache holds the page as it now is;
so the test's Back is answered with the page as it was first drawn, as a phone shows it.
"""

import pytest

from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import Deal, checked, enter, save_button
from tests.browser.phone import Taps
from tests.factories import NAMES

pytestmark = pytest.mark.browser

FIRST = Deal(1, 5, "S", (0, 5, 1, 0))
SECOND = Deal(2, 4, "H", (1, 0, 4, 1))


@pytest.fixture
def game(transactional_db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


def recorded(game):
    return [
        (hand.number, hand.taker, hand.bid, hand.trump, hand.tricks)
        for hand in Hand.objects.filter(game=game).order_by("number")
    ]


def taps_shown(page):
    return [checked(page, name) for name in ("taker", "bid", "trump", "tricks_0", "tricks_2")]


def back_to(page, address, html):
    """Back, shown as the page ``html`` that was left at ``address``."""

    def as_left(route):
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

    page.route(address, as_left)
    page.go_back()
    page.unroute(address, as_left)


def test_hand_form_reached_by_back_keeps_new_taps_as_the_next_hand(phone, game):
    page = phone("en", javascript=False)
    address = f"/games/{game.public_id}/"
    first = page.goto(address)
    left = first.text()
    enter(Taps(), page, FIRST)
    with page.expect_navigation():
        save_button(page, "en").click()
    back_to(page, f"**/games/{game.public_id}/", left)
    back_on = page.locator("#hand-form .status strong").inner_text()
    enter(Taps(), page, SECOND)
    with page.expect_navigation():
        save_button(page, "en").click()
    notice = page.locator("p.notice[role=alert]").inner_text()
    draft = (page.locator("#hand-form .status strong").inner_text(), taps_shown(page))
    held = recorded(game)
    with page.expect_navigation():
        save_button(page, "en").click()

    assert back_on == "Hand 1"
    assert notice == (
        "This form had already recorded hand 1, so what you tapped since was not recorded: "
        "it is kept below as hand 2. Check it, then save it."
    )
    assert (draft, held) == (
        ("Hand 2", ["2", "4", "H", "1", "4"]),
        [(1, 1, 5, "S", [0, 5, 1, 0])],
    )
    assert recorded(game) == [(1, 1, 5, "S", [0, 5, 1, 0]), (2, 2, 4, "H", [1, 0, 4, 1])]
