"""The league's statistics follow their one declaration (engine/league.py STATISTICS): the
stored results, the sums, the pages and the PDF; the CSV keeps the spec's columns. The
no-trump contracts are the statistic added by the registry alone."""

import io

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from pypdf import PdfReader

from scoring.clubs.league.ratings import rebuild
from scoring.clubs.models import ClubResult, Member
from scoring.engine.league import COUNTED, CSV_HEADER
from tests.clubs.league_games import GAME_A, GAME_B, new_club, play


def test_results_have_a_column_for_each_counted_statistic():
    columns = {field.name for field in ClubResult._meta.get_fields()}
    assert {statistic.name for statistic in COUNTED} <= columns


def test_no_trump_contracts_stored_by_seat(admin):
    club = new_club(admin)
    game = play(club, GAME_A)

    rows = ClubResult.objects.filter(game=game).order_by("seat")

    # Bilal, seat 1, takes and makes a 5 NT in game A; nobody else plays without trump.
    assert [(row.no_trump_taken, row.no_trump_made) for row in rows] == [
        (0, 0),
        (1, 1),
        (0, 0),
        (0, 0),
    ]


def test_no_trump_contracts_on_the_season_print_and_player_pages(admin, client):
    club = new_club(admin)
    play(club, GAME_A)
    play(club, GAME_B)
    client.force_login(admin)
    bilal = Member.objects.get(club=club, name="Bilal")

    season = client.get("/clubs/cafe/seasons/now/")
    printed = client.get("/clubs/cafe/seasons/now/print")
    player = client.get(f"/clubs/cafe/players/{bilal.pk}/")

    row = next(row for row in season.context["rows"] if row.player == "Bilal")
    assert (row.no_trump_taken, row.no_trump_made, row.no_trump_made_percent) == (1, 1, 100)
    shown = [
        "No-trump contracts made" in page.content.decode() for page in (season, printed, player)
    ]
    assert shown == [True, True, True]
    assert (player.context["stats"].no_trump_made, player.context["stats"].no_trump_taken) == (
        1,
        1,
    )


def test_no_trump_contracts_on_the_pdf_in_french(admin, client):
    club = new_club(admin)
    play(club, GAME_A)
    client.force_login(admin)

    response = client.get("/clubs/cafe/seasons/now/standings.pdf", HTTP_ACCEPT_LANGUAGE="fr")

    text = " ".join(PdfReader(io.BytesIO(response.content)).pages[0].extract_text().split())
    assert ("SA pris" in text, "SA réussis" in text) == (True, True)


def test_no_trump_contracts_not_in_the_csv(admin, client):
    club = new_club(admin)
    play(club, GAME_A)
    client.force_login(admin)

    response = client.get("/clubs/cafe/seasons/now/standings.csv")

    assert response.content.decode().splitlines()[0] == ",".join(CSV_HEADER)
    assert "no_trump" not in response.content.decode()


def test_no_trump_contracts_rebuilt_equal_to_kept(admin):
    club = new_club(admin)
    play(club, GAME_A)
    kept = list(ClubResult.objects.values_list("no_trump_taken", "no_trump_made"))

    rebuild(club)

    assert list(ClubResult.objects.values_list("no_trump_taken", "no_trump_made")) == kept


def test_no_trump_migration_counts_the_games_already_counted(admin, transactional_db):
    club = new_club(admin)
    play(club, GAME_A)
    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0009_statistic_columns")])
    executor.loader.build_graph()

    executor.migrate(executor.loader.graph.leaf_nodes())

    counted = ClubResult.objects.order_by("seat").values_list("no_trump_taken", "no_trump_made")
    assert list(counted) == [(0, 0), (1, 1), (0, 0), (0, 0)]
