"""The live view (issue 13): a page asks what changed since the version it shows, and gets a
304 with nothing from one query, or the fresh fragments with the new version."""

import io
import re
import time
from datetime import date

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.clubs import services as club_services
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game, Summary
from scoring.table.pages.game import version_of
from scoring.table.views.live import LiveShortcut, current_version, unchanged
from tests.clubs.test_clubs import account, signed_in
from tests.clubs.test_nights import PLAYERS, night_url, nine_present
from tests.factories import NAMES, hand_data

pytestmark = pytest.mark.django_db

BILAL_FOUR = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def organiser(amina):
    return signed_in(amina)


@pytest.fixture
def club(amina):
    """The club Sfax, as the night tests have it: Amina its admin, eight more members."""
    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(target=21),
        points=(5, 3, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    for name in PLAYERS:
        club_services.add_member(club=club, name=name)
    return club


@pytest.fixture
def night(club):
    return club_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=None)


def live_url(game):
    return f"/games/{game.public_id}/live"


def shown_version(html):
    """The version a page, or a live answer, shows: its board's."""
    return re.search(r'id="board" data-version="([^"]*)"', html).group(1)


def record(game, number):
    services.record_hand(public_id=game.public_id, number=number, hand=BILAL_FOUR, token=None)


def ask(client, game, version, **headers):
    return client.get(live_url(game), HTTP_IF_NONE_MATCH=f'"{version}"', **headers)


def test_live_unchanged_answers_304_with_no_body_from_one_query(client, game):
    version = shown_version(client.get(f"/games/{game.public_id}/").text)

    with CaptureQueriesContext(connection) as queries:
        response = ask(client, game, version)

    assert (response.status_code, response.content, len(queries)) == (304, b"", 1)
    assert response.headers["ETag"] == f'"{version}"'
    assert "scoring_summary" in queries[0]["sql"]
    assert "scoring_hand" not in queries[0]["sql"]


def test_live_unchanged_reads_no_session_for_a_signed_in_phone(game, organiser):
    version = shown_version(organiser.get(f"/games/{game.public_id}/").text)

    with CaptureQueriesContext(connection) as queries:
        response = ask(organiser, game, version)

    assert (response.status_code, len(queries)) == (304, 1)


def test_live_after_a_hand_answers_200_with_the_fragments_and_a_new_etag(client, game):
    version = shown_version(client.get(f"/games/{game.public_id}/").text)
    record(game, 1)

    response = ask(client, game, version)

    html = response.text
    assert response.status_code == 200
    assert response.headers["ETag"] not in (f'"{version}"', f'W/"{version}"')
    assert response.headers["ETag"].removeprefix("W/") == f'"{shown_version(html)}"'
    assert ('id="board"' in html, 'id="scores"' in html, 'class="sheet-table"' in html) == (
        True,
        True,
        True,
    )
    assert ("<html" in html, 'id="entry"' in html, "Hand 1: Bilal 4♥ made" in html) == (
        False,
        False,
        True,
    )
    assert ask(client, game, shown_version(html)).status_code == 304


def test_live_for_a_scorer_has_the_edit_links_and_the_next_hand(client, game):
    record(game, 1)

    html = client.get(live_url(game)).text

    assert (f"/games/{game.public_id}/hands/1/edit" in html, "Undo" in html) == (True, True)
    assert re.search(r'<template id="next-hand"[^>]*data-saved="Hand 1 was saved on', html)
    assert 'name="number" value="2"' in html


def test_live_for_a_watcher_has_no_edit_links_and_no_form(watcher, game):
    record(game, 1)

    html = watcher.get(live_url(game)).text

    assert ("/hands/1/edit" in html, "Undo" in html, "next-hand" in html) == (False, False, False)
    assert "You are watching this game" in html


def test_live_without_a_version_answers_200(client, game):
    response = client.get(live_url(game))

    assert (response.status_code, response.headers["Cache-Control"]) == (200, "private, no-cache")


def test_live_for_an_unknown_game_is_404(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/games/nosuchgame/live", HTTP_IF_NONE_MATCH='"1"')

    assert response.status_code == 404
    assert "scoring_summary" in queries[0]["sql"]


def test_live_post_is_refused(client, game):
    assert client.post(live_url(game)).status_code == 405


def test_live_won_game_says_it_is_over(client):
    game = services.create_game(names=NAMES, rules=Rules(target=3), first_dealer=0).game
    record(game, 1)

    html = client.get(live_url(game)).text

    assert ("data-over" in html, "Bilal wins!" in html, "next-hand" in html) == (True, True, False)


def test_game_page_shows_the_version_the_live_view_compares(client, game):
    html = client.get(f"/games/{game.public_id}/").text

    response = client.get(live_url(game))

    assert f'id="game" data-version="{shown_version(html)}"' in html
    assert response.headers["ETag"].removeprefix("W/") == f'"{shown_version(html)}"'


def test_htmx_save_page_shows_the_new_version(client, game):
    response = client.post(f"/games/{game.public_id}/hands", hand_data(1), HTTP_HX_REQUEST="true")

    version = shown_version(response.text)
    assert version == version_of(Summary.objects.get(game=game).changed_at)
    assert ask(client, game, version).status_code == 304


def test_htmx_undo_page_shows_the_new_version(client, game):
    record(game, 1)

    response = client.post(f"/games/{game.public_id}/hands/1/undo", HTTP_HX_REQUEST="true")

    assert ask(client, game, shown_version(response.text)).status_code == 304


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ('"15"', True),
        ('W/"15"', True),
        ('"14", W/"15"', True),
        ('"150"', False),
        ("15", False),
        ("*", False),
        ("", False),
    ],
)
def test_unchanged_reads_if_none_match(header, expected):
    assert unchanged(header, "15") is expected


# --- The organiser's night view -----------------------------------------------------------


def tables(client, night, version=None):
    headers = {"HTTP_HX_REQUEST": "true"}
    if version is not None:
        headers["HTTP_IF_NONE_MATCH"] = f'"{version}"'
    return client.get(night_url(night), **headers)


def tables_version(response):
    return re.search(r'If-None-Match": "\\"([^"\\]+)\\""', response.text).group(1)


def test_night_tables_unchanged_answer_204_with_nothing(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    version = tables_version(tables(organiser, night))

    response = tables(organiser, night, version)

    assert (response.status_code, response.content) == (204, b"")
    assert response.headers["ETag"] == f'"{version}"'


def test_night_tables_after_a_hand_answer_200_with_a_new_version(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    version = tables_version(tables(organiser, night))
    game = (
        Game.objects.filter(club_game__round=night.round_set.get())
        .order_by("club_game__table")
        .first()
    )
    record(game, 1)

    response = tables(organiser, night, version)

    assert response.status_code == 200
    assert response.text.strip().startswith('<section id="tables"')
    assert tables_version(response) != version
    assert tables(organiser, night, tables_version(response)).status_code == 204


def test_night_tables_change_version_with_the_players_present(club, night, organiser):
    version = tables_version(tables(organiser, night))
    nine_present(club, night)

    assert tables(organiser, night, version).status_code == 200


def test_night_page_ignores_the_version_outside_htmx(club, night, organiser):
    version = tables_version(tables(organiser, night))

    response = organiser.get(night_url(night), HTTP_IF_NONE_MATCH=f'"{version}"')

    assert (response.status_code, "check-in" in response.text) == (200, True)
    assert "If-None-Match" not in response.text  # its first ask gets the version


def test_night_tables_unchanged_cost_no_night_state(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    version = tables_version(tables(organiser, night))

    with CaptureQueriesContext(connection) as queries:
        response = tables(organiser, night, version)

    sql = " ".join(query["sql"] for query in queries)
    assert response.status_code == 204
    assert ("scoring_hand" in sql, "scoring_seat" in sql) == (False, False)


# --- The WSGI shortcut (boulmous_site/wsgi.py) --------------------------------------------
# Outside a test transaction: Django's handler, as it starts each request, closes a
# connection left in one (the test client alone skips that).

REQUESTS = pytest.mark.django_db(transaction=True)


class Django:
    """Django's own WSGI application, counting what it is asked: what the shortcut left it."""

    def __init__(self):
        self.handler = get_wsgi_application()
        self.asked = 0

    def __call__(self, environ, start_response):
        self.asked += 1
        return self.handler(environ, start_response)


def call(application, path, **environ):
    """The status, headers and body ``application`` answers a GET of ``path`` with; an
    ``environ`` value None takes the variable out."""
    answered = {}

    def start_response(status, headers, exc_info=None):
        answered.update(status=status, headers=dict(headers))

    base = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "HTTP_HOST": "localhost",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
    }
    asked = {name: value for name, value in {**base, **environ}.items() if value is not None}
    body = b"".join(application(asked, start_response))
    return int(answered["status"].split()[0]), answered["headers"], body


@pytest.fixture
def django_app():
    return Django()


@REQUESTS
def test_shortcut_answers_the_unchanged_ask_alone_from_one_query(game, django_app):
    version = current_version(game.public_id)

    with CaptureQueriesContext(connection) as queries:
        status, headers, body = call(
            LiveShortcut(django_app), live_url(game), HTTP_IF_NONE_MATCH=f'"{version}"'
        )

    assert (status, body, django_app.asked, len(queries)) == (304, b"", 0, 1)
    assert (headers["ETag"], headers["Cache-Control"]) == (f'"{version}"', "private, no-cache")


@REQUESTS
@pytest.mark.parametrize(
    "environ",
    [
        {"HTTP_IF_NONE_MATCH": '"1"'},
        {"HTTP_IF_NONE_MATCH": None},
        {"REQUEST_METHOD": "HEAD"},
        {"QUERY_STRING": "x=1"},
        {"HTTP_HOST": "elsewhere.example"},
        {"HTTP_HOST": None},
    ],
    ids=["other version", "no version", "HEAD", "query string", "host not allowed", "no host"],
)
def test_shortcut_leaves_anything_else_to_django(game, django_app, environ):
    environ = {"HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"', **environ}

    status, _, _ = call(LiveShortcut(django_app), live_url(game), **environ)

    assert (status in (200, 304, 400, 405), django_app.asked) == (True, 1)


@REQUESTS
def test_shortcut_leaves_an_unknown_game_to_django(django_app):
    status, _, _ = call(
        LiveShortcut(django_app), "/games/nosuchgame/live", HTTP_IF_NONE_MATCH='"1"'
    )

    assert (status, django_app.asked) == (404, 1)


@REQUESTS
def test_shortcut_leaves_other_addresses_to_django(game, django_app):
    status, _, _ = call(
        LiveShortcut(django_app), f"/games/{game.public_id}/", HTTP_IF_NONE_MATCH='"1"'
    )

    assert (status, django_app.asked) == (200, 1)


@REQUESTS
def test_shortcut_leaves_plain_http_to_django_where_https_is_required(game, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    ask_with = {"HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"'}
    django_app = Django()  # its middleware reads the settings as it starts
    shortcut = LiveShortcut(django_app)

    plain = call(shortcut, live_url(game), **ask_with)
    secure = call(shortcut, live_url(game), HTTP_X_FORWARDED_PROTO="https", **ask_with)

    assert (plain[0], secure[0], django_app.asked) == (301, 304, 1)
    assert (secure[1]["X-Frame-Options"], secure[1]["X-Content-Type-Options"]) == (
        "DENY",
        "nosniff",
    )
    assert secure[1]["Strict-Transport-Security"] == "max-age=3600"


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's in-memory test database is never closed"
)
@pytest.mark.django_db(transaction=True)
def test_shortcut_reconnects_past_the_connections_age(django_app):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    ask_with = {"HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"'}
    shortcut = LiveShortcut(django_app)
    call(shortcut, live_url(game), **ask_with)
    old = connection.connection
    connection.close_at = time.monotonic() - 1

    status = call(shortcut, live_url(game), **ask_with)[0]

    assert (status, connection.connection is old, django_app.asked) == (304, False, 0)


def test_wsgi_application_is_the_shortcut_in_front_of_django():
    from boulmous_site import wsgi

    assert isinstance(wsgi.application, LiveShortcut)
    assert wsgi.application.application is wsgi.django_application
