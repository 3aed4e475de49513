"""A club's PDFs, drawn like the table's settlement sheet (scoring/table/pages/pdf.py)."""

from collections.abc import Sequence

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from fpdf import FPDF
from fpdf.enums import Align, XPos, YPos

from ...common.pdf import BOTTOM, FAMILY, MARGIN, WIDTH, ZEBRA, a4, fit, minus, number
from ...common.words import say_day
from ..league.handicap import CupRow
from ..league.pages import StandingRow, headings, provisional_note, rating_explained
from ..models import Club, Night, Season
from ..nights.pages import NightMoney

# A club season's standings: one A4 page for up to 40 players, more pages after that.

LEAGUE_ROW = 5.0
LEAGUE_HEAD = 9.0
LEAGUE_PT = 8.0
RANK_W, PLAYER_W = 6.0, 34.0
# Then a column for each statistic of the registry (a share of another adds its % after
# it), the money (for a club with a stake) and the rating; the player's column takes what
# the others leave.
FIGURE_W, PERCENT_W, MONEY_W, RATING_W = 10.0, 7.0, 17.0, 11.0


def _columns(with_money: bool) -> list[tuple[str, float]]:
    """Each column's title and width, rank and player first."""
    columns = []
    for heading in headings():
        columns.append((heading.short, FIGURE_W))
        if heading.statistic.share_of and heading.statistic.share_in_table:
            columns.append(("%", PERCENT_W))
    if with_money:
        columns.append((gettext("Money"), MONEY_W))
    columns.append((gettext("Rating"), RATING_W))
    player = max(PLAYER_W, WIDTH - RANK_W - sum(width for _, width in columns))
    scale = min(1.0, (WIDTH - RANK_W - player) / sum(width for _, width in columns))
    return [
        ("#", RANK_W),
        (gettext("Player"), player),
        *((title, width * scale) for title, width in columns),
    ]


def standings_pdf(
    club: Club,
    season: Season,
    rows: Sequence[StandingRow],
    games: int,
    cup: Sequence[CupRow] | None = None,
) -> bytes:
    """The season's table to pin on the club's wall, in the current language; then its
    handicap cup, for a season that holds one."""
    days = gettext("%(first)s to %(last)s") % {
        "first": say_day(season.first_day),
        "last": say_day(season.last_day),
    }
    pdf = _standings(club, f"{club.name} · {season.name}", (days,), season.points, rows, games)
    if cup is not None:
        _cup(pdf, cup)
    return bytes(pdf.output())


def _cup(pdf: FPDF, cup: Sequence[CupRow]) -> None:
    """The season's handicap cup: rank, player, cup, league points, current handicap."""
    if pdf.get_y() + 30 > BOTTOM:
        pdf.add_page()
    pdf.ln(4)
    pdf.set_font(FAMILY, "B", 12)
    pdf.cell(WIDTH, 6, gettext("Handicap cup"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    titles = ["#", gettext("Player"), gettext("Cup"), gettext("League points"), gettext("Handicap")]
    widths = [RANK_W, WIDTH - RANK_W - 3 * 22.0, 22.0, 22.0, 22.0]

    def head() -> None:
        pdf.set_font(FAMILY, "B", 7)
        for index, (width, title) in enumerate(zip(widths, titles, strict=True)):
            pdf.cell(
                width,
                LEAGUE_ROW,
                fit(pdf, title, width - 1),
                align=Align.L if index < 2 else Align.R,
            )
        pdf.ln(LEAGUE_ROW)
        pdf.set_line_width(0.3)
        pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
        pdf.ln(0.3)

    head()
    for index, row in enumerate(cup):
        if pdf.get_y() + LEAGUE_ROW > BOTTOM - 8:
            pdf.add_page()
            head()
        if index % 2:
            pdf.set_fill_color(ZEBRA)
            pdf.rect(MARGIN, pdf.get_y(), WIDTH, LEAGUE_ROW, style="F")
        cells = [
            (str(row.rank), "", Align.L),
            (row.player, "B", Align.L),
            (minus(formats.number_format(row.cup, 2)), "B", Align.R),
            (number(row.league_points), "", Align.R),
            (minus(formats.number_format(row.current, 2)), "", Align.R),
        ]
        for width, (text, style, align) in zip(widths, cells, strict=True):
            pdf.set_font(FAMILY, style, LEAGUE_PT)
            pdf.cell(width, LEAGUE_ROW, fit(pdf, text, width - 1), align=align)
        pdf.ln(LEAGUE_ROW)


def night_pdf(
    club: Club,
    night: Night,
    rows: Sequence[StandingRow],
    games: int,
    money: NightMoney | None = None,
) -> bytes:
    """A club night's ranking, as the season's table is printed; then the night's money,
    for a club that plays for stakes: the balances and the payments, side by side."""
    when = gettext("Night of %(date)s") % {"date": say_day(night.date)}
    pdf = _standings(club, f"{club.name} · {when}", (night.place,), club.points, rows, games)
    if money is not None and money.balances:
        _night_money(pdf, money)
    return bytes(pdf.output())


# The night's money: balances on the left, payments on the right, a row each.
BALANCE_W, MONEY_GAP = 78.0, 8.0
PAYMENT_W = WIDTH - BALANCE_W - MONEY_GAP
AMOUNT_W = 24.0


def _night_money(pdf: FPDF, money: NightMoney) -> None:
    if pdf.get_y() + 30 > BOTTOM:
        pdf.add_page()
    pdf.ln(4)
    pdf.set_font(FAMILY, "B", 12)
    pdf.cell(WIDTH, 6, gettext("The night's money"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 8)
    pdf.multi_cell(WIDTH, 4, money.about, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    left = [(balance.player, minus(balance.amount)) for balance in money.balances]
    right = [
        (f"{payment.payer} → {payment.payee}", minus(payment.amount)) for payment in money.payments
    ]
    if not right:
        right = [(gettext("Nobody owes anything."), "")]
    _money_head(pdf)
    for index in range(max(len(left), len(right))):
        if pdf.get_y() + LEAGUE_ROW > BOTTOM - 8:
            pdf.add_page()
            _money_head(pdf)
        top = pdf.get_y()
        for start, width, cells in (
            (MARGIN, BALANCE_W, left),
            (MARGIN + BALANCE_W + MONEY_GAP, PAYMENT_W, right),
        ):
            if index >= len(cells):
                continue
            if index % 2:
                pdf.set_fill_color(ZEBRA)
                pdf.rect(start, top, width, LEAGUE_ROW, style="F")
            name, amount = cells[index]
            pdf.set_xy(start, top)
            pdf.set_font(FAMILY, "", LEAGUE_PT)
            pdf.cell(width - AMOUNT_W, LEAGUE_ROW, fit(pdf, name, width - AMOUNT_W - 1))
            pdf.set_font(FAMILY, "B", LEAGUE_PT)
            pdf.cell(AMOUNT_W, LEAGUE_ROW, fit(pdf, amount, AMOUNT_W - 1), align=Align.R)
        pdf.set_xy(MARGIN, top + LEAGUE_ROW)
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 7)
    for note in money.notes:
        pdf.multi_cell(WIDTH, 3.5, note, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _money_head(pdf: FPDF) -> None:
    top = pdf.get_y()
    pdf.set_font(FAMILY, "B", 7)
    for start, width, title in (
        (MARGIN, BALANCE_W, gettext("Balances")),
        (MARGIN + BALANCE_W + MONEY_GAP, PAYMENT_W, gettext("Payments")),
    ):
        pdf.set_xy(start, top)
        pdf.cell(width, 5, title)
        pdf.set_line_width(0.3)
        pdf.line(start, top + 5, start + width, top + 5)
    pdf.set_xy(MARGIN, top + 5.3)


def _standings(
    club: Club,
    title: str,
    about: Sequence[str],
    league_points: Sequence[int],
    rows: Sequence[StandingRow],
    games: int,
) -> FPDF:
    pdf = a4(title, gettext("Standings"), timezone.now())
    pdf.set_font(FAMILY, "B", 15)
    pdf.multi_cell(WIDTH, 8, title, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    counted = ngettext("%(counter)s game", "%(counter)s games", games) % {"counter": games}
    points = gettext("league points for ranks 1 to 4: %(points)s") % {
        "points": ", ".join(str(value) for value in league_points)
    }
    pdf.multi_cell(
        WIDTH,
        4.5,
        " · ".join((*(part for part in about if part), counted, points)),
        align=Align.L,
        new_x=XPos.LMARGIN,
        new_y=YPos.NEXT,
    )
    pdf.ln(1)
    pdf.set_line_width(0.4)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(1.5)
    with_money = bool(club.stake)
    columns = _columns(with_money)
    titles, widths = [title for title, _ in columns], [width for _, width in columns]
    _league_head(pdf, widths, titles)
    for index, row in enumerate(rows):
        if pdf.get_y() + LEAGUE_ROW > BOTTOM - 8:
            pdf.add_page()
            _league_head(pdf, widths, titles)
        _league_row(pdf, widths, row, with_money, shaded=index % 2 == 1)
    pdf.set_line_width(0.2)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 7)
    for note in (rating_explained(), provisional_note(club.rating_rules)):
        pdf.multi_cell(WIDTH, 3.5, note, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return pdf


def _league_head(pdf: FPDF, widths: Sequence[float], titles: Sequence[str]) -> None:
    top = pdf.get_y()
    x = MARGIN
    for index, (width, title) in enumerate(zip(widths, titles, strict=True)):
        align = Align.L if index < 2 else Align.R
        lines = _head_lines(pdf, title, width - 0.4 - 2 * pdf.c_margin)
        y = top + LEAGUE_HEAD - 3.0 * len(lines)
        for line in lines:
            pdf.set_xy(x, y)
            pdf.cell(width - 0.4, 3.0, line, align=align)
            y += 3.0
        x += width
    pdf.set_xy(MARGIN, top + LEAGUE_HEAD)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(0.3)


def _head_lines(pdf: FPDF, title: str, width: float) -> list[str]:
    """A column's title on three lines at most, cut between words; a word too wide for the
    column makes the type smaller, down to a limit, and is then cut short."""
    size = 6.5
    pdf.set_font(FAMILY, "B", size)
    widest = max(pdf.get_string_width(word) for word in title.split() or [""])
    if widest > width:
        size = max(3.8, 0.96 * size * width / widest)
        pdf.set_font_size(size)
    lines: list[str] = []
    for word in title.split():
        if lines and pdf.get_string_width(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = [*lines[:2], " ".join(lines[2:])]
    return [fit(pdf, line, width) for line in lines] or [""]


def _league_row(
    pdf: FPDF, widths: Sequence[float], row: StandingRow, with_money: bool, *, shaded: bool
) -> None:
    top = pdf.get_y()
    if shaded:
        pdf.set_fill_color(ZEBRA)
        pdf.rect(MARGIN, top, WIDTH, LEAGUE_ROW, style="F")
    pdf.set_font(FAMILY, "", LEAGUE_PT)
    pdf.cell(widths[0], LEAGUE_ROW, str(row.rank))
    pdf.set_font(FAMILY, "B", LEAGUE_PT)
    pdf.cell(widths[1], LEAGUE_ROW, fit(pdf, row.player, widths[1] - 1))
    pdf.set_font(FAMILY, "", LEAGUE_PT)
    cells: list[tuple[str, bool]] = []
    for figure in row.figures:
        statistic = figure.statistic
        shown = figure.signed if statistic.money else number(figure.value)
        cells.append((minus(shown), statistic.emphasis))
        if statistic.share_of and statistic.share_in_table:
            cells.append(("" if figure.percent is None else str(figure.percent), False))
    if with_money:
        cells.append((minus(row.money), False))
    for width, (text, bold) in zip(widths[2:-1], cells, strict=True):
        pdf.set_font(FAMILY, "B" if bold else "", LEAGUE_PT)
        pdf.cell(width, LEAGUE_ROW, fit(pdf, text, width - 0.5), align=Align.R)
    pdf.set_font(FAMILY, "B", LEAGUE_PT)
    rating = minus(formats.number_format(row.rating, 1)) + ("?" if row.provisional else "")
    pdf.cell(widths[-1], LEAGUE_ROW, rating, align=Align.R)
    pdf.ln(LEAGUE_ROW)
