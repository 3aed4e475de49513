"""The settlement sheet, printed by the browser (Chromium's print to PDF), fits one A4 page."""

import io
from decimal import Decimal

import pytest
from pypdf import PdfReader

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from tests.factories import NAMES

pytestmark = pytest.mark.browser

TRUMPS = list(Trump)


def forty_hands():
    """Bilal (seat 1) wins at hand 40 with 120 points; Amina misses a 4 every seventh hand."""
    game = services.create_game(
        names=NAMES, rules=Rules(target=120, stake=Decimal("0.50")), first_dealer=0, place="Café"
    ).game
    for number in range(1, 41):
        taker, bid = (0, 4) if number % 7 == 0 else (1, 3)
        hand = Hand(Contract(taker, bid, TRUMPS[number % 5]), tricks=(1, 3, 1, 1))
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


@pytest.mark.parametrize("language", ["en", "fr"])
def test_settlement_sheet_of_40_hands_prints_on_one_page(browser, live_server, language):
    game = forty_hands()
    context = browser.new_context(locale=language, extra_http_headers={"Accept-Language": language})
    page = context.new_page()

    page.goto(f"{live_server.url}/games/{game.public_id}/settlement")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    context.close()

    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(reader.pages[0].extract_text().split())
    assert len(reader.pages) == 1
    assert ("Bilal" in text, "40" in text, "Café" in text) == (True, True, True)
    assert ("Print" in text, "Imprimer" in text) == (False, False)


def test_settlement_prints_black_on_white_boite_rows_too(browser, live_server):
    game = forty_hands()
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.public_id}/settlement")
    page.emulate_media(media="print")

    coloured = page.evaluate(
        """() => [...document.querySelectorAll("main *")].filter((element) => {
             if (!element.checkVisibility() || !element.textContent.trim()) return false;
             const style = getComputedStyle(element);
             const paper = ["rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"];
             return style.color !== "rgb(0, 0, 0)" || !paper.includes(style.backgroundColor);
           }).map((element) => `${element.tagName}.${element.className}`)"""
    )
    boites = page.locator("tr.boite").count()
    context.close()

    assert boites > 0
    assert coloured == []
