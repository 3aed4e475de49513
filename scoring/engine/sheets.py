"""CSV as this project writes it: every CSV goes through :func:`csv_text`, whose cells are
data, never formulas.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=cmd|' /C calc'!A0``, ``@SUM(1+1)``), and some take a tab or a carriage return before
one; so such a cell is written after a single quote, as OWASP's rule for CSV injection
says, and a spreadsheet shows it as the text it is. A number (``-2``, ``-1.500000``) is
data already and is written as it is.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def csv_cell(value: str) -> str:
    """``value`` as a cell that no spreadsheet takes for a formula."""
    if value.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[str]]) -> str:
    """Rows as CSV (RFC 4180: comma-separated, quoted where needed, lines ended by CRLF),
    each cell as :func:`csv_cell` writes it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()
