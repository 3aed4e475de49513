"""Who may change a game, tried with phones: a phone that never saw the game cannot change
it, whatever address it tries; a scorer link hands the scoring to another phone until it is
revoked; a watch link shows the game; the history names who changed what."""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Change
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


WRITES = [
    "hands",
    "hands/1/edit",
    "hands/2/undo",
    "hands/2/redo",
    "abandon",
    "resume",
    "rematch",
    "share/new",
]


def test_phone_without_rights_cannot_change_the_game_whatever_it_tries(phone, game):
    stranger = phone(scorer=False)
    stranger.goto(f"/games/{game.public_id}/")
    forms = stranger.locator("form[method=post]:not(.lang)").count()
    token = stranger.locator("input[name=csrfmiddlewaretoken]").first.input_value()

    statuses = stranger.evaluate(
        """async ([base, token, writes]) => {
            const answers = [];
            for (const suffix of writes) {
                const body = new URLSearchParams({csrfmiddlewaretoken: token, number: "1",
                    taker: "2", bid: "6", trump: "S", tricks_0: "0", tricks_1: "0", tricks_2: "6"});
                const response = await fetch(base + suffix, {method: "POST", body});
                answers.push(response.status);
            }
            return answers;
        }""",
        [f"/games/{game.public_id}/", token, WRITES],
    )
    pages = [
        stranger.goto(f"/games/{game.public_id}/{suffix}").status
        for suffix in ("hands/1/edit", "share", "hands/3/play?taker=0&bid=3&trump=H")
    ]

    assert (forms, statuses, pages) == (0, [403] * len(WRITES), [403, 403, 403])
    assert list(HandRow.objects.values_list("number", "taker")) == [(1, 1), (2, 1)]


def test_scorer_link_and_watch_link_do_what_they_say_until_revoked(phone, game):
    owner = phone()
    owner.goto(f"/games/{game.public_id}/share")
    watch_url = owner.locator(".share-box .share-url a").first.get_attribute("href")
    owner.get_by_role("button", name="Make a scorer link").click()
    scorer_url = owner.locator(".scorer-link .share-url a").get_attribute("href")
    qr_codes = owner.locator(".qr svg").count()
    owner.screenshot(path="/tmp/rights-share-en.png", full_page=True)

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
    owner.get_by_role("button", name="Revoke this link").click()
    other.reload()
    locked = other.locator("#entry").count()

    assert (qr_codes, watching, seen, locked) == (2, (0, 4), "Hand 3: Chafik 3♠ made", 0)
    assert HandRow.objects.count() == 3


def test_history_names_who_changed_what(phone, game):
    owner = phone()
    owner.goto(f"/games/{game.public_id}/share")
    owner.get_by_role("button", name="Make a scorer link").click()
    scorer_url = owner.locator(".scorer-link .share-url a").get_attribute("href")
    other = phone(scorer=False)
    other.goto(scorer_url)
    other.get_by_label("This phone is").fill("Dalila")
    other.get_by_role("button", name="Score on this phone").click()
    tap_hand(other, 3, 4, "D", (0, 1, 1, 4))
    expect(other.locator(".last-hand span")).to_contain_text("Hand 3")
    owner.goto(f"/games/{game.public_id}/")
    owner.locator(".last-hand button").click()  # undo hand 3
    expect(owner.locator(".last-hand")).to_contain_text("Hand 3 undone.")

    history = [re.sub(r"\s+", " ", line) for line in owner.locator(".history li").all_inner_texts()]

    assert history[0].endswith(
        "hand undone, hand 3: Dalila 4♦, tricks 0-1-1-4 by the phone that started the game"
    )
    assert history[1].endswith("hand recorded, hand 3: Dalila 4♦, tricks 0-1-1-4 by Dalila")
    assert Change.objects.filter(by_device="Dalila").count() == 1
