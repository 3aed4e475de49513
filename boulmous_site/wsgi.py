"""WSGI entry point (gunicorn boulmous_site.wsgi)."""

import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from scoring.checks import (
    MAIL_NOT_SENT,
    SECRET_KEY_MISSING,
    THROTTLES_LOCAL,
    mail_not_sent,
    secret_key_missing,
    throttles_local,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boulmous_site.settings")

# gunicorn runs no system checks, and nothing would fail before a page needed the key, or
# before a password reset printed its working link into the log.
if secret_key_missing():
    raise ImproperlyConfigured(SECRET_KEY_MISSING)
if mail_not_sent():
    raise ImproperlyConfigured(MAIL_NOT_SENT)
# Nor would anything say that each worker throttles apart (boulmous.E003).
if (backend := throttles_local()) is not None:
    raise ImproperlyConfigured(THROTTLES_LOCAL.format(backend=backend) + ": set REDIS_URL")

# Django's own handler for every request, the live view's unchanged answer included: that
# one is given early in the middleware (scoring/table/views/live_middleware.py).
application = get_wsgi_application()
