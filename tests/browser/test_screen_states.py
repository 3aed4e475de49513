"""One screen in every state (issue 20): at 360x640, in English, French and Arabic.

For each state of the game page a scorer meets (a new game; four names as long as the
name limit; two-digit and negative totals with boîtes; a tie at the top; a save refused;
a club game; an auction refused; a hand kept as a draft after an offline conflict; a hand
waiting for confirmation, issue 40.2; a disputed hand and a referee's decision shown,
issue 40.3; a correction of a confirmed hand proposed), the
totals, the hand's header, the taker, bid and trump keys, the four trick rows and Save
are in view without scrolling, the page is no wider than the phone, no two pieces of
text overlap, each player's name, where it is cut, still tells him from the others, and
every sign is drawn before its number (a negative total reads -1 in Arabic, not 1-).
Measured from the page's boxes (getBoundingClientRect), not from screenshots.
"""

import json
import os
from contextlib import suppress
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.clubs import services as club_services
from scoring.common.forms import MAX_NAME
from scoring.common.rights import Actor
from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from tests.browser.phone import PHONE_WIDTH, misread_signs
from tests.clubs.factories import account, make_club
from tests.events.factories import games_of, make_event, next_round
from tests.factories import NAMES

pytestmark = pytest.mark.browser

HEIGHT = 640
SAVE_LOWEST = 630
"""Save's bottom, and so every piece's, at most here: 10 px above the screen's edge (issue 40.6)."""
LANGUAGES = ["en", "fr", "ar"]
SAVE_BOTTOMS = Path(os.environ.get("BOULMOUS_SAVE_BOTTOMS", "/tmp/boulmous-save-bottoms.jsonl"))

# Four names of 21 to 40 characters (the limit), two pairs alike for their first 7 and
# their first 30 characters.
LONG_NAMES = (
    "Yasmina Benali-Ouahrani",
    "Yasmine Belkacem Ould Abderrahmane",
    "Mohamed Amine Ben Abdelkader Zerhouni",
    "Mohamed Amine Ben Abdelkader Zitouni-Ali",
)
assert max(len(name) for name in LONG_NAMES) == MAX_NAME


def hand(taker, bid, tricks, trump=Trump.HEARTS):
    return Hand(Contract(taker, bid, trump), tricks=tricks)


# Totals -1, 18, 18 and 15 after eleven hands, every player with a boîte, Dalila two.
TOTALS_HANDS = [
    hand(0, 5, (4, 1, 1, 0)),
    hand(1, 4, (0, 3, 0, 3)),
    hand(2, 5, (0, 1, 4, 1)),
    hand(3, 4, (0, 0, 3, 3)),
    hand(1, 4, (0, 6, 0, 0)),
    hand(2, 5, (0, 0, 6, 0)),
    hand(3, 5, (0, 0, 0, 6)),
    hand(3, 5, (0, 0, 0, 6)),
    hand(1, 4, (0, 5, 1, 0)),
    hand(2, 5, (0, 0, 5, 1)),
    hand(3, 4, (0, 3, 0, 3)),
]
# Chafik and Dalila tied at 21: play goes on.
TIE_HANDS = [
    hand(2, 6, (0, 0, 6, 0)),
    hand(3, 6, (0, 0, 0, 6)),
    hand(2, 5, (0, 0, 6, 0)),
    hand(3, 5, (0, 0, 0, 6)),
    hand(2, 5, (0, 0, 6, 0)),
    hand(3, 5, (0, 0, 0, 6)),
    hand(2, 3, (0, 0, 3, 3)),
]


def new_game(names=NAMES, hands=(), rules=None):
    game = services.create_game(names=names, rules=rules or Rules(), first_dealer=0).game
    for number, each in enumerate(hands, start=1):
        services.record_hand(public_id=game.public_id, number=number, hand=each, token=None)
    return game


def club_game():
    from django.contrib.auth.models import User

    admin = User.objects.create_user("amina", password="felt-and-trumps-21")
    club = club_services.create_club(
        name="Café du Port de la Goulette",
        slug="port",
        time_zone="Africa/Tunis",
        rules=Rules(stake=Decimal("0.50")),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name=NAMES[0],
    )
    state = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None)
    services.record_hand(
        public_id=state.game.public_id, number=1, hand=hand(1, 4, (1, 4, 0, 1)), token=None
    )
    return state.game


def event_game():
    """A game of an event's first round: its page leads back to the event, whose name is
    long, and plays by the event's rules."""
    admin = account("amina")
    club = make_club(admin, players=NAMES[1:], stake=Decimal("0.50"))
    by = Actor(user_id=admin.pk)
    event = make_event(
        club, by, players=NAMES, name="Championnat d’hiver du Café du Port de la Goulette"
    )
    next_round(event, by)
    game = games_of(event).get().game
    services.record_hand(
        public_id=game.public_id, number=1, hand=hand(1, 4, (1, 4, 0, 1)), token=None
    )
    return game


def key(page, name, value):
    return page.locator(f'#entry input[name="{name}"][value="{value}"] + span')


def refused_save(page):
    """Chafik 4♥, Amina 4, Bilal 4: the tricks make 8, and the save is refused."""
    for name, value in [("taker", 2), ("bid", 4), ("trump", "H"), ("tricks_0", 4), ("tricks_1", 4)]:
        key(page, name, value).click()
    page.locator("#entry button.save").click()
    expect(page.locator("#entry .tricks .field-errors")).to_be_visible()


def tie_after_a_hand(page):
    """Chafik 3♥ made, the tie's last hand, tapped and saved here: the page a save leaves."""
    for name, value in [("taker", 2), ("bid", 3), ("trump", "H")]:
        key(page, name, value).click()
    for seat, count in [(0, 0), (1, 0), (2, 3)]:
        key(page, f"tricks_{seat}", count).click()
    page.locator("#entry button.save").click()
    expect(page.locator("#entry input[name=number]")).to_have_value(str(len(TIE_HANDS) + 1))
    expect(page.locator(".tie")).to_be_visible()
    expect(page.locator(".share-result")).to_be_visible()


def refused_auction(page):
    """Bilal calls 4 and Chafik 3: the auction is refused."""
    for name, value in [("taker", 2), ("bid", 3), ("trump", "H")]:
        key(page, name, value).click()
    for seat, count in [(0, 1), (1, 1), (2, 3)]:
        key(page, f"tricks_{seat}", count).click()
    page.locator("#entry details.calls summary").click()
    for position, call in enumerate(["4", "3", "pass", "pass"]):
        page.locator(f"#entry select[name=call_{position}]").select_option(call)
    page.locator("#entry button.save").click()
    expect(page.locator("#entry [role=alert]").filter(has_text="4")).to_be_visible()


KEPT = """
async () => {
  if (!navigator.serviceWorker.controller) return false;
  const cache = await caches.open("boulmous-pages-1");
  return Boolean(await cache.match(location.pathname));
}
"""


def offline_conflict(phone, lang, game):
    """This phone saves hand 2 offline; another records hand 2 online; this one returns."""
    page = phone(lang)
    page.goto(f"/games/{game.public_id}/")
    for _ in range(150):
        if page.evaluate(KEPT):
            break
        page.wait_for_timeout(100)
    page.context.set_offline(True)
    for name, value in [("taker", 0), ("bid", 4), ("trump", "H")]:
        key(page, name, value).click()
    for seat, count in [(1, 1), (2, 2), (3, 1)]:
        key(page, f"tricks_{seat}", count).click()
    page.locator("#entry button.save").click()
    expect(page.locator("tr.pending")).to_have_count(1)
    services.record_hand(
        public_id=game.public_id, number=2, hand=hand(3, 4, (1, 1, 0, 4)), token=None
    )
    page.context.set_offline(False)
    expect(page.locator(".offline-draft")).to_be_visible(timeout=15_000)
    page.evaluate("window.scrollTo(0, 0)")
    return page


def disputed(decided=False):
    """A game whose first hand Chafik disputed (issue 40.3); the referee decided it."""
    game = new_game(
        hands=[hand(1, 4, (1, 4, 0, 1))], rules=Rules(confirmation=Confirmation.EACH_HAND)
    )
    services.dispute_hand(
        public_id=game.public_id,
        number=1,
        version=1,
        seat=2,
        reason="Bilal made four tricks, not five: we counted them twice",
    )
    if decided:
        services.decide_dispute(
            public_id=game.public_id,
            number=1,
            reason="The tricks were counted again with the four players",
        )
    return game


def proposed():
    """A game whose first hand, confirmed by Chafik, the scorer corrected: his correction
    waits for another seat (issue 40.3)."""
    game = new_game(
        hands=[hand(1, 4, (1, 4, 0, 1))], rules=Rules(confirmation=Confirmation.EACH_HAND)
    )
    services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=2)
    with suppress(services.Proposed):
        services.edit_hand(
            public_id=game.public_id,
            number=1,
            hand=hand(1, 4, (0, 3, 2, 1)),
            discard_after_end=False,
        )
    return game


STATES = {
    "new game": lambda: new_game(),
    "long names": lambda: new_game(LONG_NAMES, [hand(1, 4, (1, 4, 0, 1))]),
    "two-digit and negative totals": lambda: new_game(hands=TOTALS_HANDS),
    "tie at the top": lambda: new_game(hands=TIE_HANDS),
    "tie at the top, after a hand": lambda: new_game(hands=TIE_HANDS[:-1]),
    "save refused": lambda: new_game(),
    "club game": club_game,
    "event game": event_game,
    "auction refused": lambda: new_game(),
    "offline conflict": lambda: new_game(hands=[hand(1, 5, (0, 5, 1, 0))]),
    "a hand waiting for confirmation": lambda: new_game(
        hands=[hand(1, 4, (1, 4, 0, 1))], rules=Rules(confirmation=Confirmation.EACH_HAND)
    ),
    "a disputed hand": disputed,
    "a referee's decision shown": lambda: disputed(decided=True),
    "a correction proposed": proposed,
}
AFTER = {
    "save refused": refused_save,
    "auction refused": refused_auction,
    "tie at the top, after a hand": tie_after_a_hand,
    "a hand waiting for confirmation": lambda page: expect(
        page.locator(".waiting-hand")
    ).to_have_count(1),
    "a disputed hand": lambda page: expect(page.locator(".disputed-hand.open")).to_have_count(1),
    "a referee's decision shown": lambda page: expect(page.locator(".decision")).to_have_count(1),
    "a correction proposed": lambda page: expect(page.locator(".proposal")).to_have_count(1),
}


MEASURE = """() => {
  const box = (element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
  };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  const pieces = {
    totals: all(".scoreboard"),
    header: all("#entry .hand-head"),
    takers: all("#entry fieldset.takers"),
    bids: all("#entry fieldset.bids"),
    trumps: all("#entry fieldset.trumps"),
    tricks: all("#entry .trick-row"),
    save: all("#entry button.save"),
  };
  // Every piece of text drawn in view, as the boxes of its lines.
  const hidden = (element) => element.closest(".visually-hidden, [hidden], template");
  const texts = [];
  let count = 0;
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!node.textContent.trim() || hidden(element) || !element.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    count += 1;
    for (const rect of range.getClientRects()) {
      if (rect.width < 1 || rect.bottom <= 0 || rect.top >= innerHeight) continue;
      texts.push({ node: count, text: node.textContent.trim().slice(0, 40), rect });
    }
  }
  const overlaps = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
    if (a.node === b.node) return;
    const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
    const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
    // Line boxes of text set tight may touch by a pixel or two; glyphs over glyphs is more.
    if (width > 1 && height > 3) overlaps.push([a.text, b.text]);
  }));
  // What a player's name shows, where it is shown in a small space: all of it, no ellipsis.
  const shown = (element) => [...element.childNodes]
    .filter((node) => !(node.nodeType === 1 && node.matches(".visually-hidden")))
    .map((node) => node.textContent).join("").trim();
  const labels = (selector) => [...document.querySelectorAll(selector)].map((element) => ({
    text: shown(element),
    cut: element.scrollWidth > element.clientWidth + 1
      || element.scrollHeight > element.clientHeight + 1,
  }));
  return {
    width: document.documentElement.scrollWidth,
    scrolled: scrollY,
    pieces,
    overlaps,
    names: {
      totals: labels(".scoreboard .name"),
      takers: labels("#entry .takers .pick span"),
      tricks: labels("#entry .trick-row .who"),
    },
  };
}"""


def out_of_view(pieces):
    return sorted(
        name
        for name, boxes in pieces.items()
        if not boxes
        or any(
            box["top"] < 0
            or box["bottom"] > SAVE_LOWEST
            or box["left"] < 0
            or box["right"] > PHONE_WIDTH
            for box in boxes
        )
    )


def told_apart(labels, names):
    """Each label uncut, different from the others, and the start of its player's name."""
    texts = [label["text"].rstrip("…").split("…")[0] for label in labels]
    return (
        not any(label["cut"] for label in labels)
        and len({label["text"] for label in labels}) == len(labels)
        and all(name.startswith(text) for text, name in zip(texts, names, strict=True))
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("state", list(STATES))
def test_every_state_holds_on_one_screen(phone, transactional_db, state, lang):
    game = STATES[state]()
    names = tuple(game.summary.names)  # as seated: an event's draw seats them its own way
    if state == "offline conflict":
        page = offline_conflict(phone, lang, game)
    else:
        page = phone(lang)
        page.goto(f"/games/{game.public_id}/")
        expect(page.locator("#entry button.save")).to_be_visible()
        if state in AFTER:
            AFTER[state](page)
    page.wait_for_timeout(150)  # the scroll an answer asks for is smooth nowhere, but settle
    page.screenshot(path=f"/tmp/screen-{state.replace(' ', '-')}-{lang}.png")

    measured = page.evaluate(MEASURE)
    signs_misread = misread_signs(page)
    save = measured["pieces"]["save"][0]
    with SAVE_BOTTOMS.open("a") as record:
        record.write(
            json.dumps({"state": state, "lang": lang, "save_bottom": save["bottom"]}) + "\n"
        )

    assert out_of_view(measured["pieces"]) == []
    assert save["bottom"] <= SAVE_LOWEST, save
    assert measured["width"] == PHONE_WIDTH
    assert measured["overlaps"] == []
    assert signs_misread == []
    assert {where: told_apart(labels, names) for where, labels in measured["names"].items()} == {
        "totals": True,
        "takers": True,
        "tricks": True,
    }


LINES = """() => [...document.querySelectorAll("table.sheet-table tbody th[scope=row]")]
.map((cell) => {
  // The lines the hand's number takes: the boxes of its digits' text.
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  while (walker.nextNode() && !/\\d/.test(walker.currentNode.textContent));
  const range = document.createRange();
  range.selectNodeContents(walker.currentNode);
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
})"""


@pytest.mark.parametrize("where", ["score sheet", "watch view", "settlement"])
def test_hand_numbers_stay_on_one_line(phone, transactional_db, where):
    game = new_game(LONG_NAMES, hands=TOTALS_HANDS)
    page = phone("fr", scorer=where == "score sheet")
    suffix = "settlement" if where == "settlement" else ""
    page.goto(f"/games/{game.public_id}/{suffix}")

    assert page.evaluate(LINES) == [1] * len(TOTALS_HANDS)


def test_save_stays_in_view_after_a_refused_auction_call(phone, transactional_db):
    game = new_game()
    page = phone("en")
    page.goto(f"/games/{game.public_id}/")

    refused_auction(page)

    save = page.locator("#entry button.save").bounding_box()
    error = page.locator("#entry .errors").bounding_box()
    assert (save["y"] >= 0, save["y"] + save["height"] <= SAVE_LOWEST) == (True, True)
    assert (error["y"] >= 0, error["y"] + error["height"] <= HEIGHT) == (True, True)
    assert "Chafik bid 3" in page.locator("#entry .errors").inner_text()
