"""Several phones, one game (issue 13): each open page follows the game within 3 s, the form
being filled keeps its taps when another phone saves the hand, and polling slows when the
page is hidden and stops when the game is over."""

import time

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Hand as HandRow
from tests.browser.phone import mark_document, same_document
from tests.factories import NAMES

pytestmark = pytest.mark.browser

WITHIN = 3000
"""A change made on another phone shows within 3 s."""


@pytest.fixture
def game(transactional_db):
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


def key(page, name, value):
    return page.locator(f'#entry input[name="{name}"][value="{value}"] + span')


def tap(page, taker, bid, trump, tricks):
    """Tap a hand in, without saving it: tricks for the first three seats."""
    key(page, "taker", taker).click()
    key(page, "bid", bid).click()
    key(page, "trump", trump).click()
    for seat, count in enumerate(tricks[:3]):
        key(page, f"tricks_{seat}", count).click()


def save(page):
    page.locator("#entry button.save").click()


def totals(page):
    return page.locator(".scoreboard .total")


def status(page):
    return page.locator("#entry .status strong")


def opened(page, game):
    page.goto(f"/games/{game.public_id}/")
    mark_document(page)
    return page


def on_a_clock(page):
    """``page`` with its timers on a clock the test may run ahead (``run``); until then, it
    keeps the time."""
    page.clock.install()
    return page


def run(page, milliseconds):
    """``milliseconds`` of the page's timers run at once, then a frame drawn: an ask they
    would make is made, and seen by ``live_asks``, before this returns."""
    page.clock.run_for(milliseconds)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")


def live_asks(page):
    """The live view's asks the page makes, as they are made."""
    asks = []
    page.on(
        "request",
        lambda request: asks.append(request) if request.url.endswith("/live") else None,
    )
    return asks


def test_hand_saved_on_one_phone_shows_on_the_others_within_3_s(phone, game):
    first, second = opened(phone(), game), opened(phone(), game)
    watcher = opened(phone(scorer=False), game)

    tap(first, 1, 4, "H", (1, 4, 0))
    save(first)
    expect(status(first)).to_have_text("Hand 2")
    expect(totals(second)).to_have_text(["1", "4", "0", "1"], timeout=WITHIN)
    expect(totals(watcher)).to_have_text(["1", "4", "0", "1"], timeout=WITHIN)
    expect(status(second)).to_have_text("Hand 2")
    tap(second, 2, 4, "S", (0, 1, 4))
    save(second)
    expect(status(second)).to_have_text("Hand 3")

    expect(totals(first)).to_have_text(["1", "5", "4", "2"], timeout=WITHIN)
    expect(totals(watcher)).to_have_text(["1", "5", "4", "2"], timeout=WITHIN)
    expect(status(first)).to_have_text("Hand 3")
    expect(watcher.locator(".status.watching strong")).to_have_text("Hand 3")
    assert second.locator("#entry .live-notice").count() == 0  # nothing was tapped there
    assert first.locator(".sheet-table tbody tr").count() == 2
    assert watcher.locator(".sheet-table a.edit").count() == 0
    assert first.locator(".sheet-table a.edit").count() == 2
    assert [same_document(page) for page in (first, second, watcher)] == [True] * 3
    assert first.locator("#game").get_attribute("data-version") == second.locator(
        "#board"
    ).get_attribute("data-version")


def test_taps_survive_a_hand_saved_elsewhere_and_become_the_next_hand(phone, game):
    first, second = opened(phone(), game), opened(phone(), game)
    events = []
    second.expose_function("liveEvent", lambda version: events.append(version))
    second.evaluate(
        'document.addEventListener("boulmous:live", (e) => liveEvent(e.detail.version))'
    )
    # The second phone taps hand 1 in, the auction too: Bilal 4, the others pass.
    tap(second, 1, 4, "H", (1, 4, 0))
    second.locator("details.calls summary").click()
    calls = {"Bilal": "4", "Chafik": "pass", "Dalila": "pass", "Amina": "pass"}
    for name, call in calls.items():
        second.locator("label.call", has_text=name).locator("select").select_option(call)

    tap(first, 0, 4, "D", (4, 1, 1))
    save(first)

    notice = second.locator("#entry .live-notice")
    expect(notice).to_have_text(
        "Hand 1 was saved on another phone. What you tapped is kept for hand 2.", timeout=WITHIN
    )
    expect(status(second)).to_have_text("Hand 2")
    expect(totals(second)).to_have_text(["4", "1", "1", "0"])
    assert [
        second.locator(f'#entry input[name="{name}"]:checked').get_attribute("value")
        for name in ("taker", "bid", "trump", "tricks_0", "tricks_1", "tricks_2", "tricks_3")
    ] == ["1", "4", "H", "1", "4", "0", "1"]
    assert {
        label.inner_text().split("\n")[0].strip(): label.locator("select").input_value()
        for label in second.locator("label.call").all()
    } == calls
    assert second.locator("label.call").first.inner_text().startswith("Chafik")  # Bilal deals
    assert second.locator("details.calls").get_attribute("open") == ""
    assert second.locator("#entry input[name=number]").input_value() == "2"
    assert second.locator("#entry input[name=dealer]").input_value() == "1"
    assert events == [second.locator("#game").get_attribute("data-version")]

    save(second)

    expect(status(second)).to_have_text("Hand 3")
    rows = HandRow.objects.order_by("number").values_list("number", "taker", "trump", "calls")
    assert list(rows) == [(1, 0, "D", None), (2, None, "H", ["pass", "pass", "pass", 4])]
    expect(totals(first)).to_have_text(["5", "5", "1", "1"], timeout=WITHIN)


def test_hand_undone_elsewhere_renumbers_the_form_back(phone, game):
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
    )
    first, second = opened(phone(), game), opened(phone(), game)
    key(second, "taker", 2).click()

    first.locator(".last-hand button").click()

    expect(second.locator("#entry .live-notice")).to_have_text(
        "Hand 1 was undone on another phone. What you tapped is kept for hand 1.", timeout=WITHIN
    )
    expect(status(second)).to_have_text("Hand 1")
    assert second.locator('#entry input[name="taker"]:checked').get_attribute("value") == "2"
    assert second.locator("#entry input[name=number]").input_value() == "1"


def test_game_won_elsewhere_stops_the_polling(phone):
    game = services.create_game(names=NAMES, rules=Rules(target=5), first_dealer=0).game
    first, second = opened(phone(), game), on_a_clock(phone())
    opened(second, game)
    asks = live_asks(second)
    tap(first, 1, 5, "S", (0, 5, 1))

    save(first)

    expect(second.locator(".winner h1")).to_have_text("Bilal wins!", timeout=WITHIN)
    assert second.locator("#entry").count() == 0
    made = len(asks)
    run(second, 4000)
    assert (made >= 1, len(asks)) == (True, made)


def test_finished_game_page_never_polls(phone):
    game = services.create_game(names=NAMES, rules=Rules(target=5), first_dealer=0).game
    hand = Hand(Contract(1, 5, Trump.SPADES), tricks=(0, 5, 1, 0))
    services.record_hand(public_id=game.public_id, number=1, hand=hand, token=None)
    page = on_a_clock(phone(scorer=False))
    asks = live_asks(page)

    opened(page, game)
    run(page, 3500)

    assert (page.locator(".winner").count(), len(asks)) == (1, 0)


def hide(page, hidden):
    """The page hidden (another tab, the screen off) or seen again, as the browser says it."""
    page.evaluate(
        """(hidden) => {
            Object.defineProperty(document, "hidden", {get: () => hidden, configurable: true});
            Object.defineProperty(document, "visibilityState", {
                get: () => (hidden ? "hidden" : "visible"), configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_polling_slows_while_hidden_and_asks_at_once_when_seen(phone, game):
    page = opened(on_a_clock(phone(scorer=False)), game)
    asks = live_asks(page)
    page.wait_for_timeout(4000)  # the asks' pace, as the clock keeps the time
    seen = len(asks)

    hide(page, True)
    page.wait_for_timeout(300)  # an ask already on its way when the page was hidden
    asked = len(asks)
    run(page, 5000)
    hidden = len(asks) - asked
    hide(page, False)
    started = time.monotonic()
    page.wait_for_timeout(500)

    assert seen >= 2
    assert hidden == 0
    assert (len(asks) > asked, time.monotonic() - started < 2) == (True, True)


def test_failed_asks_are_retried_silently(phone, game):
    page = opened(phone(scorer=False), game)
    page.route("**/live", lambda route: route.abort())
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.wait_for_timeout(2000)
    page.unroute("**/live")
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
    )

    expect(totals(page)).to_have_text(["1", "4", "0", "1"], timeout=8000)
    assert errors == []
