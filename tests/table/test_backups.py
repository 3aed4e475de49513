"""Backups: ``export_all DIR`` writes every game as a record file, ``import_all DIR`` reads
them back, and the round trip changes nothing, byte for byte."""

import io
import tracemalloc
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.engine import FailedTaker, Rules, dealer_of, hand_from_dict, loads, loads_scored
from scoring.management.commands import export_all
from scoring.management.commands.export_all import file_name
from scoring.table import services
from scoring.table.models import Game, Player
from tests.factories import NAMES
from tests.golden import CLEAN_PLAYS, DATA

# Taker 0 leads: the winners are 0, 1, 1, 2, 0, 0, so the tricks are 3-2-1-0.
PLAYS = CLEAN_PLAYS
VOID = {"calls": ["pass"] * 4}


def run(command, *args):
    """Run a command in-process: (exit status, stdout, stderr)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        call_command(command, *map(str, args), stdout=stdout, stderr=stderr)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, stdout.getvalue(), stderr.getvalue()


def play(names, rules, hands, *, first_dealer=0, place=""):
    """A game started and played through the services, each hand given as in a record."""
    game = services.create_game(
        names=names, rules=rules, first_dealer=first_dealer, place=place
    ).game
    for number, data in enumerate(hands, start=1):
        hand = hand_from_dict(data, dealer_of(number - 1, first_dealer))
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


def games():
    """Games of every kind, made as the site makes them."""
    play(
        NAMES,
        Rules(stake=Decimal("0.50"), currency="EUR"),
        [
            {"taker": 1, "bid": 5, "trump": "S", "tricks": [0, 5, 1, 0]},
            {"calls": ["pass", 3, "pass", 4], "trump": "H", "tricks": [1, 0, 2, 3]},
            VOID,
            {"taker": 0, "bid": 3, "trump": "H", "plays": PLAYS},
            {"calls": ["pass", "pass", "boulmous", "pass"], "trump": "NT", "tricks": [0, 6, 0, 0]},
        ],
        place="Café des Délices",
    )
    play(  # won at hand 3
        ["Élise", "Farid", "Ghita", "Hédi"],
        Rules(target=6, failed_taker=FailedTaker.MINUS_BID, stake=Decimal("0.500"), currency="TND"),
        [
            {"taker": 2, "bid": 4, "trump": "D", "tricks": [1, 0, 3, 2]},
            VOID,
            {"taker": 0, "bid": "boulmous", "trump": "C", "tricks": [6, 0, 0, 0]},
        ],
        first_dealer=3,
    )
    abandoned = play(
        NAMES,
        Rules(target=41, stake=Decimal(100), currency="JPY"),
        [{"taker": 3, "bid": 4, "trump": "NT", "tricks": [2, 0, 0, 4]}],
        first_dealer=2,
    )
    services.abandon_game(public_id=abandoned.public_id)
    play(NAMES, Rules(), [])
    # Imported with every descriptive key, and with ids that a file name must escape.
    services.import_record(record=loads((DATA / "valid" / "about_abandoned_tnd.json").read_text()))
    about = '{"format": "boulmous/1", "players": ["A", "B", "C", "D"], "id": %s, "hands": []}'
    services.import_record(record=loads(about % '"club/Sfax 3"'))
    services.import_record(record=loads(about % '"%s"' % ("é" * 64)))
    for record_id in ("Sfax-1", "sfax-1"):  # one file name, where case does not count
        services.import_record(record=loads(about % f'"{record_id}"'))


def files(directory):
    return {path.name: path.read_bytes() for path in directory.iterdir()}


def test_export_all_then_import_all_into_an_empty_database_gives_the_same_files(db, tmp_path):
    games()
    first, second = tmp_path / "first", tmp_path / "second"
    exported = run("export_all", first)
    Game.objects.all().delete()
    Player.objects.all().delete()

    imported = run("import_all", first)
    again = run("export_all", second)

    assert (exported, imported, again) == (
        (0, f"exported 9 games to {first}\n", ""),
        (0, f"imported 9 games from {first}, skipped 0 already here, 0 failed\n", ""),
        (0, f"exported 9 games to {second}\n", ""),
    )
    assert files(second) == files(first)


def test_export_all_writes_each_game_as_its_download_named_by_its_record_id(client, db, tmp_path):
    games()

    run("export_all", tmp_path)

    assert files(tmp_path) == {
        file_name(game.record_id, hashed=game.record_id in ("Sfax-1", "sfax-1")): (
            client.get(f"/games/{game.public_id}/record.json").content + b"\n"
        )
        for game in Game.objects.all()
    }


def test_export_all_names_files_by_record_id_escaping_what_a_file_name_cannot_hold(db, tmp_path):
    games()

    run("export_all", tmp_path)

    assert {"sfax-2025-05-01-3.json", "club%2FSfax%203.json"} < set(files(tmp_path))


def test_export_all_keeps_apart_ids_that_differ_only_in_case(db, tmp_path):
    about = '{"format": "boulmous/1", "players": ["A", "B", "C", "D"], "id": "%s", "hands": []}'
    for record_id in ("Sfax-1", "sfax-1", "Sfax-2"):
        services.import_record(record=loads(about % record_id))

    run("export_all", tmp_path)

    assert sorted(files(tmp_path)) == [
        file_name("Sfax-1", hashed=True),
        "Sfax-2.json",
        file_name("sfax-1", hashed=True),
    ]
    assert file_name("Sfax-1", hashed=True).casefold() != file_name("sfax-1", hashed=True)


def test_file_name_of_a_long_id_is_cut_short_and_kept_apart_by_a_hash():
    long, longer = "é" * 63 + "a", "é" * 63 + "b"

    assert (len(file_name(long)), file_name(long) == file_name(longer)) == (188, False)


def test_file_name_is_the_id_as_this_site_draws_it():
    assert file_name("qH3-x_Z09aBcDeFg") == "qH3-x_Z09aBcDeFg.json"


def test_export_all_refuses_a_directory_that_is_not_empty(db, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")

    with pytest.raises(CommandError) as error:
        run("export_all", tmp_path)

    assert str(error.value) == f"{tmp_path}: not empty; export to a new directory"


def test_export_all_of_no_game_writes_nothing(db, tmp_path):
    assert (run("export_all", tmp_path / "new"), files(tmp_path / "new")) == (
        (0, f"exported 0 games to {tmp_path / 'new'}\n", ""),
        {},
    )


def test_export_all_memory_does_not_grow_with_the_number_of_games(db, tmp_path, monkeypatch):
    # Batches of 20 games: three times as many batches hold no more memory at once. With
    # batches larger than the games, all held at once, the peak was 2.6 times as high.
    monkeypatch.setattr(export_all, "BATCH", 20)
    record, result = loads_scored((DATA / "valid" / "plays_revokes_both_ways.json").read_text())
    services.import_many(records=[record] * 20, results=[result] * 20, owner_id=None, club_label="")
    tracemalloc.start()
    run("export_all", tmp_path / "20")
    few = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    services.import_many(records=[record] * 40, results=[result] * 40, owner_id=None, club_label="")

    tracemalloc.start()
    run("export_all", tmp_path / "60")
    many = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    print(f"export_all: 20 games {few / 1e6:.2f} MB, 60 games {many / 1e6:.2f} MB at the peak")
    assert len(files(tmp_path / "60")) == 60
    assert many < few * 1.5


def test_import_all_skips_the_games_already_here(db, tmp_path):
    games()
    run("export_all", tmp_path)

    status, stdout, stderr = run("import_all", tmp_path)

    assert (status, stdout, stderr, Game.objects.count()) == (
        0,
        f"imported 0 games from {tmp_path}, skipped 9 already here, 0 failed\n",
        "",
        9,
    )


def test_import_all_reports_a_refused_file_imports_the_others_and_exits_1(db, tmp_path):
    good = (DATA / "valid" / "about_some_keys_won.json").read_bytes()
    (tmp_path / "a-good.json").write_bytes(good)
    (tmp_path / "b-bad.json").write_text('{"format": "boulmous/2", "players": []}')
    (tmp_path / "c-big.json").write_bytes(b" " * 1_000_001)
    (tmp_path / "d-not-json.json").write_text("{")
    (tmp_path / "notes.txt").write_text("not a record, not read")

    status, stdout, stderr = run("import_all", tmp_path)

    assert (status, stdout, Game.objects.count()) == (
        1,
        f"imported 1 game from {tmp_path}, skipped 0 already here, 3 failed\n",
        1,
    )
    assert stderr.splitlines() == [
        'b-bad.json: format: "boulmous/2" is not "boulmous/1"',
        "b-bad.json: players: four names expected, in seat order",
        "b-bad.json: hands: a list of hands is expected",
        "c-big.json: The file is larger than 1 MB.",
        "d-not-json.json: record: not JSON (Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1))",
    ]


def test_import_all_keeps_the_record_id_and_the_descriptive_keys(db, tmp_path):
    path = DATA / "valid" / "about_abandoned_tnd.json"
    (tmp_path / "game.json").write_bytes(path.read_bytes())

    run("import_all", tmp_path)

    game = Game.objects.get()
    assert (game.record_id, game.place, game.club_label, game.season_label) == (
        "sfax-2025-05-01-3",
        "Café des Délices, Sfax",
        "Club de Sfax",
        "2025",
    )


def test_import_all_of_a_directory_that_does_not_exist_says_so(db, tmp_path):
    with pytest.raises(CommandError) as error:
        run("import_all", tmp_path / "missing")

    assert str(error.value) == f"{tmp_path / 'missing'}: No such file or directory"
