"""The API throttled as a script would meet it: past its figure per address, or per token,
a JSON 429 saying when to come back; a club's phones and pages are not counted with it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.accounts.tokens import create_token
from scoring.engine import Rules
from scoring.infra.throttles import API_REQUESTS
from scoring.table import services
from tests.factories import NAMES

pytestmark = pytest.mark.django_db

ADDRESS = "/api/v1/clubs/nowhere"


def test_api_answers_429_past_its_figure_per_address_and_not_before(small_limits):
    reader = Client()

    answers = {reader.get(ADDRESS).status_code for _ in range(API_REQUESTS.count)}
    refused = reader.get(ADDRESS, HTTP_ACCEPT_LANGUAGE="fr")

    body = refused.json()["error"]
    assert answers == {404}
    assert (refused.status_code, body["code"]) == (429, "too_many_requests")
    assert 0 < int(refused["Retry-After"]) <= API_REQUESTS.seconds
    assert body["message"].startswith("Trop de requêtes")


def test_api_counts_a_token_apart_from_its_address(small_limits):
    user = User.objects.create_user("reader", password="x")
    secret = create_token(user=user, name="script").secret
    reader = Client()
    for _ in range(API_REQUESTS.count):
        reader.get(ADDRESS)

    with_token = reader.get(ADDRESS, HTTP_AUTHORIZATION=f"Bearer {secret}")
    page = reader.get("/")

    assert (reader.get(ADDRESS).status_code, with_token.status_code) == (429, 404)
    assert page.status_code == 200


SPELLINGS = ("Bearer {}", "bearer {}", "BEARER {}", "Bearer  {}", "Bearer \t{}", "Bearer {} ")


def test_api_counts_a_token_as_one_however_its_header_is_spelt(small_limits):
    user = User.objects.create_user("reader", password="x")
    secret = create_token(user=user, name="script").secret
    reader = Client()
    for _ in range(API_REQUESTS.count):
        reader.get(ADDRESS, HTTP_AUTHORIZATION=f"Bearer {secret}")

    answers = [
        reader.get(ADDRESS, HTTP_AUTHORIZATION=spelling.format(secret)).status_code
        for spelling in SPELLINGS
    ]

    assert answers == [429] * len(SPELLINGS)


def test_api_counts_a_scorer_link_as_one_however_its_header_is_spelt(small_limits):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0, owner_id=None).game
    secret = services.make_scorer_link(public_id=game.public_id).secret
    reader = Client()
    for _ in range(API_REQUESTS.count):
        reader.get(ADDRESS, HTTP_AUTHORIZATION=f"Bearer {secret}")

    answers = [
        reader.get(ADDRESS, HTTP_AUTHORIZATION=spelling.format(secret)).status_code
        for spelling in SPELLINGS
    ]

    assert answers == [429] * len(SPELLINGS)


def test_api_counts_secrets_that_are_no_token_by_address(small_limits):
    reader = Client()
    answers = [
        reader.get(ADDRESS, HTTP_AUTHORIZATION=f"Bearer made-up-{number}").status_code
        for number in range(API_REQUESTS.count + 1)
    ]

    assert answers == [401] * API_REQUESTS.count + [429]


def test_api_counts_ipv4_mapped_addresses_apart(small_limits):
    for _ in range(API_REQUESTS.count):
        Client(REMOTE_ADDR="::ffff:10.0.0.1").get(ADDRESS)

    refused = Client(REMOTE_ADDR="::ffff:10.0.0.1").get(ADDRESS)
    plain = Client(REMOTE_ADDR="10.0.0.1").get(ADDRESS)
    other = Client(REMOTE_ADDR="::ffff:10.0.0.2").get(ADDRESS)

    assert (refused.status_code, plain.status_code, other.status_code) == (429, 429, 404)
