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


MAIL_NOT_SENT = (
    "Mail would not be sent when DEBUG is off: password reset and verification links, "
    "which work, would be written into the log"
)
UNSENT_BACKENDS = frozenset(
    f"django.core.mail.backends.{name}.EmailBackend"
    for name in ("console", "filebased", "locmem", "dummy")
)
"""Django's backends that deliver nothing: they print a mail, keep it, or drop it."""


def mail_not_sent() -> bool:
    """Whether the site would run in production with a backend that sends no mail."""
    return not settings.DEBUG and settings.EMAIL_BACKEND in UNSENT_BACKENDS


def check_email_backend(app_configs: Any, **kwargs: Any) -> list[Error]:
    if not mail_not_sent():
        return []
    return [
        Error(
            MAIL_NOT_SENT,
            hint="Set EMAIL_HOST (the SMTP server) and its companions, or DEBUG=1 on your "
            "own machine.",
            id="boulmous.E002",
        )
    ]
