"""System checks of the site's settings, run by runserver, check and migrate."""

from typing import Any

from django.conf import settings
from django.core.checks import Error
from django.core.exceptions import ImproperlyConfigured

SECRET_KEY_MISSING = "SECRET_KEY must be set when DEBUG is off"


def secret_key_missing() -> bool:
    """Whether the site would run without a key of its own (settings.py sets one for DEBUG)."""
    try:
        return not settings.SECRET_KEY
    except ImproperlyConfigured:  # how Django gives an empty one
        return True


def check_secret_key(app_configs: Any, **kwargs: Any) -> list[Error]:
    if not secret_key_missing():
        return []
    return [
        Error(
            SECRET_KEY_MISSING,
            hint="Set the SECRET_KEY environment variable, or DEBUG=1 on your own machine.",
            id="boulmous.E001",
        )
    ]
