"""A hand recorded card by card on a 360x640 phone, checked against the engine."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Card, Contract, Hand, Rules, Trump, in_tricks, parse_cards
from tests.site.factories import NAMES
from tests.site.test_play import LEGAL, REVOKED

pytestmark = pytest.mark.browser


def label(code):
    return Card.parse(code).label


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

    start_hand_by_card(page, f"/games/{game.pk}/")
    play_by_taps(page, cards[:8])  # three cards: the first trick's winner is not known yet
    assert page.locator(".verdict").count() == 0
    play_by_taps(page, cards[9:])

    won = page.locator(".won li").all_inner_texts()
    assert won == [f"{name} {count}" for name, count in zip(NAMES, engine_hand.tricks, strict=True)]
    assert page.locator(".errors li").count() == revokes
    assert page.evaluate("document.documentElement.scrollWidth") == 360
    page.locator("button.save").click()
    page.wait_for_url(f"**/games/{game.pk}/")
    totals = page.locator(".scoreboard .total").all_inner_texts()
    assert totals == [str(count) for count in engine_hand.tricks]


def test_hand_card_by_card_shows_each_trick_winner_with_its_reason(phone, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    start_hand_by_card(page, f"/games/{game.pk}/")

    play_by_taps(page, "AH,KH,QH,JD")

    assert page.locator(".verdict").inner_text() == (
        "Trick 1: Dalila wins. The jack of diamonds is the second-highest trump "
        "when hearts are trump."
    )
    page.get_by_role("link", name="Take back the last card").click()
    expect(page.locator(".verdict")).to_have_count(0)
    expect(page.locator("a.key", has_text="J♦")).to_have_count(1)
