"""The site's printed pages (fpdf2, pure Python): an A4 page in the current language with
the DejaVu font, which the table's settlement sheet (scoring/table/pages/pdf.py) and a
club's PDFs (scoring/clubs/pages/pdf.py) are drawn on, and the few helpers both use."""

from datetime import datetime
from pathlib import Path

from django.utils.translation import get_language, get_language_bidi, gettext
from fpdf import FPDF

FONTS = Path(__file__).parents[1] / "fonts"
FAMILY = "DejaVu"
MINUS = "−"

MARGIN = 10.0
WIDTH = 210.0 - 2 * MARGIN
BOTTOM = 297.0 - MARGIN
ZEBRA = 236
"""The grey of every other row of a table (0 black, 255 white)."""


def a4(title: str, subject: str, created: datetime) -> FPDF:
    """A blank A4 portrait page in the current language, with the fonts loaded."""
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.add_font(FAMILY, "", fname=FONTS / "DejaVuSansCondensed.ttf")
    pdf.add_font(FAMILY, "B", fname=FONTS / "DejaVuSansCondensed-Bold.ttf")
    if get_language_bidi():
        # Arabic letters join, and its lines run right to left: HarfBuzz shapes them.
        pdf.set_text_shaping(use_shaping_engine=True)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(False)  # tables break their own pages, between rows
    pdf.set_title(title)
    pdf.set_subject(subject)
    pdf.set_creator(gettext("Boulmous scoring"))
    pdf.set_creation_date(created)
    pdf.set_lang(get_language() or "en")
    pdf.add_page()
    return pdf


def fit(pdf: FPDF, text: str, width: float) -> str:
    """``text``, cut short with an ellipsis if wider than ``width`` in the current font."""
    if pdf.get_string_width(text) <= width:
        return text
    while text and pdf.get_string_width(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def minus(figure: str) -> str:
    """A figure's leading hyphen-minus (Babel's, ngettext's) as the true minus sign."""
    return MINUS + figure[1:] if figure.startswith("-") else figure


def number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)
