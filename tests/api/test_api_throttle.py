"""The API throttled as a script would meet it: past its figure per address, or per token,
a JSON 429 saying when to come back; a club's phones and pages are not counted with it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.accounts.tokens import create_token
from scoring.infra.throttles import API_REQUESTS

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
