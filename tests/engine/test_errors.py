"""The engine's errors: messages, places, translation, and every problem of a record."""

import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import RecordError, RulesError

FRENCH = {
    "hand {number}": "donne {number}",
    "trick {number}": "pli {number}",
    "tricks add up to {total}, not 6": "les plis font {total}, pas 6",
}


def test_rules_error_is_a_value_error_with_its_message_filled_in():
    error = RulesError("tricks add up to {total}, not 6", total=5)

    assert (isinstance(error, ValueError), str(error), error.args) == (
        True,
        "tricks add up to 5, not 6",
        ("tricks add up to 5, not 6",),
    )


def test_rules_error_at_adds_places_outermost_first():
    inner = RulesError("tricks add up to {total}, not 6", total=5)

    located = inner.at("trick {number}", number=2).at("hand {number}", number=3)

    assert (str(located), located.places, located.message, located.params, str(inner)) == (
        "hand 3: trick 2: tricks add up to 5, not 6",
        (("hand {number}", {"number": 3}), ("trick {number}", {"number": 2})),
        "tricks add up to {total}, not 6",
        {"total": 5},
        "tricks add up to 5, not 6",
    )


def test_rules_error_translate_translates_places_and_message():
    error = RulesError("tricks add up to {total}, not 6", total=7).at("hand {number}", number=1)

    assert error.translate(lambda text: FRENCH.get(text, text)) == "donne 1: les plis font 7, pas 6"


@pytest.mark.parametrize(
    ("template", "value", "text"),
    [
        # {x!r} shows a value as JSON writes it...
        ("{x!r}", "JD", '"JD"'),
        ("{x!r}", "é", '"é"'),
        ("{x!r}", None, "null"),
        ("{x!r}", True, "true"),
        ("{x!r}", [1, "a"], '[1, "a"]'),
        ("{x!r}", 2.5, "2.5"),
        # ...or as Python does when JSON cannot.
        ("{x!r}", {3}, "{3}"),
        ("{x!r}", b"JD", "b'JD'"),
        # {x} shows it plainly, with its format spec.
        ("{x}", "JD", "JD"),
        ("{x}", [1, 2], "[1, 2]"),
        ("{x:03d}", 7, "007"),
    ],
)
def test_rules_error_shows_values_as_json_would_write_them(template, value, text):
    assert str(RulesError(template, x=value)) == text


def test_rules_error_shows_a_value_json_refuses_as_python_does():
    circular: list[object] = []
    circular.append(circular)

    assert str(RulesError("{x!r}", x=circular)) == "[[...]]"


def test_record_error_lists_every_problem_one_per_line():
    problems = [
        RulesError("players: names must differ"),
        RulesError("tricks add up to {total}, not 6", total=5).at("hand {number}", number=3),
    ]

    error = RecordError(problems)

    assert (str(error), error.problems, error.params, isinstance(error, RulesError)) == (
        "players: names must differ\nhand 3: tricks add up to 5, not 6",
        tuple(problems),
        {"count": 2},
        True,
    )


def test_record_error_translate_translates_each_problem():
    error = RecordError(
        [RulesError("tricks add up to {total}, not 6", total=5).at("hand {number}", number=3)]
    )

    assert error.translate(lambda text: FRENCH.get(text, text)) == "donne 3: les plis font 5, pas 6"


def test_engine_imports_without_django():
    code = (
        "import sys, scoring.engine\n"
        "print(sorted(name for name in sys.modules if name.startswith('django')))"
    )

    completed = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )

    assert completed.stdout == "[]\n"


def test_rules_error_located_keeps_braces_in_values_as_text():
    error = RulesError("unknown key {key!r}", key="{0} {}").at("hand {number}", number=2)

    assert str(error) == 'hand 2: unknown key "{0} {}"'
