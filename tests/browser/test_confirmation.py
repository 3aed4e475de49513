"""Confirmation (issue 40.2) in Chromium on a 360 px phone, in English and Arabic: the
scorer saves a hand; Chafik's phone, holding his seat, sees it wait for Amina, Chafik or
Dalila, confirms it with one tap, and the line is gone, the history saying who confirmed."""

from datetime import timedelta

import pytest
from django.db.models import F
from playwright.sync_api import expect

from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game, Summary
from scoring.table.models import Hand as HandRow
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser


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


def test_waiting_line_turns_by_itself_once_its_minutes_ran_out_on_the_phones_clock(
    phone, live_server, waiting
):
    watcher = phone(scorer=False)
    watcher.clock.install()  # the page's clock, which the test runs ahead
    watcher.goto(f"/games/{waiting.public_id}/")
    expect(watcher.locator(".waiting-hand")).to_have_text(
        "Hand 1 waits for Amina, Chafik or Dalila"
    )
    asks = []
    watcher.on("request", lambda ask: asks.append(ask) if ask.url.endswith("/live") else None)
    changed = Summary.objects.get(game=waiting).changed_at
    # The minutes run out: nothing is written, the hand was simply entered long enough ago.
    HandRow.objects.filter(game=waiting).update(entered_at=F("entered_at") - timedelta(minutes=16))

    watcher.clock.fast_forward("16:00")

    expect(watcher.locator(".history")).to_contain_text(
        "Hand 1 confirmed by itself after 15 minutes"
    )
    assert (
        watcher.locator(".waiting-hand").count(),
        watcher.locator("#board").get_attribute("data-due"),
        Summary.objects.get(game=waiting).changed_at,
        [ask.headers.get("if-none-match") for ask in asks][-1],
    ) == (0, None, changed, None)


def test_game_over_page_turns_to_signed_by_itself_once_its_minutes_ran_out(phone, live_server):
    rules = Rules(confirmation=Confirmation.WHOLE_GAME, confirmation_minutes=10)
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    for number in range(1, 6):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(1, 5, Trump.SPADES), tricks=(0, 5, 1, 0)),
            token=None,
        )
    watcher = phone(scorer=False)
    watcher.clock.install()
    watcher.goto(f"/games/{game.public_id}/")
    expect(watcher.locator(".signed")).to_contain_text("waits for the signatures")
    HandRow.objects.filter(game=game).update(entered_at=F("entered_at") - timedelta(minutes=11))
    Game.objects.filter(pk=game.pk).update(finished_at=F("finished_at") - timedelta(minutes=11))

    watcher.clock.fast_forward("11:00")

    expect(watcher.locator(".signed")).to_have_text(
        "The result was signed by itself: time ran out."
    )
    expect(watcher.locator(".result-mark")).to_contain_text("Final result")
