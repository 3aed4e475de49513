"""``boulmous-score``, the console scorer: the golden records, bad input, and no Django."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine.cli import USAGE, main, score_file
from tests.golden import INVALID, VALID, expected_output

ROOT = Path(__file__).resolve().parents[2]
# Nothing from the environment but where the programs are: no DEBUG, no SECRET_KEY.
BARE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def expected_problems(path):
    return path.with_name(path.stem + ".errors.txt").read_text("utf-8")


@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_main_prints_a_valid_record_scored_and_returns_0(path, capsys):
    status = main([str(path)])

    out, err = capsys.readouterr()
    assert (status, json.loads(out), out.endswith("}\n"), err) == (
        0,
        expected_output(path),
        True,
        "",
    )


@pytest.mark.parametrize("path", INVALID, ids=lambda path: path.stem)
def test_main_prints_one_line_per_problem_of_an_invalid_record_and_returns_1(path, capsys):
    status = main([str(path)])

    assert (status, *capsys.readouterr()) == (1, "", expected_problems(path))


def test_main_writes_indented_json_keeping_accents(tmp_path, capsys):
    record = tmp_path / "game.json"
    record.write_text(
        '{"format": "boulmous/1", "players": ["Élise", "B", "C", "D"], "hands": []}', "utf-8"
    )

    main([str(record)])

    assert capsys.readouterr().out.splitlines()[:3] == ["{", '  "hands": [],', '  "totals": [']


def test_score_file_reads_standard_input_for_a_dash():
    stdout, stderr = io.StringIO(), io.StringIO()

    status = score_file("-", stdin=io.BytesIO(VALID[0].read_bytes()), stdout=stdout, stderr=stderr)

    assert (status, json.loads(stdout.getvalue()), stderr.getvalue()) == (
        0,
        expected_output(VALID[0]),
        "",
    )


def test_score_file_refuses_input_that_is_not_json():
    stdout, stderr = io.StringIO(), io.StringIO()

    status = score_file("-", stdin=io.BytesIO(b"\xff\xfe\x00garbage"), stdout=stdout, stderr=stderr)

    assert (status, stdout.getvalue(), stderr.getvalue().startswith("record: not JSON (")) == (
        1,
        "",
        True,
    )


def test_main_names_a_missing_file_and_returns_1(tmp_path, capsys):
    path = tmp_path / "absent.json"

    status = main([str(path)])

    assert (status, *capsys.readouterr()) == (1, "", f"{path}: No such file or directory\n")


def test_main_names_a_folder_given_as_the_file(tmp_path, capsys):
    status = main([str(tmp_path)])

    assert (status, *capsys.readouterr()) == (1, "", f"{tmp_path}: Is a directory\n")


def test_main_refuses_a_path_with_a_nul_in_it(capsys):
    status = main(["game\0.json"])

    assert (status, *capsys.readouterr()) == (1, "", "game\0.json: embedded null byte\n")


@pytest.mark.parametrize("argv", [[], ["a.json", "b.json"]])
def test_main_wrong_usage_prints_the_usage_and_returns_2(argv, capsys):
    status = main(argv)

    assert (status, *capsys.readouterr()) == (2, "", USAGE + "\n")


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_main_help_prints_the_usage_and_returns_0(flag, capsys):
    status = main([flag])

    assert (status, *capsys.readouterr()) == (0, USAGE + "\n", "")


# --- As a user runs it: python -m scoring.engine.cli, and the console script --------------


def run(*command, stdin=b""):
    return subprocess.run(
        command, input=stdin, capture_output=True, check=False, env=BARE, cwd=ROOT
    )


def test_module_run_scores_with_an_empty_environment_and_imports_no_django():
    # -X importtime lists every module imported, on standard error.
    result = run(sys.executable, "-X", "importtime", "-m", "scoring.engine.cli", str(VALID[0]))

    imported = [line.split("|")[-1].strip() for line in result.stderr.decode().splitlines()]
    assert (result.returncode, json.loads(result.stdout)) == (0, expected_output(VALID[0]))
    assert ("scoring.engine.record" in imported, [m for m in imported if "django" in m]) == (
        True,
        [],
    )


def test_module_run_reads_standard_input_and_fails_cleanly():
    result = run(sys.executable, "-m", "scoring.engine.cli", "-", stdin=b"{not json")

    assert (result.returncode, result.stdout, result.stderr.startswith(b"record: not JSON (")) == (
        1,
        b"",
        True,
    )


def test_module_run_without_a_file_exits_2_with_the_usage():
    result = run(sys.executable, "-m", "scoring.engine.cli")

    assert (result.returncode, result.stdout, result.stderr) == (2, b"", USAGE.encode() + b"\n")


def test_console_script_prints_the_same_bytes_as_the_module_run():
    script = Path(sys.executable).with_name("boulmous-score")

    for path in (VALID[0], INVALID[0]):
        by_script = run(str(script), str(path))
        by_module = run(sys.executable, "-m", "scoring.engine.cli", str(path))

        assert (by_script.returncode, by_script.stdout, by_script.stderr) == (
            by_module.returncode,
            by_module.stdout,
            by_module.stderr,
        )
