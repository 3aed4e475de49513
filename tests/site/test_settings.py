import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
NO_KEY = "SECRET_KEY must be set when DEBUG is off"


def python(*args, **env):
    """Run Python in the project with nothing in the environment but ``env``."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def settings_value(expression, **env):
    """Evaluate ``expression`` on the settings in a fresh interpreter with ``env``."""
    return python("-c", f"from boulmous_site import settings; print({expression})", **env)


def test_settings_without_secret_key_load_with_an_empty_key():
    result = settings_value("repr(settings.SECRET_KEY), settings.DEBUG")

    assert (result.returncode, result.stdout) == (0, "'' False\n")


def test_settings_debug_without_secret_key_use_a_local_key():
    result = settings_value("bool(settings.SECRET_KEY)", DEBUG="1")

    assert result.stdout == "True\n"


def test_check_without_secret_key_fails_naming_the_problem():
    result = python("manage.py", "check")

    assert (result.returncode, "(boulmous.E001) " + NO_KEY in result.stderr) == (1, True)


@pytest.mark.parametrize("env", [{"SECRET_KEY": "x"}, {"DEBUG": "1"}])
def test_check_passes_with_a_secret_key_or_debug(env):
    result = python("manage.py", "check", **env)

    assert (result.returncode, result.stderr) == (0, "")


def test_wsgi_without_secret_key_refuses_to_build_the_application():
    result = python("-c", "import boulmous_site.wsgi")

    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        1,
        "django.core.exceptions.ImproperlyConfigured: " + NO_KEY,
    )


def test_wsgi_with_secret_key_builds_the_application():
    result = python("-c", "from boulmous_site.wsgi import application", SECRET_KEY="x")

    assert (result.returncode, result.stderr) == (0, "")


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


def test_engine_imports_no_django():
    code = (
        "import sys, scoring.engine; "
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'django'))"
    )

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "[]"
