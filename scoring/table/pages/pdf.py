"""The settlement sheet as a PDF, drawn with fpdf2 (pure Python) and the DejaVu font.

One A4 portrait page, black on white, for a game of up to 40 hands: the header, the
standings, the payments beside the chart of running totals, then the score sheet.
The content and its order follow ``templates/table/settlement.html``; a longer game
carries its score sheet over to further pages, with its column heads.
"""

from collections.abc import Callable, Sequence
from functools import partial

from django.utils.translation import gettext, ngettext
from fpdf import FPDF
from fpdf.enums import Align, XPos, YPos

from ...common.pdf import BOTTOM, FAMILY, MARGIN, MINUS, WIDTH, ZEBRA, a4, fit, minus, number
from ...common.words import say_day
from ..state import GameState
from .game import PlayerLine, Row, Sheet
from .settlement import SettlementAgreed, SettleUp, Standing

GREY = 140

TABLE_PT = 7.5
SHEET_PT = 7.0
SMALL_PT = 5.5
TABLE_ROW = 4.2

# The standings: rank, player, points, game, boulmous, boîtes, balance.
STANDING_WIDTHS = (7.0, 75.0, 18.0, 22.0, 22.0, 22.0, 24.0)
# The score sheet: number, dealer, contract, then for each player tricks, points, total.
NUMBER_W, DEALER_W, CONTRACT_W = 6.0, 24.0, 40.0
TRICKS_W, POINTS_W, TOTAL_W = 8.0, 10.0, 12.0
PLAYER_W = TRICKS_W + POINTS_W + TOTAL_W
ROW_MAX, ROW_MIN = 4.2, 3.4
"""Score sheet rows shrink between these heights (mm) for the sheet to fit the page."""
# The payments on the left, the chart on the right.
PAYMENTS_W = 70.0
CHART_GAP = 6.0
CHART_W = WIDTH - PAYMENTS_W - CHART_GAP
CHART_H = 40.0
LABEL_H, LABEL_GAP = 3.0, 0.8
"""The chart's value labels: their height, and their distance from its frame (mm)."""
LINE_W = 0.35


def settlement_sheet_pdf(
    state: GameState, sheet: Sheet, settle: SettleUp, agreed: SettlementAgreed | None = None
) -> bytes:
    """The game's printable sheet, in the current language; ``agreed``: who agreed to the
    settlement, for a game played for money once it is over."""
    pdf = _new_pdf(state)
    _header(pdf, state, settle, agreed)
    _standings(pdf, settle.standings, settle.total_balance)
    _payments_and_chart(pdf, state, sheet, settle.payments)
    _score_sheet(pdf, sheet)
    return bytes(pdf.output())


def _new_pdf(state: GameState) -> FPDF:
    return a4(_title(state), ", ".join(state.names), state.game.created_at)


def _title(state: GameState) -> str:
    date = say_day(state.game.created_at)
    return " · ".join([gettext("Boulmous"), date])


def _header(pdf: FPDF, state: GameState, settle: SettleUp, agreed: SettlementAgreed | None) -> None:
    pdf.set_font(FAMILY, "B", 15)
    pdf.cell(WIDTH, 8, _title(state), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    players = ", ".join(state.names)
    who = f"{state.game.place} · {players}" if state.game.place else players
    pdf.multi_cell(WIDTH, 4.5, who, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.multi_cell(WIDTH, 4.5, settle.rules, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(0.5)
    pdf.set_font(FAMILY, "B", 10)
    pdf.multi_cell(WIDTH, 5.5, settle.status, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if agreed is not None:
        pdf.set_font(FAMILY, "", 9)
        for line in (agreed.text, agreed.stale):
            if line:
                pdf.multi_cell(WIDTH, 4.5, line, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    pdf.set_line_width(0.4)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(1)


def _heading(pdf: FPDF, text: str, width: float = WIDTH) -> None:
    pdf.set_font(FAMILY, "B", 10)
    pdf.cell(width, 6.5, text, new_x=XPos.LEFT, new_y=YPos.NEXT)


def _standings(pdf: FPDF, standings: Sequence[Standing], total_balance: str) -> None:
    _heading(pdf, gettext("Standings and balances"))
    widths, height = STANDING_WIDTHS, TABLE_ROW
    pdf.set_line_width(0.2)
    pdf.set_font(FAMILY, "B", TABLE_PT)
    titles: tuple[str, ...]
    titles = ("#", gettext("Player"), gettext("Points"), gettext("Game"), gettext("Boulmous"))
    titles += (gettext("Boîtes"), gettext("Balance"))
    for index, (width, title) in enumerate(zip(widths, titles, strict=True)):
        align = Align.L if index < 2 else Align.R
        pdf.cell(width, height, fit(pdf, title, width), border="B", align=align)
    pdf.ln(height)
    for player in standings:
        pdf.set_font(FAMILY, "", TABLE_PT)
        pdf.cell(widths[0], height, str(player.rank))
        _player_cell(pdf, player, widths[1], height)
        pdf.set_font(FAMILY, "", TABLE_PT)
        figures: tuple[str, ...] = (player.game, player.boulmous, player.boites_paid)
        figures = (number(player.total), *map(minus, figures))
        for width, figure in zip(widths[2:6], figures, strict=True):
            pdf.cell(width, height, figure, align=Align.R)
        pdf.set_font(FAMILY, "B", TABLE_PT)
        pdf.cell(widths[6], height, minus(player.balance), align=Align.R)
        pdf.ln(height)
    pdf.set_font(FAMILY, "B", TABLE_PT)
    pdf.cell(widths[0], height, "", border="T")
    pdf.cell(widths[1], height, gettext("Sum"), border="T")
    pdf.cell(sum(widths[2:6]), height, "", border="T")
    pdf.set_font(FAMILY, "", TABLE_PT)
    pdf.cell(widths[6], height, minus(total_balance), border="T", align=Align.R)
    pdf.ln(height + 1)


def _player_cell(pdf: FPDF, player: Standing, width: float, height: float) -> None:
    """The name in bold, then the player's boîtes and boulmous in small type."""
    counts = []
    if player.boites:
        counts.append(
            ngettext("%(counter)s boîte", "%(counter)s boîtes", player.boites)
            % {"counter": player.boites}
        )
    if player.boulmous_made:
        counts.append(
            ngettext("%(counter)s boulmous made", "%(counter)s boulmous made", player.boulmous_made)
            % {"counter": player.boulmous_made}
        )
    if player.boulmous_missed:
        counts.append(
            ngettext(
                "%(counter)s boulmous missed", "%(counter)s boulmous missed", player.boulmous_missed
            )
            % {"counter": player.boulmous_missed}
        )
    x = pdf.get_x()
    pdf.set_font(FAMILY, "B", TABLE_PT)
    name = fit(pdf, player.name, width * 0.6 if counts else width)
    name_w = pdf.get_string_width(name) + 1.5
    pdf.cell(name_w, height, name)
    if counts:
        pdf.set_font(FAMILY, "", SMALL_PT + 0.5)
        pdf.cell(width - name_w, height, fit(pdf, " · ".join(counts), width - name_w - 1))
    pdf.set_xy(x + width, pdf.get_y())


def _payments_and_chart(pdf: FPDF, state: GameState, sheet: Sheet, payments: Sequence[str]) -> None:
    top = pdf.get_y()
    _heading(pdf, gettext("Who pays whom"), PAYMENTS_W)
    pdf.set_font(FAMILY, "", 8.5)
    if not payments:
        pdf.cell(
            PAYMENTS_W, 4.5, gettext("Nobody owes anything."), new_x=XPos.LEFT, new_y=YPos.NEXT
        )
    for payment in payments:
        pdf.cell(3.5, 4.5, "•")
        pdf.multi_cell(
            PAYMENTS_W - 3.5, 4.5, payment, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
    bottom = pdf.get_y()
    if sheet.rows:
        pdf.set_xy(MARGIN + PAYMENTS_W + CHART_GAP, top)
        _heading(pdf, gettext("Running totals, hand by hand"), CHART_W)
        _chart(pdf, sheet, state.record.rules.target, pdf.get_x(), pdf.get_y())
        bottom = max(bottom, pdf.get_y())
    pdf.set_xy(MARGIN, bottom + 1)


def _chart(pdf: FPDF, sheet: Sheet, target: int, left: float, top: float) -> None:
    """The running totals as lines told apart by their dashes, then the legend."""
    chart = sheet.chart
    scale_x, scale_y = CHART_W / chart.width, CHART_H / chart.height

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * scale_x, top + y * scale_y

    pdf.set_draw_color(GREY)
    pdf.set_line_width(0.15)
    pdf.rect(left, top, CHART_W, CHART_H)
    pdf.line(*at(0, chart.zero_y), *at(chart.width, chart.zero_y))
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    pdf.line(*at(0, chart.target_y), *at(chart.width, chart.target_y))
    # The target's and zero's values stand left of the frame, facing their lines, where
    # no line is drawn: inside, the players' lines start at 0 and end near the target.
    target_y, zero_y = at(0, chart.target_y)[1], at(0, chart.zero_y)[1]
    if zero_y - target_y < LABEL_H:  # too close to be read apart: each moves off the other
        middle = (target_y + zero_y) / 2
        target_y, zero_y = middle - LABEL_H / 2, middle + LABEL_H / 2
    _axis_label(pdf, str(target), left, target_y)
    _axis_label(pdf, "0", left, zero_y)
    pdf.set_line_width(LINE_W)
    for player in sheet.players:
        points = [at(*map(float, pair.split(","))) for pair in player.points.split()]
        _dashed(pdf, player, scale_x, partial(pdf.polyline, points))
    _legend(pdf, sheet.players, scale_x, left, top + CHART_H + 1)
    pdf.set_dash_pattern()


def _axis_label(pdf: FPDF, text: str, left: float, y: float) -> None:
    """``text`` in the gap left of the chart at ``left``, right-aligned, centred on ``y``;
    smaller if it would not fit in the gap."""
    room = CHART_GAP - LABEL_GAP
    pdf.set_font(FAMILY, "", SMALL_PT + 0.5)
    width = pdf.get_string_width(text)
    if width > room:
        pdf.set_font_size((SMALL_PT + 0.5) * room / width)
    pdf.set_xy(left - CHART_GAP, y - LABEL_H / 2)
    pdf.cell(room, LABEL_H, text, align=Align.R)


def _legend(
    pdf: FPDF, players: Sequence[PlayerLine], scale: float, left: float, top: float
) -> None:
    pdf.set_font(FAMILY, "", SMALL_PT + 1)
    x = left
    for player in players:
        name = fit(pdf, player.name, CHART_W / len(players) - 12)
        _dashed(pdf, player, scale, partial(pdf.line, x, top + 2, x + 9, top + 2))
        pdf.set_xy(x + 10, top)
        pdf.cell(pdf.get_string_width(name) + 1, 4, name)
        x = pdf.get_x() + 3
    pdf.set_xy(left, top + 4)


def _dashed(pdf: FPDF, player: PlayerLine, scale: float, draw: Callable[[], None]) -> None:
    """Draw with the player's SVG dash array, scaled like the chart.

    fpdf2 dashes are one dash and one gap: an array of several (dash-dot) is drawn
    once per dash, each pass offset to its place in the array.
    """
    lengths = [float(length) * scale for length in player.dash.split()]
    if not lengths:
        pdf.set_dash_pattern()
        draw()
        return
    if len(lengths) % 2:
        lengths *= 2
    period, offset = sum(lengths), 0.0
    for index in range(0, len(lengths), 2):
        dash = lengths[index]
        pdf.set_dash_pattern(dash, period - dash, (period - offset) % period)
        draw()
        offset += dash + lengths[index + 1]


def _score_sheet(pdf: FPDF, sheet: Sheet) -> None:
    _heading(pdf, gettext("Score sheet"))
    if not sheet.rows:
        pdf.set_font(FAMILY, "", 9)
        pdf.cell(WIDTH, 5, gettext("No hand yet."))
        return
    _sheet_head(pdf, sheet.players)
    height = (BOTTOM - pdf.get_y()) / len(sheet.rows)
    height = min(ROW_MAX, max(ROW_MIN, height))
    for index, row in enumerate(sheet.rows):
        if pdf.get_y() + height > BOTTOM:
            pdf.add_page()
            _sheet_head(pdf, sheet.players)
        _sheet_row(pdf, row, height, shaded=index % 2 == 1)
    pdf.set_line_width(0.2)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())


def _sheet_head(pdf: FPDF, players: Sequence[PlayerLine]) -> None:
    top = pdf.get_y()
    pdf.set_font(FAMILY, "B", SHEET_PT)
    pdf.cell(NUMBER_W, 4, "#")
    pdf.cell(DEALER_W, 4, fit(pdf, gettext("Dealer"), DEALER_W))
    pdf.cell(CONTRACT_W, 4, fit(pdf, gettext("Contract"), CONTRACT_W))
    for player in players:
        pdf.cell(PLAYER_W, 4, fit(pdf, player.name, PLAYER_W - 1), align=Align.C)
    pdf.ln(4)
    pdf.set_font(FAMILY, "", SMALL_PT)
    pdf.set_x(MARGIN + NUMBER_W + DEALER_W + CONTRACT_W)
    labels = (gettext("tricks"), gettext("points"), gettext("total"))
    for _player in players:
        for width, label in zip((TRICKS_W, POINTS_W, TOTAL_W), labels, strict=True):
            pdf.cell(width, 2.8, fit(pdf, label, width - 0.5), align=Align.R)
    pdf.ln(3.2)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    _player_rules(pdf, len(players), top, pdf.get_y())


def _sheet_row(pdf: FPDF, row: Row, height: float, *, shaded: bool) -> None:
    top = pdf.get_y()
    if shaded:
        pdf.set_fill_color(ZEBRA)
        pdf.rect(MARGIN, top, WIDTH, height, style="F")
    pdf.set_font(FAMILY, "", SHEET_PT)
    pdf.cell(NUMBER_W, height, str(row.number))
    pdf.cell(DEALER_W, height, fit(pdf, row.dealer, DEALER_W - 1))
    pdf.cell(CONTRACT_W, height, _contract(pdf, row, CONTRACT_W - 1))
    scored = not row.void
    for cell in row.cells:
        pdf.set_font(FAMILY, "", SMALL_PT + 0.5)
        pdf.cell(TRICKS_W, height, str(cell.tricks) if scored else "", align=Align.R)
        pdf.set_font(FAMILY, "", SHEET_PT)
        pdf.cell(POINTS_W, height, signed(cell.points) if scored else "", align=Align.R)
        pdf.set_font(FAMILY, "B", SHEET_PT)
        pdf.cell(TOTAL_W - 0.8, height, number(cell.total), align=Align.R)
        pdf.set_x(pdf.get_x() + 0.8)
    pdf.ln(height)
    _player_rules(pdf, len(row.cells), top, pdf.get_y())


def _player_rules(pdf: FPDF, players: int, top: float, bottom: float) -> None:
    """Thin lines between the players' columns."""
    pdf.set_draw_color(GREY)
    pdf.set_line_width(0.1)
    for seat in range(players):
        x = MARGIN + NUMBER_W + DEALER_W + CONTRACT_W + seat * PLAYER_W
        pdf.line(x, top, x, bottom)
    pdf.set_draw_color(0)


def _contract(pdf: FPDF, row: Row, width: float) -> str:
    """``Bilal 4♥ · boîte``; the taker's name gives way when space is short."""
    if row.void:
        return fit(pdf, gettext("all passed"), width)
    marks = f" {row.bid}{row.trump}"
    if row.boulmous:
        marks += " · " + gettext("boulmous")
    if row.boite:
        marks += " · " + gettext("boîte")
    return fit(pdf, row.taker, width - pdf.get_string_width(marks)) + marks


def signed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else f"+{value}"
