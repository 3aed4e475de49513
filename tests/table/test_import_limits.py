"""The import page refuses a large or hostile record early and cheaply.

Its limits (the size, the nesting, the number of hands, the problems listed) are
checked while the record is read. The memory is a generous bound, measured in-process
around one request: 50 MB more at the peak. The time is printed, not asserted (tests
assert behaviour, not the machine's speed): 0.07 to 0.3 s a request on this machine.
"""

import json
import re
import time
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.table.forms import ImportForm
from scoring.table.models import Game
from tests.golden import CLEAN_PLAYS

URL = "/games/import"
PLAYERS = ["Amina", "Bilal", "Chafik", "Dalila"]
HEADER = json.dumps({"format": "boulmous/1", "players": PLAYERS})[:-1] + ', "hands": ['
PLAYS = CLEAN_PLAYS
# Taker 0 wins 3 of 3 each time: 6000 points in 2000 hands, short of the target.
PLAYED = {"taker": 0, "bid": 3, "trump": "H", "tricks": [3, 2, 1, 0], "plays": PLAYS}
NOT_A_HAND = "a JSON object is expected"
INTEGERS = (999_000 - len(HEADER)) // 2
OBJECTS = (999_000 - len(HEADER)) // 3


def integers():
    """Just under 1 MB: a valid header, then some 499,000 integers as hands."""
    return HEADER + ",".join(["0"] * INTEGERS) + "]}"


def objects():
    """Just under 1 MB: a valid header, then some 333,000 empty objects as hands, the most
    memory 1 MB of JSON can take."""
    return HEADER + ",".join(["{}"] * OBJECTS) + "]}"


def nested():
    """Just under 1 MB of lists in lists."""
    return "[" * 499_999 + "]" * 499_999


def many_hands():
    """About 0.9 MB: a valid record of 2000 hands played card by card."""
    record = {"format": "boulmous/1", "players": PLAYERS, "rules": {"target": 30000}}
    return json.dumps({**record, "hands": [PLAYED] * 2000}, indent=1)


HOSTILE = {
    integers: [f"hands: {INTEGERS} hands, more than the 1000 this site keeps"],
    objects: [f"hands: {OBJECTS} hands, more than the 1000 this site keeps"],
    nested: ["record: nested more than 10 deep, deeper than this site reads"],
    many_hands: ["hands: 2000 hands, more than the 1000 this site keeps"],
}


def post(client, text, how):
    """Import ``text`` as an uploaded file (``how`` is "file") or pasted ("text")."""
    if how == "file":
        return client.post(URL, {"file": SimpleUploadedFile("game.json", text.encode())})
    return client.post(URL, {"text": text})


def error_lines(response):
    """The problems the page lists, as it shows them."""
    page = response.content.decode()
    errors = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, re.DOTALL)
    return re.findall(r"<li>(.*?)</li>", errors[1], re.DOTALL) if errors else []


def measured(client, text, how):
    """(seconds, extra bytes at the peak, the response): two requests, so that tracing
    the memory does not slow the one timed, after the page is shown once (the first
    request of a process loads its templates)."""
    client.get(URL)
    start = time.perf_counter()
    post(client, text, how)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    try:
        response = post(client, text, how)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak, response


@pytest.mark.parametrize("how", ["file", "text"])
@pytest.mark.parametrize("make", list(HOSTILE), ids=lambda make: make.__name__)
def test_import_hostile_record_is_refused_within_50_mb(client, db, make, how):
    text = make()

    seconds, peak, response = measured(client, text, how)

    print(f"{make.__name__} ({how}): {seconds:.3f} s, {peak / 1e6:.1f} MB")
    assert len(text.encode()) <= ImportForm.MAX_BYTES
    assert (response.status_code, Game.objects.count()) == (422, 0)
    assert peak < 50_000_000
    assert len(error_lines(response)) <= 21


@pytest.mark.parametrize("how", ["file", "text"])
@pytest.mark.parametrize("make", list(HOSTILE), ids=lambda make: make.__name__)
def test_import_hostile_record_names_the_limit_it_passes(client, db, make, how):
    response = post(client, make(), how)

    assert error_lines(response) == HOSTILE[make]


def test_import_pasted_text_over_1_mb_is_refused_by_its_size(client, db):
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, "place": "x" * 1_000_000})

    response = post(client, text, "text")

    assert (response.status_code, error_lines(response)) == (
        422,
        [f"record: {len(text)} bytes, more than the 1000000 this site reads"],
    )


def test_import_pasted_text_counts_bytes_not_characters(client, db):
    # Under a million characters, over a million bytes: "é" is two bytes in UTF-8.
    text = json.dumps(
        {"format": "boulmous/1", "players": PLAYERS, "place": "é" * 600_000}, ensure_ascii=False
    )

    response = post(client, text, "text")

    assert error_lines(response) == [
        f"record: {len(text.encode())} bytes, more than the 1000000 this site reads"
    ]


def test_import_uploaded_file_over_1_mb_is_refused_unread(client, db):
    response = post(client, HEADER + "]}" + " " * ImportForm.MAX_BYTES, "file")

    assert error_lines(response) == ["The file is larger than 1 MB."]


def test_import_lists_20_problems_then_at_least_how_many_more_when_it_stops_reading(client, db):
    text = HEADER + ", ".join(["0"] * 30) + "]}"

    response = post(client, text, "file")

    # Hand 21 passes the limit; hands 22 to 30 are not read.
    assert error_lines(response) == [
        *(f"hand {number}: {NOT_A_HAND}" for number in range(1, 21)),
        "… and at least 1 more problem",
    ]


def test_import_lists_20_problems_then_how_many_more_when_it_read_everything(client, db):
    keys = {f"note{number:02}": number for number in range(1, 24)}
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, **keys, "hands": []})

    response = post(client, text, "text")

    assert error_lines(response) == [
        *(f"record: unknown key &quot;note{number:02}&quot;" for number in range(1, 21)),
        "… and 3 more problems",
    ]


def test_import_lists_exactly_20_problems_alone(client, db):
    text = HEADER + ", ".join(["0"] * 20) + "]}"

    response = post(client, text, "file")

    assert error_lines(response) == [f"hand {number}: {NOT_A_HAND}" for number in range(1, 21)]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "… et au moins 9 autres problèmes"),
        ("ar", "… و9 مشكلات أخرى على الأقل"),
    ],
)
def test_import_counts_the_problems_left_out_in_the_reader_s_language(
    client, db, language, expected
):
    # 29 unknown keys: 20 listed, 9 more; the hand after them is not read.
    keys = {f"note{number:02}": number for number in range(1, 30)}
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, **keys, "hands": [0]})

    response = client.post(URL, {"text": text}, HTTP_ACCEPT_LANGUAGE=language)

    assert error_lines(response)[-1] == expected


def test_import_record_exactly_at_1000_hands_is_kept(client, db):
    void = {"calls": ["pass"] * 4}
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, "hands": [void] * 1000})

    response = post(client, text, "file")

    assert (response.status_code, Game.objects.get().hands.count()) == (302, 1000)


@pytest.mark.parametrize(("key", "length"), list(ImportForm.ABOUT_LENGTHS.items()))
def test_import_descriptive_key_longer_than_its_column_is_refused(client, db, key, length):
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, "hands": [], key: "x" * 81})

    response = post(client, text, "text")

    assert (error_lines(response), Game.objects.count()) == (
        [f"{key}: this site keeps text of up to {length} characters."],
        0,
    )


@pytest.mark.parametrize(
    ("value", "said"),
    [("\ud800", "character 1 is U+D800"), ("Sfax\x00", "character 5 is U+0000")],
    ids=["lone surrogate", "NUL"],
)
@pytest.mark.parametrize("key", list(ImportForm.ABOUT_LENGTHS))
def test_import_descriptive_key_no_database_keeps_is_refused(client, db, key, value, said):
    # json.dumps writes "\ud800" and "\u0000": JSON can say them, UTF-8 and PostgreSQL not.
    # The engine refuses them as it refuses every control or invisible character (issue 18).
    text = json.dumps({"format": "boulmous/1", "players": PLAYERS, "hands": [], key: value})

    response = post(client, text, "text")

    assert (response.status_code, Game.objects.count()) == (422, 0)
    assert error_lines(response) == [f"{key}: {said}, a control or invisible character"]


def test_import_descriptive_key_lengths_are_the_game_columns():
    columns = {"id": "record_id", "place": "place", "club": "club_label", "season": "season_label"}

    kept = {key: Game._meta.get_field(column).max_length for key, column in columns.items()}

    assert kept == ImportForm.ABOUT_LENGTHS


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            "feuille de partie\u00a0: imbriquée sur plus de 10 niveaux, plus que ce site n’en lit",
        ),
        ("ar", "السجلّ: يتجاوز عمق التداخل فيه 10، أي أعمق مما يقرؤه هذا الموقع"),
    ],
)
def test_import_names_the_limit_in_the_reader_s_language(client, db, language, expected):
    response = client.post(URL, {"text": nested()}, HTTP_ACCEPT_LANGUAGE=language)

    assert error_lines(response) == [expected]
