"""A hand recorded card by card on a 360x640 phone, checked against the engine."""

import pytest
from playwright.sync_api import expect

from scoring.engine import Contract, Hand, Rules, Trump, in_tricks, parse_cards
from scoring.table import services
from tests.browser.hands import label
from tests.factories import NAMES
from tests.golden import LEGAL, REVOKED

pytestmark = pytest.mark.browser


def play_by_taps(page, codes):
    for code in codes.split(","):
        page.locator("a.key", has_text=label(code)).click()
        # The card is played once its key is swapped in as a played one (or, for the
        # last card, once the result shows).
        played = page.locator("span.key.played", has_text=label(code))
        expect(played.or_(page.locator(".result"))).to_have_count(1)


def start_hand_by_card(page, game_url):
    page.goto(game_url)
    page.locator(".picks label", has_text="Amina").first.click()
    page.locator(".bids label", has_text="3").click()
    page.locator(".trumps label", has_text="hearts").click()
    page.get_by_role("button", name="Or record the play card by card").click()
    page.wait_for_url("**/play?taker=0&bid=3&trump=H")


@pytest.mark.parametrize(("cards", "revokes"), [(LEGAL, 0), (REVOKED, 1)])
def test_hand_card_by_card_matches_the_engine(phone, db, cards, revokes):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    engine_hand = Hand(Contract(0, 3, Trump.HEARTS), plays=in_tricks(parse_cards(cards)))
    page = phone("en")

    start_hand_by_card(page, f"/games/{game.public_id}/")
    play_by_taps(page, cards[:8])  # three cards: the first trick's winner is not known yet
    assert page.locator(".verdict").count() == 0
    play_by_taps(page, cards[9:])

    won = page.locator(".won li").all_inner_texts()
    assert won == [f"{name} {count}" for name, count in zip(NAMES, engine_hand.tricks, strict=True)]
    assert page.locator(".errors li").count() == revokes
    assert page.evaluate("document.documentElement.scrollWidth") == 360
    page.locator("button.save").click()
    page.wait_for_url(f"**/games/{game.public_id}/")
    totals = page.locator(".scoreboard .total").all_inner_texts()
    assert totals == [str(count) for count in engine_hand.tricks]


def test_hand_card_by_card_shows_each_trick_winner_with_its_reason(phone, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    start_hand_by_card(page, f"/games/{game.public_id}/")

    play_by_taps(page, "AH,KH,QH,JD")

    assert page.locator(".verdict").inner_text() == (
        "Trick 1: Dalila wins. The jack of diamonds is the second-highest trump "
        "when hearts are trump."
    )
    page.get_by_role("link", name="Take back the last card").click()
    expect(page.locator(".verdict")).to_have_count(0)
    expect(page.locator("a.key", has_text="J♦")).to_have_count(1)


# Names as long as a game allows, or nearly: whatever they are, nothing above the keys
# may grow or shrink when it is someone else's turn.
LONG_NAMES = ("Amina", "Bilal", "Chafik", "Dalila-Maria de la Fuente y Rodríguez")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_card_keys_stay_put_through_a_whole_hand(phone, db, lang):
    game = services.create_game(names=LONG_NAMES, rules=Rules(), first_dealer=3).game
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H")
    deck = page.locator(".deck")
    start = deck.bounding_box()["y"]
    tops = []

    for count, code in enumerate(LEGAL.split(","), start=1):
        page.locator("a.key", has_text=label(code, lang)).click()
        if count == 24:
            expect(page.locator(".result")).to_have_count(1)
            break
        expect(page.locator("span.key.played", has_text=label(code, lang))).to_have_count(1)
        tops.append(deck.bounding_box()["y"])

    assert tops == [start] * 23
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_card_by_card_without_a_contract_asks_for_it_then_plays(phone, db, javascript):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en", javascript=javascript)
    page.goto(f"/games/{game.public_id}/")

    page.get_by_role("button", name="Or record the play card by card").click()
    page.wait_for_url(f"**/games/{game.public_id}/hands/1/play")
    form = page.locator("form.contract-choice")
    form.locator("label", has_text="Chafik").click()
    form.locator(".bids label", has_text="4").click()
    page.get_by_role("button", name="Start the play").click()

    expect(page.locator(".errors li")).to_have_text(["Choose the trump, or no trump."])
    assert form.locator("input:checked").evaluate_all("inputs => inputs.map(i => i.value)") == [
        "2",
        "4",
    ]
    form.locator(".trumps label", has_text="clubs").click()
    page.get_by_role("button", name="Start the play").click()
    expect(page.locator(".play-status")).to_contain_text("Chafik 4♣")
    assert page.url.endswith(f"/games/{game.public_id}/hands/1/play?taker=2&bid=4&trump=C")
    page.locator("a.key", has_text="A♣").click()
    expect(page.locator("span.key.played", has_text="A♣")).to_have_count(1)
