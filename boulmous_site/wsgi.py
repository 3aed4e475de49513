"""WSGI entry point (gunicorn boulmous_site.wsgi)."""

import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from scoring.checks import SECRET_KEY_MISSING, secret_key_missing

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boulmous_site.settings")

# gunicorn runs no system checks, and nothing would fail before a page needed the key.
if secret_key_missing():
    raise ImproperlyConfigured(SECRET_KEY_MISSING)

django_application = get_wsgi_application()

# The live view's unchanged answer (a 304, asked every second and a half by each open game
# page) is given before Django's middleware: scoring/views/live.py says when, and how.
from scoring.table.views.live import LiveShortcut  # noqa: E402 (Django must be set up first)

application = LiveShortcut(django_application)
