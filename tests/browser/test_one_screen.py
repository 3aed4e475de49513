"""One screen per hand: a whole game at 360x640, in English, French and Arabic.

Every ordinary hand is tapped in without scrolling, with its controls, the four totals
and Save in view together; each result, and each error, is in view, focused and
announced; a save that fails is said, and retried with the same token; axe-core finds
nothing to report at the start, mid-game, on an error, and at the end.
"""

import uuid
from typing import NamedTuple

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.axe import violations as axe_violations
from tests.browser.phone import PHONE_WIDTH, Taps
from tests.factories import NAMES

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "fr", "ar"]
HEIGHT = 640
LOWEST = 630
"""The lowest bottom of what must be in view: 10 px above the screen's edge (issue 40.6)."""


class Deal(NamedTuple):
    """A contract as the table plays it; ``tapped`` are the trick rows tapped, in order."""

    taker: int
    bid: int
    trump: str
    tricks: tuple[int, int, int, int]
    tapped: tuple[int, ...]


VOID = None
# Chafik (seat 2) wins at hand 8 with 22: a boulmous made (5 taps), a void deal (1 tap),
# the rest ordinary hands (7 taps), Dalila's missed.
GAME = [
    Deal(1, 4, "H", (1, 4, 0, 1), (0, 1, 2)),
    Deal(2, 6, "S", (0, 0, 6, 0), (2,)),
    VOID,
    Deal(3, 5, "D", (1, 0, 2, 3), (0, 1, 2)),
    Deal(0, 3, "NT", (3, 1, 1, 1), (1, 2, 3)),
    Deal(2, 4, "C", (0, 1, 5, 0), (0, 1, 3)),
    Deal(2, 5, "NT", (1, 0, 5, 0), (0, 1, 2)),
    Deal(2, 3, "S", (0, 2, 3, 1), (0, 1, 2)),
]
TOTALS = [6, 8, 22, 1]


def key(page, name, value):
    return page.locator(f'#entry input[name="{name}"][value="{value}"] + span')


def in_view(page, locator):
    """Whether the whole of ``locator`` lies inside the viewport."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LOWEST


def scrolled(page):
    return page.evaluate("window.scrollY")


def focused(page):
    """What has focus: an input's name, or an element's class."""
    return page.evaluate(
        "document.activeElement.name || document.activeElement.className || "
        "document.activeElement.tagName"
    )


def controls(page, deal):
    """Every control an ordinary hand uses, with the totals and Save."""
    used = [
        key(page, "taker", deal.taker),
        key(page, "bid", deal.bid),
        key(page, "trump", deal.trump),
    ]
    used += [key(page, f"tricks_{seat}", deal.tricks[seat]) for seat in deal.tapped]
    return [*used, page.locator("#entry button.save"), page.locator(".scoreboard")]


def tap_hand(page, taps, deal):
    if deal is VOID:
        taps.tap(page.locator("#entry button.void"))
        return
    taps.tap(key(page, "taker", deal.taker))
    taps.tap(key(page, "bid", deal.bid))
    taps.tap(key(page, "trump", deal.trump))
    for seat in deal.tapped:
        taps.tap(key(page, f"tricks_{seat}", deal.tricks[seat]))


@pytest.fixture
def game(transactional_db):
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_game_one_screen_per_hand(phone, game, lang):
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")
    violations = {"start": axe_violations(page)}
    taps_per_hand, all_in_view, scroll_during, results_in_view, focus = [], [], [], [], []

    for number, deal in enumerate(GAME, start=1):
        taps = Taps()
        if deal is not VOID:
            all_in_view.append(all(in_view(page, control) for control in controls(page, deal)))
        tap_hand(page, taps, deal)
        scroll_during.append(scrolled(page))
        if deal is not VOID:
            taps.tap(page.locator("#entry button.save"))
        last = page.locator(".last-hand span")
        if number < len(GAME):
            expect(page.locator("#entry input[name=number]")).to_have_value(str(number + 1))
            expect(page.locator("#entry input[name=taker]").first).to_be_focused()
            expect(page.locator("#announce")).to_have_text(last.inner_text())
            focus.append(focused(page))
            results_in_view.append(
                in_view(page, page.locator(".scoreboard"))
                and in_view(page, page.locator(".last-hand"))
            )
        else:
            expect(page.locator(".winner h1")).to_be_visible()
            results_in_view.append(in_view(page, page.locator(".winner h1")))
        taps_per_hand.append(taps.count)
        if number == 4:
            violations["mid-game"] = axe_violations(page)
    violations["finished"] = axe_violations(page)
    totals = [int(total) for total in page.locator(".scoreboard .total").all_inner_texts()]

    assert taps_per_hand == [7, 5, 1, 7, 7, 7, 7, 7]
    assert all_in_view == [True] * 7
    assert scroll_during == [0] * len(GAME)
    assert results_in_view == [True] * len(GAME)
    assert focus == ["taker"] * (len(GAME) - 1)
    assert totals == TOTALS
    assert violations == {"start": [], "mid-game": [], "finished": []}
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE_WIDTH


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_error_is_beside_its_control_in_view_focused_and_announced(phone, game, lang):
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")
    deal = GAME[0]
    key(page, "taker", deal.taker).click()
    key(page, "bid", deal.bid).click()
    for seat in deal.tapped:
        key(page, f"tricks_{seat}", deal.tricks[seat]).click()

    page.locator("#entry button.save").click()

    error = page.locator(".trumps .field-errors")
    expect(error).to_be_visible()
    assert (in_view(page, error), error.get_attribute("role"), focused(page)) == (
        True,
        "alert",
        "field-errors",
    )
    assert page.locator("#entry .trick-row .who").all_inner_texts() == list(NAMES)
    assert NAMES[1] in page.locator("#entry h1").inner_text()  # Bilal speaks first
    assert axe_violations(page) == []
    assert Hand.objects.count() == 0


# A save that fails for want of a connection is queued on the phone: test_offline.py.
@pytest.mark.parametrize("failure", ["server"])
def test_failed_save_is_reported_keeps_the_taps_and_retries_with_the_same_token(
    phone, game, failure
):
    page = phone("en")
    page.goto(f"/games/{game.public_id}/")
    if failure == "server":
        page.route("**/hands", lambda route: route.fulfill(status=500, body="Server Error"))
    else:
        page.context.set_offline(True)
    tap_hand(page, Taps(), GAME[0])
    token = page.locator("#entry input[name=token]").input_value()

    page.locator("#entry button.save").click()

    message = page.locator("#entry .save-failed")
    expect(message).to_be_visible()
    said = message.inner_text()
    kept = page.locator("#entry input:checked").evaluate_all("inputs => inputs.map(i => i.value)")
    retry = page.locator("#entry button.save").inner_text()
    in_sight = in_view(page, message)
    page.unroute("**/hands")
    page.context.set_offline(False)
    page.locator("#entry button.save").click()
    expect(page.locator(".last-hand span")).to_contain_text("Hand 1")

    expected = {
        "server": "The server could not save this hand. Nothing is lost: try again.",
        "network": "No connection: the hand was not saved. Nothing is lost: try again.",
    }
    assert (said, retry, in_sight, kept) == (
        expected[failure],
        "Try again",
        True,
        ["1", "4", "H", "1", "4", "0", "1"],
    )
    assert list(Hand.objects.values_list("number", "token")) == [(1, uuid.UUID(token))]
