"""The golden records of tests/data (see its README): every expectation worked out by hand."""

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
VALID = sorted(
    path for path in (DATA / "valid").glob("*.json") if not path.name.endswith(".expected.json")
)
"""The valid records, each beside its ``.expected.json``."""
INVALID = sorted((DATA / "invalid").glob("*.json"))
"""The invalid records, each beside its ``.errors.txt``."""


def expected_output(path: Path) -> Any:
    """What the scorer must print for the valid record at ``path``."""
    return json.loads(path.with_name(path.stem + ".expected.json").read_text("utf-8"))


CLEAN_PLAYS = [
    ["JH", "9H", "QH", "TH"],
    ["AH", "JD", "KH", "9D"],
    ["AC", "QC", "KC", "9C"],
    ["KD", "AD", "QD", "TD"],
    ["9S", "JS", "AS", "QS"],
    ["KS", "TC", "TS", "JC"],
]
"""A legal play-out at hearts, taker 0 leading: the winners are 0, 1, 1, 2, 0, 0, so the
tricks are 3-2-1-0. The engine's tests check it trick by trick (tests/engine/test_play.py)."""


# A whole deal card by card, as the play page takes it. Hearts trump, Amina (seat 0) takes
# 3 and leads. Bilal (seat 1) discards the nine of clubs on the ace of hearts while holding
# the king, which he plays at trick 2: a revoke.
REVOKED = "AH,9C,QH,JH,JD,TH,KH,9H,AC,QC,KC,TC,KD,AD,QD,TD,AS,KS,QS,9S,9D,JS,TS,JC"
# The same deal played legally: Bilal follows with the king at trick 1.
LEGAL = "AH,KH,QH,JH,JD,TH,9C,9H,AC,QC,KC,TC,KD,AD,QD,TD,AS,KS,QS,9S,9D,JS,TS,JC"
