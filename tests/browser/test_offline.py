"""Offline, on a 360x640 phone (issue 13): the service worker keeps the game this phone
scores, hands saved without a connection wait in IndexedDB, and are recorded once each,
in order, when it returns; a hand another phone recorded meanwhile becomes a draft.

Chromium's offline emulation (``context.set_offline``) cuts the service worker's fetches
too: a page reloaded offline comes from the worker's cache or not at all.
"""

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import Deal, enter, key, label, save_button
from tests.browser.offline import OFFLINE, open_kept, record, recorded
from tests.browser.phone import Taps
from tests.factories import NAMES
from tests.golden import LEGAL

pytestmark = pytest.mark.browser

ANOTHER = Deal(3, 4, "D", (1, 1, 0, 4))


@pytest.fixture
def game(transactional_db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


def posted(response):
    """A hand sent by the queue, as the server answered it in JSON; None for anything else."""
    request = response.request
    if request.method != "POST" or request.headers.get("accept") != "application/json":
        return None
    answer = response.json()
    return (response.status, answer["status"], answer["hand"], answer["next_hand"])


def save_offline(page, deal):
    enter(Taps(), page, deal)
    save_button(page, "en").click()


def status(page):
    return page.locator("#hand-form .status")


def expected(deals, first=1):
    return [
        (number, deal.taker, deal.bid, deal.trump, list(deal.tricks))
        for number, deal in enumerate(deals, start=first)
    ]


def test_hands_saved_offline_wait_survive_a_reload_and_are_recorded_once_in_order(phone, game):
    page = phone()
    open_kept(page, game)
    page.context.set_offline(True)
    for count, deal in enumerate(OFFLINE, start=1):
        save_offline(page, deal)
        expect(page.locator("tr.pending")).to_have_count(count)
    expect(status(page)).to_have_text("Hand 4 Dalila deals · Amina speaks first")
    expect(page.locator("#offline-banner")).to_be_visible()
    nothing_yet = recorded(game)

    reloaded = page.reload()
    rows = page.locator("tr.pending")
    expect(rows).to_have_count(3)
    waiting = rows.all_inner_texts()
    expect(status(page)).to_have_text("Hand 4 Dalila deals · Amina speaks first")
    served_offline = (reloaded.status, reloaded.from_service_worker)
    answers = []  # what the server said of each hand sent: JSON, not its page
    page.on("response", lambda response: answers.append(posted(response)))

    page.context.set_offline(False)
    expect(rows).to_have_count(0, timeout=15_000)
    expect(page.locator("section.sheet table.sheet-table tbody tr")).to_have_count(3)
    expect(status(page)).to_have_text("Hand 4 Dalila deals · Amina speaks first")
    expect(page.locator("#offline-banner")).to_be_hidden()
    queue_left = page.evaluate(
        """() => new Promise((resolve) => {
          const open = indexedDB.open("boulmous-offline");
          open.onsuccess = () => {
            const all = open.result.transaction("hands").objectStore("hands").getAll();
            all.onsuccess = () => resolve(all.result.length);
          };
        })"""
    )

    assert nothing_yet == []
    assert served_offline == (200, True)
    assert [answer for answer in answers if answer] == [
        (201, "recorded", number, number + 1) for number in (1, 2, 3)
    ]
    assert [row.split("\t")[0].strip() for row in waiting] == ["1", "2", "3"]
    assert all("waiting to send" in row for row in waiting)
    assert recorded(game) == expected(OFFLINE)
    assert Hand.objects.filter(game=game).values("token").distinct().count() == 3
    assert queue_left == 0


def conflict(phone, game):
    """Phone A saves hand 2 offline; phone B records hand 2 online; A comes back online."""
    record(game, 1, OFFLINE[0])
    a = phone()
    open_kept(a, game)
    a.context.set_offline(True)
    save_offline(a, OFFLINE[1])
    expect(a.locator("tr.pending")).to_have_count(1)

    b = phone()
    b.goto(f"/games/{game.public_id}/")
    save_offline(b, ANOTHER)  # online: recorded at once
    expect(b.locator("section.sheet table.sheet-table tbody tr")).to_have_count(2)

    a.context.set_offline(False)
    draft = a.locator(".offline-draft")
    expect(draft).to_be_visible(timeout=15_000)
    return a, draft


def test_hand_recorded_meanwhile_on_another_phone_keeps_the_draft_to_add_next(phone, game):
    a, draft = conflict(phone, game)
    message = draft.locator("p").first.inner_text()
    expect(a.locator("tr.pending")).to_have_count(0)
    after_conflict = recorded(game)

    a.reload()  # the draft is kept across a reload
    expect(draft).to_be_visible()
    draft.get_by_role("button", name="Add it as hand 3", exact=True).click()
    expect(draft).to_have_count(0, timeout=15_000)
    expect(a.locator("section.sheet table.sheet-table tbody tr")).to_have_count(3)
    expect(status(a)).to_have_text("Hand 4 Dalila deals · Amina speaks first")

    assert message == (
        "Hand 2 was recorded on another phone meanwhile. Your hand is kept as a draft:"
    )
    assert after_conflict == expected([OFFLINE[0], ANOTHER])
    assert recorded(game) == expected([OFFLINE[0], ANOTHER, OFFLINE[1]])


def test_hand_recorded_meanwhile_on_another_phone_thrown_away_is_gone(phone, game):
    a, draft = conflict(phone, game)
    draft.get_by_role("button", name="Throw it away", exact=True).click()
    expect(draft).to_have_count(0)
    a.reload()
    expect(a.locator("section.sheet table.sheet-table tbody tr")).to_have_count(2)
    expect(status(a)).to_have_text("Hand 3 Chafik deals · Dalila speaks first")

    assert a.locator(".offline-draft, tr.pending").count() == 0
    assert recorded(game) == expected([OFFLINE[0], ANOTHER])


def test_hand_saved_offline_incomplete_is_not_kept(phone, game):
    page = phone()
    open_kept(page, game)
    page.context.set_offline(True)
    key(page, "taker", 1).click()
    key(page, "bid", 5).click()
    save_button(page, "en").click()

    expect(page.locator("#hand-form .save-failed")).to_be_visible()
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(status(page)).to_have_text("Hand 1 Amina deals · Bilal speaks first")


def test_hand_played_card_by_card_offline_waits_and_is_recorded_once(phone, transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone()
    open_kept(page, game)
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H")
    page.context.set_offline(True)
    for code in LEGAL.split(","):
        page.locator("a.key", has_text=label(code)).click()
    page.locator("form[data-offline-queue] button.save").click()

    rows = page.locator("tr.pending")
    expect(rows).to_have_count(1)  # on the game's page, kept by the worker
    waiting = rows.inner_text()
    expect(status(page)).to_have_text("Hand 2 Amina deals · Bilal speaks first")
    page.context.set_offline(False)
    expect(rows).to_have_count(0, timeout=15_000)
    expect(page.locator("section.sheet table.sheet-table tbody tr")).to_have_count(1)
    hands = list(Hand.objects.filter(game=game).values_list("number", "taker", "bid", "plays"))

    assert "Amina 3♥" in waiting
    assert "dealt by Dalila" in waiting
    assert [(number, taker, bid) for number, taker, bid, _ in hands] == [(1, 0, 3)]
    assert len(hands[0][3]) == 6  # the play, trick by trick


# The page's own check that the worker keeps a copy of ``path`` holding ``text``.
KEPT_WITH = """
async ([path, text]) => {
  if (!navigator.serviceWorker.controller) return false;
  const cache = await caches.open("boulmous-pages-1");
  const kept = await cache.match(path);
  return Boolean(kept) && (await kept.text()).includes(text);
}
"""


def wait_kept(page, path, text=""):
    for _ in range(150):
        if page.evaluate(KEPT_WITH, [path, text]):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the service worker did not keep {path}")


def test_play_opened_offline_from_the_hand_form_for_another_hand_is_recorded_once(
    phone, transactional_db
):
    # Dalila deals hand 1, Amina hand 2. The worker keeps hand 1's play, for Bilal 4♠.
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone()
    open_kept(page, game)
    play_path = f"/games/{game.public_id}/hands/1/play"
    page.goto(f"{play_path}?taker=1&bid=4&trump=S")
    wait_kept(page, play_path, 'id="play-data"')
    kept_token = page.locator("#play-save-form").evaluate(
        "(template) => template.content.querySelector('input[name=token]').value"
    )
    record(game, 1, OFFLINE[0])  # on another phone
    page.goto(f"/games/{game.public_id}/")
    wait_kept(page, f"/games/{game.public_id}/", 'name="number" value="2"')
    page.context.set_offline(True)

    # Hand 2, never opened card by card: Amina 3♥, from the hand form.
    key(page, "taker", 0).click()
    key(page, "bid", 3).click()
    key(page, "trump", "H").click()
    page.get_by_role("button", name="Or record the play card by card").click()
    page.wait_for_url(f"**/games/{game.public_id}/hands/2/play?taker=0&bid=3&trump=H")
    heading = page.locator("#play h1").inner_text()
    title = page.title()
    expect(page.locator(".play-status")).to_have_text("Amina 3♥ Amina to play")
    for code in LEGAL.split(","):
        page.locator("a.key", has_text=label(code)).click()
    expect(page.locator(".result strong").first).to_have_text("Amina makes the contract: 3 points.")
    form = page.locator("form[data-offline-queue]")
    fields = {
        name: form.locator(f"input[name={name}]").input_value()
        for name in ("number", "dealer", "taker", "bid", "trump", "plays", "token")
    }
    action = form.get_attribute("action")
    form.locator("button.save").click()

    rows = page.locator("tr.pending")
    expect(rows).to_have_count(1)  # on the game's page, kept by the worker
    waiting = rows.inner_text()
    expect(status(page)).to_have_text("Hand 3 Bilal deals · Chafik speaks first")
    nothing_yet = recorded(game)
    page.context.set_offline(False)
    expect(rows).to_have_count(0, timeout=15_000)
    expect(page.locator("section.sheet table.sheet-table tbody tr")).to_have_count(2)
    hands = list(Hand.objects.filter(game=game).order_by("number"))

    assert (heading, title) == ("Hand 2, card by card", "Hand 2, card by card")
    token = fields.pop("token")
    assert fields == {
        "number": "2",
        "dealer": "0",
        "taker": "0",
        "bid": "3",
        "trump": "H",
        "plays": LEGAL,
    }
    assert len(token) == 36
    assert token != kept_token
    assert action == f"/games/{game.public_id}/hands"
    assert "Amina 3♥" in waiting
    assert "dealt by Amina" in waiting
    assert nothing_yet == expected([OFFLINE[0]])
    assert [(hand.number, hand.taker, hand.bid, hand.trump) for hand in hands] == [
        (1, 1, 5, "S"),
        (2, 0, 3, "H"),
    ]
    assert [card for trick in hands[1].plays for card in trick] == LEGAL.split(",")
    assert str(hands[1].token) == token
