"""A club's league pages: a season's standings (page, CSV, print page, PDF), a player's page
and the club's records.jsonl, against figures worked out by hand in the tests."""

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from openskill.models import PlackettLuce
from pypdf import PdfReader

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Club, Member
from scoring.engine import Rules, loads
from scoring.engine.league import CSV_HEADER
from scoring.table import services
from tests.clubs.league_games import (
    GAME_A,
    GAME_B,
    NAMES,
    RANKS_A,
    RANKS_B,
    imported,
    new_club,
    play,
    won_by,
)
from tests.svg import geometry, unreadable


def independent_ratings(games):
    """OpenSkill's Plackett-Luce over (players, ranks) in order, as the spec says."""
    model = PlackettLuce()
    ratings = {}
    for players, ranks in games:
        teams = [[ratings.get(name) or model.rating()] for name in players]
        for name, team in zip(players, model.rate(teams, ranks=list(ranks)), strict=True):
            ratings[name] = team[0]
    return ratings


@pytest.fixture
def two_games(admin, client):
    club = new_club(admin)
    play(club, GAME_A)
    play(club, GAME_B)
    client.force_login(admin)
    return club


def test_standings_csv_two_games_gives_the_figures_worked_out_by_hand(two_games, client):
    ratings = independent_ratings([(NAMES, RANKS_A), (NAMES, RANKS_B)])

    def rating(name):
        mu, sigma = ratings[name].mu, ratings[name].sigma
        return [f"{mu:.6f}", f"{sigma:.6f}", f"{mu - 3 * sigma:.6f}"]

    response = client.get("/clubs/cafe/seasons/now/standings.csv")

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="cafe-now-standings.csv"'
    assert rows == [
        list(CSV_HEADER),
        ["1", "Bilal", "2", "1", "5", "24", "4", "4", "0", "0", "0", "3", *rating("Bilal")],
        ["2", "Chafik", "2", "1", "3", "22", "5", "4", "1", "0", "0", "2", *rating("Chafik")],
        ["3", "Amina", "2", "0", "3", "9", "1", "1", "0", "1", "0", "2", *rating("Amina")],
        ["4", "Dalila", "2", "0", "1", "2", "1", "0", "1", "0", "1", "-7", *rating("Dalila")],
    ]
    assert response.content.startswith(b"rank,player,games,wins,league_points,points,taken,")
    assert response.content.count(b"\r\n") == 5


def test_standings_csv_names_that_start_a_formula_are_written_as_text(admin, client):
    club = new_club(admin)
    play(club, GAME_A, names=("@SUM(1+1)", "=cmd|' /C calc'!A0", "-2+3+cmd", "+1+cmd"))
    client.force_login(admin)

    response = client.get("/clubs/cafe/seasons/now/standings.csv")

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert [row[:2] for row in rows] == [
        ["rank", "player"],
        ["1", "'=cmd|' /C calc'!A0"],
        ["2", "'@SUM(1+1)"],
        ["3", "'+1+cmd"],
        ["4", "'-2+3+cmd"],
    ]
    assert [row[5] for row in rows[1:]] == ["21", "8", "3", "1"]


@pytest.mark.smoke
def test_season_page_two_games_lists_players_in_order_with_their_figures(two_games, client):
    response = client.get("/clubs/cafe/seasons/now/")

    rows = response.context["rows"]
    assert response.status_code == 200
    assert [row.player for row in rows] == ["Bilal", "Chafik", "Amina", "Dalila"]
    assert [(row.rank, row.league_points, row.wins, row.points) for row in rows] == [
        (1, 5, 1, 24),
        (2, 3, 1, 22),
        (3, 3, 0, 9),
        (4, 1, 0, 2),
    ]
    assert [(row.taken, row.made, row.made_percent) for row in rows] == [
        (4, 4, 100),
        (5, 4, 80),
        (1, 1, 100),
        (1, 0, 0),
    ]
    assert [row.money for row in rows] == ["€1.50", "€1.00", "€1.00", "-€3.50"]
    assert response.context["games"] == 2


def test_season_page_two_games_shows_links_money_and_rating_sentence(two_games, client):
    chafik = Member.objects.get(club=two_games, name="Chafik")

    html = client.get("/clubs/cafe/seasons/now/").content.decode()

    assert f'href="/clubs/cafe/players/{chafik.pk}/"' in html
    assert 'href="/clubs/cafe/seasons/now/standings.csv"' in html
    assert 'href="/clubs/cafe/seasons/now/print"' in html
    assert 'href="/clubs/cafe/seasons/now/standings.pdf"' in html
    assert "-€3.50" in html
    assert html.count("The rating is a player&#x27;s estimated skill") == 1


def test_season_page_rating_is_shown_with_one_decimal(two_games, client):
    ratings = independent_ratings([(NAMES, RANKS_A), (NAMES, RANKS_B)])
    bilal = ratings["Bilal"]

    html = client.get("/clubs/cafe/seasons/now/").content.decode()

    assert f"<b>{bilal.mu - 3 * bilal.sigma:.1f}</b>" in html


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/cafe/seasons/now/",
        "/clubs/cafe/seasons/now/standings.csv",
        "/clubs/cafe/seasons/now/print",
        "/clubs/cafe/seasons/now/standings.pdf",
        "/clubs/cafe/records.jsonl",
    ],
)
def test_private_club_page_refuses_an_account_not_in_the_club(admin, client, path):
    new_club(admin)
    client.force_login(get_user_model().objects.create_user("stranger"))

    response = client.get(path)

    assert response.status_code == 403


@pytest.mark.parametrize(
    "path", ["/clubs/cafe/seasons/now/", "/clubs/cafe/seasons/now/standings.csv"]
)
def test_private_club_page_signed_out_is_sent_to_log_in(admin, client, path):
    new_club(admin)

    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_public_club_season_page_signed_out_answers(admin, client):
    new_club(admin, public=True)

    response = client.get("/clubs/cafe/seasons/now/")

    assert response.status_code == 200
    assert "No game has counted in this season yet." in response.content.decode()


def test_season_unknown_slug_is_not_found(two_games, client):
    response = client.get("/clubs/cafe/seasons/later/")

    assert response.status_code == 404


def test_season_game_finished_outside_its_days_is_not_counted(admin, client):
    club = new_club(admin)
    club_services.create_season(
        club=club,
        name="2020",
        slug="2020",
        first_day=date(2020, 1, 1),
        last_day=date(2020, 12, 31),
        points=(3, 2, 1, 0),
    )
    players = ("Amina", "Bilal", "Chafik", "Dalila")
    in_2020 = datetime(2020, 6, 15, 20, 0, tzinfo=UTC)
    # 23:30 on 31 December in UTC is already 1 January 2021 in Paris: after the season.
    new_year_in_paris = datetime(2020, 12, 31, 23, 30, tzinfo=UTC)
    imported(
        club,
        admin,
        [
            won_by(0, players, in_2020, "june"),
            won_by(1, players, new_year_in_paris, "new-year"),
            won_by(2, players, timezone.now() - timedelta(days=1), "recent"),
        ],
    )
    client.force_login(admin)

    response = client.get("/clubs/cafe/seasons/2020/standings.csv")

    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert [(row[1], row[2], row[3]) for row in rows[1:]] == [
        ("Amina", "1", "1"),
        ("Bilal", "1", "0"),
        ("Chafik", "1", "0"),
        ("Dalila", "1", "0"),
    ]


def test_standings_print_page_answers_without_links_to_players(two_games, client):
    response = client.get("/clubs/cafe/seasons/now/print")

    html = response.content.decode()
    assert response.status_code == 200
    assert "/clubs/cafe/players/" not in html
    assert 'class="league-table"' in html
    assert "data-print" in html


def forty_players(club, admin):
    """Ten games of four new players each: forty players in the season."""
    now = timezone.now() - timedelta(hours=1)
    imported(
        club,
        admin,
        [
            won_by(
                game % 4,
                [f"Player {game * 4 + seat + 1:02d} Longname" for seat in range(4)],
                now + timedelta(minutes=game),
                f"forty-{game}",
            )
            for game in range(10)
        ],
    )


def test_standings_pdf_forty_players_fit_one_a4_page(admin, client):
    club = new_club(admin)
    forty_players(club, admin)
    client.force_login(admin)

    response = client.get("/clubs/cafe/seasons/now/standings.pdf")

    reader = PdfReader(io.BytesIO(response.content))
    text = reader.pages[0].extract_text()
    assert response.content[:4] == b"%PDF"
    assert response["Content-Type"] == "application/pdf"
    assert len(reader.pages) == 1
    assert (
        round(float(reader.pages[0].mediabox.width)),
        round(float(reader.pages[0].mediabox.height)),
    ) == (595, 842)
    assert ("Player 01 Longname" in text, "Player 40 Longname" in text) == (True, True)


def test_standings_pdf_in_arabic_answers(two_games, client):
    response = client.get("/clubs/cafe/seasons/now/standings.pdf", HTTP_ACCEPT_LANGUAGE="ar")

    assert response.content[:4] == b"%PDF"
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 1


def test_player_page_two_games_gives_contracts_by_bid_and_trump(two_games, client):
    chafik = Member.objects.get(club=two_games, name="Chafik")

    response = client.get(f"/clubs/cafe/players/{chafik.pk}/")

    stats = response.context["stats"]
    assert response.status_code == 200
    assert (stats.games, stats.wins, stats.points, stats.points_per_game) == (2, 1, 22, 11.0)
    # Chafik took a 3♦ (missed) and four 4♠ (made).
    assert [(line.symbol, line.taken, line.made, line.made_percent) for line in stats.by_bid] == [
        ("3", 1, 0, 0),
        ("4", 4, 4, 100),
        ("5", 0, 0, None),
        ("6", 0, 0, None),
    ]
    assert [(line.symbol, line.taken, line.made) for line in stats.by_trump] == [
        ("♠", 4, 4),
        ("♥", 0, 0),
        ("♦", 1, 0),
        ("♣", 0, 0),
        ("NT", 0, 0),
    ]
    assert (stats.boites, stats.boulmous_made, stats.boulmous_missed, stats.units) == (1, 0, 0, 2)
    assert stats.money == "€1.00"


@pytest.mark.smoke
def test_player_page_two_games_gives_head_to_head(two_games, client):
    amina = Member.objects.get(club=two_games, name="Amina")

    response = client.get(f"/clubs/cafe/players/{amina.pk}/")

    # Amina's ranks 2 then 3; Bilal's 1, 2; Chafik's 4, 1; Dalila's 3, 4.
    meetings = response.context["stats"].head_to_head
    assert [(m.name, m.games, m.ahead, m.behind, m.level) for m in meetings] == [
        ("Bilal", 2, 0, 2, 0),
        ("Chafik", 2, 1, 1, 0),
        ("Dalila", 2, 2, 0, 0),
    ]


def test_player_page_two_games_lists_them_newest_first_with_a_rating_chart(two_games, client):
    bilal = Member.objects.get(club=two_games, name="Bilal")
    ratings = independent_ratings([(NAMES, RANKS_A), (NAMES, RANKS_B)])

    response = client.get(f"/clubs/cafe/players/{bilal.pk}/")

    stats = response.context["stats"]
    html = response.content.decode()
    assert [(game.rank, game.total) for game in stats.recent] == [(2, 3), (1, 21)]
    assert [other.name for other in stats.recent[0].others] == ["Amina", "Chafik", "Dalila"]
    assert f'href="/games/{stats.recent[0].public_id}/"' in html
    assert stats.rating.mu == pytest.approx(ratings["Bilal"].mu, abs=1e-9)
    assert len(stats.chart.points.split()) == 3
    assert "<polyline" in html


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_player_page_chart_coordinates_are_numbers_svg_reads_in_every_language(
    two_games, client, lang
):
    bilal = Member.objects.get(club=two_games, name="Bilal")

    html = client.get(f"/clubs/cafe/players/{bilal.pk}/", HTTP_ACCEPT_LANGUAGE=lang)
    html = html.content.decode()

    drawn = dict(geometry(html))
    assert (f'<html lang="{lang}"' in html, "cy" in drawn, unreadable(html)) == (True, True, [])


def test_player_page_of_another_club_is_not_found(two_games, client):
    other = Club.objects.create(name="Other", slug="other")
    stranger = Member.objects.create(club=other, name="Zed", key="zed")

    response = client.get(f"/clubs/cafe/players/{stranger.pk}/")

    assert response.status_code == 404


def test_player_page_without_games_answers(two_games, client):
    newcomer = member_services.add_member(club=two_games, name="Ezzedine")

    response = client.get(f"/clubs/cafe/players/{newcomer.pk}/")

    assert response.status_code == 200
    assert response.context["stats"].games == 0


def test_records_jsonl_lines_parse_back_in_finishing_order(admin, client):
    club = new_club(admin)
    club_services.create_season(
        club=club,
        name="2020",
        slug="2020",
        first_day=date(2020, 1, 1),
        last_day=date(2020, 12, 31),
        points=(3, 2, 1, 0),
    )
    # A game outside the club made the player "amina": her seats say so, the club "Amina".
    services.create_game(names=("amina", *NAMES[1:]), rules=Rules(), first_dealer=0)
    # Imported out of order.
    imported(
        club,
        admin,
        [
            won_by(1, NAMES, datetime(2021, 3, 1, 12, tzinfo=UTC), "third"),
            won_by(0, NAMES, datetime(2020, 5, 1, 12, tzinfo=UTC), "first"),
            won_by(2, NAMES, datetime(2020, 12, 31, 23, 30, tzinfo=UTC), "second"),
        ],
    )
    played = play(club, GAME_A)
    client.force_login(admin)

    response = client.get("/clubs/cafe/records.jsonl")

    lines = b"".join(response.streaming_content).decode("utf-8").splitlines()
    records = [loads(line) for line in lines]
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="cafe-records.jsonl"'
    assert [record.about.id for record in records] == [
        "first",
        "second",
        "third",
        played.record_id,
    ]
    assert [record.about.season for record in records] == ["2020", None, None, "now"]
    assert {record.about.club for record in records} == {"Café des Sports"}
    assert {record.players for record in records} == {NAMES}
    assert records[0].about.finished_at == datetime(2020, 5, 1, 12, tzinfo=UTC)
    assert [record.score().winner for record in records] == [0, 2, 1, 1]
    assert all(line.startswith('{"format":"boulmous/1",') for line in lines)


def test_records_jsonl_read_in_chunks_gives_every_game(admin, client):
    from scoring.clubs.league.pages import records_lines

    club = new_club(admin)
    start = timezone.now() - timedelta(hours=2)
    imported(
        club,
        admin,
        [won_by(n % 4, NAMES, start + timedelta(minutes=n), f"g{n}") for n in range(5)],
    )

    lines = list(records_lines(club, chunk=2))

    assert [loads(line).about.id for line in lines] == ["g0", "g1", "g2", "g3", "g4"]


def many_games(club, admin, count, prefix):
    """``count`` games among eight players, the tables turning."""
    players = [f"P{number}" for number in range(8)]
    start = timezone.now() - timedelta(days=1)
    imported(
        club,
        admin,
        [
            won_by(
                game % 4,
                [players[(game + seat * 3) % 8] for seat in range(4)],
                start + timedelta(minutes=game),
                f"{prefix}-{game}",
            )
            for game in range(count)
        ],
    )


def queries_of(client, path):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
        assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path", ["/clubs/cafe/seasons/now/", "/clubs/cafe/seasons/now/standings.csv"]
)
def test_season_queries_are_few_and_the_same_for_one_game_and_many(
    admin, client, django_assert_max_num_queries, path
):
    club = new_club(admin)
    many_games(club, admin, 1, "one")
    client.force_login(admin)
    one = queries_of(client, path)
    many_games(club, admin, 40, "many")

    with django_assert_max_num_queries(12):
        many = queries_of(client, path)

    assert many == one


@pytest.mark.smoke
def test_all_time_standings_add_up_every_season_and_list_each_winner(admin, client):
    club = new_club(admin)
    club_services.create_season(
        club=club,
        name="2020",
        slug="2020",
        first_day=date(2020, 1, 1),
        last_day=date(2020, 12, 31),
        points=(3, 2, 1, 0),
    )
    players = ("Amina", "Bilal", "Chafik", "Dalila")
    june = datetime(2020, 6, 15, 20, 0, tzinfo=UTC)
    imported(
        club,
        admin,
        [
            won_by(1, players, june, "a"),
            won_by(1, players, june + timedelta(days=1), "b"),
            won_by(2, players, timezone.now() - timedelta(days=1), "c"),
        ],
    )
    client.force_login(admin)

    response = client.get("/clubs/cafe/standings/")

    rows = [(row.player, row.games, row.wins) for row in response.context["rows"]]
    html = response.content.decode()
    assert response.status_code == 200
    assert rows[0] == ("Bilal", 3, 2)
    assert sorted(rows) == [("Amina", 3, 0), ("Bilal", 3, 2), ("Chafik", 3, 1), ("Dalila", 3, 0)]
    archive = [(season.slug, winners) for season, winners in response.context["archive"]]
    assert sorted(archive) == [("2020", ["Bilal"]), ("now", ["Chafik"])]
    club_page = client.get("/clubs/cafe/").content.decode()
    assert ("won by Bilal" in html, 'href="/clubs/cafe/standings/"' in club_page) == (True, True)


def test_all_time_standings_queries_grow_with_the_seasons_only(admin, client):
    club = new_club(admin)
    client.force_login(admin)
    players = ("Amina", "Bilal", "Chafik", "Dalila")
    imported(club, admin, [won_by(0, players, timezone.now() - timedelta(days=1), "x")])
    with CaptureQueriesContext(connection) as few:
        client.get("/clubs/cafe/standings/")
    imported(
        club,
        admin,
        [
            won_by(n % 4, players, timezone.now() - timedelta(hours=n + 2), f"y{n}")
            for n in range(6)
        ],
    )

    with CaptureQueriesContext(connection) as more:
        client.get("/clubs/cafe/standings/")

    assert len(few) == len(more)


def test_player_page_queries_are_few_and_the_same_for_one_game_and_many(
    admin, client, django_assert_max_num_queries
):
    club = new_club(admin)
    many_games(club, admin, 1, "one")
    client.force_login(admin)
    path = f"/clubs/cafe/players/{Member.objects.get(club=club, name='P0').pk}/"
    one = queries_of(client, path)
    many_games(club, admin, 40, "many")

    with django_assert_max_num_queries(12):
        many = queries_of(client, path)

    assert many == one


def test_player_page_someone_met_who_is_no_member_is_named_as_his_rows_name_him(two_games, client):
    amina = Member.objects.get(club=two_games, name="Amina")
    Member.objects.filter(club=two_games, name="Dalila").delete()

    response = client.get(f"/clubs/cafe/players/{amina.pk}/")

    meetings = response.context["stats"].head_to_head
    assert [(m.name, m.member_id is None, m.games) for m in meetings] == [
        ("Bilal", False, 2),
        ("Chafik", False, 2),
        ("Dalila", True, 2),
    ]
