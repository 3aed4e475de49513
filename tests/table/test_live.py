"""The live view (issue 13): a page asks what changed since the version it shows, and gets a
304 with nothing from one query, or the fresh fragments with the new version."""

import io
import re
from datetime import date

import psycopg
import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game, Summary
from scoring.table.pages.game import version_of
from scoring.table.views.live_middleware import current_version, unchanged
from tests.clubs.factories import account, make_club, signed_in
from tests.clubs.nights import PLAYERS, night_url, nine_present
from tests.conftest import REDIS_URL
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
    return make_club(amina, points=(5, 3, 1, 0), target=21, players=PLAYERS)


@pytest.fixture
def night(club):
    return night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=None)


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


# --- The early answer (scoring/table/views/live_middleware.py) --------------------------------
# Through Django's own WSGI handler, as gunicorn calls it, outside a test transaction: the
# handler, as it starts each request, closes a connection left in one (the test client
# alone skips that).

REQUESTS = pytest.mark.django_db(transaction=True)
LIVE = "scoring.table.views.live_middleware.LiveMiddleware"
SECURITY_HEADERS = (
    "Location",
    "Strict-Transport-Security",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "X-Frame-Options",
)
"""What Django's SecurityMiddleware and XFrameOptionsMiddleware say, when they say it."""

REACHED = []


class Reached:
    """Right after the early answer in the chain (the ``reached`` fixture puts it there):
    the paths of the requests it left to the rest of the middleware and the view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        REACHED.append(request.path)
        return self.get_response(request)


@pytest.fixture
def reached(settings):
    after = settings.MIDDLEWARE.index(LIVE) + 1
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE[:after],
        f"{__name__}.Reached",
        *settings.MIDDLEWARE[after:],
    ]
    REACHED.clear()
    yield REACHED
    REACHED.clear()


@pytest.fixture
def https(settings):
    """Production's HTTPS settings (docs/deploy.md), HSTS for an hour."""
    settings.ALLOWED_HOSTS = ["live.example"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


def handler(middleware):
    """Django's WSGI handler, as wsgi.py makes it, with this middleware (read as it starts,
    with the security settings of the moment)."""
    with override_settings(MIDDLEWARE=middleware):
        return get_wsgi_application()


def fast_and_full(settings):
    """Django with the early answer, as settings.py has it, and without."""
    return handler(settings.MIDDLEWARE), handler([m for m in settings.MIDDLEWARE if m != LIVE])


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
    answer = application(asked, start_response)
    try:
        body = b"".join(answer)
    finally:
        answer.close()  # as a WSGI server does: Django's request_finished
    return int(answered["status"].split()[0]), answered["headers"], body


def counted(application, path, **environ):
    """:func:`call`, with the number of queries the answer cost."""
    with CaptureQueriesContext(connection) as queries:
        status, headers, body = call(application, path, **environ)
    return status, headers, body, len(queries)


def security(headers):
    return {name: headers.get(name) for name in SECURITY_HEADERS}


@REQUESTS
def test_early_answer_is_the_unchanged_304_from_one_query_before_the_rest(game, reached):
    version = current_version(game.public_id)

    status, headers, body, queries = counted(
        handler(settings.MIDDLEWARE), live_url(game), HTTP_IF_NONE_MATCH=f'"{version}"'
    )

    assert (status, body, queries, reached) == (304, b"", 1, [])
    assert (headers["ETag"], headers["Cache-Control"], headers["Vary"]) == (
        f'"{version}"',
        "private, no-cache",
        "Cookie, Accept-Language, Accept-Encoding",
    )
    assert (headers["X-Frame-Options"], headers["X-Content-Type-Options"]) == ("DENY", "nosniff")
    assert ("Set-Cookie" in headers, "Content-Language" in headers) == (False, False)


@REQUESTS
@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"HTTP_IF_NONE_MATCH": '"1"'}, 200),
        ({"HTTP_IF_NONE_MATCH": None}, 200),
        # Left to the view, which answers HEAD as GET (issue 18): unchanged, a 304.
        ({"REQUEST_METHOD": "HEAD"}, 304),
        ({"QUERY_STRING": "x=1"}, 304),
        ({"HTTP_HOST": "elsewhere.example"}, 400),
        ({"PATH_INFO": "/games/nosuchgame/live"}, 404),
        ({"PATH_INFO": "/games/{gid}/"}, 200),
    ],
    ids=["other version", "no version", "HEAD", "query string", "host", "no game", "game page"],
)
def test_early_answer_leaves_anything_else_to_the_rest(game, reached, environ, expected):
    path = environ.pop("PATH_INFO", live_url(game)).format(gid=game.public_id)
    environ = {"HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"', **environ}

    status, _, _ = call(handler(settings.MIDDLEWARE), path, **environ)

    assert (status, reached) == (expected, [path])


@REQUESTS
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_fast_path_refuses_a_host_as_django_does(game, settings, https, reached, scheme):
    fast, full = fast_and_full(settings)
    ask_with = {
        "HTTP_HOST": "elsewhere.example",
        "HTTP_X_FORWARDED_PROTO": scheme,
        "HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"',
    }

    fast_status, fast_headers, _, fast_queries = counted(fast, live_url(game), **ask_with)
    full_status, full_headers, _, full_queries = counted(full, live_url(game), **ask_with)

    assert (fast_status, fast_queries) == (full_status, full_queries) == (400, 0)
    assert security(fast_headers) == security(full_headers)


@REQUESTS
def test_fast_path_redirects_plain_http_as_django_does(game, settings, https, reached):
    fast, full = fast_and_full(settings)
    ask_with = {
        "HTTP_HOST": "live.example",
        "HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"',
    }

    fast_status, fast_headers, _, fast_queries = counted(fast, live_url(game), **ask_with)
    full_status, full_headers, _, full_queries = counted(full, live_url(game), **ask_with)

    assert (fast_status, fast_queries) == (full_status, full_queries) == (301, 0)
    assert security(fast_headers) == security(full_headers)
    assert fast_headers["Location"] == f"https://live.example{live_url(game)}"


@REQUESTS
def test_fast_path_sends_hsts_as_django_does(game, settings, https, reached):
    fast, full = fast_and_full(settings)
    ask_with = {
        "HTTP_HOST": "live.example",
        "HTTP_X_FORWARDED_PROTO": "https",
        "HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"',
    }

    fast_status, fast_headers, _, fast_queries = counted(fast, live_url(game), **ask_with)
    full_status, full_headers, _, full_queries = counted(full, live_url(game), **ask_with)

    assert (fast_status, fast_queries) == (full_status, full_queries) == (304, 1)
    assert security(fast_headers) == security(full_headers)
    assert fast_headers["Strict-Transport-Security"] == "max-age=3600"
    assert (fast_headers["ETag"], fast_headers["Cache-Control"]) == (
        full_headers["ETag"],
        full_headers["Cache-Control"],
    )
    # The full answer went down the whole chain to the view; the fast one did not.
    assert reached == [live_url(game)]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's in-memory test database is never closed"
)
@REQUESTS
def test_early_answer_reconnects_after_the_database_closed_its_connection(game, reached):
    fast = handler(settings.MIDDLEWARE)
    ask_with = {"HTTP_IF_NONE_MATCH": f'"{current_version(game.public_id)}"'}
    call(fast, live_url(game), **ask_with)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (old,) = cursor.fetchone()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [old])

    # Django's handler, as the request starts, finds the connection dead (its health
    # check) and connects anew: the early answer is given all the same.
    status = call(fast, live_url(game), **ask_with)[0]

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new,) = cursor.fetchone()
    assert (status, new == old, reached) == (304, False, [])


def test_wsgi_application_is_djangos_own_with_the_early_answer_after_its_security(settings):
    # wsgi.py refuses to serve without mail that is sent (pytest-django keeps mail in memory).
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    # With DEBUG off, wsgi.py builds the application only over a shared cache (E003).
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    from boulmous_site import wsgi

    assert type(wsgi.application) is WSGIHandler
    assert settings.MIDDLEWARE[: settings.MIDDLEWARE.index(LIVE) + 1] == [
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        LIVE,
    ]
