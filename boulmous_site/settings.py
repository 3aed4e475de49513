"""Settings for Boulmous, read strictly from the environment.

- ``DEBUG``: off unless set to 1/true/yes/on.
- ``SECRET_KEY``: required to serve when not debugging (see scoring/checks.py).
- ``DATABASE_URL``: SQLite in the project folder unless given (PostgreSQL:
  ``postgres://user@host:5432/name``).
- ``ALLOWED_HOSTS``: comma-separated; localhost only unless given.
- ``EMAIL_HOST``: mail (password resets, links that verify an address) goes out by SMTP
  through this host when given, else it is printed on the console, which only DEBUG
  allows (the check boulmous.E002; wsgi.py refuses to serve); with ``EMAIL_PORT`` (25 unless given),
  ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` (1 or 0) and
  ``DEFAULT_FROM_EMAIL`` (the sender; webmaster@localhost unless given).
- HTTPS (docs/deploy.md): ``SECURE_SSL_REDIRECT`` (on unless DEBUG; 0 behind a proxy
  that terminates TLS and cannot say so), ``SECURE_PROXY_SSL_HEADER`` (1 for
  X-Forwarded-Proto, or the header's name as in ``request.META``, e.g.
  ``HTTP_X_FORWARDED_PROTO``), ``SECURE_HSTS_SECONDS`` (a year unless DEBUG),
  ``SECURE_HSTS_INCLUDE_SUBDOMAINS`` and ``SECURE_HSTS_PRELOAD`` (1 or 0),
  ``SECURE_COOKIES`` (cookies over HTTPS only: on unless DEBUG).
- ``REDIS_URL``: the cache the throttles count in (``redis://127.0.0.1:6379/0``), which
  every worker and server shares; this process's memory unless given, which only DEBUG
  accepts (the check boulmous.E003).
- ``BACKUP_DIR``: where the daily backup is written (docs/deploy.md, "Backups"):
  ``backups/`` beside the SQLite file unless given; none on PostgreSQL unless given (then
  ``/healthz/backup`` answers 503). ``BACKUP_AT``: its time of day, ``HH:MM`` in UTC
  (03:00 unless given).
- ``FORWARDED_ALLOW_IPS``: the proxies whose ``X-Forwarded-For`` tells the phone's
  address, as gunicorn reads it (``127.0.0.1`` unless given; ``*`` for any).
"""

import ipaddress
import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ImproperlyConfigured(f"{name}={value!r}: use 1 or 0")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: use a number") from None


def proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """The header by which the proxy in front says a request came over HTTPS, if any."""
    value = os.environ.get(name, "").strip()
    if re.fullmatch(r"HTTP_[A-Z0-9_]+", value):
        return (value, "https")
    if value.lower() in ("", "0", "false", "no", "off"):
        return None
    if value.lower() in ("1", "true", "yes", "on"):
        return ("HTTP_X_FORWARDED_PROTO", "https")
    raise ImproperlyConfigured(
        f"{name}={value!r}: use 1, 0 or a header's name such as HTTP_X_FORWARDED_PROTO"
    )


def trusted_proxies(name: str) -> list[str]:
    """The proxies whose X-Forwarded-For is believed: addresses or networks, or ``*``."""
    value = os.environ.get(name, "").strip() or "127.0.0.1"
    proxies = [proxy.strip() for proxy in value.split(",") if proxy.strip()]
    for proxy in proxies:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}={value!r}: use addresses or networks, comma-separated, or *"
            ) from None
    return proxies


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
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    # "Bilal is now a scorer.": what an admin's action did, said on the next page.
    "django.contrib.messages",
    # Before staticfiles: runserver leaves /static/ to WhiteNoise, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    # Login lockouts (its migrations make tables the cache handler below leaves empty).
    "axes",
    # Jobs: the tasks framework and its queue in the database (TASKS below).
    "django_tasks",
    "django_tasks_db",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Here rather than last, so that the live view's early answer below has it too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The live view's unchanged answer (a 304 with no body from one query, asked every
    # 1.5 s by every open game page), once the two above have had their say, before the
    # rest (scoring/table/views/live_middleware.py).
    "scoring.table.views.live_middleware.LiveMiddleware",
    # The Content-Security-Policy header, on pages and static files alike.
    "csp.middleware.CSPMiddleware",
    # Static files come precompressed from WhiteNoise, which answers before the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages are compressed here (CSRF tokens are masked per response, against BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The phone's time zone, from its cookie, for the times of games outside a club
    # (scoring/common/clock.py).
    "scoring.common.clock.PhoneZone",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.phone and request.actor: this phone's rights, and who makes a change.
    "scoring.common.rights.RequestRights",
    "django_htmx.middleware.HtmxMiddleware",
    # SQLite's writer busy for longer than a write waits (a club's import): a 503 page that
    # says nothing changed, not the 500 page (scoring/infra/busy.py).
    "scoring.infra.busy.DatabaseBusy",
    # Last, as django-axes asks: it turns a login refused into the 429 page.
    "axes.middleware.AxesMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": [
                "django.templatetags.i18n",
                "django.templatetags.static",
                "template_partials.templatetags.partials",
                # {{ moment|when }}, {{ day|day }}: every date and time, said one way.
                "scoring.common.clock",
                # {{ sentence|elide:name }}: French elides « de » before a vowel (Omar).
                # {{ value|number }}, {{ value|signed }}: a figure read left to right.
                "scoring.common.words",
                # {% kept %}: a piece drawn once per process for each value of its parts.
                "scoring.infra.fragments",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write-ahead logging: a commit is one append and one fsync of the log (about 4 ms on
    # this machine's disk, 13 ms with the default rollback journal), and readers no longer
    # wait for a writer. synchronous stays FULL: a hand saved survives a power cut.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    )
    # A transaction takes the write lock when it begins: with the jobs' worker writing
    # beside the server, one that read first and wrote after would otherwise fail at once
    # ("database is locked") instead of waiting its turn.
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    # A write waits this long for the writer a club's import holds (20,000 games: about 10 s
    # at this machine's pace); past it, the 503 page (scoring/infra/busy.py).
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Prepared statements, for the cursors that ask for them: the queries compiled once
    # (scoring/infra/compiled.py) are planned once per connection. Django's own cursors
    # bind on the client and never prepare (and Django, left to itself, turns preparing
    # off: None), so nothing else changes. A pooler in front must keep prepared statements
    # (PgBouncer 1.21+ with max_prepared_statements), or connect directly as deploy.md does.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Where a job's input (an uploaded records.jsonl) and its progress wait for the worker
# (scoring/infra/jobs.py): on the disk the web server and the worker share.
JOBS_DIR = Path(os.environ.get("JOBS_DIR") or BASE_DIR / "jobs")
# A running job whose worker has not beaten for this long is taken for dead (killed, its
# machine restarted): marked failed, retryable (docs/deploy.md, "The worker").
JOBS_STALE_SECONDS = env_int("JOBS_STALE_SECONDS", 30)

# Accounts are optional: nobody needs one to score a game at a table.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

# Throttles (scoring/infra/throttles.py; docs/deploy.md, "Throttles") count in the cache:
# Redis, shared by every worker and server, when REDIS_URL is given; else this process's
# memory, which only DEBUG accepts (the check boulmous.E003), as each worker would count
# apart. Redis that does not answer within a second lets the request through uncounted,
# with an error in the log (scoring/infra/throttles.py).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "boulmous",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Jobs (imports, the league's rebuild, mail, backups) wait in the database for the worker
# (`manage.py db_worker`), which `make run` starts beside the server and systemd runs in
# production (docs/deploy.md, "The worker"): no other server is needed.
TASKS = {"default": {"BACKEND": "django_tasks_db.backend.DatabaseBackend"}}

# The daily backup (scoring/management/backups.py; docs/deploy.md, "Backups"): at BACKUP_AT
# (UTC) into BACKUP_DIR, which is backups/ beside the SQLite file unless given.
_sqlite_file = (
    Path(DATABASES["default"]["NAME"])
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    and str(DATABASES["default"]["NAME"]) not in ("", ":memory:")
    else None
)
BACKUP_DIR = os.environ.get("BACKUP_DIR", "").strip() or (
    str(_sqlite_file.parent / "backups") if _sqlite_file is not None else ""
)
BACKUP_AT = os.environ.get("BACKUP_AT", "").strip() or "03:00"
if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", BACKUP_AT):
    raise ImproperlyConfigured(f"BACKUP_AT={BACKUP_AT!r}: use HH:MM, e.g. 03:00")

# The phone's address behind nginx (throttles.client_address), from the proxies gunicorn
# believes too.
TRUSTED_PROXIES = trusted_proxies("FORWARDED_ALLOW_IPS")

# Logging in: at most 10 failures per account and, apart, per address; then 15 minutes'
# pause, started again by each attempt meanwhile, during which even the right password is
# refused with the 429 page.
AXES_HANDLER = "scoring.infra.throttles.LoginFailures"
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "scoring.infra.throttles.client_address"
AXES_LOCKOUT_CALLABLE = "scoring.infra.throttles.locked_out"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = True
# axes.W001 says a local cache is no good for its counts: boulmous.E003 says so too, as an
# error outside DEBUG, and stays quiet under `make run`.
SILENCED_SYSTEM_CHECKS = ["axes.W001"]

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS")
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "webmaster@localhost"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("ar", _("Arabic"))]
LOCALE_PATHS = [BASE_DIR / "scoring" / "locale"]
FORMAT_MODULE_PATH = ["boulmous_site.formats"]
USE_I18N = True
USE_TZ = True
# The zone of a phone that has not said its own yet (scoring/common/clock.py).
TIME_ZONE = "UTC"

STATIC_URL = "static/"
# STATIC_ROOT: where collectstatic puts them (tests/bench/bench_first_visit.py: a temporary folder).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Static files are served as in production, debugging or not: collected (`make run`
# collects them first), compressed, by WhiteNoise from STATIC_ROOT only. Under DEBUG,
# pages link the unhashed names and WhiteNoise looks files up on each request, so
# collecting again is enough to see an edit. Out of DEBUG, the project's own scripts and
# stylesheets are minified as they are collected (boulmous_site/storage.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "boulmous_site.storage.MinifiedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = DEBUG

# HTTPS. In production a proxy terminates TLS in front of gunicorn (docs/deploy.md);
# DEBUG (`make run`) serves plain http, and so do the tests (SECURE_SSL_REDIRECT=0).
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=not DEBUG)
# A monitor may ask gunicorn itself, over plain http on the loopback.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^healthz/backup$"]
SECURE_PROXY_SSL_HEADER = proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 60 * 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Every cookie the site sets (session, CSRF token, language) is HttpOnly, SameSite=Lax,
# and Secure unless DEBUG. htmx sends the CSRF token from the page (hx-headers on
# <body>), the game page's forms (static/js/table.js) their own field: neither reads the
# cookie.
SECURE_COOKIES = env_flag("SECURE_COOKIES", default=not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"

# No inline script, no eval: scripts are files from this site (htmx, table.js). The
# pages' style="--seat: ..." attributes are the only inline CSS; htmx's own indicator
# <style> is turned off in templates/htmx.html's htmx-config.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
        "manifest-src": [SELF],
    }
}

# In production, one line per request: gunicorn's access log on standard output
# (boulmous_site/gunicorn.py). Django adds its warnings and errors (a 404, a refused
# host, a 500 with its traceback) once each on standard error, with the time.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "timed": {
            "format": "[{asctime}] [{process}] [{levelname}] {name}: {message}",
            "datefmt": "%Y-%m-%d %H:%M:%S %z",
            "style": "{",
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "timed",
        }
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    # Without Django's own handlers (a console under DEBUG, mail to ADMINS), which would
    # say it twice; runserver's request lines (django.server) keep theirs.
    "loggers": {"django": {"handlers": [], "level": "WARNING"}},
}
