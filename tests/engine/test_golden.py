"""Golden records: tests/data/valid and tests/data/invalid (see tests/data/README.md).

Every expected file there was worked out by hand, not written by the scorer.
"""

import json

import pytest

from scoring.engine import About, RecordError, dumps, loads, parse_record, score
from tests.golden import DATA, INVALID, VALID, expected_output

ABOUT_KEYS = {"id", "place", "started_at", "finished_at", "abandoned", "club", "season"}


def test_golden_folders_hold_the_records_and_their_expectations():
    valid_expected = {path.name for path in (DATA / "valid").glob("*.expected.json")}
    invalid_expected = {path.name for path in (DATA / "invalid").glob("*.errors.txt")}

    assert (
        len(VALID) >= 8,
        len(INVALID) >= 60,
        valid_expected == {path.stem + ".expected.json" for path in VALID},
        invalid_expected == {path.stem + ".errors.txt" for path in INVALID},
    ) == (True, True, True, True)


@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_valid_record_scores_as_worked_out_by_hand(path):
    expected = expected_output(path)

    result = score(loads(path.read_bytes()))

    assert result == expected


@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_valid_record_survives_export_and_import(path):
    record = loads(path.read_bytes())

    again = loads(dumps(record))

    assert (again, score(again)) == (record, score(record))


@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_valid_record_scores_the_same_without_its_descriptive_keys(path):
    data = json.loads(path.read_bytes())
    bare = {key: value for key, value in data.items() if key not in ABOUT_KEYS}

    record, without = parse_record(data), parse_record(bare)

    assert (score(without), without.about, record.hands) == (score(record), About(), without.hands)


def test_golden_records_use_every_descriptive_key():
    used = {key for path in VALID for key in json.loads(path.read_bytes())}

    assert used >= ABOUT_KEYS


@pytest.mark.parametrize("path", INVALID, ids=lambda path: path.stem)
def test_invalid_record_is_refused_with_one_line_per_problem(path):
    expected = path.with_name(path.stem + ".errors.txt").read_text("utf-8").splitlines()

    with pytest.raises(RecordError) as error:
        loads(path.read_bytes())

    assert (str(error.value).splitlines(), len(error.value.problems)) == (expected, len(expected))
