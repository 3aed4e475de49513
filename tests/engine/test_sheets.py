"""Every CSV the project writes (scoring/engine/sheets.py): a cell is data, never a formula
(issue 18, OWASP's rule for CSV injection), and a number stays a number."""

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.sheets import FORMULA_STARTS, NUMBER, csv_cell, csv_text

ROOT = Path(__file__).resolve().parents[2]

FORMULAS = [
    "=cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    '=HYPERLINK("http://example.com","x")',
    "\t=1+1",
    "\r=1+1",
    "-",
    "+3",
    "-2e3",
    "-1.",
]


@pytest.mark.parametrize("value", FORMULAS)
def test_csv_cell_formula_is_written_after_a_quote(value):
    assert csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["-2", "-1.500000", "0", "27.123457", "-0.000001", "12"])
def test_csv_cell_number_is_written_as_it_is(value):
    assert csv_cell(value) == value


@pytest.mark.parametrize("value", ["", "Amina", "Amina, la grande", 'Bilal "B"', "'=1", "a=b"])
def test_csv_cell_plain_text_is_written_as_it_is(value):
    assert csv_cell(value) == value


def test_csv_text_writes_every_cell_as_data_and_reads_back_as_written():
    rows = [["rank", "player"], ["1", "=cmd|' /C calc'!A0"], ["-2", "@SUM(1+1)"]]

    text = csv_text(rows)

    assert (text, list(csv.reader(io.StringIO(text)))) == (
        "rank,player\r\n1,'=cmd|' /C calc'!A0\r\n-2,'@SUM(1+1)\r\n",
        [["rank", "player"], ["1", "'=cmd|' /C calc'!A0"], ["-2", "'@SUM(1+1)"]],
    )


@given(st.text())
def test_csv_cell_any_text_is_itself_or_itself_after_a_quote_and_never_a_formula(value):
    cell = csv_cell(value)

    a_formula = cell.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(cell)
    assert (cell in (value, "'" + value), a_formula) == (True, False)


def test_every_csv_writer_is_csv_text():
    """A new CSV goes through csv_text, whose cells cannot be formulas."""
    writers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "scoring").rglob("*.py")
        if "csv.writer" in path.read_text() or "DictWriter" in path.read_text()
    )

    assert writers == ["scoring/engine/sheets.py"]
