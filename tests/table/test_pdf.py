"""The settlement sheet as a PDF: one A4 page for 40 hands, its text as on the page."""

import io
import re
from datetime import UTC
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.pages.game import score_sheet
from scoring.table.pages.pdf import CHART_GAP, MARGIN, PAYMENTS_W, settlement_sheet_pdf
from scoring.table.pages.settlement import settle_up
from scoring.table.state import load_game

pytestmark = pytest.mark.django_db

NAMES = ("Amina", "Bilal", "Chafik", "Élodie")
TRUMPS = (Trump.HEARTS, Trump.SPADES, Trump.DIAMONDS, Trump.CLUBS, Trump.NO_TRUMP)


def forty_hands():
    """Takers in turn, every trump, a void deal (10), a boulmous made (20) and missed (30),
    a boîte every seventh hand: Bilal reaches 60 at hand 40, alone, and not before."""
    hands = []
    for number in range(1, 41):
        if number == 10:
            hands.append(Hand())
            continue
        taker, bid = number % 4, 3 + number % 2
        if number in (20, 30):
            bid = 6
        taken = bid - 1 if number % 7 == 0 or number == 30 else bid
        tricks = [0] * 4
        tricks[taker] = taken
        others = [seat for seat in range(4) if seat != taker]
        for extra in range(6 - taken):
            tricks[others[(number + extra) % 3]] += 1
        contract = Contract(taker, bid, TRUMPS[number % 5])
        hands.append(Hand(contract, tricks=tuple(tricks)))
    return hands


def new_game(rules, hands, place="Café Français"):
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0, place=place).game
    for number, hand in enumerate(hands, start=1):
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


@pytest.fixture
def won_game(db):
    """Bilal wins at hand 40, for a stake of €0.50."""
    return new_game(Rules(target=60, stake=Decimal("0.50")), forty_hands())


def download(client, game, language="en"):
    response = client.get(f"/games/{game.public_id}/settlement.pdf", HTTP_ACCEPT_LANGUAGE=language)
    return PdfReader(io.BytesIO(response.content))


def text_of(reader):
    """The pages' text, every run of whitespace (non-breaking spaces too) made one space."""
    return plain("\n".join(page.extract_text() for page in reader.pages))


def plain(text):
    return " ".join(text.split())


def settle_up_in(game, language):
    with translation.override(language):
        return settle_up(load_game(game))


def test_settlement_pdf_answers_with_an_attachment(client, won_game):
    response = client.get(f"/games/{won_game.public_id}/settlement.pdf")

    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="boulmous-{won_game.public_id}.pdf"'
    )
    assert response.content[:5] == b"%PDF-"


def test_pdf_of_forty_hands_has_one_page(client, won_game):
    reader = download(client, won_game)

    assert len(reader.pages) == 1


def test_pdf_of_forty_hands_shows_status_and_each_payment(client, won_game):
    text = text_of(download(client, won_game))
    payments = [plain(payment) for payment in settle_up_in(won_game, "en").payments]

    assert "Bilal won at hand 40." in text
    assert payments[0] == "Chafik pays Bilal €3.50"
    assert [payment for payment in payments if payment in text] == payments


def test_pdf_of_forty_hands_shows_every_hand(client, won_game):
    text = text_of(download(client, won_game))

    # Hand 40: Élodie deals, Amina makes 3♥; tricks, points and totals, seat by seat.
    assert "40 Élodie Amina 3♥ 3 +3 52 1 +1 60 1 +1 42 1 +1 56" in text
    assert "10 Bilal all passed 12 18 11 9" in text
    assert "30 Bilal Chafik 6♥ · boulmous · boîte" in text


def test_pdf_in_french_formats_amounts_in_french(client, won_game):
    text = text_of(download(client, won_game, language="fr"))
    payments = [plain(payment) for payment in settle_up_in(won_game, "fr").payments]

    assert [payment for payment in payments if payment in text] == payments
    assert "3,50 €" in text
    assert "Feuille de marque" in text


def test_pdf_in_arabic_draws_each_letter_in_its_joined_forms(client, won_game):
    reader = download(client, won_game, language="ar")

    # Shaped, a letter is drawn with a glyph per position in its word (alone, first,
    # middle, last); unshaped, with one. The fonts' ToUnicode maps say how many.
    glyphs_of_beh = set()
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        cmap = font.get_object()["/ToUnicode"].get_object().get_data().decode()
        pairs = re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", cmap)
        glyphs_of_beh |= {(id(font), glyph) for glyph, char in pairs if char.upper() == "0628"}
    assert (len(reader.pages), "بولموس" in text_of(reader), len(glyphs_of_beh) >= 3) == (
        1,
        True,
        True,
    )


def test_pdf_in_arabic_draws_no_glyph_for_the_isolates_around_names(client, won_game, caplog):
    # Each payment and the status isolate their names (U+2068, U+2069): HarfBuzz, which
    # shapes an Arabic PDF, draws nothing for them, where fpdf2 alone would draw a box and
    # log the glyphs missing from the font.
    with caplog.at_level("WARNING", logger="fpdf"):
        reader = download(client, won_game, language="ar")

    missing = [record.getMessage() for record in caplog.records if "missing" in record.getMessage()]
    assert (len(reader.pages), missing, "Bilal" in text_of(reader)) == (1, [], True)


def test_pdf_shows_suits_euro_and_accents(client, won_game):
    text = text_of(download(client, won_game))

    signs = ["♠", "♥", "♦", "♣", "€", "−", "Élodie", "Café Français", "boîte"]
    assert [sign for sign in signs if sign in text] == signs


def test_pdf_metadata_gives_title_and_game_date(client, won_game):
    reader = download(client, won_game)

    created = won_game.created_at.astimezone(UTC)
    assert reader.metadata.creation_date.astimezone(UTC) == created.replace(microsecond=0)
    assert reader.metadata.title == f"Boulmous · {created:%b} {created.day}, {created.year}"


def test_pdf_without_money_counts_in_stakes_on_one_page(client):
    game = new_game(Rules(target=60), forty_hands(), place="")
    reader = download(client, game)
    text = text_of(reader)
    payments = [plain(payment) for payment in settle_up_in(game, "en").payments]

    assert len(reader.pages) == 1
    assert "no money: counted in stakes" in text
    assert payments[0] == "Chafik owes Bilal 7 stakes"
    assert [payment for payment in payments if payment in text] == payments


def test_pdf_of_abandoned_game_says_so_on_one_page(client):
    game = new_game(Rules(target=1000, stake=Decimal("0.50")), forty_hands())
    services.abandon_game(public_id=game.public_id)
    reader = download(client, game)
    text = text_of(reader)

    assert len(reader.pages) == 1
    assert "The game was abandoned at hand 40: only the boulmous payments count." in text
    assert "Chafik pays Amina €2.00" in text


def test_pdf_of_new_game_says_no_hand_yet(client, db):
    game = new_game(Rules(), [])
    text = text_of(download(client, game))

    assert "No hand yet." in text
    assert "Nobody owes anything." in text


def test_pdf_of_longer_game_carries_the_sheet_over_with_its_head(db):
    game = new_game(Rules(target=1000), forty_hands() + forty_hands()[:30])
    state = load_game(game)
    pdf = settlement_sheet_pdf(state, score_sheet(state), settle_up(state))
    pages = PdfReader(io.BytesIO(pdf)).pages

    head = "# Dealer Contract Amina Bilal Chafik Élodie" + " tricks points total" * 4
    second = plain(pages[1].extract_text())
    assert len(pages) == 2
    assert second.startswith(f"{head} ")
    assert "70 Bilal Chafik 6♥ · boulmous · boîte" in second


def chart_values(reader):
    """The chart's value labels, drawn alone in 6 points: (text, left edge in mm)."""
    found = []

    def visit(text, _cm, matrix, _font, size):
        if size == 6.0 and text.strip() and text == text.strip():
            found.append((text, round(matrix[4] * 25.4 / 72, 1)))

    reader.pages[0].extract_text(visitor_text=visit)
    return found


def test_pdf_chart_values_stand_left_of_the_chart_clear_of_its_lines(client, won_game):
    values = chart_values(download(client, won_game))

    gap = (MARGIN + PAYMENTS_W, MARGIN + PAYMENTS_W + CHART_GAP)  # between payments and chart
    assert [(text, gap[0] < left < gap[1]) for text, left in values] == [
        ("60", True),
        ("0", True),
    ]
