"""The house by context (docs/architecture.md). The import graph itself (the layers, the
faces, no circle, the table knowing no club, the engine knowing no Django) is
import-linter's: its contracts are in pyproject.toml, run by `lint-imports` (make lint,
make test, CI's lint part). Here, what they cannot say."""

from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"


@pytest.mark.parametrize("context", ["table", "referee", "accounts", "clubs"])
def test_context_has_its_own_rooms(context):
    rooms = {path.stem for path in (SCORING / context).iterdir()}
    assert {"forms", "views", "urls", "face"} <= rooms
