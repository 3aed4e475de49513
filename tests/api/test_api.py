"""The read API (issue 22): the same rights as the pages, personal tokens, JSON errors in the
request's language, standings equal to standings.csv, and the OpenAPI document valid."""

import csv
import html
import io
import json
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from openapi_spec_validator import validate

from scoring.accounts.models import ApiToken
from scoring.accounts.tokens import create_token
from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Club, Member, Season
from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from tests.api.factories import make_club
from tests.factories import NAMES

pytestmark = pytest.mark.django_db

BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))


def win(club, owner, names=NAMES):
    game = club_services.start_club_game(
        club=club, names=names, first_dealer=0, owner_id=owner.pk
    ).game
    for number in range(1, 5):
        services.record_hand(public_id=game.public_id, number=number, hand=BOULMOUS, token=None)
    return game


@pytest.fixture
def private():
    club, admin = make_club()
    club_services.create_season(
        club=club,
        name="All",
        slug="all",
        first_day=date(2000, 1, 1),
        last_day=date(2100, 1, 1),
        points=(3, 2, 1, 0),
    )
    game = win(club, admin)
    return club, admin, game


def bearer(secret):
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


# --- Rights and tokens -----------------------------------------------------------------------


def test_private_club_401_without_200_with_a_token_403_for_a_stranger(private):
    _, admin, _ = private
    mine = create_token(user=admin, name="site").secret
    stranger = create_token(user=User.objects.create_user("zied"), name="x").secret
    url = "/api/v1/clubs/sfax"

    nobody = Client().get(url)
    member = Client().get(url, **bearer(mine))
    other = Client().get(url, **bearer(stranger))

    assert (nobody.status_code, member.status_code, other.status_code) == (401, 200, 403)
    assert nobody.json()["error"]["code"] == "unauthorized"
    assert other.json()["error"]["code"] == "forbidden"
    assert member.json()["seasons"][0]["slug"] == "all"


def test_a_session_reads_as_its_account(private):
    _, admin, _ = private
    browser = Client()
    browser.force_login(admin)

    assert browser.get("/api/v1/clubs/sfax/nights").status_code == 200


def test_token_made_on_the_account_page_is_shown_once_and_stored_hashed(private):
    _, admin, _ = private
    browser = Client()
    browser.force_login(admin)

    made = browser.post("/accounts/tokens/new", {"name": "Club website"})
    again = browser.get("/accounts/")

    token = ApiToken.objects.get(user=admin)
    secret = made.context["new_token"].secret
    assert (made.status_code, secret in made.content.decode()) == (200, True)
    assert (secret in again.content.decode(), token.name, secret in token.digest) == (
        False,
        "Club website",
        False,
    )
    assert Client().get("/api/v1/clubs/sfax", **bearer(secret)).status_code == 200


def test_revoked_token_is_refused_at_once(private):
    _, admin, _ = private
    made = create_token(user=admin, name="site")
    browser = Client()
    browser.force_login(admin)

    revoked = browser.post(f"/accounts/tokens/{made.token.pk}/revoke")
    after = Client().get("/api/v1/clubs/sfax", **bearer(made.secret))

    assert (revoked.status_code, ApiToken.objects.count(), after.status_code) == (302, 0, 401)
    assert after.json()["error"]["code"] == "invalid_token"


def test_a_token_revokes_only_its_owners(private):
    _, admin, _ = private
    made = create_token(user=admin, name="site")
    browser = Client()
    browser.force_login(User.objects.create_user("zied"))

    browser.post(f"/accounts/tokens/{made.token.pk}/revoke")

    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize(
    "header", ["Bearer bm_nope", "Bearer ", "Basic abc", "Bearer " + "x" * 500]
)
def test_bad_token_is_a_401_even_for_a_public_club(header):
    make_club(public=True)

    response = Client().get("/api/v1/clubs/sfax", HTTP_AUTHORIZATION=header)

    assert (response.status_code, response.json()["error"]["code"]) == (401, "invalid_token")


@pytest.mark.smoke
def test_public_club_is_read_by_anyone_with_public_names():
    club, admin = make_club(public=True)
    member = member_services.add_member(club=club, name="Karim Mansour")
    member.short_in_public = True
    member.save()
    game = win(club, admin, (NAMES[0], "Karim Mansour", NAMES[2], NAMES[3]))

    listed = Client().get("/api/v1/clubs/sfax/games").json()
    whole = Client().get(f"/api/v1/games/{game.public_id}").json()

    shown = listed["games"][0]["players"]
    assert (shown[1], whole["record"]["players"]) == ("Karim M.", shown)


# --- Errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/v1/clubs/nope", 404),
        ("/api/v1/clubs/sfax/players/abc", 404),
        ("/api/v1/clubs/sfax/players/999999", 404),
        ("/api/v1/clubs/sfax/players/99999999999999999999999", 404),
        ("/api/v1/clubs/sfax/nights/0", 404),
        ("/api/v1/clubs/sfax/seasons/nope/standings", 404),
        ("/api/v1/games/nope", 404),
        ("/api/v1/nothing/here", 404),
        ("/api/v1/clubs/sfax/games?page=0", 422),
        ("/api/v1/clubs/sfax/games?page=abc", 422),
        ("/api/v1/clubs/sfax/games?page=9", 404),
        ("/api/v1/clubs/sfax/games?since=yesterday", 422),
        ("/api/v1/clubs/sfax/games?player=abc", 422),
        ("/api/v1/clubs/sfax/games?player=999999", 422),
        ("/api/v1/clubs/sfax/games?season=nope", 422),
        ("/api/v1/clubs/sfax/games?status=lost", 422),
        ("/api/v1/clubs/sfax/changes?kind=nope", 422),
        ("/api/v1/clubs/sfax/changes?page=0", 422),
    ],
)
def test_bad_input_is_a_json_error_never_a_500(url, status):
    make_club(public=True)

    response = Client().get(url)

    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    assert set(response.json()["error"]) >= {"code", "message"}


def test_writing_is_a_json_405():
    make_club(public=True)

    response = Client().post("/api/v1/clubs/sfax")

    assert (response.status_code, response.json()["error"]["code"]) == (405, "method_not_allowed")


@pytest.mark.parametrize(("language", "word"), [("en", "club"), ("fr", "club"), ("ar", "نادٍ")])
def test_error_message_in_the_language_asked(language, word):
    response = Client().get("/api/v1/clubs/nope", HTTP_ACCEPT_LANGUAGE=language)

    message = response.json()["error"]["message"]
    assert word in message.lower()
    assert (language == "en") == (message == "No club has this address.")


# --- What it answers -------------------------------------------------------------------------


@pytest.mark.smoke
def test_game_is_its_record_and_the_engines_report(private):
    _, admin, game = private
    browser = Client()
    browser.force_login(admin)

    answer = browser.get(f"/api/v1/games/{game.public_id}").json()
    exported = json.loads(browser.get(f"/games/{game.public_id}/record.json").content)

    assert answer["record"] == exported
    assert (answer["report"]["winner"], answer["report"]["totals"]) == (0, [24, 0, 0, 0])


def test_night_with_its_rounds_and_tables(private):
    club, admin, _ = private
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=2)
    members = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members, guests=["Zied"])
    night_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    browser = Client()
    browser.force_login(admin)

    listed = browser.get("/api/v1/clubs/sfax/nights").json()["nights"]
    shown = browser.get(listed[0]["url"]).json()

    assert (listed[0]["rounds_drawn"], len(shown["rounds"])) == (1, 1)
    tables = shown["rounds"][0]["tables"]
    assert (len(tables), len(tables[0]["players"]), len(shown["rounds"][0]["sitting_out"])) == (
        1,
        4,
        1,
    )


def test_player_has_his_pages_figures(private):
    club, admin, _ = private
    browser = Client()
    browser.force_login(admin)
    amina = Member.objects.get(club=club, name=NAMES[0])

    answer = browser.get(f"/api/v1/clubs/sfax/players/{amina.pk}").json()

    assert (answer["name"], answer["counts"]["games"], answer["counts"]["wins"]) == (
        NAMES[0],
        1,
        1,
    )
    assert [line["bid"] for line in answer["by_bid"]] == [3, 4, 5, 6]
    assert answer["by_bid"][3]["made"] == 4


def test_openapi_document_validates():
    document = Client().get("/api/v1/openapi.json").json()

    validate(document)
    assert {
        "/api/v1/clubs/{club}",
        "/api/v1/clubs/{club}/seasons/{season}/standings",
        "/api/v1/clubs/{club}/games",
        "/api/v1/clubs/{club}/players/{player_id}",
        "/api/v1/clubs/{club}/nights",
        "/api/v1/clubs/{club}/nights/{night_id}",
        "/api/v1/clubs/{club}/changes",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/hands",
        "/api/v1/games/{game_id}/hands/{number}",
    } <= set(document["paths"])


def test_docs_page_lists_every_endpoint_with_no_script():
    from scoring.api.api import api

    operations = sum(len(route) for route in api.get_openapi_schema()["paths"].values())
    page = Client().get("/api/v1/docs")

    text = page.content.decode()
    assert (page.status_code, text.count('<section class="endpoint">'), "cdn" in text) == (
        200,
        operations,
        False,
    )
    assert operations >= 11
    assert (
        "curl -H 'Accept-Language: en' -H 'Authorization: Bearer $TOKEN' "
        "http://testserver/api/v1/clubs/demo/changes" in html.unescape(text)
    )
    assert "<script" not in text.split("<main", 1)[-1].split("</main>")[0]


def test_docs_page_says_every_endpoint_and_parameter_in_the_pages_language():
    from scoring.api.api import api
    from scoring.api.docs import PARAMETERS, SUMMARIES

    schema = api.get_openapi_schema()
    operations = [operation for route in schema["paths"].values() for operation in route.values()]
    said = {
        (parameter["in"], parameter["name"])
        for operation in operations
        for parameter in operation.get("parameters", [])
    }

    assert (set(SUMMARIES), set(PARAMETERS)) == (
        {operation["operationId"] for operation in operations},
        said,
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Le numéro de la donne dans la partie, à partir de 1."),
        ("ar", "رقم الجولة في المباراة، بدءًا من 1."),
    ],
)
def test_docs_page_describes_the_parameters_in_the_language_asked(language, words):
    page = Client().get("/api/v1/docs", HTTP_ACCEPT_LANGUAGE=language)

    text = page.content.decode()
    assert (words in text, "in the club&#x27;s zone" in text, "From this day on" in text) == (
        True,
        False,
        False,
    )


# --- The club's history ----------------------------------------------------------------------


@pytest.mark.parametrize("public", [True, False])
def test_changes_for_the_clubs_admins_alone(private, public):
    club, admin, _ = private
    club.public = public
    club.save()
    scorer = User.objects.create_user("scorer")
    member_services.set_role(
        club=club, member_id=Member.objects.get(club=club, name=NAMES[1]).pk, role="scorer"
    )
    Member.objects.filter(club=club, name=NAMES[1]).update(user=scorer)
    stranger = User.objects.create_user("zied")
    url = "/api/v1/clubs/sfax/changes"

    answers = [
        Client().get(url, **bearer(create_token(user=who, name="x").secret))
        for who in (admin, scorer, stranger)
    ]
    nobody = Client().get(url)

    assert [answer.status_code for answer in (*answers, nobody)] == [200, 403, 403, 401]
    assert [answer.json()["error"]["code"] for answer in (*answers[1:], nobody)] == [
        "forbidden",
        "forbidden",
        "unauthorized",
    ]
    assert nobody["WWW-Authenticate"] == 'Bearer realm="boulmous"'
    admins_only = "The club's history is shown to its admins only"
    assert [admins_only in answer.json()["error"]["message"] for answer in answers[1:]] == [
        True,
        public,  # a private club is not shown at all to one who is no member
    ]


def test_changes_are_the_history_pages_lines_newest_first(private):
    club, admin, _ = private
    season = Season.objects.get(club=club)
    edits.delete_season(club=club, season_id=season.pk)
    browser = Client()
    browser.force_login(admin)

    answer = browser.get("/api/v1/clubs/sfax/changes").json()
    page = browser.get("/clubs/sfax/history").context["changes"]

    assert (answer["club"], answer["count"], answer["page"], answer["pages"]) == (
        "sfax",
        len(page),
        1,
        1,
    )
    assert [
        (
            line["id"],
            line["kind"],
            line["words"],
            line["subject"],
            line["into"],
            line["by"],
            line["details"],
        )
        for line in answer["changes"]
    ] == [
        (
            one.change.pk,
            one.change.action,
            one.words,
            one.subject,
            one.into,
            one.change.by_user.username if one.change.by_user else None,
            [vars(detail) for detail in one.details],
        )
        for one in page
    ]
    deleted, created = answer["changes"][0], answer["changes"][1]
    assert (deleted["kind"], deleted["by"], deleted["before"]["name"], deleted["after"]) == (
        "season_deleted",
        None,
        "All",
        None,
    )
    # in the order the database keeps the JSON's keys (PostgreSQL's jsonb sorts them)
    said = {detail["words"]: detail for detail in created["details"]}
    assert (created["kind"], created["after"]["first_day"], said["first day"]) == (
        "season_created",
        "2000-01-01",
        {"words": "first day", "before": None, "after": "Jan 1, 2000"},
    )
    assert answer["changes"][-1]["kind"] == "club_created"


@pytest.mark.parametrize(
    ("language", "words", "day"),
    [
        ("en", "season made", "Jan 1, 2000"),
        ("fr", "saison créée", "1 janv. 2000"),
        ("ar", "إنشاء موسم", "1 جانفي 2000"),
    ],
)
def test_changes_say_each_line_in_the_language_asked(private, language, words, day):
    _, admin, _ = private
    secret = create_token(user=admin, name="site").secret

    url = "/api/v1/clubs/sfax/changes?kind=season_created"
    answer = Client().get(url, HTTP_ACCEPT_LANGUAGE=language, **bearer(secret)).json()

    line = answer["changes"][0]
    days = [detail["after"] for detail in line["details"] if "2000" in detail["after"]]
    assert (answer["count"], line["kind"], line["words"], days[0]) == (
        1,
        "season_created",
        words,
        day,
    )


def test_changes_of_one_kind_50_a_page_and_past_the_last_a_404(private):
    club, admin, _ = private
    for number in range(60):
        member_services.add_member(club=club, name=f"Joueur {number}")
    secret = create_token(user=admin, name="site").secret

    first = Client().get("/api/v1/clubs/sfax/changes?kind=member_added", **bearer(secret))
    second = Client().get("/api/v1/clubs/sfax/changes?kind=member_added&page=2", **bearer(secret))
    past = Client().get("/api/v1/clubs/sfax/changes?kind=member_added&page=3", **bearer(secret))

    assert (first.json()["count"], first.json()["pages"], len(first.json()["changes"])) == (
        63,
        2,
        50,
    )
    assert [line["subject"] for line in second.json()["changes"]][-3:] == list(NAMES[1:][::-1])
    assert (past.status_code, past.json()["error"]["code"]) == (404, "not_found")


# --- Standings -------------------------------------------------------------------------------


def csv_rows(browser, club, season):
    text = browser.get(f"/clubs/{club}/seasons/{season}/standings.csv").content.decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_standings_equal_standings_csv_for_every_season_of_a_demo_club_of_1000_games():
    from django.core.management import call_command

    call_command("demo_club", "--games", "1000", "--seed", "7", stdout=io.StringIO())
    club = Club.objects.get(slug="demo")
    browser = Client()
    seasons = list(Season.objects.filter(club=club))
    compared = 0
    for season in seasons:
        expected = csv_rows(browser, "demo", season.slug)
        answer = browser.get(f"/api/v1/clubs/demo/seasons/{season.slug}/standings").json()
        assert (answer["club"], answer["season"]) == ("demo", season.slug)
        # The CSV's columns in its order, then whether the rating is provisional (league.md,
        # "Ratings people trust"), which the CSV leaves to its columns.
        assert [list(row) for row in answer["rows"]] == [
            [*row, "rating_provisional"] for row in expected
        ]
        assert {type(row["rating_provisional"]) for row in answer["rows"]} <= {bool}
        for row, line in zip(answer["rows"], expected, strict=True):
            for column, value in line.items():
                if column == "player":
                    assert row[column] == value
                elif column.startswith("rating"):
                    assert isinstance(row[column], float)
                    assert f"{row[column]:.6f}" == value
                    assert row[column] == float(value)
                else:
                    assert (type(row[column]), row[column]) == (int, int(value))
                compared += 1
    assert (len(seasons), compared >= 2 * 4 * 15) == (2, True)


# --- Queries ---------------------------------------------------------------------------------


@pytest.fixture
def busy():
    club, admin = make_club(public=True)
    for _ in range(3):
        win(club, admin)
    club_services.create_season(
        club=club,
        name="All",
        slug="all",
        first_day=date(2000, 1, 1),
        last_day=date(2100, 1, 1),
        points=(3, 2, 1, 0),
    )
    for day in (1, 2):
        night_services.create_night(club=club, date=date(2025, 3, day), place="", rounds=2)
    return club, admin


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/api/v1/clubs/sfax", 2),
        ("/api/v1/clubs/sfax/games", 5),
        ("/api/v1/clubs/sfax/games?season=all&since=2020-01-01", 5),
        ("/api/v1/clubs/sfax/nights", 2),
        ("/api/v1/clubs/sfax/ratings", 4),
        # 6: the games won whose result is provisional, which the standings say (40.4)
        ("/api/v1/clubs/sfax/seasons/all/standings", 6),
    ],
)
def test_list_endpoints_query_budget_whatever_the_games(
    busy, django_assert_max_num_queries, url, queries
):
    club, admin = busy
    with django_assert_max_num_queries(queries):
        first = Client().get(url)
    for _ in range(5):
        win(club, admin)
    with django_assert_max_num_queries(queries):
        second = Client().get(url)

    assert (first.status_code, second.status_code) == (200, 200)


def test_token_costs_one_query(busy, django_assert_max_num_queries):
    _, admin = busy
    secret = create_token(user=admin, name="site").secret

    with django_assert_max_num_queries(2 + 2):  # the token and its account; club, member
        response = Client().get("/api/v1/clubs/sfax", **bearer(secret))

    assert response.status_code == 200


def test_changes_cost_the_same_queries_whatever_the_history(busy, django_assert_num_queries):
    club, admin = busy
    secret = create_token(user=admin, name="site").secret
    url = "/api/v1/clubs/sfax/changes"

    # The token with its account; the club and the member; the lines counted, then read.
    with django_assert_num_queries(1 + 2 + 2):
        first = Client().get(url, **bearer(secret))
    for number in range(10):
        member_services.add_member(club=club, name=f"Joueur {number}")
    with django_assert_num_queries(1 + 2 + 2):
        second = Client().get(url, **bearer(secret))

    assert (first.status_code, len(second.json()["changes"])) == (200, 7 + 10)


def test_club_gives_every_house_rule_option_and_the_schema_describes_each():
    make_club(public=True)

    rules = Client().get("/api/v1/clubs/sfax").json()["rules"]
    schema = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]["RulesOut"]

    assert rules == {
        "target": 21,
        "failed_taker": "tricks_minus_bid",
        "stake": "0",
        "currency": "EUR",
        "dealer_must_bid": False,
        "boulmous_doubled": False,
        "confirmation": "off",
        "confirmation_minutes": 15,
    }
    assert (
        schema["properties"]["boulmous_doubled"]["description"],
        schema["properties"]["failed_taker"]["description"],
        schema["properties"]["confirmation"]["description"],
    ) == (
        "A boulmous made scores 12",
        "A taker who misses his bid: tricks_minus_bid, minus_bid",
        "Confirmation: off, each_hand, whole_game",
    )
