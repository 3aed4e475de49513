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


SHARED_CACHES = (
    "django.core.cache.backends.redis.RedisCache",
    "django.core.cache.backends.memcached.PyMemcacheCache",
    "django.core.cache.backends.memcached.PyLibMCCache",
)
"""Caches that every worker and server reaches, and that count atomically."""

THROTTLES_LOCAL = (
    "The throttles count in {backend}, which is not shared: each gunicorn worker would "
    "count apart, and a restart would forget"
)


def throttles_local() -> str | None:
    """The backend of the throttles' cache, when it would count in one process (or not at
    all, or not atomically) outside DEBUG; None when it is fine."""
    if settings.DEBUG:
        return None
    caches: dict[str, dict[str, Any]] = settings.CACHES
    for setting in ("AXES_CACHE", "RATELIMIT_USE_CACHE"):  # the cache each library counts in
        backend = str(caches.get(getattr(settings, setting, "default"), {}).get("BACKEND"))
        if backend not in SHARED_CACHES:
            return backend
    return None


def check_throttles_cache(app_configs: Any, **kwargs: Any) -> list[Error]:
    backend = throttles_local()
    if backend is None:
        return []
    return [
        Error(
            THROTTLES_LOCAL.format(backend=backend),
            hint="Set REDIS_URL (redis://127.0.0.1:6379/0), or DEBUG=1 on your own machine.",
            id="boulmous.E003",
        )
    ]
