"""The house by context (docs/architecture.md). The import graph itself (the layers, the
faces, no circle, the table knowing no club, the engine knowing no Django) is
import-linter's: its contracts are in pyproject.toml, run by `lint-imports` (make lint,
make test, CI's lint part). Here, what they cannot say."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@pytest.mark.parametrize("context", ["table", "referee", "accounts", "clubs"])
def test_context_has_its_own_rooms(context):
    rooms = {path.stem for path in (SCORING / context).iterdir()}
    assert {"forms", "views", "urls", "face"} <= rooms


TESTS = ROOT / "tests"


def imported_test_modules(path: Path) -> list[str]:
    """The test modules (tests/**/test_*.py) that ``path`` imports, however it names them:
    ``from tests.x.test_y import z``, ``from .test_y import z``, ``from tests.x import test_y``
    or ``import tests.x.test_y``."""
    package = module_of(path).split(".")[:-1]
    named = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            named.add(module)
            named.update(f"{module}.{alias.name}" for alias in node.names)
    return sorted(
        name
        for name in named
        if name.split(".")[-1].startswith("test_")
        and ROOT.joinpath(*name.split(".")).with_suffix(".py").is_file()
    )


def test_no_test_file_imports_another():
    """What tests share lives in conftest.py (fixtures) or in modules of helpers
    (tests/factories.py, tests/clubs/factories.py, tests/browser/phone.py...): a test file
    that others import cannot be changed, split or deleted without breaking files it does
    not name, and running it alone loads theirs."""
    found = {
        str(path.relative_to(ROOT)): imported_test_modules(path)
        for path in sorted(TESTS.rglob("*.py"))
        if imported_test_modules(path)
    }

    assert found == {}
