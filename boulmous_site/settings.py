"""Settings for Boulmous, read strictly from the environment.

- ``DEBUG``: off unless set to 1/true/yes/on.
- ``SECRET_KEY``: required to serve when not debugging (see scoring/checks.py).
- ``DATABASE_URL``: SQLite in the project folder unless given (PostgreSQL:
  ``postgres://user@host:5432/name``).
- ``ALLOWED_HOSTS``: comma-separated; localhost only unless given.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ImproperlyConfigured(f"{name}={value!r}: use 1 or 0")


DEBUG = env_flag("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "insecure-key-for-local-debugging-only"
# Without a key and with DEBUG off it stays empty rather than failing here: commands
# that need no key (score_record) still run, while the check boulmous.E001 stops
# runserver, check and migrate, and wsgi.py refuses to serve.

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    # Before staticfiles: runserver leaves /static/ to WhiteNoise, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files come precompressed from WhiteNoise, which answers before the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages are compressed here (CSRF tokens are masked per response, against BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "boulmous_site.urls"
WSGI_APPLICATION = "boulmous_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ],
            "builtins": [
                "django.templatetags.i18n",
                "django.templatetags.static",
                "template_partials.templatetags.partials",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("ar", _("Arabic"))]
LOCALE_PATHS = [BASE_DIR / "scoring" / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Static files are served as in production, debugging or not: collected (`make run`
# collects them first), compressed, by WhiteNoise from STATIC_ROOT only. Under DEBUG,
# pages link the unhashed names and WhiteNoise looks files up on each request, so
# collecting again is enough to see an edit.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = DEBUG

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
