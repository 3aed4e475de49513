"""``manage.py score_record`` agrees with the golden records and with ``boulmous-score``."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.engine.cli import main
from tests.golden import DATA, INVALID, VALID

ROOT = Path(__file__).resolve().parents[2]
# The command needs nothing from the environment: no DEBUG, no SECRET_KEY.
BARE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def score_record(path):
    """Run the command in-process: (exit status, stdout, stderr)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        call_command("score_record", str(path), stdout=stdout, stderr=stderr)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


def run_command(*args, stdin=""):
    """Run the command in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "manage.py", "score_record", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=BARE,
    )


def test_score_record_reads_standard_input():
    record = VALID[0].read_text()

    result = run_command("-", stdin=record)

    assert (result.returncode, json.loads(result.stdout)) == (
        0,
        json.loads(VALID[0].with_suffix(".expected.json").read_text()),
    )


def test_score_record_not_json_fails_without_traceback():
    result = run_command("-", stdin="{not json")

    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith("record: not JSON (")
    assert "Traceback" not in result.stderr


def test_score_record_missing_file_fails_with_its_name():
    result = run_command("/nonexistent/game.json")

    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "/nonexistent/game.json: No such file or directory\n",
    )


def test_score_record_binary_input_fails_cleanly():
    result = subprocess.run(
        [sys.executable, "manage.py", "score_record", "-"],
        cwd=ROOT,
        input=b"\xff\xfe\x00garbage",
        capture_output=True,
        check=False,
        env=BARE,
    )

    assert (result.returncode, result.stdout, b"Traceback" in result.stderr) == (1, b"", False)


# The golden records are checked at the engine (tests/engine/test_golden.py) and through
# the console scorer (tests/engine/test_cli.py): the command is that scorer, so one valid
# and one invalid record show it prints what the scorer prints.
@pytest.mark.parametrize("path", [VALID[0], INVALID[0]], ids=lambda path: path.stem)
def test_score_record_prints_what_boulmous_score_prints(path, capsys):
    by_console = (main([str(path)]), *capsys.readouterr())

    by_command = score_record(path)

    assert by_command == by_console


def test_score_record_and_boulmous_score_print_the_same_bytes():
    script = Path(sys.executable).with_name("boulmous-score")

    for path in (VALID[0], INVALID[0], DATA / "missing.json"):
        command, console = (
            subprocess.run(
                [*program, str(path)], cwd=ROOT, capture_output=True, check=False, env=BARE
            )
            for program in ([sys.executable, "manage.py", "score_record"], [str(script)])
        )

        assert (command.returncode, command.stdout, command.stderr) == (
            console.returncode,
            console.stdout,
            console.stderr,
        )
