"""A seat holder's confirmation made offline (issue 40.5) in Chromium at 360 px: it waits
in the phone's queue (static/js/agree.js), said on the page, and is sent once the phone is
back online, exactly once, the history saying it; a hand changed meanwhile is refused with
the server's words, and the page shows the hand as it now stands, to confirm again."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from scoring.table.models import Change
from scoring.table.models import Confirmation as ConfirmationRow
from tests.browser.phone import PHONE_WIDTH, scroll_width

pytestmark = pytest.mark.browser

LOADED = "() => Boolean(globalThis.BoulmousAgree)"


def chafiks_phone(phone, game, lang="en"):
    """Chafik's phone, holding his seat, on the game's page with its queue loaded."""
    link = services.make_seat_links(public_id=game.public_id)[2]
    chafik = phone(lang, scorer=False)
    chafik.goto(f"/seat/{link.code}")
    chafik.locator("form.seat button[type=submit]").click()
    expect(chafik.locator(".waiting-hand span")).to_be_visible()
    chafik.wait_for_function(LOADED)
    return chafik


@pytest.mark.parametrize(
    ("lang", "queued", "confirmed"),
    [
        (
            "en",
            "Confirm hand 1: no connection, kept on this phone and sent once it is back online.",
            "hand confirmed, hand 1: Chafik",
        ),
        (
            "ar",
            "لا اتصال، محفوظ على هذا الهاتف ويُرسل حين يعود الاتصال.",
            "تأكيد جولة، الجولة 1: Chafik",
        ),
    ],
)
def test_confirmation_made_offline_waits_and_is_sent_once_back_online(
    phone, waiting, lang, queued, confirmed
):
    chafik = chafiks_phone(phone, waiting, lang)

    chafik.context.set_offline(True)
    chafik.locator(".waiting-hand button").click()
    expect(chafik.locator(".agree-queued")).to_contain_text(queued)
    width = scroll_width(chafik)
    kept = ConfirmationRow.objects.filter(game=waiting).count()
    chafik.context.set_offline(False)

    expect(chafik.locator(".history")).to_contain_text(confirmed)
    assert width == PHONE_WIDTH
    # Online again and again: nothing more is sent.
    chafik.evaluate("() => window.dispatchEvent(new Event('online'))")
    chafik.wait_for_timeout(500)
    assert (kept, ConfirmationRow.objects.filter(game=waiting).count()) == (0, 1)
    assert Change.objects.filter(game=waiting, action=Change.Action.CONFIRMED).count() == 1
    assert chafik.locator(".agree-queued, .agree-refused, .waiting-hand").count() == 0


def test_confirmation_made_offline_of_a_hand_changed_meanwhile_is_refused_and_shown_anew(
    phone, waiting
):
    chafik = chafiks_phone(phone, waiting)

    chafik.context.set_offline(True)
    chafik.locator(".waiting-hand button").click()
    expect(chafik.locator(".agree-queued")).to_be_visible()
    services.edit_hand(
        public_id=waiting.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(0, 5, 0, 1)),
        discard_after_end=False,
    )
    chafik.context.set_offline(False)

    expect(chafik.locator(".agree-refused")).to_contain_text(
        "Confirm hand 1: Hand 1 was changed since you saw it: here it is as it now stands. "
        "Confirm it again if it is right."
    )
    expect(chafik.locator('.waiting-hand input[name="version"]')).to_have_value("2")
    assert ConfirmationRow.objects.filter(game=waiting).count() == 0
    chafik.locator("[data-agree-drop]").click()
    expect(chafik.locator(".agree-refused")).to_have_count(0)
