"""``manage.py seat FILE [--seed S]`` answers an event round's seating question as
events.md prints it, and refuses what cannot be seated with status 1 and one line on
standard error.

Run through call_command, and as the command line parses its arguments (in this process
too); one test runs it in a process of its own: it needs nothing from the environment."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.engine.seating import Seating, seat_round
from scoring.management.commands.seat import Command

ROOT = Path(__file__).resolve().parents[2]
BARE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
EXAMPLE = (
    '{"method": "swiss", "ranking": [7, 3, 12, 5, 9, 1, 4, 8, 2],\n'
    ' "history": [{"tables": [[7, 3, 12, 5], [9, 1, 4, 8]], "sitting_out": [2]}],\n'
    ' "forbidden": [[3, 9]]}\n'
)
ANSWER = '{"tables": [[7, 3, 4, 2], [12, 5, 9, 1]], "sitting_out": [8], "version": "swiss-1"}'


def seat_command(*args):
    """(exit status, standard output, standard error) through call_command."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        call_command("seat", *args, stdout=stdout, stderr=stderr)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


def seat_from_argv(*args):
    """As manage.py runs it, in this process: a bad argument is said on standard error."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        Command(stdout=stdout, stderr=stderr).run_from_argv(["manage.py", "seat", *args])
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


@pytest.fixture
def question(tmp_path):
    def write(text):
        path = tmp_path / "question.json"
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_seat_command_in_a_process_prints_the_contracts_example(question):
    result = subprocess.run(
        [sys.executable, "manage.py", "seat", question(EXAMPLE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=BARE,
    )

    assert (result.returncode, result.stdout, result.stderr) == (0, ANSWER + "\n", "")


def test_seat_command_prints_the_engines_seating(question):
    text = json.dumps({"method": "random", "ranking": list(range(1, 15)), "forbidden": [[1, 2]]})
    expected = seat_round("random", list(range(1, 15)), [], [(1, 2)], seed="8")

    status, printed, errors = seat_command(question(text), "--seed", "8")
    answer = json.loads(printed)

    assert (
        status,
        Seating(
            tuple(map(tuple, answer["tables"])), tuple(answer["sitting_out"]), answer["version"]
        ),
        errors,
    ) == (0, expected, "")


def test_seat_command_seed_defaults_to_0(question):
    path = question(json.dumps({"method": "random", "ranking": list(range(1, 30))}))

    assert (
        seat_command(path) == seat_command(path, "--seed", "0"),
        seat_command(path) == seat_command(path, "--seed", "1"),
    ) == (True, False)


def test_seat_command_reads_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(EXAMPLE))

    assert seat_command("-") == (0, ANSWER + "\n", "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"method": "swiss", "ranking": [1, 2, 3, 4, 5], "forbidden": [[2, 1]]}',
            "seat: round 1: 1 and 2 cannot be kept apart\n",
        ),
        (
            '{"method": "swiss", "ranking": [1, 2, 3]}',
            "seat: round 1: 3 entrants present, a table needs 4\n",
        ),
        (
            '{"method": "swiss",\n "ranking": [1, 2, 3,',
            "seat: not JSON: Expecting value: line 2 column 22 (char 41)\n",
        ),
        ('{"method": "golf", "ranking": [1, 2, 3, 4]}', "seat: round 1: no seating method golf\n"),
    ],
)
def test_seat_command_refuses_with_one_line_and_status_1(question, text, message):
    assert seat_command(question(text)) == (1, "", message)


def test_seat_command_refuses_a_missing_file(tmp_path):
    path = tmp_path / "none.json"

    assert seat_command(str(path)) == (1, "", f"seat: {path}: No such file or directory\n")


def test_seat_command_refuses_a_file_not_in_utf_8(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"method": "\xe9"}')

    status, printed, errors = seat_command(str(path))

    assert (status, printed, errors.count("\n"), errors.startswith(f"seat: {path}: 'utf-8'")) == (
        1,
        "",
        1,
        True,
    )


def test_seat_command_without_a_file_says_so():
    assert seat_from_argv() == (1, "", "seat: the following arguments are required: file\n")
