"""At the table, on a 360x640 phone: a game played by taps, in English and in French."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Rules, Trump
from scoring.engine import Hand as EngineHand
from scoring.table import services
from scoring.table.models import Hand
from scoring.table.state import load_game
from tests.browser.hands import (
    CLOSE_GAME,
    GAME,
    TEXT,
    VOID,
    Deal,
    checked,
    enter,
    key,
    save_button,
    status,
)
from tests.browser.phone import PHONE_WIDTH, TAP, Taps, mark_document, same_document, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser


def points(deal):
    """The rules: made, everyone scores his tricks; missed, the taker's bid comes off his."""
    if deal is VOID:
        return (0, 0, 0, 0)
    scored = list(deal.tricks)
    if deal.tricks[deal.taker] < deal.bid:
        scored[deal.taker] -= deal.bid
    return tuple(scored)


def totals_shown(page):
    return [int(total) for total in page.locator(".scoreboard .total").all_inner_texts()]


def recorded_game(hands, target=21):
    """A game recorded through the services, Amina dealing first."""
    game = services.create_game(names=NAMES, rules=Rules(target=target), first_dealer=0).game
    for number, deal in enumerate(hands, start=1):
        contract = Contract(deal.taker, deal.bid, Trump(deal.trump))
        hand = EngineHand(contract, tricks=deal.tricks)
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


@pytest.fixture
def game(transactional_db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


# --- A whole game ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_game_played_by_taps_from_home_to_winner(phone, lang):
    text = TEXT[lang]
    page = phone(lang)
    page.goto("/")
    widths = [scroll_width(page)]
    page.get_by_role("link", name=text["new_game"], exact=True).click()
    for seat, name in enumerate(NAMES):
        page.locator(f"#id_player_{seat}").fill(name)
    key(page, "first_dealer", 0).click()
    widths.append(scroll_width(page))
    page.get_by_role("button", name=text["start"], exact=True).click()
    expect(status(page)).to_have_text(text["hand"].format(1))
    first = page.locator(".status").inner_text()
    widths.append(scroll_width(page))
    mark_document(page)
    expected, running = [], (0, 0, 0, 0)
    taps_per_hand, shown, filled, swapped = [], [], [], []

    for number, deal in enumerate(GAME, start=1):
        taps = Taps()
        if deal is VOID:
            taps.tap(page.get_by_role("button", name=text["void"], exact=True))
        else:
            enter(taps, page, deal)
            rest = next(seat for seat in range(4) if seat not in deal.tapped)
            filled.append(checked(page, f"tricks_{rest}") == str(deal.tricks[rest]))
            taps.tap(save_button(page, lang))
        if number < len(GAME):
            expect(status(page)).to_have_text(text["hand"].format(number + 1))
        else:
            expect(page.locator(".winner h1")).to_be_visible()
        running = tuple(total + gained for total, gained in zip(running, points(deal), strict=True))
        expected.append(list(running))
        taps_per_hand.append(taps.count)
        shown.append(totals_shown(page))
        widths.append(scroll_width(page))
        swapped.append(same_document(page))

    assert first == text["first"]
    assert taps_per_hand == [1 if deal is VOID else 7 for deal in GAME]
    assert filled == [True] * 5
    assert shown == expected
    assert expected[-1] == [-1, 21, 4, 2]
    assert page.locator(".winner h1").inner_text() == text["wins"].format("Bilal")
    assert page.locator("#entry").count() == 0
    assert swapped == [True] * len(GAME)
    assert widths == [PHONE_WIDTH] * (3 + len(GAME))


# --- A hand refused -------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_hand_without_trump_is_refused_in_the_user_language_and_keeps_taps(phone, game, lang):
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")
    mark_document(page)
    enter(Taps(), page, Deal(1, 4, "H", (1, 4, 0, 1)), trump=False)

    save_button(page, lang).click()

    errors = page.locator("#entry .errorlist")
    expect(errors).to_have_text(TEXT[lang]["no_trump"])
    kept = [checked(page, name) for name in ("taker", "bid", "trump", "tricks_0", "tricks_3")]
    assert kept == ["1", "4", None, "1", "1"]
    assert status(page).inner_text() == TEXT[lang]["hand"].format(1)
    assert Hand.objects.count() == 0
    assert same_document(page)
    assert scroll_width(page) == PHONE_WIDTH


def test_hand_with_four_trick_rows_over_six_is_refused(phone, game):
    page = phone("en")
    page.goto(f"/games/{game.public_id}/")
    taps = Taps()
    enter(taps, page, Deal(1, 4, "H", (1, 4, 0, 3)))
    taps.tap(key(page, "tricks_3", 3))  # the fourth row too, over what table.js filled

    save_button(page, "en").click()

    expect(page.locator("#entry .tricks .field-errors")).to_contain_text(
        TEXT["en"]["over_six"].format(8)
    )
    assert [checked(page, f"tricks_{seat}") for seat in range(4)] == ["1", "4", "0", "3"]
    assert (Hand.objects.count(), status(page).inner_text()) == (0, "Hand 1")


# --- An edit that changes the winner --------------------------------------------------


def test_edit_of_a_past_hand_changes_the_winner(phone):
    game = recorded_game(CLOSE_GAME)
    page = phone("en")
    page.goto(f"/games/{game.public_id}/")
    before = page.locator(".winner h1").inner_text()
    taps = Taps()

    taps.tap(page.get_by_role("link", name="Edit hand 3", exact=True))
    taps.tap(key(page, "tricks_0", 3))
    taps.tap(key(page, "tricks_1", 3))
    taps.tap(page.get_by_role("button", name=TEXT["en"]["save_change"], exact=True))

    expect(page.locator(".winner h1")).to_have_text("Bilal wins!")
    assert before == "Amina wins!"
    assert totals_shown(page) == [14, 21, 2, 0]
    assert load_game(game).result.winner == 1
    assert scroll_width(page) == PHONE_WIDTH


# --- Never a hand twice ---------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False], ids=["in-place", "plain"])
def test_save_double_tapped_records_the_hand_once(phone, game, javascript):
    page = phone(javascript=javascript)
    page.goto(f"/games/{game.public_id}/")
    enter(Taps(), page, Deal(1, 4, "H", (1, 4, 0, 1)))

    save_button(page, "en").dblclick()

    expect(status(page)).to_have_text("Hand 2")
    page.wait_for_load_state("networkidle")
    assert list(Hand.objects.values_list("number", "tricks")) == [(1, [1, 4, 0, 1])]


def test_save_sent_twice_by_the_network_records_the_hand_once(phone, game):
    page = phone()
    page.goto(f"/games/{game.public_id}/")
    statuses = []

    def send_twice(route):
        """A retry on a flaky connection: the same request, token and all, arrives twice."""
        first, second = route.fetch(), route.fetch()
        statuses.extend([first.status, second.status])
        route.fulfill(response=second)

    page.route("**/hands", send_twice)
    enter(Taps(), page, Deal(1, 4, "H", (1, 4, 0, 1)))

    save_button(page, "en").click()

    expect(status(page)).to_have_text("Hand 2")
    assert statuses == [200, 200]
    assert list(Hand.objects.values_list("number", "tricks")) == [(1, [1, 4, 0, 1])]
    assert totals_shown(page) == [1, 4, 0, 1]


def test_save_is_disabled_while_the_hand_is_sent(phone, game):
    page = phone()
    page.goto(f"/games/{game.public_id}/")
    page.evaluate(
        """document.addEventListener("boulmous:before-save", () => {
            window.saveDisabled = document.querySelector("#entry button.save").disabled;
        }, {once: true})"""
    )
    enter(Taps(), page, Deal(1, 4, "H", (1, 4, 0, 1)))

    save_button(page, "en").click()

    expect(status(page)).to_have_text("Hand 2")
    assert page.evaluate("window.saveDisabled") is True


# --- Without JavaScript ---------------------------------------------------------------


def test_hand_saved_without_javascript_posts_redirects_and_completes_the_tricks(
    phone, game, live_server
):
    page = phone(javascript=False)
    page.goto(f"/games/{game.public_id}/")
    taps = Taps()
    enter(taps, page, Deal(1, 4, "H", (1, 4, 0, 1)))
    blank = checked(page, "tricks_3")

    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        taps.tap(save_button(page, "en"))

    expect(status(page)).to_have_text("Hand 2")
    response = posted.value
    assert (response.status, response.headers["location"]) == (302, f"/games/{game.public_id}/")
    assert (blank, taps.count, page.url) == (None, 7, f"{live_server.url}/games/{game.public_id}/")
    assert Hand.objects.get().tricks == [1, 4, 0, 1]
    assert totals_shown(page) == [1, 4, 0, 1]


# --- Thumb-sized --------------------------------------------------------------------------

MEASURE = """elements => elements.map(element => {
    const box = element.getBoundingClientRect();
    return {
        text: element.innerText.replace(/\\s+/g, " ").trim(),
        height: box.height,
        right: box.right,
        overflows: element.scrollWidth > element.clientWidth,
    };
})"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_hand_form_tap_targets_are_at_least_44px_high(phone, game, lang):
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")

    boxes = page.locator("#entry .pick span, #entry button").evaluate_all(MEASURE)

    # 4 takers, 4 bids, 5 trumps, 4 x 7 trick counts, All passed, card by card, Save.
    assert len(boxes) == 4 + 4 + 5 + 4 * 7 + 3
    assert [box for box in boxes if box["height"] < TAP] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_hand_form_keys_hold_their_text_at_360px(phone, game, lang):
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")

    boxes = page.locator("#entry .pick span, #entry button").evaluate_all(MEASURE)

    assert [box for box in boxes if box["overflows"] or box["right"] > PHONE_WIDTH] == []
