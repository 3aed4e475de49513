"""``manage.py draw`` prints a club night's draw as league.md writes it, and refuses bad
arguments with status 1, one line on standard error and nothing on standard output.

Run through call_command, and as the command line parses its arguments (in this process
too); what a process of its own adds, one test shows: it needs nothing from the
environment."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.engine.draw import Round, draw, spread
from scoring.management.commands.draw import Command

ROOT = Path(__file__).resolve().parents[2]
# The command needs nothing from the environment: no DEBUG, no SECRET_KEY, no DATABASE_URL.
BARE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def run_draw_in_a_process(*args):
    """Run the command in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "manage.py", "draw", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=BARE,
    )


def draw_command(*args):
    """Run the command through call_command: (exit status, standard output, standard error)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        call_command("draw", *args, stdout=stdout, stderr=stderr)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


def draw_from_argv(*args):
    """Run the command as manage.py runs it, in this process: its arguments parsed from
    the command line, where a bad one is said on standard error with status 1 (under
    call_command, argparse's complaint is a CommandError instead)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        Command(stdout=stdout, stderr=stderr).run_from_argv(["manage.py", "draw", *args])
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


def as_rounds(printed):
    return tuple(
        Round(tuple(map(tuple, round_["tables"])), tuple(round_["sitting_out"]))
        for round_ in printed["rounds"]
    )


def test_draw_command_prints_a_draw_in_the_spec_shape():
    result = run_draw_in_a_process("--players", "9", "--rounds", "2")

    printed = json.loads(result.stdout)
    assert (
        result.returncode,
        result.stderr,
        result.stdout.count("\n"),
        list(printed),
        [list(round_) for round_ in printed["rounds"]],
        [[len(table) for table in round_["tables"]] for round_ in printed["rounds"]],
        [
            sorted([*(p for table in round_["tables"] for p in table), *round_["sitting_out"]])
            for round_ in printed["rounds"]
        ],
    ) == (
        0,
        "",
        1,
        ["rounds"],
        [["tables", "sitting_out"]] * 2,
        [[4, 4]] * 2,
        [list(range(1, 10))] * 2,
    )


def test_draw_command_prints_the_engine_draw():
    status, printed, _ = draw_command("--players", "16", "--rounds", "5", "--seed", "3")

    rounds = as_rounds(json.loads(printed))
    assert (status, rounds, spread(rounds)) == (0, draw(range(1, 17), 5, seed=3), (1, 0))


def test_draw_command_same_seed_gives_same_output():
    first = draw_command("--players", "13", "--rounds", "3", "--seed", "8")
    again = draw_command("--rounds", "3", "--seed", "8", "--players", "13")
    other = draw_command("--players", "13", "--rounds", "3", "--seed", "9")

    assert (first == again, first[1] == other[1]) == (True, False)


def test_draw_command_seed_defaults_to_0():
    assert draw_command("--players", "6", "--rounds", "2") == draw_command(
        "--players", "6", "--rounds", "2", "--seed", "0"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "3", "--rounds", "2"],
            "draw: players: a draw needs 4 to 200 players, not 3",
        ),
        (
            ["--players", "-5", "--rounds", "2"],
            "draw: players: a draw needs 4 to 200 players, not -5",
        ),
        (["--players", "8", "--rounds", "0"], "draw: rounds: a draw needs 1 to 20 rounds, not 0"),
    ],
)
def test_draw_command_impossible_draw_exits_1_with_one_line(args, message):
    assert draw_command(*args) == (1, "", message + "\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "x", "--rounds", "2"], "draw: argument --players: invalid int value: 'x'"),
        (
            ["--players", "8", "--rounds", "1.5"],
            "draw: argument --rounds: invalid int value: '1.5'",
        ),
        (
            ["--players", "8", "--rounds", "2", "--seed", "s"],
            "draw: argument --seed: invalid int value: 's'",
        ),
        (["--rounds", "2"], "draw: the following arguments are required: --players"),
        ([], "draw: the following arguments are required: --players, --rounds"),
        (["--players", "8", "--rounds", "2", "9"], "draw: unrecognized arguments: 9"),
    ],
)
def test_draw_command_bad_arguments_exit_1_with_one_line(args, message):
    assert draw_from_argv(*args) == (1, "", message + "\n")
