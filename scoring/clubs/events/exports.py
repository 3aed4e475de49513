"""An event's printed ranking with its prizes (issue 41, item 7: ``ranking.pdf``, drawn as
the club's other PDFs, scoring/clubs/pages/pdf.py, Arabic shaped) and its prizes as CSV
(``prizes.csv``: ``place,player,prize,currency``; the contract fixes ranking.csv's columns,
so the money has a file of its own). Both show the ranking as anyone but an organiser
sees it (hidden rounds left out until the event ends)."""

from collections.abc import Mapping, Sequence

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from fpdf import FPDF
from fpdf.enums import Align, XPos, YPos

from ...common.pdf import BOTTOM, FAMILY, MARGIN, WIDTH, ZEBRA, a4, fit
from ...common.words import say_day
from ...engine.events import RankingLine
from ...engine.sheets import csv_text
from ..models import Event, Member
from ..names import NAMED_COLUMNS, Named, shown_names
from .facts import event_facts
from .pages import STEPS, points_said, points_text
from .prizes import Prizes, event_prizes

PRIZES_HEADER = ("place", "player", "prize", "currency")


def _names(event: Event, *, public: bool) -> dict[int, str]:
    rows = [
        Named(*row) for row in Member.objects.filter(club=event.club_id).values_list(*NAMED_COLUMNS)
    ]
    shown = shown_names(rows, public=public)
    return {row.pk: shown[row.key] for row in rows}


def prizes_csv(event: Event, *, public: bool) -> str:
    """``prizes.csv``: a line per entrant who may take the title, in his final place, with
    his prize (a decimal with the currency's decimals, empty for none)."""
    facts = event_facts(event)
    names = _names(event, public=public)
    lines = facts.ranking(up_to_round=facts.shown_up_to(False))
    prizes = event_prizes(facts, lines)
    rows: list[Sequence[str]] = [PRIZES_HEADER]
    for one in prizes.places:
        rows.append(
            (
                str(one.place),
                names.get(one.member_id, "?"),
                "" if one.amount is None else str(one.amount),
                prizes.currency if one.amount is not None else "",
            )
        )
    return csv_text(rows)


ROW, PT = 6.0, 9.0
COLUMNS = (
    ("#", 9.0),
    ("player", 0.0),
    ("lp", 20.0),
    ("points", 17.0),
    ("opp", 19.0),
    ("firsts", 15.0),
    ("nights", 14.0),
    ("prize", 26.0),
)


def _titles() -> dict[str, str]:
    return {
        "#": "#",
        "player": gettext("Player"),
        "lp": gettext("League points"),
        "points": gettext("Points"),
        "opp": gettext("Opponents’ average"),
        "firsts": gettext("First places"),
        "nights": gettext("Nights"),
        "prize": gettext("Prize"),
    }


def _widths() -> list[float]:
    fixed = sum(width for _, width in COLUMNS)
    return [width or WIDTH - fixed for _, width in COLUMNS]


def _head(pdf: FPDF, widths: Sequence[float]) -> None:
    titles = _titles()
    pdf.set_font(FAMILY, "B", 7)
    top = pdf.get_y()
    for (key, _), width in zip(COLUMNS, widths, strict=True):
        pdf.cell(
            width,
            5,
            fit(pdf, titles[key], width - 1),
            align=Align.L if key == "player" else Align.R,
        )
    pdf.set_xy(MARGIN, top + 5)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, pdf.get_y(), MARGIN + WIDTH, pdf.get_y())
    pdf.ln(0.3)


def _row(
    pdf: FPDF,
    widths: Sequence[float],
    place: str,
    name: str,
    line: RankingLine,
    prize: str,
    *,
    shaded: bool,
) -> None:
    if pdf.get_y() + ROW > BOTTOM - 8:
        pdf.add_page()
        _head(pdf, widths)
    top = pdf.get_y()
    if shaded:
        pdf.set_fill_color(ZEBRA)
        pdf.rect(MARGIN, top, WIDTH, ROW, style="F")
    decided = f" ({STEPS[line.decided_by]})" if line.decided_by in STEPS else ""
    cells = (
        (place, False),
        (name + decided, True),
        (points_said(line.league_points), False),
        (str(line.points), False),
        (number_format(line.opponents, 3, use_l10n=True), False),
        (str(line.firsts), False),
        (str(line.nights), False),
        (prize, False),
    )
    for (text, is_name), width in zip(cells, widths, strict=True):
        pdf.set_font(FAMILY, "B" if is_name else "", PT)
        pdf.cell(width, ROW, fit(pdf, text, width - 1), align=Align.L if is_name else Align.R)
    pdf.set_xy(MARGIN, top + ROW)


def ranking_pdf(event: Event, *, public: bool) -> bytes:
    """The event's ranking to pin on the wall, in the current language: each entrant in his
    final place (the final's, then the consolation's, then the ranking), his figures, the
    step that placed him, his prize; those below the attendance apart; then the finals'
    standings, the pool and the prize list."""
    facts = event_facts(event)
    names = _names(event, public=public)
    lines = facts.ranking(up_to_round=facts.shown_up_to(False))
    prizes = event_prizes(facts, lines)
    title = f"{event.club.name} · {event.name}"
    pdf = a4(title, gettext("Ranking"), timezone.now())
    pdf.set_font(FAMILY, "B", 15)
    pdf.multi_cell(WIDTH, 8, title, align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    about = []
    if facts.nights:
        about.append(
            gettext("%(first)s to %(last)s")
            % {"first": say_day(facts.nights[0].date), "last": say_day(facts.nights[-1].date)}
        )
    about.append(
        gettext("%(played)s of %(planned)s rounds")
        % {"played": len(facts.published), "planned": facts.planned}
    )
    if event.ended_at is None:
        about.append(gettext("provisional: the event is not over"))
    elif not prizes.final_played:
        about.append(gettext("the final is not played yet"))
    pdf.multi_cell(
        WIDTH, 4.5, " · ".join(about), align=Align.L, new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )
    pdf.ln(2)
    widths = _widths()
    _head(pdf, widths)
    for index, one in enumerate(prizes.places):
        _row(
            pdf,
            widths,
            str(one.place),
            names.get(one.member_id, "?"),
            one.line,
            prizes.said(one.amount),
            shaded=index % 2 == 1,
        )
    apart = [line for line in lines if not line.eligible]
    if apart:
        pdf.ln(2)
        pdf.set_font(FAMILY, "B", 9)
        pdf.cell(
            WIDTH,
            5,
            gettext("Below the attendance needed for the title"),
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )
        for index, line in enumerate(apart):
            _row(pdf, widths, "", names.get(line.entrant, "?"), line, "", shaded=index % 2 == 1)
    _finals(pdf, prizes, names)
    _money(pdf, prizes)
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 7)
    pdf.multi_cell(
        WIDTH,
        3.5,
        gettext(
            "Ranked by league points, then total points, opponents’ average, first places, "
            "head to head, and the lot: where a step after league points placed a player, "
            "it is named beside him."
        ),
        align=Align.L,
        new_x=XPos.LMARGIN,
        new_y=YPos.NEXT,
    )
    return bytes(pdf.output())


def _finals(pdf: FPDF, prizes: Prizes, names: Mapping[int, str]) -> None:
    for kind, standing in prizes.finals:
        if pdf.get_y() + 35 > BOTTOM:
            pdf.add_page()
        pdf.ln(3)
        pdf.set_font(FAMILY, "B", 11)
        label = gettext("Final") if kind == "final" else gettext("Consolation final")
        pdf.cell(WIDTH, 6, label, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font(FAMILY, "", PT)
        for line in standing:
            text = gettext("%(place)s. %(name)s: %(carried)s carried + %(final)s = %(total)s") % {
                "place": line.place,
                "name": names.get(line.entrant, "?"),
                "carried": points_said(line.carried),
                "final": line.final,
                "total": points_text(line.total),
            }
            pdf.cell(WIDTH, 5, fit(pdf, text, WIDTH), new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _money(pdf: FPDF, prizes: Prizes) -> None:
    if not prizes.fee and not prizes.amounts:
        return
    if pdf.get_y() + 30 > BOTTOM:
        pdf.add_page()
    pdf.ln(3)
    pdf.set_font(FAMILY, "B", 11)
    pdf.cell(WIDTH, 6, gettext("Entry fee and prizes"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", PT)
    pdf.multi_cell(
        WIDTH,
        5,
        gettext("Entry fee: %(fee)s · the pool: %(pool)s")
        % {"fee": prizes.said(prizes.fee), "pool": prizes.said(prizes.pool)},
        align=Align.L,
        new_x=XPos.LMARGIN,
        new_y=YPos.NEXT,
    )
    for place, amount in enumerate(prizes.amounts, start=1):
        text = gettext("Place %(place)s: %(amount)s") % {
            "place": place,
            "amount": prizes.said(amount),
        }
        pdf.cell(WIDTH, 5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 7)
    pdf.multi_cell(
        WIDTH,
        3.5,
        gettext("The fees and prizes stay apart from the games' stakes and from the league."),
        align=Align.L,
        new_x=XPos.LMARGIN,
        new_y=YPos.NEXT,
    )
