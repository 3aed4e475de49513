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
from scoring.infra import deadline
from scoring.infra.deadline import Deadline, DeadlinePassed
from scoring.table import services
from scoring.table.models import Change, Game, Hand, Seat, Summary
from tests.clubs.factories import (
    account,
    errors,
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

    assert form.is_valid()
    assert (
        [record.about.id for record in form.cleaned_data["records"]],
        form.cleaned_data["lines"],
    ) == (["g1", "g2", "g3"], [1, 3, 4])


def test_import_form_file_over_max_bytes_is_refused_unread():
    upload = upload_of(lines_of("g1"), most=0, size=ClubImportForm.MAX_BYTES + 1)

    form = ClubImportForm({}, {"file": upload})

    assert form.errors["__all__"] == ["The file is larger than 50 MB."]
    assert upload.file.lines_read == 0


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "20,000 games imported."),
        ("fr", "20\u00a0000 parties importées."),
        ("ar", "استُوردت 20.000 مباراة."),
    ],
)
def test_import_records_done_says_how_many_as_the_language_groups_them(amina, club, language, said):
    browser = signed_in(amina)
    browser.cookies["django_language"] = language

    page = browser.get("/clubs/sfax/import?imported=20000").content.decode()

    notice = re.findall(r'<p class="notice" role="status">([^<]*)', page)
    assert [text.strip() for text in notice] == [said]


def test_import_records_over_20000_lines_is_refused_and_none_is_parsed(amina, club):
    # Lines that are not records: had any been parsed, its problems would be said instead.
    upload = SimpleUploadedFile("records.jsonl", b"not a record\n" * 20_001)

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, errors(response)) == (
        422,
        ["This site imports up to 20000 games at once."],
    )
    assert Game.objects.count() == 0


def test_import_form_keeps_each_record_with_the_engine_s_result():
    form = ClubImportForm({"text": record_line("g1") + "\n" + record_line("g2", taker=2)})

    assert form.is_valid()
    records, results = form.cleaned_data["records"], form.cleaned_data["results"]
    assert results == [record.score() for record in records]


def test_import_records_file_with_a_byte_order_mark_and_crlf_says_lines_as_numbered(amina, club):
    content = "\ufeff" + record_line("g1") + "\r\n\r\n" + "not json\r\n" + record_line("g3")
    upload = SimpleUploadedFile("records.jsonl", content.encode())

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, [line.split(":")[0] for line in errors(response)]) == (
        422,
        ["line 3"],
    )


def test_import_records_file_not_utf8_is_refused(amina, club):
    upload = SimpleUploadedFile("records.jsonl", lines_of("g1") + b"\xff\xfe\n")

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, errors(response)) == (422, ["The file is not UTF-8 text."])
    assert Game.objects.count() == 0


def test_import_records_file_with_a_nul_says_so_by_line(amina, club):
    upload = SimpleUploadedFile("records.jsonl", lines_of("g1") + b'{"format": "\x00"}\n')

    response = signed_in(amina).post("/clubs/sfax/import", {"file": upload})

    assert (response.status_code, errors(response)) == (
        422,
        ["line 2: text: Null characters are not allowed."],
    )


def test_import_records_already_in_the_club_is_said_by_its_line_in_the_file(amina, club):
    browser = signed_in(amina)
    browser.post("/clubs/sfax/import", {"text": record_line("g1")})

    response = browser.post(
        "/clubs/sfax/import", {"text": "\n".join([record_line("g2"), "", record_line("g1")])}
    )

    assert (response.status_code, errors(response)) == (
        422,
        ["line 3: the game g1 is in the club already"],
    )


def test_import_records_again_lists_every_line_the_club_has_already(amina, club):
    browser = signed_in(amina)
    browser.post("/clubs/sfax/import", {"text": "\n".join([record_line("g1"), record_line("g3")])})
    text = "\n".join(
        [
            record_line("g1"),
            record_line("g2"),
            record_line("g3"),
            unnamed_line(taker=2),
            unnamed_line(taker=2),
        ]
    )

    response = browser.post("/clubs/sfax/import", {"text": text})

    assert (response.status_code, errors(response), club.club_games.count()) == (
        422,
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
    browser.post("/clubs/sfax/import", {"text": text})

    response = browser.post("/clubs/sfax/import", {"text": text})

    said = errors(response)
    assert (response.status_code, len(said)) == (422, 21)
    assert said[19:] == [
        "line 20: the game g20 is in the club already",
        "… and lines 21, 22, 23: games the club has already, or given twice",
    ]


def test_import_records_pasted_over_django_s_limit_is_a_400_that_says_it(amina, club):
    text = record_line("g1") + "\n" + " " * settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    response = signed_in(amina).post("/clubs/sfax/import", {"text": text})

    assert response.status_code == 400
    assert (
        "What was sent is more text than this site reads from a form: 2.6 MB at most. To "
        "import a club's records, go back and choose their file rather than pasting them."
    ) in response.content.decode()
    assert Game.objects.count() == 0


def test_import_page_says_the_limits(amina, club):
    page = signed_in(amina).get("/clubs/sfax/import").content.decode()

    assert (
        "Up to 2.6 MB pasted; a larger file, up to 50 MB and 20,000 games, is chosen below."
    ) in page


def test_import_page_says_the_limits_in_french(amina, club):
    browser = signed_in(amina)

    page = browser.get("/clubs/sfax/import", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert ("2,6" in page, "20\u00a0000" in page) == (True, True)


def test_import_page_says_the_limits_in_arabic_grouped_as_the_others(amina, club):
    browser = signed_in(amina)

    page = browser.get("/clubs/sfax/import", HTTP_ACCEPT_LANGUAGE="ar").content.decode()

    assert ("2,6" in page, "20.000" in page, "20000" in page) == (True, True, False)


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
    signed_in(amina).post("/clubs/sfax/import", {"text": text})
    imported = results(club)

    rebuild(club)

    assert results(club) == imported
    assert ClubResult.objects.filter(club=club).count() == 4 * 5


def test_import_collector_runs_again_after_an_import_and_after_a_refusal(amina, club):
    browser = signed_in(amina)
    browser.post("/clubs/sfax/import", {"text": record_line("g1")})
    after_import = gc.isenabled()

    refused = browser.post("/clubs/sfax/import", {"text": record_line("g1") + "\nnot json"})

    assert (after_import, refused.status_code, gc.isenabled()) == (True, 422, True)


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
        imported = browser.post("/clubs/sfax/import", {"text": text})
        # Freed by reference counting as the import ended: none waits for a collection.
        left = records_alive() - before
    finally:
        gc.enable()

    assert (imported.status_code, left) == (302, 0)


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
    browser.post("/clubs/sfax/import", {"text": text})
    browser.post("/clubs/tunis/import", {"text": text})  # ids g1, g2 are Sfax's games'

    response = browser.post("/clubs/tunis/import", {"text": record_line("g2", taker=2)})

    assert (response.status_code, errors(response), other.club_games.count()) == (
        422,
        ["line 1: the game g2 is in the club already"],
        2,
    )


def test_import_records_without_id_known_by_players_hands_and_finish(amina, club):
    browser = signed_in(amina)
    browser.post("/clubs/sfax/import", {"text": unnamed_line()})

    again = browser.post("/clubs/sfax/import", {"text": unnamed_line(place="Café")})
    later = browser.post(
        "/clubs/sfax/import", {"text": unnamed_line(finished_at="2025-03-01T20:00:01Z")}
    )

    assert (again.status_code, errors(again), later.status_code) == (
        422,
        ["line 1: this game (the same players, hands and finish) is in the club already"],
        302,
    )
    assert club.club_games.count() == 2


def test_import_records_same_game_twice_in_a_file_is_refused_by_its_second_line(amina, club):
    text = "\n".join([record_line("g1", taker=2), unnamed_line(), unnamed_line()])

    response = signed_in(amina).post("/clubs/sfax/import", {"text": text})

    assert (response.status_code, errors(response), club.club_games.count()) == (
        422,
        ["line 3: the same game as line 2"],
        0,
    )


def test_import_records_same_id_twice_in_a_file_is_refused_by_its_second_line(amina, club):
    text = "\n".join([record_line("g1"), record_line("g2"), record_line("g1", taker=2)])

    response = signed_in(amina).post("/clubs/sfax/import", {"text": text})

    assert (response.status_code, errors(response)) == (422, ["line 3: the id g1 is on line 1 too"])


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


# --- The request's deadline (issue 18: a killed worker answered 500) --------------------


class Clock:
    """time.monotonic as a clock that reads these seconds, one a call."""

    def __init__(self, *readings: float) -> None:
        self.readings = iter(readings)

    def __call__(self) -> float:
        return next(self.readings)


def test_deadline_part_is_four_fifths_of_what_fits_rounded_down():
    assert [DeadlinePassed(20, fits).part(20_000) for fits in (0.0, 0.3, 0.749, 1.0)] == [
        500,
        4500,
        11_500,
        16_000,
    ]


def test_deadline_projects_the_whole_from_the_share_done(monkeypatch):
    # 3 s for a tenth of the work: 30 s in all, of which 25 s would do five sixths (16,666
    # games of 20,000), and four fifths of those are suggested.
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 3))
    within = Deadline(25)

    with pytest.raises(DeadlinePassed) as passed:
        within.check(0.1)

    assert (passed.value.seconds, passed.value.part(20_000)) == (25, 13_000)


def test_deadline_projects_the_rest_at_the_pace_of_the_latest_half(monkeypatch):
    # A slow start, 1 s for the first 2.5% (a worker's first import reads every hand
    # afresh), then 0.5 s for the next 2.5%: 20.5 s in all at the latest pace, within 25
    # (30 s at the pace of the whole).
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 1, 1.5))
    work = Deadline(25)

    work.check(0.025)
    work.check(0.05)

    assert work.marks == [(0.0, 0.0), (0.025, 1), (0.05, 1.5)]


def test_deadline_projects_the_rest_at_the_pace_of_all_the_work_after_a_slower_step(
    monkeypatch,
):
    # Read in 5 s (0.3 of the work: 16.7 s in all), the games then written in 9 s (to 0.6),
    # as SQLite writes them, slower than their share: 26 s in all at that step's pace, but
    # 23.3 s at the pace of all the work, within 25.
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 5, 14))
    work = Deadline(25)

    work.check(0.3)
    work.check(0.6)

    assert work.marks == [(0.0, 0.0), (0.3, 5), (0.6, 14)]


def test_deadline_refuses_work_that_both_paces_say_is_too_long(monkeypatch):
    # 0.25 s for the first 2.5%, then 1.25 s for the next: 30 s in all at the pace of all
    # the work, 49 s at the latest half's; the more hopeful, 30 s, is past 25, of which 25 s
    # would do five sixths.
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 0.25, 1.5))
    work = Deadline(25)
    work.check(0.025)

    with pytest.raises(DeadlinePassed) as passed:
        work.check(0.05)

    assert round(passed.value.fits, 3) == 0.833


def test_deadline_none_shared_by_every_command_keeps_no_marks():
    deadline.NO_DEADLINE.check(0.5)
    deadline.NO_DEADLINE.check(0.97)

    assert deadline.NO_DEADLINE.marks == [(0.0, 0.0)]


def test_deadline_counts_the_time_before_the_work_began_once(monkeypatch):
    # A tenth of the work in 1 s: 10 s in all; after 20 s of reading the upload, 30 s.
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 0, 0, 1, 20, 21))
    at_once, after_the_upload = Deadline(25), Deadline(25)
    at_once.begin()
    at_once.check(0.1)
    after_the_upload.begin()

    with pytest.raises(DeadlinePassed):
        after_the_upload.check(0.1)


def test_deadline_projects_nothing_from_too_little_done(monkeypatch):
    # 3 s for 4% of the work would be 75 s: too early to tell, and 3 s is within 25.
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 3))

    Deadline(25).check(0.04)


def test_import_records_reading_past_the_deadline_is_refused_and_nothing_is_stored(
    amina, club, settings
):
    settings.IMPORT_SECONDS = 0
    text = "\n".join(record_line(f"g{number}") for number in range(3))

    response = signed_in(amina).post("/clubs/sfax/import", {"text": text})

    assert (response.status_code, errors(response), Game.objects.count()) == (
        422,
        [
            "This file takes longer to import than the server allows for one request (0 s), "
            "so nothing was imported. Split it into files of up to 500 games and import them "
            "one by one."
        ],
        0,
    )


def test_import_records_lines_with_problems_are_said_before_the_deadline(
    amina, club, settings, monkeypatch
):
    # Read in 100 s, 300 s in all at that pace: too long, but the line's problem comes first.
    settings.IMPORT_SECONDS = 25
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 0, 0, 100))

    response = signed_in(amina).post("/clubs/sfax/import", {"text": "not json"})

    assert errors(response)[0].startswith("line 1: record: not JSON")


def test_import_records_writing_past_the_deadline_is_refused_in_french_and_rolled_back(
    amina, club, settings, monkeypatch
):
    # Started at 0, read by 1 s (3 s in all at that pace), then 60 s when the games are
    # written: 109 s in all at that pace, past 25.
    settings.IMPORT_SECONDS = 25
    monkeypatch.setattr(deadline.time, "monotonic", Clock(0, 0, 0, 1, 60))
    browser = signed_in(amina)
    browser.cookies["django_language"] = "fr"

    response = browser.post("/clubs/sfax/import", {"text": record_line("g1")})

    assert (response.status_code, errors(response)) == (
        422,
        [
            "Ce fichier prend plus de temps à importer que le serveur n’en accorde à une "
            "requête (25 s)\u00a0: rien n’a été importé. Partagez-le en fichiers d’au plus 500 "
            "parties et importez-les un à un."
        ],
    )
    assert (Game.objects.count(), Hand.objects.count(), ClubResult.objects.count()) == (0, 0, 0)


def test_import_service_past_its_deadline_keeps_nothing(club):
    with pytest.raises(DeadlinePassed) as passed:
        import_services.import_club_records(
            club=club, records=some_records(), owner_id=None, deadline=Deadline(0)
        )

    assert (passed.value.fits, Game.objects.count(), Seat.objects.count()) == (0.0, 0, 0)
