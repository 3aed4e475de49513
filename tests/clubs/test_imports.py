"""A club's import at its limits: the lines read one at a time, the refusals before the
rest is read, and rows written in bulk as a single import writes them."""

import gc
import io
import json
import re
from dataclasses import replace

import pytest
from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile, SimpleUploadedFile

from scoring.clubs.imports import services as import_services
from scoring.clubs.imports.forms import ClubImportForm
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.models import ClubResult
from scoring.engine import Record, record_to_dict
from scoring.infra.jobs import Job
from scoring.table import services
from scoring.table.models import Change, Game, Hand, Seat, Summary
from tests.clubs.factories import (
    account,
    errors,
    import_through,
    make_club,
    record_line,
    results,
    signed_in,
    some_records,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    return make_club(amina)


class ReadUpTo(io.BytesIO):
    """An uploaded file's content that fails the test when a line past ``most`` is read,
    or any at all with ``most`` 0."""

    def __init__(self, content: bytes, most: int) -> None:
        super().__init__(content)
        self.most, self.lines_read = most, 0

    def __next__(self) -> bytes:
        self.lines_read += 1
        assert self.lines_read <= self.most, "read past the limit"
        return super().__next__()

    def read(self, *args):
        assert self.most, "read at all"
        return super().read(*args)


def upload_of(content: bytes, most: int, size: int | None = None) -> InMemoryUploadedFile:
    guarded = ReadUpTo(content, most)
    return InMemoryUploadedFile(
        guarded, "file", "records.jsonl", "application/octet-stream", size or len(content), None
    )


def lines_of(*record_ids):
    return "".join(record_line(record_id) + "\n" for record_id in record_ids).encode()


def test_import_form_over_max_lines_is_refused_before_a_line_past_it_is_read(monkeypatch):
    monkeypatch.setattr(ClubImportForm, "MAX_LINES", 3)
    upload = upload_of(lines_of("g1", "g2", "g3", "g4", "g5", "g6"), most=4)

    form = ClubImportForm({}, {"file": upload})

    assert (form.is_valid(), form.errors["__all__"]) == (
        False,
        ["This site imports up to 3 games at once."],
    )
    assert upload.file.lines_read == 4


def test_import_form_at_max_lines_is_read_whole(monkeypatch):
    monkeypatch.setattr(ClubImportForm, "MAX_LINES", 3)
    content = lines_of("g1") + b" \n" + lines_of("g2", "g3") + b"\n"  # blank lines not counted
    upload = upload_of(content, most=100)

    form = ClubImportForm({}, {"file": upload})

    assert (form.is_valid(), form.cleaned_data["lines"]) == (True, 3)


def test_import_form_file_over_max_bytes_is_refused_unread():
    upload = upload_of(lines_of("g1"), most=0, size=ClubImportForm.MAX_BYTES + 1)

    form = ClubImportForm({}, {"file": upload})

    assert form.errors["__all__"] == ["The file is larger than 200 MB."]
    assert upload.file.lines_read == 0


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "20,000 games imported."),
        ("fr", "20\u00a0000 parties importées."),
        ("ar", "استُوردت 20.000 مباراة."),
    ],
)
def test_import_job_done_says_how_many_as_the_language_groups_them(amina, club, language, said):
    job = Job.objects.create(
        kind="club_import",
        key=f"club:{club.pk}",
        state=Job.State.DONE,
        total=20_000,
        result={"done": 20_000, "imported": 20_000, "players": 0},
    )
    browser = signed_in(amina)
    browser.cookies["django_language"] = language

    page = browser.get(f"/clubs/sfax/jobs/{job.public}").content.decode()

    notice = re.findall(r'<p class="notice" role="status">([^<]*)', page)
    assert [text.split("\n")[0].strip() for text in notice] == [said]


def test_import_records_over_max_lines_is_refused_and_no_job_is_queued(amina, club, monkeypatch):
    monkeypatch.setattr(ClubImportForm, "MAX_LINES", 3)
    upload = SimpleUploadedFile("records.jsonl", lines_of("g1", "g2", "g3", "g4"))

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, errors(response), Job.objects.count()) == (
        422,
        ["This site imports up to 3 games at once."],
        0,
    )


def test_import_records_not_records_is_refused_where_it_was_uploaded(amina, club):
    upload = SimpleUploadedFile("records.jsonl", b"name,score\nAmina,21\n")

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, errors(response), Job.objects.count()) == (
        422,
        [
            "This is not a file of game records: its first line is not a boulmous/1 record. "
            "Choose a records.jsonl file, one record a line."
        ],
        0,
    )


def test_import_form_keeps_the_text_pasted_and_counts_its_lines():
    form = ClubImportForm({"text": record_line("g1") + "\n\n" + record_line("g2", taker=2)})

    assert (form.is_valid(), form.cleaned_data["lines"]) == (True, 2)
    assert form.cleaned_data["source"].count(b"\n") == 2


def test_import_records_file_with_a_byte_order_mark_and_crlf_says_lines_as_numbered(amina, club):
    content = "\ufeff" + record_line("g1") + "\r\n\r\n" + "not json\r\n" + record_line("g3")
    upload = SimpleUploadedFile("records.jsonl", content.encode())

    response = import_through(signed_in(amina), "sfax", {"file": upload})

    assert (response.status_code, [line.split(":")[0] for line in errors(response)]) == (
        200,
        ["line 3"],
    )


def test_import_records_file_not_utf8_is_refused(amina, club):
    upload = SimpleUploadedFile("records.jsonl", lines_of("g1") + b"\xff\xfe\n")

    response = import_through(signed_in(amina), "sfax", {"file": upload})

    assert (response.status_code, errors(response)) == (422, ["The file is not UTF-8 text."])
    assert Game.objects.count() == 0


def test_import_records_file_with_a_nul_says_so_by_line(amina, club):
    upload = SimpleUploadedFile("records.jsonl", lines_of("g1") + b'{"format": "\x00"}\n')

    response = import_through(signed_in(amina), "sfax", {"file": upload})

    assert (response.status_code, errors(response)) == (
        200,
        ["line 2: text: Null characters are not allowed."],
    )


def test_import_records_already_in_the_club_is_said_by_its_line_in_the_file(amina, club):
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": record_line("g1")})

    response = import_through(
        browser, "sfax", {"text": "\n".join([record_line("g2"), "", record_line("g1")])}
    )

    assert (response.status_code, errors(response)) == (
        200,
        ["line 3: the game g1 is in the club already"],
    )


def test_import_records_again_lists_every_line_the_club_has_already(amina, club):
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": "\n".join([record_line("g1"), record_line("g3")])})
    text = "\n".join(
        [
            record_line("g1"),
            record_line("g2"),
            record_line("g3"),
            unnamed_line(taker=2),
            unnamed_line(taker=2),
        ]
    )

    response = import_through(browser, "sfax", {"text": text})

    assert (response.status_code, errors(response), club.club_games.count()) == (
        200,
        [
            "line 1: the game g1 is in the club already",
            "line 3: the game g3 is in the club already",
            "line 5: the same game as line 4",
        ],
        2,
    )


def test_import_records_again_past_twenty_lines_lists_the_others_by_number(amina, club):
    browser = signed_in(amina)
    text = "\n".join(record_line(f"g{number}") for number in range(1, 24))
    import_through(browser, "sfax", {"text": text})

    response = import_through(browser, "sfax", {"text": text})

    said = errors(response)
    assert (response.status_code, len(said)) == (200, 21)
    assert said[19:] == [
        "line 20: the game g20 is in the club already",
        "… and lines 21, 22, 23: games the club has already, or given twice",
    ]


def test_import_records_pasted_over_django_s_limit_is_a_400_that_says_it(amina, club):
    text = record_line("g1") + "\n" + " " * settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    response = import_through(signed_in(amina), "sfax", {"text": text})

    assert response.status_code == 400
    assert (
        "What was sent is more text than this site reads from a form: 2.6 MB at most. To "
        "import a club's records, go back and choose their file rather than pasting them."
    ) in response.content.decode()
    assert Game.objects.count() == 0


def test_import_page_says_the_limits(amina, club):
    page = signed_in(amina).get("/clubs/sfax/import").content.decode()

    assert (
        "Up to 2.6 MB pasted; a larger file, up to 200 MB and 200,000 games, is chosen below."
    ) in page


def test_import_page_says_the_limits_in_french(amina, club):
    browser = signed_in(amina)

    page = browser.get("/clubs/sfax/import", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert ("2,6" in page, "200\u00a0000" in page) == (True, True)


def test_import_page_says_the_limits_in_arabic_grouped_as_the_others(amina, club):
    browser = signed_in(amina)

    page = browser.get("/clubs/sfax/import", HTTP_ACCEPT_LANGUAGE="ar").content.decode()

    assert ("2,6" in page, "200.000" in page, "200000" in page) == (True, True, False)


def test_text_boxes_a_program_reads_run_left_to_right_on_an_arabic_page(amina, club):
    browser = signed_in(amina)
    pages = {
        "/games/import": "text",
        "/clubs/sfax/import": "text",
        "/clubs/sfax/settings": "embed_origins",
    }

    found = {
        (address, name): re.findall(
            rf'<textarea name="{name}"[^>]*>',
            browser.get(address, HTTP_ACCEPT_LANGUAGE="ar").content.decode(),
        )
        for address, name in pages.items()
    }

    assert {key: ['dir="ltr"' in tag for tag in tags] for key, tags in found.items()} == {
        key: [True] for key in found
    }


def test_import_records_rows_are_those_a_single_import_writes(club):
    records = some_records()

    import_services.import_club_records(club=club, records=records, owner_id=None)
    shown = dict(club.members.values_list("key", "name"))
    for record in records:  # the same games, one by one, outside the club, named as in it
        named = tuple(shown[name.casefold()] for name in record.players)
        services.import_record(record=replace(record, players=named))

    def rows(game):
        seats = list(Seat.objects.filter(game=game).values_list("position", "player__name"))
        hands = list(
            Hand.objects.filter(game=game).values_list(
                "number",
                "taker",
                "bid",
                "trump",
                "tricks",
                "calls",
                "plays",
                "token",
                "recorded_at",
            )
        )
        summary = Summary.objects.filter(game=game).values_list(
            "names", "totals", "leaders", "status", "hands", "winner", "changed_at"
        )
        changes = Change.objects.filter(game=game).values_list(
            "action", "by_user", "by_device", "hand_number", "before", "after"
        )
        fields = ("first_dealer", "target", "stake", "place", "created_at", "abandoned_at")
        return (
            [getattr(game, name) for name in fields],
            seats,
            hands,
            list(summary),
            list(changes),
        )

    for record in records:
        imported = Game.objects.get(club_game__club=club, record_id=record.about.id)
        single = Game.objects.exclude(club_game__club=club).get(
            created_at=record.about.started_at, seats__player__name=record.players[0]
        )
        assert rows(imported) == rows(single)


def test_import_records_through_the_page_league_equals_a_rebuild(amina, club):
    text = "\n".join(
        json.dumps(record_to_dict(record), ensure_ascii=False) for record in some_records()
    )
    import_through(signed_in(amina), "sfax", {"text": text})
    imported = results(club)

    rebuild(club)

    assert results(club) == imported
    assert ClubResult.objects.filter(club=club).count() == 4 * 5


def test_import_collector_runs_again_after_an_import_and_after_a_refusal(amina, club):
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": record_line("g1")})
    after_import = gc.isenabled()

    refused = import_through(browser, "sfax", {"text": record_line("g1") + "\nnot json"})

    assert (after_import, refused.status_code, gc.isenabled()) == (True, 200, True)


def records_alive():
    """The engine records this process holds, the collector's garbage among them."""
    return sum(type(thing) is Record for thing in gc.get_objects())


def test_import_records_through_the_page_leaves_no_record_for_the_collector(amina, club):
    browser = signed_in(amina)
    text = "\n".join(
        json.dumps(record_to_dict(record), ensure_ascii=False) for record in some_records()
    )
    gc.collect()
    gc.disable()
    try:
        # Those other tests keep alive in this process are not the import's.
        before = records_alive()
        imported = import_through(browser, "sfax", {"text": text})
        # Freed by reference counting as the import ended: none waits for a collection.
        left = records_alive() - before
    finally:
        gc.enable()

    assert (imported.status_code, left) == (200, 0)


def test_import_service_refusal_leaves_the_collector_running(club):
    records = some_records()
    import_services.import_club_records(club=club, records=records[:1], owner_id=None)

    with pytest.raises(import_services.AlreadyInClub):
        import_services.import_club_records(club=club, records=records[:1], owner_id=None)

    assert gc.isenabled()


# --- The same game twice ------------------------------------------------------------------


def unnamed_line(**extra):
    """A record_line without an ``id``."""
    record = json.loads(record_line("x", **extra))
    del record["id"]
    return json.dumps(record)


def test_import_records_again_into_a_second_club_is_refused_by_id(amina, club):
    other = make_club(amina, slug="tunis")
    text = "\n".join([record_line("g1"), record_line("g2", taker=2)])
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": text})
    import_through(browser, "tunis", {"text": text})  # ids g1, g2 are Sfax's games'

    response = import_through(browser, "tunis", {"text": record_line("g2", taker=2)})

    assert (response.status_code, errors(response), other.club_games.count()) == (
        200,
        ["line 1: the game g2 is in the club already"],
        2,
    )


def test_import_records_without_id_known_by_players_hands_and_finish(amina, club):
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": unnamed_line()})

    again = import_through(browser, "sfax", {"text": unnamed_line(place="Café")})
    later = import_through(
        browser, "sfax", {"text": unnamed_line(finished_at="2025-03-01T20:00:01Z")}
    )

    assert (again.status_code, errors(again), later.status_code) == (
        200,
        ["line 1: this game (the same players, hands and finish) is in the club already"],
        200,
    )
    assert club.club_games.count() == 2


def test_import_records_same_game_twice_in_a_file_is_refused_by_its_second_line(amina, club):
    text = "\n".join([record_line("g1", taker=2), unnamed_line(), unnamed_line()])

    response = import_through(signed_in(amina), "sfax", {"text": text})

    assert (response.status_code, errors(response), club.club_games.count()) == (
        200,
        ["line 3: the same game as line 2"],
        0,
    )


def test_import_records_same_id_twice_in_a_file_is_refused_by_its_second_line(amina, club):
    text = "\n".join([record_line("g1"), record_line("g2"), record_line("g1", taker=2)])

    response = import_through(signed_in(amina), "sfax", {"text": text})

    assert (response.status_code, errors(response)) == (200, ["line 3: the id g1 is on line 1 too"])


def test_import_club_game_refuses_what_a_bulk_import_brought(amina, club):
    other = make_club(amina, slug="tunis")
    records = some_records()[:2]
    import_services.import_club_records(club=club, records=records, owner_id=None)
    import_services.import_club_records(club=other, records=records, owner_id=None)

    with pytest.raises(import_services.AlreadyInClub) as refused:
        import_services.import_club_game(club=other, record=records[1])

    assert (refused.value.line, refused.value.record_id) == (1, records[1].about.id)
    kept = other.club_games.values_list("source_id", flat=True)
    assert sorted(kept) == sorted(record.about.id for record in records)
