"""The house by context (docs/architecture.md): each context imports only those below it,
and no module imports itself back through another."""

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"

LAYERS = {
    "engine": 0,
    "common": 1,
    "accounts": 2,
    "table": 2,
    "referee": 3,
    "clubs": 3,
    "api": 4,
}
"""Each context's floor: a context may import those on lower floors, never its own floor's
neighbours nor anything above. The app's own modules (models.py, urls.py, apps.py,
management commands) stand above them all."""
TOP = 9


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The modules of this project that ``path`` imports, absolute."""
    package = module_of(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            # ``from . import league`` imports a module, not a name.
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == "scoring"}


def modules() -> dict[str, set[str]]:
    every = {
        module_of(path): path for path in SCORING.rglob("*.py") if "migrations" not in path.parts
    }
    return {
        name: {imported for imported in imports_of(path) if imported in every}
        for name, path in every.items()
    }


def floor_of(module: str) -> tuple[str, int]:
    parts = module.split(".")
    context = parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else ""
    return context, LAYERS.get(context, TOP)


def test_contexts_import_only_those_below():
    wrong = []
    for module, imported in modules().items():
        context, floor = floor_of(module)
        for other in imported:
            other_context, other_floor = floor_of(other)
            if other_context != context and other_floor >= floor:
                wrong.append(f"{module} -> {other}")
    assert sorted(wrong) == []


def test_modules_import_no_circle():
    graph = modules()
    state: dict[str, int] = defaultdict(int)  # 0 new, 1 on the path, 2 done
    circles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if other == module or other.startswith(module + "."):
                continue  # a package's own modules, imported by its __init__
            if state[other] == 1:
                circles.append(" -> ".join([*path[path.index(other) :], other]))
            elif state[other] == 0:
                visit(other, [*path, other])
        state[module] = 2

    for module in sorted(graph):
        if state[module] == 0:
            visit(module, [module])
    assert circles == []


@pytest.mark.parametrize("context", ["table", "referee", "accounts", "clubs"])
def test_context_has_its_own_rooms(context):
    rooms = {path.stem for path in (SCORING / context).iterdir()}
    assert {"forms", "views", "urls"} <= rooms


def test_the_table_knows_no_club():
    graph = modules()
    table = [module for module in graph if module.startswith("scoring.table")]
    knows = {
        (module, other)
        for module in table
        for other in graph[module]
        if other.startswith(("scoring.clubs", "scoring.referee", "scoring.accounts"))
    }
    assert knows == set()


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
