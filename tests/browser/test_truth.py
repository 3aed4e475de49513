"""Each phone told the truth (issue 20), three phones at one table: Amina's (which started
the game), Bilal's and Chafik's (each handed a scorer link).

- A phone whose link is revoked is told why, loses the form, and keeps what it tapped as a
  draft to copy or throw away: online (its save's 403), offline (its queued hand's 403:
  never sent again, across a reload), and through the live view (a hand recorded
  elsewhere shows it may no longer score).
- Hands a phone holds waiting to be sent are said on the other phones until they are sent.
- The screen is kept on while a phone scores a game in play: headless Chromium has no
  real wake lock, so ``navigator.wakeLock`` is stubbed in the page (an init script, the
  browser's API and not the site's code) to record what the page asks of it.
"""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import Deal, enter, key, save_button
from tests.browser.offline import OFFLINE, open_kept, record, recorded
from tests.browser.phone import Taps
from tests.factories import NAMES

pytestmark = pytest.mark.browser

WAKE_LOCK = """
(() => {
  window.wakeLockCalls = [];
  const sentinel = () => {
    const lock = new EventTarget();
    lock.type = "screen";
    lock.released = false;
    lock.release = async () => {
      if (lock.released) return;
      lock.released = true;
      window.wakeLockCalls.push("release");
      lock.dispatchEvent(new Event("release"));
    };
    return lock;
  };
  Object.defineProperty(navigator, "wakeLock", {
    configurable: true,
    value: {
      request: async (type) => {
        window.wakeLockCalls.push(`request ${type}`);
        return sentinel();
      },
    },
  });
})();
"""
REVOKED = "This phone’s scorer link was revoked: it may watch this game, no longer change it."
SECOND = Deal(0, 4, "H", (2, 1, 2, 1))
THIRD = Deal(2, 3, "C", (1, 1, 3, 1))


@pytest.fixture
def game(transactional_db):
    """A new game at 21 with no money; Amina deals first; hand 1 recorded."""
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    record(game, 1, OFFLINE[0])
    return game


def joined(owner, phone, game, label):
    """A new phone handed a new scorer link of the game from the owner's share page."""
    owner.goto(f"/games/{game.public_id}/share")
    with owner.expect_navigation():  # the new link's page, not the one before
        owner.get_by_role("button", name="Make a scorer link").click()
    url = owner.locator(".scorer-link .share-url a").last.get_attribute("href")
    page = phone(scorer=False)
    page.add_init_script(WAKE_LOCK)
    page.goto(url)
    page.get_by_label("This phone is").fill(label)
    page.get_by_role("button", name="Score on this phone").click()
    expect(page.locator("#hand-form")).to_be_visible()
    return page


def revoke(owner, game, number):
    """The owner revokes the scorer link shown ``number``-th on the share page."""
    owner.goto(f"/games/{game.public_id}/share")
    owner.get_by_role("button", name="Revoke this link").nth(number).click()
    expect(owner.get_by_role("button", name="Revoke this link")).to_have_count(number)


def seen(page, *, hidden):
    """The page hidden (another app in front) or seen again: the browser's own
    ``document.hidden``, stubbed as the wake lock is, and its event."""
    page.evaluate(
        """(hidden) => {
          Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def wake_calls(page):
    return page.evaluate("() => window.wakeLockCalls")


def alerts(page):
    return [
        re.sub(r"\s+", " ", text).strip()
        for text in page.locator("[role=alert]:visible").all_inner_texts()
    ]


def waiting_notices(page):
    return page.locator(".waiting-hands").all_inner_texts()


def test_three_phones_are_each_told_the_truth(phone, game):
    amina = phone()
    amina.add_init_script(WAKE_LOCK)
    bilal = joined(amina, phone, game, "Bilal’s phone")
    chafik = joined(amina, phone, game, "Chafik’s phone")
    amina.context.grant_permissions(["clipboard-read", "clipboard-write"])

    # The screen stays on while Amina scores, unless she unticks it.
    amina.goto(f"/games/{game.public_id}/")
    expect(amina.locator(".keep-awake")).to_be_visible()
    amina.wait_for_function("() => window.wakeLockCalls.length === 1")
    amina.get_by_label("Keep the screen on during the game").uncheck()
    amina.wait_for_function("() => window.wakeLockCalls.length === 2")
    amina.reload()
    kept_off = amina.get_by_label("Keep the screen on during the game").is_checked()
    amina.get_by_label("Keep the screen on during the game").check()
    amina.wait_for_function("() => window.wakeLockCalls.length === 1")
    seen(amina, hidden=True)
    amina.wait_for_function("() => window.wakeLockCalls.length === 2")
    seen(amina, hidden=False)
    amina.wait_for_function("() => window.wakeLockCalls.length === 3")
    wake_at_start = wake_calls(amina)

    # Bilal saves two hands offline; Amina records hand 2 meanwhile: Bilal's hand 2 is a
    # draft that holds his hand 3, and the others are told he holds 2 hands.
    open_kept(bilal, game)
    bilal.context.set_offline(True)
    for waiting, deal in enumerate((SECOND, THIRD), start=1):
        enter(Taps(), bilal, deal)
        save_button(bilal, "en").click()
        # As a player does, the next hand is tapped once the sheet shows this one waiting:
        # the form moves on to the next hand only when the phone has kept this one.
        expect(bilal.locator("tr.pending")).to_have_count(waiting)
    enter(Taps(), amina, Deal(3, 4, "D", (1, 1, 0, 4)))
    save_button(amina, "en").click()
    expect(amina.locator(".last-hand span")).to_contain_text("Hand 2")
    bilal.context.set_offline(False)
    expect(bilal.locator(".offline-draft")).to_be_visible(timeout=20_000)
    expect(amina.locator(".waiting-hands")).to_be_visible(timeout=20_000)
    expect(chafik.locator(".waiting-hands")).to_be_visible(timeout=10_000)
    told = (waiting_notices(amina), waiting_notices(chafik), waiting_notices(bilal))
    conflict_alerts = alerts(bilal)

    # Bilal throws his hand 2 away: his hand 3 is sent, and the others' notice goes.
    bilal.locator(".offline-draft").get_by_role("button", name="Throw it away").click()
    expect(bilal.locator("tr.pending, .offline-draft")).to_have_count(0, timeout=20_000)
    expect(amina.locator(".waiting-hands")).to_have_count(0, timeout=20_000)
    expect(chafik.locator(".waiting-hands")).to_have_count(0, timeout=10_000)

    # Offline, Chafik saves hand 4; his link is revoked meanwhile. Back online, his hand is
    # refused once, kept as a draft, and never sent again, after a reload too.
    open_kept(chafik, game)
    chafik.context.set_offline(True)
    enter(Taps(), chafik, Deal(1, 5, "S", (0, 5, 1, 0)))
    save_button(chafik, "en").click()
    expect(chafik.locator("tr.pending")).to_have_count(1)
    revoke(amina, game, 1)  # the second link made, Chafik's
    posts = []
    chafik.on(
        "response",
        lambda response: (
            posts.append(response.status)
            if response.request.method == "POST" and response.url.endswith("/hands")
            else None
        ),
    )
    chafik.context.set_offline(False)
    draft = chafik.locator(".offline-draft")
    expect(draft).to_be_visible(timeout=20_000)
    expect(chafik.locator("#hand-form")).to_have_count(0)
    chafik_alerts = alerts(chafik)
    draft_text = draft.locator(".draft-text").inner_text()
    chafik.clock.install()  # the page's timers, from its reload on, on a clock run here
    chafik.reload()
    expect(draft).to_be_visible()
    chafik.clock.run_for(16_000)  # one retry's time, at once: nothing is sent again (posts)
    after_reload = (
        chafik.locator("tr.pending").count(),
        chafik.locator("#hand-form").count(),
        alerts(chafik),
    )
    draft.get_by_role("button", name="Throw it away").click()
    expect(draft).to_have_count(0)

    # Online, Bilal taps hand 4 and saves it after his link was revoked: he is told why,
    # the form goes, and what he tapped is a draft he copies.
    amina.goto(f"/games/{game.public_id}/")
    amina.wait_for_function("() => window.wakeLockCalls.length === 1")
    bilal.goto(f"/games/{game.public_id}/")
    enter(Taps(), bilal, Deal(1, 5, "S", (0, 5, 1, 0)))
    revoke(amina, game, 0)
    bilal.context.grant_permissions(["clipboard-read", "clipboard-write"])
    save_button(bilal, "en").click()
    expect(bilal.locator(".offline-draft")).to_be_visible()
    expect(bilal.locator("#hand-form")).to_have_count(0)
    online_alerts = alerts(bilal)
    bilal.locator(".offline-draft").get_by_role("button", name="Copy as text").click()
    expect(bilal.locator(".offline-draft").get_by_role("button", name="Copied")).to_be_visible()
    copied = bilal.evaluate("() => navigator.clipboard.readText()")

    # The game ends on another phone: Amina's page lets the screen go.
    amina.goto(f"/games/{game.public_id}/")
    amina.wait_for_function("() => window.wakeLockCalls.length === 1")
    services.abandon_game(public_id=game.public_id)
    expect(amina.locator("#entry")).to_have_count(0, timeout=10_000)
    amina.wait_for_function("() => window.wakeLockCalls.length === 2")
    wake_at_end = wake_calls(amina)

    assert (wake_at_start, kept_off) == (["request screen", "release", "request screen"], False)
    assert wake_at_end == ["request screen", "release"]
    assert told == (
        ["Bilal’s phone has 2 hands waiting to be sent"],
        ["Bilal’s phone has 2 hands waiting to be sent"],
        [],
    )
    assert conflict_alerts == [
        "Hand 2 was recorded on another phone meanwhile. Your hand is kept as a draft: "
        "2 Amina 4♥ 2 1 2 1 Add it as hand 3 Throw it away"  # the dealer: hidden, to fit
    ]
    assert chafik_alerts == [REVOKED]
    assert (
        draft_text == "Hand 4 · Bilal 5♠ · Amina 0, Bilal 5, Chafik 1, Dalila 0 · dealt by Dalila"
    )
    assert after_reload == (0, 0, [REVOKED])
    assert posts == [403]
    assert online_alerts == [REVOKED]
    assert copied == "Hand 4 · Bilal 5♠ · Amina 0, Bilal 5, Chafik 1, Dalila 0 · dealt by Dalila"
    assert [(hand.number, hand.taker) for hand in Hand.objects.order_by("number")] == [
        (1, 1),
        (2, 3),
        (3, 2),
    ]
    assert recorded(game)[-1][0] == 3


def test_revoked_phone_loses_the_form_at_the_next_live_update_and_keeps_its_taps(phone, game):
    amina = phone()
    bilal = joined(amina, phone, game, "Bilal’s phone")
    bilal.goto(f"/games/{game.public_id}/")
    key(bilal, "taker", 2).click()
    key(bilal, "bid", 3).click()
    revoke(amina, game, 0)

    record(game, 2, SECOND)  # another phone records hand 2: Bilal's page follows
    expect(bilal.locator("#entry")).to_have_count(0, timeout=10_000)
    expect(bilal.locator(".offline-draft")).to_be_visible()

    assert alerts(bilal) == [REVOKED]
    assert bilal.locator(".offline-draft .draft-text").inner_text() == (
        "Hand 2 · Chafik 3 · dealt by Bilal"
    )
    assert bilal.locator(".keep-awake:visible").count() == 0
