"""Card by card without the network: static/js/play.js follows the play in the browser.

Its verdicts are checked against the engine's on random deals, and its page against the
server's for the same address; then a whole hand is tapped with the phone offline.
"""

import random
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scoring.common.words import isolate
from scoring.engine import (
    DECK,
    SEATS,
    Card,
    Rules,
    Trump,
    effective_suit,
    in_tricks,
    legal_cards,
    play_out,
    trick_winner,
)
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import label
from tests.factories import NAMES
from tests.golden import LEGAL, REVOKED

pytestmark = pytest.mark.browser

OFFLINE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "offline.js"

# Every card tapped through the page's own click handler, as a finger would; each time a
# trick is complete, the verdict the page shows.
TAP_ALL = """
(codes) => {
  const verdicts = [];
  codes.forEach((code, index) => {
    document.querySelector(`#play a.key[data-card="${code}"]`).click();
    const verdict = document.querySelector("#play .verdict strong");
    if (verdict) verdicts.push(verdict.innerText);
  });
  return verdicts;
}
"""


def deal(rng, taker, trump, *, legal=True):
    """A random deal played out: each player plays one of his six cards in turn, one that
    follows suit when he can (``legal``), or any (a revoke, now and then)."""
    cards = list(DECK)
    rng.shuffle(cards)
    hands = [set(cards[seat * 6 : seat * 6 + 6]) for seat in range(SEATS)]
    played: list[Card] = []
    leader = taker
    for _trick in range(6):
        trick: list[Card] = []
        for index in range(SEATS):
            hand = hands[(leader + index) % SEATS]
            led = effective_suit(trick[0], trump) if trick else None
            choices = legal_cards(hand, led, trump) if legal else hand
            card = rng.choice(sorted(choices, key=lambda card: card.index))
            hand.remove(card)
            trick.append(card)
        leader = (leader + trick_winner(trick, trump)) % SEATS
        played.extend(trick)
    return played


def same_words(page):
    return " ".join(page.locator("#play").inner_text().split())


@pytest.mark.parametrize(("lang", "deals"), [("en", 20), ("fr", 3), ("ar", 3)])
def test_random_deals_tapped_in_the_browser_agree_with_the_engine(phone, db, lang, deals):
    rng = random.Random(f"boulmous-{lang}")
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone(lang)
    server = phone(lang, javascript=False)

    for number in range(deals):
        taker, bid, trump = rng.randrange(SEATS), rng.randint(3, 6), rng.choice(list(Trump))
        cards = deal(rng, taker, trump, legal=number % 4 != 3)
        engine = play_out(taker, trump, in_tricks(cards))
        page.goto(
            f"/games/{game.public_id}/hands/1/play?taker={taker}&bid={bid}&trump={trump.value}"
        )

        verdicts = page.evaluate(TAP_ALL, [str(card) for card in cards])

        # The winner of each trick, as the engine has it.
        with translation.override(lang):
            headlines = [
                gettext("Trick %(number)s: %(name)s wins.")
                % {"number": n, "name": isolate(NAMES[winner])}
                for n, winner in enumerate(engine.winners, start=1)
            ]
        assert verdicts == headlines, cards
        won = page.locator(".won li").all_inner_texts()
        assert won == [
            f"{name} {count}" for name, count in zip(NAMES, engine.tricks_won, strict=True)
        ]
        assert page.locator(".result .errors li").count() == len(engine.revokes)
        assert page.locator("form[data-offline-queue] input[name=plays]").input_value() == ",".join(
            map(str, cards)
        )
        # The address is the server's for the same play: its page says the same, word for word
        # (reasons, tricks won, outcome, revokes).
        server.goto(page.url)
        assert same_words(page) == same_words(server), cards


def tap(page, code):
    page.locator("a.key", has_text=label(code)).click()


def test_a_whole_hand_tapped_offline(phone, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    engine = play_out(0, Trump.HEARTS, in_tricks([Card.parse(code) for code in LEGAL.split(",")]))
    page = phone("en")
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H")
    expect(page.locator(".play-status")).to_contain_text("Amina to play")
    asked = []
    page.on("request", lambda request: asked.append((request.resource_type, request.url)))
    page.context.set_offline(True)

    for count, code in enumerate(LEGAL.split(","), start=1):
        tap(page, code)
        if count % 4:
            expect(page.locator("span.key.played", has_text=label(code))).to_have_count(1)
            expect(page.locator(".verdict")).to_have_count(0)
            continue
        winner = NAMES[engine.winners[count // 4 - 1]]
        expect(page.locator(".verdict strong")).to_have_text(f"Trick {count // 4}: {winner} wins.")
        expect(page.locator("#play-announce")).to_contain_text(
            f"Trick {count // 4}: {winner} wins."
        )

    assert page.locator(".verdict").inner_text() == (
        "Trick 6: Amina wins. The nine of diamonds is the highest card of the suit led, "
        "diamonds, and nobody trumped."
    )
    won = [f"{name} {count}" for name, count in zip(NAMES, engine.tricks_won, strict=True)]
    expect(page.locator(".won li")).to_have_text(won)
    expect(page.locator(".result strong").first).to_have_text("Amina makes the contract: 3 points.")
    assert page.url.endswith("?taker=0&bid=3&trump=H&cards=" + LEGAL.replace(",", "%2C"))

    # The last card taken back, and played again.
    page.get_by_role("link", name="Take back the last card").click()
    expect(page.locator(".result")).to_have_count(0)
    expect(page.locator(".table-cards li")).to_have_count(3)
    assert page.url.endswith("cards=" + LEGAL[:-3].replace(",", "%2C"))
    tap(page, "JC")
    expect(page.locator(".won li")).to_have_text(won)

    form = page.locator("form[data-offline-queue]")
    expect(form).to_have_count(1)
    assert form.get_attribute("action") == f"/games/{game.public_id}/hands"
    assert form.locator("input[name=plays]").input_value() == LEGAL
    assert form.locator("input[name=token]").input_value()
    assert form.locator("input[name=csrfmiddlewaretoken]").input_value()
    expect(form.get_by_role("button")).to_have_text("Save the hand")
    # Not one page asked of the server: every tap was answered by the page itself.
    assert [url for kind, url in asked if kind in ("document", "xhr", "fetch")] == []

    # Back online, a reload shows the server's page for the same play.
    page.context.set_offline(False)
    page.reload()
    expect(page.locator(".won li")).to_have_text(won)


def test_a_revoke_tapped_offline_is_found_as_the_server_finds_it(phone, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H&cards=AH")
    page.context.set_offline(True)

    page.evaluate(TAP_ALL, REVOKED.split(",")[1:])

    expect(page.locator(".result .errors li")).to_have_text(
        ["Bilal did not follow hearts in trick 1: Bilal played the nine of clubs while holding K♥."]
    )
    expect(page.locator("form[data-offline-queue] button")).to_have_text("Keep the hand as played")


def test_a_key_played_from_the_keyboard_leaves_the_focus_on_the_next_key(phone, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H")

    page.get_by_role("link", name="Amina plays the ace of hearts").focus()
    page.keyboard.press("Enter")

    expect(page.locator(":focus")).to_have_attribute(
        "aria-label", "Bilal plays the nine of diamonds"
    )
    page.keyboard.press("Enter")
    expect(page.locator(".table-cards li")).to_have_text(["AminaA♥", "Bilal9♦"])
    assert page.url.endswith("cards=AH%2C9D")


# The page's own check that the service worker runs and keeps the game's page (evaluated
# as a function: a string expression would be eval, which the Content-Security-Policy refuses).
KEPT = """
async () => {
  if (!navigator.serviceWorker.controller) return false;
  const cache = await caches.open("boulmous-pages-1");
  return Boolean(await cache.match(location.pathname));
}
"""


@pytest.mark.skipif(not OFFLINE_JS.exists(), reason="the offline queue (static/js/offline.js)")
def test_a_play_saved_offline_is_queued_and_recorded_with_its_plays(phone, transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    page.goto(f"/games/{game.public_id}/")
    for _ in range(150):
        if page.evaluate(KEPT):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the service worker did not keep the game's page")
    page.goto(f"/games/{game.public_id}/hands/1/play?taker=0&bid=3&trump=H")
    page.context.set_offline(True)

    page.evaluate(TAP_ALL, REVOKED.split(","))
    page.get_by_role("link", name="Take back the last card").click()
    tap(page, "JC")
    page.locator("form[data-offline-queue] button.save").click()

    expect(page.locator("tr.pending")).to_have_count(1)  # the game's page, kept by the worker
    assert Hand.objects.filter(game=game).count() == 0
    page.context.set_offline(False)
    expect(page.locator("tr.pending")).to_have_count(0, timeout=20_000)
    hand = Hand.objects.get(game=game)
    assert (hand.number, hand.taker, hand.bid, hand.trump) == (1, 0, 3, "H")
    assert [card for trick in hand.plays for card in trick] == REVOKED.split(",")


def wait_kept(page):
    for _ in range(150):
        if page.evaluate(KEPT):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the service worker did not keep {page.url}")


def keep_play(page, game, query):
    """The game's page and hand 1's card-by-card page, kept by the service worker."""
    page.goto(f"/games/{game.public_id}/")
    wait_kept(page)
    path = f"/games/{game.public_id}/hands/1/play"
    page.goto(f"{path}?{query}")
    wait_kept(page)
    return path


@pytest.mark.skipif(not OFFLINE_JS.exists(), reason="the offline queue (static/js/offline.js)")
@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_kept_play_page_opened_offline_for_another_contract_says_what_the_server_says(
    phone, transactional_db, lang
):
    rng = random.Random(f"kept-{lang}")
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone(lang)
    server = phone(lang, javascript=False)
    path = keep_play(page, game, "taker=0&bid=3&trump=H")
    page.context.set_offline(True)

    for taker, bid, trump, count in [(2, 5, Trump.NO_TRUMP, 24), (3, 6, Trump.CLUBS, 11)]:
        cards = ",".join(map(str, deal(rng, taker, trump)[:count]))
        address = f"{path}?taker={taker}&bid={bid}&trump={trump.value}&cards={cards}"
        shown = page.goto(address)
        server.goto(address)

        assert shown is not None
        assert shown.from_service_worker
        assert same_words(page) == same_words(server), address
        assert page.title() == server.title()
        assert page.locator("#play-save-form").evaluate(
            "(template) => [...template.content.querySelectorAll('input')]"
            ".filter((input) => !['token', 'csrfmiddlewaretoken'].includes(input.name))"
            ".map((input) => [input.name, input.value])"
        ) == [
            ["number", "1"],
            ["dealer", "3"],
            ["taker", str(taker)],
            ["bid", str(bid)],
            ["trump", trump.value],
            ["plays", ""],
        ]


@pytest.mark.skipif(not OFFLINE_JS.exists(), reason="the offline queue (static/js/offline.js)")
def test_a_kept_play_page_opened_offline_with_no_contract_asks_for_it(phone, transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game
    page = phone("en")
    path = keep_play(page, game, "taker=0&bid=3&trump=H&cards=AH")
    page.context.set_offline(True)

    # From the hand form, with its other fields: sent on to the play's own address.
    page.goto(f"/games/{game.public_id}/hands/2/play?number=2&dealer=0&bid=5&token=")
    choice = page.locator("form.contract-choice")
    expect(choice).to_be_visible()
    address = page.url
    shown = (page.locator("#play h1").inner_text(), page.locator(".deck, .play-status").count())
    bid_kept = choice.locator("input[name=bid]:checked").input_value()
    choice.locator(".takers label", has_text="Chafik").click()
    choice.locator(".trumps label", has_text="spades").click()
    choice.get_by_role("button", name="Start the play").click()

    page.wait_for_url(f"**{path.replace('/1/', '/2/')}?taker=2&bid=5&trump=S")
    expect(page.locator(".play-status")).to_have_text("Chafik 5♠ Chafik to play")
    dealer = page.locator("#play-save-form").evaluate(
        "(template) => template.content.querySelector('input[name=dealer]').value"
    )
    assert address.endswith(f"/games/{game.public_id}/hands/2/play?bid=5")
    assert shown == ("Hand 2, card by card", 0)
    assert bid_kept == "5"
    assert page.locator("form[data-offline-queue]").count() == 0
    assert dealer == "0"  # Amina deals hand 2
