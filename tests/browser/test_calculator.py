"""The trick calculator on a 360x640 phone: one tap from the game, five taps for a question."""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from tests.browser.phone import PHONE_WIDTH, TAP, Taps, mark_document, same_document, scroll_width
from tests.factories import NAMES

pytestmark = pytest.mark.browser

PHONE_HEIGHT = 640
TEXT = {
    "en": {
        "link": "Who wins the trick?",
        "hearts": "hearts",
        "no_trump": "no trump",
        "wins": "The jack of diamonds wins",
        "why": "The jack of diamonds is the second-highest trump when hearts are trump.",
        "no_trump_wins": "The ace of diamonds wins",
        "back": "Take back the last card",
        "new": "New question",
    },
    "fr": {
        "link": "Qui remporte la levée\u202f?",
        "hearts": "cœur",
        "no_trump": "sans atout",
        "wins": "Le valet de carreau gagne",
        "why": "Le valet de carreau est le deuxième atout quand cœur est atout.",
        "no_trump_wins": "L’as de carreau gagne",
        "back": "Reprendre la dernière carte",
        "new": "Nouvelle question",
    },
}
QUESTION = ["J♦", "A♦", "K♦", "Q♦"]
# French cards read V, D, R: valet, dame, roi.
QUESTIONS = {"en": QUESTION, "fr": ["V♦", "A♦", "R♦", "D♦"]}
# Each key's box, and whether its text overflows it.
MEASURE = """elements => elements.map(element => {
    const box = element.getBoundingClientRect();
    return {
        text: element.textContent.trim(), top: box.top, left: box.left,
        width: box.width, height: box.height, right: box.right,
        overflows: element.scrollWidth > element.clientWidth,
    };
})"""


@pytest.fixture
def game(transactional_db):
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game


def trump_key(page, name):
    return page.locator(".calc-trumps").get_by_role("link", name=name, exact=True)


def card_key(page, label):
    return page.locator(".calc-deck").get_by_role("link", name=label, exact=True)


def played(page):
    return page.locator(".calc-played .slot:not(.empty) .card")


def verdict(page):
    return page.locator(".verdict h2")


def ask(taps, page, trump, cards):
    """Tap the trump, then the cards, each time waiting for the page to show the tap."""
    taps.tap(trump_key(page, trump))
    expect(trump_key(page, trump)).to_have_attribute("aria-current", "true")
    for count, label in enumerate(cards, start=1):
        taps.tap(card_key(page, label))
        expect(played(page)).to_have_count(count)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_from_the_game_page_one_tap_then_five_give_the_verdict(phone, game, lang):
    text = TEXT[lang]
    page = phone(lang)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"/games/{game.public_id}/")
    taps = Taps()

    taps.tap(page.get_by_role("link", name=text["link"], exact=True).first)
    expect(page).to_have_url(re.compile(rf"/referee/trick\?game={game.public_id}$"))
    mark_document(page)
    empty = page.locator(".calc .key").evaluate_all(MEASURE)
    question = QUESTIONS[lang]
    ask(taps, page, text["hearts"], question)

    expect(verdict(page)).to_have_text(text["wins"])
    assert page.locator(".verdict p").first.inner_text() == text["why"]
    assert page.locator(".calc-played .winner .card").inner_text() == question[0]
    assert page.url.endswith(f"/referee/trick?trump=H&cards=JD,AD,KD,QD&game={game.public_id}")
    assert taps.count == 1 + 5
    assert same_document(page)  # htmx swapped the area, no page was loaded
    assert errors == []
    assert scroll_width(page) == PHONE_WIDTH
    assert page.locator(".calc-deck a").count() == 0
    assert page.locator(".calc-deck [aria-disabled=true]").count() == 24
    keys = page.locator(".calc .key, .calc-actions .button").evaluate_all(MEASURE)
    assert [key["text"] for key in keys if key["height"] < TAP] == []
    assert [key["text"] for key in keys if key["overflows"] or key["right"] > PHONE_WIDTH] == []
    cards = [key for key in empty if key["text"] in {*question, "9♠"}]
    assert all(key["top"] + key["height"] <= PHONE_HEIGHT for key in cards), "no scroll to tap"
    rows = page.locator(".calc-suit").evaluate_all(
        "rows => rows.map(row => new Set([...row.children].map(li => li.offsetTop)).size)"
    )
    assert rows == [1, 1, 1, 1]  # four suits, six cards to a row

    page.go_back()
    expect(page).to_have_url(re.compile(rf"/games/{game.public_id}/$"))  # back at the table


def test_a_reload_or_a_shared_link_shows_the_same_question(phone, live_server):
    page = phone("en")
    page.goto("/referee/trick")
    ask(Taps(), page, "hearts", ["A♠", "J♦", "K♠", "Q♠"])
    expect(verdict(page)).to_have_text("The jack of diamonds wins")

    page.reload()

    expect(verdict(page)).to_have_text("The jack of diamonds wins")
    assert page.locator(".calc-played .winner .position").inner_text() == "2nd"
    page.get_by_role("link", name="New question", exact=True).click()
    expect(played(page)).to_have_count(0)
    expect(trump_key(page, "hearts")).to_have_attribute("aria-current", "true")
    assert page.url.endswith("/referee/trick?trump=H")


def test_the_verdict_waits_for_a_trump_and_comes_with_it(phone, live_server):
    page = phone("en")
    page.goto("/referee/trick")
    taps = Taps()
    for count, label in enumerate(QUESTION, start=1):
        taps.tap(card_key(page, label))
        expect(played(page)).to_have_count(count)

    expect(page.locator(".calc .notice")).to_contain_text("choose the trump")
    taps.tap(trump_key(page, "hearts"))

    expect(verdict(page)).to_have_text("The jack of diamonds wins")
    assert taps.count == 5


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_the_way_back_to_the_game_survives_every_tap(phone, game, javascript):
    page = phone("en", javascript=javascript)
    page.goto(f"/referee/trick?game={game.public_id}")
    taps = Taps()

    ask(taps, page, "hearts", QUESTION)
    taps.tap(page.get_by_role("link", name="Take back the last card", exact=True))
    expect(played(page)).to_have_count(3)
    taps.tap(page.get_by_role("link", name="New question", exact=True))
    expect(played(page)).to_have_count(0)
    back = page.get_by_role("link", name="Back to the game", exact=True)
    assert back.bounding_box()["y"] > page.locator(".calc-deck").bounding_box()["y"]
    assert page.url.endswith(f"/referee/trick?trump=H&game={game.public_id}")
    taps.tap(back)

    expect(page).to_have_url(re.compile(rf"/games/{game.public_id}/$"))
    assert taps.count == 1 + 4 + 3


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_card_keys_stay_put_while_a_trick_is_tapped(phone, live_server, lang):
    page = phone(lang)
    page.goto("/referee/trick?trump=H")
    deck = page.locator(".calc-deck")
    tops = [deck.bounding_box()["y"]]

    for count, label in enumerate(QUESTIONS[lang][:3], start=1):
        card_key(page, label).click()
        expect(played(page)).to_have_count(count)
        tops.append(deck.bounding_box()["y"])

    assert tops == [tops[0]] * 4
