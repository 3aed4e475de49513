"""What a federation's pages show of its ranking: the rows of its page and print, its CSV
and its PDF, from :func:`.ranking.federation_ranking`."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from fpdf import FPDF
from fpdf.enums import Align, XPos, YPos

from ...common.pdf import BOTTOM, FAMILY, MARGIN, WIDTH, ZEBRA, a4, fit
from ...common.words import say_day
from ...engine.federation import Entry
from ...engine.handicap import half_even
from ...engine.sheets import csv_cell, csv_text
from ..models import Federation
from .ranking import Ranking

CSV_HEADER = ("rank", "player", "score", "nights", "mean", "best", "clubs")
"""ranking.csv's columns: ``mean`` and ``best`` are ``A`` and ``B``, two decimals, half to
even; ``clubs`` the clubs his results came from, separated by ``; ``."""


@dataclass(frozen=True)
class RankingRow:
    """A line of the federation's ranking, as its page and its PDF show it."""

    rank: int
    player: str
    score: Decimal
    nights: int
    mean: Decimal
    best: Decimal
    clubs: Sequence[str]


def two(value: Fraction) -> Decimal:
    return half_even(value)


def ranking_rows(ranking: Ranking) -> list[RankingRow]:
    return [_row(entry) for entry in ranking.entries]


def _row(entry: Entry) -> RankingRow:
    return RankingRow(
        entry.rank,
        entry.name,
        entry.score,
        entry.nights,
        two(entry.mean),
        two(entry.best),
        entry.sources,
    )


def ranking_values(row: RankingRow) -> dict[str, object]:
    """A line of ranking.csv as values, by column: what the CSV and the API write."""
    return {
        "rank": row.rank,
        "player": row.player,
        "score": str(row.score),
        "nights": row.nights,
        "mean": str(row.mean),
        "best": str(row.best),
        "clubs": list(row.clubs),
    }


def ranking_csv(rows: Sequence[RankingRow]) -> str:
    """ranking.csv: a header, a line per player; numbers with ``.`` as the decimal point."""
    lines = [
        [
            str(row.rank),
            csv_cell(row.player),
            str(row.score),
            str(row.nights),
            str(row.mean),
            str(row.best),
            csv_cell("; ".join(row.clubs)),
        ]
        for row in rows
    ]
    return csv_text([CSV_HEADER, *lines])


def formula_explained() -> str:
    """The one sentence that says how the score is made, on the page and on paper."""
    return gettext(
        "Each night of 4 players or more gives a player 1,000 × (N − rank) / (N − 1), weighted"
        " 1 up to a year old, 0.66 up to two and 0.33 up to three; his score is half his"
        " weighted mean and half the mean of his 5 best weighted results, with 2 nights at"
        " least."
    )


ROW = 5.0


def ranking_pdf(federation: Federation, ranking: Ranking, rows: Sequence[RankingRow]) -> bytes:
    """The federation's ranking on an A4 page (more after 50 players), in the current
    language; Arabic shaped and right to left as the site's other PDFs."""
    title = federation.name
    pdf = a4(title, gettext("Federation ranking"), timezone.now())
    pdf.set_font(FAMILY, "B", 15)
    pdf.multi_cell(WIDTH, 8, title, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    about = " · ".join(
        (
            gettext("Ranking of %(day)s") % {"day": say_day(ranking.day)},
            ngettext("%(counter)s club", "%(counter)s clubs", len(ranking.clubs))
            % {"counter": len(ranking.clubs)},
            ngettext("%(counter)s night", "%(counter)s nights", ranking.nights)
            % {"counter": ranking.nights},
        )
    )
    pdf.multi_cell(WIDTH, 4.5, about, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1.5)
    titles = ["#", gettext("Player"), gettext("Score"), gettext("Nights"), gettext("Clubs")]
    widths = [8.0, 0.0, 18.0, 14.0, 60.0]
    widths[1] = WIDTH - sum(widths)
    _head(pdf, widths, titles)
    for index, row in enumerate(rows):
        if pdf.get_y() + ROW > BOTTOM - 8:
            pdf.add_page()
            _head(pdf, widths, titles)
        top = pdf.get_y()
        if index % 2:
            pdf.set_fill_color(ZEBRA)
            pdf.rect(MARGIN, top, WIDTH, ROW, style="F")
        cells = [
            (str(row.rank), "", Align.L),
            (row.player, "B", Align.L),
            (formats.number_format(row.score, 2), "B", Align.R),
            (str(row.nights), "", Align.R),
            (", ".join(row.clubs), "", Align.L),
        ]
        for width, (text, style, align) in zip(widths, cells, strict=True):
            pdf.set_font(FAMILY, style, 8)
            pdf.cell(width, ROW, fit(pdf, text, width - 1), align=align)
        pdf.ln(ROW)
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 7)
    pdf.multi_cell(
        WIDTH, 3.5, formula_explained(), align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )
    return bytes(pdf.output())


def _head(pdf: FPDF, widths: Sequence[float], titles: Sequence[str]) -> None:
    pdf.set_font(FAMILY, "B", 7)
    for index, (width, title) in enumerate(zip(widths, titles, strict=True)):
        pdf.cell(
            width, ROW, fit(pdf, title, width - 1), align=Align.L if index in (0, 1, 4) else Align.R
        )
    pdf.ln(ROW)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(0.3)
