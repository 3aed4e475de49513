"""Never a 500 on the API (issue 39): a path parameter it cannot be (a NUL byte, overlong,
not UTF-8) is a JSON 404, a body over the limit a JSON 413 with the limit, a day at the
calendar's edges an empty or whole list; and the OpenAPI document says what the API does
(public reads need no token, every status answered listed)."""

import json
from datetime import date

import pytest
from django.conf import settings
from django.test import Client

from scoring.clubs import services as club_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from scoring.table.models import Hand as HandRow
from tests.api.factories import make_club
from tests.factories import NAMES

pytestmark = pytest.mark.django_db

BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))


@pytest.fixture
def public():
    """A public club, its season All, and one game it won, by its admin."""
    club, admin = make_club(public=True)
    club_services.create_season(
        club=club,
        name="All",
        slug="all",
        first_day=date(2000, 1, 1),
        last_day=date(2100, 1, 1),
        points=(3, 2, 1, 0),
    )
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    for number in range(1, 5):
        services.record_hand(public_id=game.public_id, number=number, hand=BOULMOUS, token=None)
    return club, admin, game


# --- Finding 8: a path parameter it cannot be ------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/clubs/a%00b"),
        ("get", "/api/v1/clubs/a%00b/games"),
        ("get", "/api/v1/games/a%00b"),
        ("get", "/api/v1/clubs/sfax/seasons/a%00b/standings"),
        ("get", "/api/v1/clubs/a%00b/seasons/all/standings"),
        ("get", "/api/v1/clubs/sfax/players/1%00"),
        ("post", "/api/v1/games/a%00b/hands"),
        ("put", "/api/v1/games/a%00b/hands/1"),
        ("delete", "/api/v1/games/a%00b/hands/1"),
        ("get", "/api/v1/clubs/" + "a" * 5000),
        ("get", "/api/v1/games/%FF%FE"),
        ("get", "/api/v1/clubs/%C3%28/nights"),
    ],
)
def test_path_parameter_with_nul_overlong_or_not_utf8_answers_json_404(public, method, path):
    answer = Client(raise_request_exception=False).generic(
        method.upper(), path, "{}", content_type="application/json"
    )

    assert (answer.status_code, answer["Content-Type"], answer.json()["error"]["code"]) == (
        404,
        "application/json",
        "not_found",
    )


# --- Finding 9: a body over the limit ----------------------------------------------------------


def test_body_over_the_limit_answers_json_413_with_the_limit(public):
    _, _, game = public
    body = json.dumps({"number": 5, "token": "x" * (3 * 1024 * 1024)})

    answer = Client(raise_request_exception=False).post(
        f"/api/v1/games/{game.public_id}/hands", body, content_type="application/json"
    )

    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert (
        answer.status_code,
        answer.json()["error"]["code"],
        answer.json()["error"]["limit"],
    ) == (
        413,
        "too_large",
        limit,
    )
    assert str(limit) in answer.json()["error"]["message"]
    assert HandRow.objects.filter(game=game).count() == 4


# --- Finding 12: days at the calendar's edges --------------------------------------------------


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("until=9999-12-31", 1),
        ("since=0001-01-01", 1),
        ("since=0001-01-01&until=9999-12-31", 1),
        ("since=9999-12-31", 0),
        ("until=0001-01-01", 0),
        ("since=9999-12-31&until=9999-12-31", 0),
    ],
)
def test_games_filtered_to_the_calendars_edges_answer_a_whole_or_empty_list(public, query, count):
    answer = Client(raise_request_exception=False).get(f"/api/v1/clubs/sfax/games?{query}")

    assert (answer.status_code, answer.json()["count"]) == (200, count)


@pytest.mark.parametrize("query", ["until=9999-12-31", "since=0001-01-01", "since=9999-12-31"])
def test_games_page_filtered_to_the_calendars_edges_answers_200(public, query):
    answer = Client(raise_request_exception=False).get(f"/clubs/sfax/games/?{query}")

    assert answer.status_code == 200


# --- Finding 13: the document says what the API does -----------------------------------------


def test_openapi_document_says_reads_need_no_token_and_lists_each_status():
    paths = Client().get("/api/v1/openapi.json").json()["paths"]
    standings = paths["/api/v1/clubs/{club}/seasons/{season}/standings"]["get"]
    record = paths["/api/v1/games/{game_id}/hands"]["post"]

    assert (standings["security"], sorted(standings["responses"])) == (
        [{}, {"Reader": []}],
        ["200", "302", "401", "403", "404", "422", "429"],
    )
    assert (record["security"], "413" in record["responses"], "429" in record["responses"]) == (
        [{"Reader": []}],
        True,
        True,
    )
