import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def settings_value(expression, **env):
    """Evaluate ``expression`` on the settings in a fresh interpreter with ``env``."""
    code = f"from boulmous_site import settings; print({expression})"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_settings_without_secret_key_refuse_to_start():
    result = settings_value("settings.DEBUG")

    assert result.returncode == 1
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


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
