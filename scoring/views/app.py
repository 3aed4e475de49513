"""The web app manifest: what a phone needs to put Boulmous on its home screen.

Served by a view rather than as a static file so that its address stays the same
(a browser checks an installed app's manifest at that address) while the icons it
names are the hashed, long-cached static files. The PNG icons are drawn from
static/favicon.svg by static/icons/make_icons.py.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

MANIFEST_MAX_AGE = 24 * 60 * 60


@require_GET
@cache_control(max_age=MANIFEST_MAX_AGE)
def manifest(request: HttpRequest) -> HttpResponse:
    return render(request, "manifest.webmanifest", content_type="application/manifest+json")
