"""Bad input of any kind to any API address: a JSON error, never a 500, and nothing stored
(issue 39). Each example sends a route's own method with path parameters that are NUL
bytes, overlong, not UTF-8 or of the wrong type, and bodies that are random JSON, JSON of
the wrong shape, not JSON or not UTF-8, with or without the admin's token."""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.accounts.tokens import create_token
from scoring.clubs import services as club_services
from scoring.clubs.models import ClubChange, Member, Season
from scoring.table.models import Change, Game, Seat
from scoring.table.models import Hand as HandRow
from tests.api.factories import make_club
from tests.factories import NAMES

fuzz = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ROUTES = (
    ("GET", "/api/v1/clubs/{club}"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/standings"),
    ("GET", "/api/v1/clubs/{club}/games"),
    ("GET", "/api/v1/clubs/{club}/players/{number}"),
    ("GET", "/api/v1/clubs/{club}/nights"),
    ("GET", "/api/v1/clubs/{club}/nights/{number}"),
    ("GET", "/api/v1/clubs/{club}/changes"),
    ("GET", "/api/v1/games/{game}"),
    ("POST", "/api/v1/games/{game}/hands"),
    ("PUT", "/api/v1/games/{game}/hands/{number}"),
    ("DELETE", "/api/v1/games/{game}/hands/{number}"),
)
# Path parameters the API cannot take: percent-encoded as a client sends them.
NASTY = st.sampled_from(
    [
        "%00",
        "a%00b",
        "1%00",
        "%FF%FE",
        "%C3%28",
        "%ED%A0%80",  # a lone surrogate, in UTF-8's shape
        "-1",
        "0",
        "1.5",
        "1e3",
        "NaN",
        str(2**63),
        "9" * 40,
        "%D9%A3",  # an Arabic-Indic three
        "%20",
        "..",
        "%2F",
    ]
)
SEGMENT = st.one_of(
    NASTY,
    st.text(max_size=30).map(lambda text: quote(text, safe="")),
    st.builds(
        lambda char, length: quote(char * length, safe=""), st.characters(), st.integers(41, 3000)
    ),
    st.binary(max_size=20).map(lambda raw: quote(raw, safe="")),
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = (
    "number",
    "token",
    "taker",
    "bid",
    "trump",
    "tricks",
    "void",
    "calls",
    "discard_after_end",
)
HAND_LIKE = st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=len(FIELDS))
BODY = st.one_of(
    HAND_LIKE.map(lambda body: json.dumps(body).encode()),
    JSON.map(lambda body: json.dumps(body).encode()),
    st.binary(max_size=60),
    st.just(b'{"number": 1, "token": "\\u0000"}'),
    st.just(b"\xff\xfe{}"),
)


@pytest.fixture
def club(db):
    """A public club, a game of it with no hand, and its admin's token."""
    club, admin = make_club(public=True)
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    return club, game, {"HTTP_AUTHORIZATION": f"Bearer {create_token(user=admin, name='x').secret}"}


def rows() -> dict[str, list[dict]]:
    """Every row a request could store."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Game, Seat, HandRow, Change, Member, Season, ClubChange)
    }


@fuzz
@given(
    route=st.sampled_from(ROUTES),
    bad=st.sampled_from(["club", "season", "game", "number"]),
    segment=SEGMENT,
    body=BODY,
    with_token=st.booleans(),
)
def test_api_never_fails_on_bad_paths_or_bodies(club, route, bad, segment, body, with_token):
    found, game, token = club
    method, template = route
    real = {"club": found.slug, "season": "all", "game": game.public_id, "number": "1"}
    path = template.format(**{**real, bad: segment})
    before = rows()

    response = Client(raise_request_exception=False).generic(
        method, path, body, content_type="application/json", **(token if with_token else {})
    )

    event(f"{method} {response.status_code}")
    assert (response.status_code < 500, response["Content-Type"].split(";")[0]) == (
        True,
        "application/json",
    )
    if not 200 <= response.status_code < 300:
        assert rows() == before
