"""More than one app server (issue 13): two gunicorn processes over one PostgreSQL database,
as behind a proxy that sends each request to either (docs/deploy.md). A hand saved through
one shows on the game page and in the live view served by the other: every server reads
the game, and its version, from the database; no server keeps any of it."""

import html
import http.client
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.db import connection

from scoring.common.rights import COOKIE
from scoring.engine import Rules
from scoring.table import services
from tests.conftest import REDIS_URL, scorer_cookie
from tests.factories import NAMES, hand_data

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two servers share a PostgreSQL database (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url():
    """The test database, as the servers must reach it."""
    db = settings.DATABASES["default"]
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"


def start(port):
    """gunicorn as boulmous_site/gunicorn.py sets it up, one worker, production settings;
    the tests' secret key, so that the phone's signed rights hold on either server."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": database_url(),
        # One cache for both servers' throttles, as production requires.
        "REDIS_URL": REDIS_URL,
        "SECURE_SSL_REDIRECT": "0",
        "EMAIL_HOST": "localhost",  # production mails through SMTP; nothing here sends any
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
    }
    command = [str(GUNICORN), "-c", "boulmous_site/gunicorn.py", "boulmous_site.wsgi"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def wait_for(server, port):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError(f"gunicorn did not start: {server.communicate()}")


@pytest.fixture
def servers():
    """Two servers, A and B: their ports."""
    ports = [free_port(), free_port()]
    started = [start(port) for port in ports]
    try:
        for server, port in zip(started, ports, strict=True):
            wait_for(server, port)
        yield ports
    finally:
        for server in started:
            server.terminate()
        for server in started:
            server.communicate(timeout=40)


def ask(port, method, address, headers=None, body=None):
    """The status, headers and text of one request to the server on ``port``."""
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    link.request(method, address, body=body, headers=headers or {})
    response = link.getresponse()
    answer = response.status, response.headers, response.read().decode()
    link.close()
    return answer


def test_hand_saved_through_one_server_shows_on_the_other(servers):
    a, b = servers
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    page = f"/games/{game.public_id}/"
    live = f"/games/{game.public_id}/live"
    rights = f"{COOKIE}={scorer_cookie([game.public_id])}"
    _, headers, before = ask(b, "GET", live)
    version = headers["ETag"]
    unchanged = ask(b, "GET", live, {"If-None-Match": version})[0]
    # The phone that started the game opens it on server A, and saves hand 1 there.
    _, headers, shown = ask(a, "GET", page, {"Cookie": rights})
    csrf = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = html.unescape(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown)[1])
    form = {**hand_data(1), "csrfmiddlewaretoken": token}
    saved = ask(
        a,
        "POST",
        f"/games/{game.public_id}/hands",
        {
            "Cookie": f"{rights}; csrftoken={csrf}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        urlencode(form),
    )[0]

    status, headers, fresh = ask(b, "GET", live, {"If-None-Match": version})
    watched = ask(b, "GET", page)[2]

    assert (unchanged, saved, status) == (304, 302, 200)
    assert headers["ETag"].removeprefix("W/") != version
    assert ask(b, "GET", live, {"If-None-Match": headers["ETag"]})[0] == 304
    assert ("Hand 1: Bilal 4♥ made" in before, "Hand 1: Bilal 4♥ made" in fresh) == (False, True)
    assert "Hand 1: Bilal 4♥ made" in watched
    assert "You are watching this game" in watched
