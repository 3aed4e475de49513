"""axe-core (WCAG 2.2 A and AA, and best practices) finds nothing on any page, in any state,
in English, French and Arabic (right to left); each page has exactly one h1.

The game page's own states (start, mid-game, an error, finished) are checked where
they are reached by taps, in test_one_screen.py.
"""

from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe

from scoring import services
from scoring.engine import Contract, Hand, Rules, Trump
from tests.site.factories import NAMES
from tests.site.test_play import REVOKED

pytestmark = pytest.mark.browser

AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    }
}
PLAY = "taker=0&bid=3&trump=H"


def report(page):
    """axe's violations, each with the elements it names, and the page's h1 count."""
    result = Axe().run(page, options=AXE_RULES)
    found = [
        (violation["id"], [node["target"] for node in violation["nodes"]])
        for violation in result.response["violations"]
    ]
    return found, page.locator("h1").count()


@pytest.fixture
def games(transactional_db):
    """A game with money and two hands, the second a boulmous; and a game just begun."""
    played = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.50")), first_dealer=0, place="Café"
    ).game
    for number, hand in enumerate(
        [
            Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
            Hand(Contract(2, 6, Trump.SPADES), tricks=(0, 0, 6, 0)),
        ],
        start=1,
    ):
        services.record_hand(public_id=played.public_id, number=number, hand=hand, token=None)
    fresh = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    services.make_scorer_link(public_id=played.public_id)
    return played, fresh


def pages(played, fresh):
    """Every page and state to check: (name, address, what to do there first)."""
    cards = REVOKED.split(",")
    return [
        ("home", "/", None),
        ("new game, rules open", "/games/new", "details.rules summary"),
        ("editing a hand", f"/games/{played.public_id}/hands/2/edit", None),
        ("card by card, start", f"/games/{fresh.public_id}/hands/1/play?{PLAY}", None),
        (
            "card by card, mid-trick",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={','.join(cards[:6])}",
            None,
        ),
        (
            "card by card, complete with a revoke",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={REVOKED}",
            None,
        ),
        ("calculator", "/referee/trick?trump=H&cards=JD,AH,9C,JH", None),
        ("rules", f"/rules?game={played.public_id}", None),
        ("settlement", f"/games/{played.public_id}/settlement", None),
        ("import", "/games/import", None),
        ("share", f"/games/{played.public_id}/share", None),
        (
            "scorer link opened",
            f"/games/{played.public_id}/score/{played.scorer_links.get().secret}",
            None,
        ),
        ("a game watched", f"/games/{played.public_id}/", "watch"),
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_page_has_one_h1_and_no_axe_violation(phone, games, lang):
    page = phone(lang)
    found = {}

    for name, address, first in pages(*games):
        if first == "watch":  # another phone, which may only watch
            page = phone(lang, scorer=False)
        page.goto(address)
        if first and first != "watch":
            page.locator(first).click()
        found[name] = report(page)

    assert found == {name: ([], 1) for name, _address, _first in pages(*games)}
