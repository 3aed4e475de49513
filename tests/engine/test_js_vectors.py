"""tests/data/js-vectors.json, which static/js/rules.js is checked against (node --test
tests/js/), is what the engine answers now: regenerated here, it must be the same."""

import json

from tests.js import make_vectors


def test_committed_js_vectors_are_the_engines_answers() -> None:
    fresh = make_vectors.render(make_vectors.build())
    committed = make_vectors.PATH.read_text(encoding="utf-8")

    assert committed == fresh, (
        f"{make_vectors.PATH.name} is stale (the engine or tests/js/make_vectors.py changed): "
        "regenerate it with `make vectors` (python tests/js/make_vectors.py), run "
        "`node --test tests/js/`, and commit it"
    )


def test_js_vectors_are_a_few_hundred_cases_in_a_small_file() -> None:
    vectors = json.loads(make_vectors.PATH.read_text(encoding="utf-8"))
    cases = {name: len(value) for name, value in vectors.items() if isinstance(value, list)}

    assert 300 <= sum(cases.values()) <= 1000, cases
    assert min(cases.values()) >= 4, cases
    assert make_vectors.PATH.stat().st_size < 100_000


def test_js_vectors_are_made_from_the_engine_alone() -> None:
    source = (make_vectors.PATH.parents[1] / "js" / "make_vectors.py").read_text(encoding="utf-8")
    imported = {
        line.split()[1]
        for line in source.splitlines()
        if line.startswith(("import ", "from ")) and not line.startswith("from __future__")
    }

    assert {name.split(".")[0] for name in imported} - {
        "itertools",
        "json",
        "random",
        "sys",
        "collections",
        "pathlib",
        "typing",
    } == {"scoring"}
    assert {name for name in imported if name.startswith("scoring")} == {"scoring.engine"}
