"""Production: `check --deploy` in the documented environment, the error pages, the
Content-Security-Policy and cookies, healthz without its database, and gunicorn's
settings and logs."""

import http.client
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.template import loader
from django.urls import path
from django.utils import translation

from boulmous_site import urls as site_urls
from tests.conftest import REDIS_URL

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
LANGUAGES = ["en", "fr", "ar"]
NOT_FOUND = {"en": "Page not found", "fr": "Page introuvable", "ar": "الصفحة غير موجودة"}
FAILED = {"en": "Something went wrong", "fr": "Une erreur s’est produite", "ar": "حدث خطأ"}
POLICY = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "manifest-src 'self'",
]
REQUEST = """
import sys, django
django.setup()
from django.test import Client
response = Client().get(sys.argv[1], secure=True, HTTP_HOST="localhost")
print(response.status_code, response.content.decode())
"""
"""One request through the whole site, in a fresh interpreter, as a phone over HTTPS."""


def boom(request):
    raise RuntimeError("a bug")


# The site's own URLs and 500 handler, and a view that fails: for the tests marked
# ``urls(__name__)`` only.
urlpatterns = [path("boom", boom), *site_urls.urlpatterns]
handler500 = site_urls.handler500


def run(*args, **env):
    """Run a command in the project with nothing in the environment but ``env``."""
    return subprocess.run(
        list(args),
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "boulmous_site.settings", **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def documented_environment():
    """The production environment of docs/deploy.md, with a key of the test's own."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    block = text.split("# /etc/boulmous/env", 1)[1].split("```", 1)[0]
    return {
        **dict(re.findall(r"^([A-Z_]+)=(\S*)", block, re.M)),
        "SECRET_KEY": secrets.token_urlsafe(50),
    }


def free_port():
    """A port nothing listens on, once this returns."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- check --deploy -------------------------------------------------------------------


def test_documented_environment_sets_the_production_settings():
    env = documented_environment()

    assert sorted(env) == [
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "DATABASE_URL",
        "DEFAULT_FROM_EMAIL",
        "EMAIL_HOST",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_HOST_USER",
        "EMAIL_PORT",
        "EMAIL_USE_TLS",
        "REDIS_URL",
        "SECRET_KEY",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SECURE_PROXY_SSL_HEADER",
    ]


def test_check_deploy_finds_nothing_in_the_documented_environment():
    env = documented_environment()

    result = run(sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING", **env)

    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "System check identified no issues (0 silenced).\n",
        "",
    )


# --- The error pages ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_missing_page_answers_404_in_the_site_style(client, settings, language):
    settings.DEBUG = False

    response = client.get("/no/such/page", HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert (response.status_code, f"<h1>{NOT_FOUND[language]}</h1>" in page) == (404, True)
    assert [template.name for template in response.templates[:2]] == ["404.html", "base.html"]


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("language", LANGUAGES)
def test_failing_view_answers_500_in_the_site_style(client, settings, language):
    settings.DEBUG = False
    client.raise_request_exception = False

    response = client.get("/boom", HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert (response.status_code, f"<h1>{FAILED[language]}</h1>" in page) == (500, True)
    assert [template.name for template in response.templates[:2]] == ["500.html", "base.html"]
    # The language switch in the header still posts a CSRF token.
    assert 'name="csrfmiddlewaretoken" value="' in page


def test_500_page_renders_with_an_empty_context_as_djangos_own_handler_does():
    with translation.override("en"):
        page = loader.get_template("500.html").render()

    assert "<h1>Something went wrong</h1>" in page


# --- What the browser is told ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/", "/rules", "/no/such/page", "/healthz"])
def test_every_answer_carries_the_content_security_policy(client, address):
    response = client.get(address)

    assert sorted(response.headers["Content-Security-Policy"].split("; ")) == sorted(POLICY)


@pytest.mark.django_db
def test_language_cookie_is_secure_httponly_and_lax(client):
    response = client.post("/i18n/setlang/", {"language": "ar", "next": "/"})

    cookie = response.cookies["django_language"]
    assert (cookie["secure"], cookie["httponly"], cookie["samesite"]) == (True, True, "Lax")


@pytest.mark.django_db
def test_csrf_cookie_is_secure_httponly_and_lax(client):
    response = client.get("/games/new")

    cookie = response.cookies["csrftoken"]
    assert (cookie["secure"], cookie["httponly"], cookie["samesite"]) == (True, True, "Lax")


# --- healthz --------------------------------------------------------------------------


def test_healthz_without_its_database_answers_503():
    # A real PostgreSQL URL on a port where nothing listens: the connection is refused,
    # as when the database is down.
    database = f"postgres://postgres@127.0.0.1:{free_port()}/boulmous"

    result = run(sys.executable, "-c", REQUEST, "/healthz", SECRET_KEY="x", DATABASE_URL=database)

    status, body = result.stdout.split(" ", 1)
    assert (status, json.loads(body)) == ("503", {"status": "error", "database": "unreachable"})


# --- Logs -----------------------------------------------------------------------------

TIMED = r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] \[\d+\] "


@pytest.mark.parametrize("debug", ["0", "1"])
def test_missing_page_is_logged_once_with_the_time(debug, tmp_path):
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"

    result = run(
        sys.executable,
        "-c",
        REQUEST,
        "/no/such/page",
        DEBUG=debug,
        SECRET_KEY="x",
        DATABASE_URL=database,
    )

    assert (result.stdout[:4], len(result.stderr.splitlines())) == ("404 ", 1)
    assert re.fullmatch(
        TIMED + r"\[WARNING\] django\.request: Not Found: /no/such/page\n", result.stderr
    )


# --- gunicorn -------------------------------------------------------------------------


def gunicorn_settings(**env):
    """gunicorn's settings as boulmous_site/gunicorn.py makes them with ``env``."""
    result = run(
        str(GUNICORN),
        "--print-config",
        "-c",
        "boulmous_site/gunicorn.py",
        "boulmous_site.wsgi",
        **env,
    )
    return dict(re.findall(r"^(\w+) +=[ ]?(.*)$", result.stdout, re.M))


def test_gunicorn_settings_without_environment():
    settings = gunicorn_settings()

    assert {name: settings[name] for name in ("workers", "bind", "forwarded_allow_ips")} == {
        "workers": str(2 * len(os.sched_getaffinity(0)) + 1),
        "bind": "['127.0.0.1:8000']",
        "forwarded_allow_ips": "['127.0.0.1']",
    }
    assert [
        settings[name]
        for name in ("worker_class", "timeout", "graceful_timeout", "keepalive", "max_requests")
    ] == ["sync", "30", "30", "5", "50000"]
    assert [settings[name] for name in ("max_requests_jitter", "accesslog", "errorlog")] == [
        "5000",
        "-",
        "-",
    ]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WEB_CONCURRENCY": "3", "PORT": "9000"}, ("3", "['127.0.0.1:9000']", "['127.0.0.1']")),
        (
            {"BIND": "unix:/run/boulmous.sock", "FORWARDED_ALLOW_IPS": "10.0.0.2", "PORT": "9000"},
            (None, "['unix:/run/boulmous.sock']", "['10.0.0.2']"),
        ),
    ],
)
def test_gunicorn_settings_read_the_environment(env, expected):
    settings = gunicorn_settings(**env)

    workers = settings["workers"] if "WEB_CONCURRENCY" in env else None
    assert (workers, settings["bind"], settings["forwarded_allow_ips"]) == expected


def get(port, address):
    """GET ``address`` from gunicorn as nginx would pass it on; the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}
    connection.request("GET", address, headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status


def wait_for(server, port):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError(f"gunicorn did not start: {server.communicate()}")


ACCESS = re.compile(
    r'127\.0\.0\.1 203\.0\.113\.5 \[[^]]+\] "GET (\S+) HTTP/1\.1" (\d+) \d+ "-" "-" \d+ms'
)


def test_gunicorn_logs_one_line_per_request_and_django_its_warnings_once(tmp_path):
    port = free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": "x",
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO",
        "EMAIL_HOST": "localhost",  # production mails through SMTP; nothing here sends any
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": REDIS_URL,
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
    }
    command = [str(GUNICORN), "-c", "boulmous_site/gunicorn.py", "boulmous_site.wsgi"]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for(server, port)
        statuses = [
            get(port, address) for address in ("/healthz", "/no/such/page", "/manifest.webmanifest")
        ]
    finally:
        server.terminate()
        out, err = server.communicate(timeout=40)

    django_lines = [line for line in err.splitlines() if "django" in line]
    assert statuses == [200, 404, 200]
    assert [ACCESS.fullmatch(line).groups() for line in out.splitlines()] == [
        ("/healthz", "200"),
        ("/no/such/page", "404"),
        ("/manifest.webmanifest", "200"),
    ]
    assert len(django_lines) == 1
    assert re.fullmatch(
        TIMED + r"\[WARNING\] django\.request: Not Found: /no/such/page", django_lines[0]
    )
