import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.checks import MAIL_NOT_SENT, check_email_backend
from tests.conftest import REDIS_URL
from tests.site.fresh_python import python, settings_value

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
NO_KEY = "SECRET_KEY must be set when DEBUG is off"
LOCAL_THROTTLES = (
    "The throttles count in django.core.cache.backends.locmem.LocMemCache, which is not "
    "shared: each gunicorn worker would count apart, and a restart would forget"
)


def test_settings_without_secret_key_load_with_an_empty_key():
    result = settings_value("repr(settings.SECRET_KEY), settings.DEBUG")

    assert (result.returncode, result.stdout) == (0, "'' False\n")


def test_settings_debug_without_secret_key_use_a_local_key():
    result = settings_value("bool(settings.SECRET_KEY)", DEBUG="1")

    assert result.stdout == "True\n"


def test_check_without_secret_key_fails_naming_the_problem():
    result = python("manage.py", "check")

    assert (result.returncode, "(boulmous.E001) " + NO_KEY in result.stderr) == (1, True)


@pytest.mark.parametrize(
    "env", [{"SECRET_KEY": "x", "EMAIL_HOST": "localhost", "REDIS_URL": REDIS_URL}, {"DEBUG": "1"}]
)
def test_check_passes_with_a_secret_key_mail_and_redis_or_debug(env):
    result = python("manage.py", "check", **env)

    assert (result.returncode, result.stderr) == (0, "")


def test_check_without_redis_refuses_throttles_in_one_process():
    result = python("manage.py", "check", SECRET_KEY="x")

    assert (result.returncode, f"(boulmous.E003) {LOCAL_THROTTLES}" in result.stderr) == (1, True)


def test_migrate_without_redis_refuses_to_start():
    result = python("manage.py", "migrate", "--plan", SECRET_KEY="x")

    assert (result.returncode, "boulmous.E003" in result.stderr) == (1, True)


def test_settings_redis_url_puts_the_cache_in_redis():
    result = settings_value(
        "settings.CACHES['default']['BACKEND'], settings.CACHES['default']['LOCATION']",
        SECRET_KEY="x",
        REDIS_URL=REDIS_URL,
    )

    assert result.stdout == f"django.core.cache.backends.redis.RedisCache {REDIS_URL}\n"


def test_settings_without_redis_url_keep_the_cache_in_memory():
    result = settings_value("settings.CACHES['default']['BACKEND']", DEBUG="1")

    assert result.stdout == "django.core.cache.backends.locmem.LocMemCache\n"


def test_settings_refuse_an_unclear_proxy_address():
    result = settings_value("settings.TRUSTED_PROXIES", FORWARDED_ALLOW_IPS="nginx")

    assert "FORWARDED_ALLOW_IPS='nginx': use addresses or networks" in result.stderr


def test_settings_read_the_proxies_gunicorn_believes():
    result = settings_value("settings.TRUSTED_PROXIES", FORWARDED_ALLOW_IPS="10.0.0.2, ::1")

    assert result.stdout == "['10.0.0.2', '::1']\n"


def test_wsgi_without_secret_key_refuses_to_build_the_application():
    result = python("-c", "import boulmous_site.wsgi")

    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        1,
        "django.core.exceptions.ImproperlyConfigured: " + NO_KEY,
    )


def test_wsgi_with_secret_key_and_redis_builds_the_application():
    result = python(
        "-c",
        "from boulmous_site.wsgi import application",
        SECRET_KEY="x",
        EMAIL_HOST="localhost",
        REDIS_URL=REDIS_URL,
    )

    assert (result.returncode, result.stderr) == (0, "")


def test_wsgi_without_redis_refuses_to_build_the_application():
    result = python("-c", "import boulmous_site.wsgi", SECRET_KEY="x", EMAIL_HOST="localhost")

    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        1,
        f"django.core.exceptions.ImproperlyConfigured: {LOCAL_THROTTLES}: set REDIS_URL",
    )


def test_wsgi_debug_builds_the_application_without_redis():
    result = python("-c", "from boulmous_site.wsgi import application", DEBUG="1")

    assert (result.returncode, result.stderr) == (0, "")


# --- Mail in production (issue 18): never printed into the log ---------------------------


def test_check_in_production_without_email_host_fails_naming_the_problem():
    result = python("manage.py", "check", SECRET_KEY="x")

    assert (result.returncode, f"(boulmous.E002) {MAIL_NOT_SENT}" in result.stderr) == (1, True)


def test_check_deploy_in_production_without_email_host_fails_too():
    result = python("manage.py", "check", "--deploy", SECRET_KEY="x")

    assert (result.returncode, "boulmous.E002" in result.stderr) == (1, True)


def test_wsgi_without_email_host_refuses_to_build_the_application():
    result = python("-c", "import boulmous_site.wsgi", SECRET_KEY="x")

    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        1,
        "django.core.exceptions.ImproperlyConfigured: " + MAIL_NOT_SENT,
    )


@pytest.mark.parametrize("backend", ["console", "filebased", "locmem", "dummy"])
def test_check_email_backend_refuses_every_backend_that_sends_nothing(settings, backend):
    settings.DEBUG = False
    settings.EMAIL_BACKEND = f"django.core.mail.backends.{backend}.EmailBackend"

    assert [error.id for error in check_email_backend(None)] == ["boulmous.E002"]


@pytest.mark.parametrize(
    ("debug", "backend"),
    [(False, "smtp"), (True, "console"), (True, "smtp")],
)
def test_check_email_backend_passes_smtp_or_debug(settings, debug, backend):
    settings.DEBUG = debug
    settings.EMAIL_BACKEND = f"django.core.mail.backends.{backend}.EmailBackend"

    assert check_email_backend(None) == []


def test_score_record_needs_no_secret_key_or_debug():
    path = DATA / "valid" / "tie_plays_on_jpy.json"

    result = python("manage.py", "score_record", str(path))

    assert (result.returncode, json.loads(result.stdout), result.stderr) == (
        0,
        json.loads(path.with_name("tie_plays_on_jpy.expected.json").read_text()),
        "",
    )


def test_score_record_without_secret_key_reports_an_invalid_record_without_traceback():
    path = DATA / "invalid" / "hand_every_problem.json"

    result = python("manage.py", "score_record", str(path))

    assert (result.returncode, result.stdout, "Traceback" in result.stderr) == (1, "", False)
    assert result.stderr == path.with_name("hand_every_problem.errors.txt").read_text()


def test_settings_debug_is_off_unless_set():
    result = settings_value("settings.DEBUG", SECRET_KEY="x")

    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(("value", "expected"), [("1", "True"), ("0", "False"), ("yes", "True")])
def test_settings_debug_reads_flag(value, expected):
    result = settings_value("settings.DEBUG", DEBUG=value, SECRET_KEY="x")

    assert result.stdout.strip() == expected


def test_settings_debug_refuses_unclear_value():
    result = settings_value("settings.DEBUG", DEBUG="maybe")

    assert "DEBUG='maybe': use 1 or 0" in result.stderr


def test_settings_database_url_selects_postgresql():
    result = settings_value(
        "settings.DATABASES['default']['ENGINE']",
        SECRET_KEY="x",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/boulmous",
    )

    assert result.stdout.strip() == "django.db.backends.postgresql"


def test_sqlite_database_writes_ahead_and_syncs_each_commit(tmp_path):
    # A commit appends to the log and syncs it once: a saved hand survives a power cut.
    script = (
        "import django; django.setup(); from django.db import connection; "
        "cursor = connection.cursor(); "
        "print(cursor.execute('PRAGMA journal_mode').fetchone()[0], "
        "cursor.execute('PRAGMA synchronous').fetchone()[0])"
    )
    result = python(
        "-c",
        script,
        SECRET_KEY="x",
        DJANGO_SETTINGS_MODULE="boulmous_site.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )

    assert (result.stdout, result.stderr) == ("wal 2\n", "")


def test_engine_imports_no_django():
    code = (
        "import sys, scoring.engine; "
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'django'))"
    )

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "[]"


SECURE_FLAGS = (
    "settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, settings.LANGUAGE_COOKIE_SECURE"
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "True True True"),
        ({"DEBUG": "1"}, "False False False"),
        ({"SECURE_COOKIES": "0"}, "False False False"),
        ({"DEBUG": "1", "SECURE_COOKIES": "1"}, "True True True"),
    ],
)
def test_settings_cookies_are_secure_unless_debug_or_overridden(env, expected):
    result = settings_value(SECURE_FLAGS, SECRET_KEY="x", **env)

    assert (result.stdout, result.stderr) == (expected + "\n", "")


def test_settings_every_cookie_is_httponly_and_lax():
    result = settings_value(
        "settings.SESSION_COOKIE_HTTPONLY, settings.CSRF_COOKIE_HTTPONLY, "
        "settings.LANGUAGE_COOKIE_HTTPONLY, settings.SESSION_COOKIE_SAMESITE, "
        "settings.CSRF_COOKIE_SAMESITE, settings.LANGUAGE_COOKIE_SAMESITE",
        SECRET_KEY="x",
    )

    assert result.stdout == "True True True Lax Lax Lax\n"


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, "True"), ({"DEBUG": "1"}, "False"), ({"SECURE_SSL_REDIRECT": "0"}, "False")],
)
def test_settings_ssl_redirect_is_on_unless_debug_or_turned_off(env, expected):
    result = settings_value("settings.SECURE_SSL_REDIRECT", SECRET_KEY="x", **env)

    assert result.stdout == expected + "\n"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("HTTP_X_FORWARDED_PROTO", "('HTTP_X_FORWARDED_PROTO', 'https')"),
        ("1", "('HTTP_X_FORWARDED_PROTO', 'https')"),
        ("HTTP_X_SCHEME", "('HTTP_X_SCHEME', 'https')"),
        ("0", "None"),
        ("", "None"),
    ],
)
def test_settings_proxy_ssl_header_reads_a_header_name_or_a_flag(value, expected):
    result = settings_value(
        "settings.SECURE_PROXY_SSL_HEADER", SECRET_KEY="x", SECURE_PROXY_SSL_HEADER=value
    )

    assert result.stdout == expected + "\n"


def test_settings_proxy_ssl_header_refuses_the_header_as_sent():
    result = settings_value(
        "settings.SECURE_PROXY_SSL_HEADER",
        SECRET_KEY="x",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
    )

    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        1,
        "django.core.exceptions.ImproperlyConfigured: SECURE_PROXY_SSL_HEADER='X-Forwarded-Proto': "
        "use 1, 0 or a header's name such as HTTP_X_FORWARDED_PROTO",
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "31536000 False False"),
        ({"DEBUG": "1"}, "0 False False"),
        (
            {
                "SECURE_HSTS_SECONDS": "300",
                "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
                "SECURE_HSTS_PRELOAD": "1",
            },
            "300 True True",
        ),
    ],
)
def test_settings_hsts_lasts_a_year_unless_debug_or_given(env, expected):
    result = settings_value(
        "settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, "
        "settings.SECURE_HSTS_PRELOAD",
        SECRET_KEY="x",
        **env,
    )

    assert result.stdout == expected + "\n"


def test_settings_hsts_seconds_refuses_a_non_number():
    result = settings_value("settings.SECURE_HSTS_SECONDS", SECURE_HSTS_SECONDS="a year")

    assert "SECURE_HSTS_SECONDS='a year': use a number" in result.stderr
