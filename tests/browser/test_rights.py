"""Who may change a game, tried with phones: a scorer link hands the scoring to another
phone until it is revoked; a watch link shows the game. What a phone without rights may
not do, and the history's names, are the server's: tests/table/test_rights.py."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Hand as HandRow
from tests.factories import NAMES

pytestmark = pytest.mark.browser


def key(page, name, value):
    return page.locator(f'#entry input[name="{name}"][value="{value}"] + span')


def tap_hand(page, taker, bid, trump, tricks):
    key(page, "taker", taker).click()
    key(page, "bid", bid).click()
    key(page, "trump", trump).click()
    for seat, count in enumerate(tricks[:3]):
        key(page, f"tricks_{seat}", count).click()
    page.locator("#entry button.save").click()


@pytest.fixture
def game(transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    for number in (1, 2):
        hand = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


def test_scorer_link_and_watch_link_do_what_they_say_until_revoked(phone, game):
    owner = phone()
    owner.goto(f"/games/{game.public_id}/share")
    watch_url = owner.locator(".share-box .share-url a").first.get_attribute("href")
    with owner.expect_navigation():
        owner.get_by_role("button", name="Make a scorer link").click()
    scorer_url = owner.locator(".scorer-link .share-url a").get_attribute("href")
    qr_codes = owner.locator(".qr svg").count()

    watcher = phone(scorer=False)
    watcher.goto(watch_url)
    watching = (watcher.locator("#entry").count(), watcher.locator(".scoreboard li").count())

    other = phone(scorer=False)
    other.goto(scorer_url)
    other.get_by_label("This phone is").fill("Bilal’s phone")
    other.get_by_role("button", name="Score on this phone").click()
    tap_hand(other, 2, 3, "S", (1, 1, 3, 1))
    expect(other.locator(".last-hand span")).to_contain_text("Hand 3")

    watcher.reload()
    seen = watcher.locator(".last-hand span").inner_text()
    owner.goto(f"/games/{game.public_id}/share")
    with owner.expect_navigation():
        owner.get_by_role("button", name="Revoke this link").click()
    other.reload()
    locked = other.locator("#entry").count()

    assert (qr_codes, watching, seen, locked) == (2, (0, 4), "Hand 3: Chafik 3♠ made", 0)
    assert HandRow.objects.count() == 3
