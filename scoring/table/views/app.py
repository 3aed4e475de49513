"""The web app manifest: what a phone needs to put Boulmous on its home screen; and the
service worker that keeps the app and the games this phone scores offline (issue 13).

Served by a view rather than as a static file so that its address stays the same
(a browser checks an installed app's manifest at that address) while the icons it
names are the hashed, long-cached static files. The PNG icons are drawn from
static/favicon.svg by static/icons/make_icons.py.
"""

import hashlib
import json

from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html
from django.utils.translation import get_language, get_language_bidi, gettext
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

MANIFEST_MAX_AGE = 24 * 60 * 60


@require_safe
@cache_control(max_age=MANIFEST_MAX_AGE)
def manifest(request: HttpRequest) -> HttpResponse:
    return render(request, "manifest.webmanifest", content_type="application/manifest+json")


# --- The service worker (issue 13) ----------------------------------------------------

SHELL = (
    "css/boulmous.css",
    "django_htmx/htmx-2.min.js",
    "js/rules.js",
    "js/table.js",
    "js/live.js",
    "js/play.js",
    "js/offline.js",
    "js/agree.js",
    "favicon.svg",
    "icons/apple-touch-icon.png",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
)
"""The app's shell, precached by the service worker: what the pages link (js/rules.js, the
rules the browser follows offline, on the pages of a phone that scores). A name not
collected (yet) is left out rather than failing the worker's install."""


def _shell() -> list[str]:
    urls = []
    for name in SHELL:
        try:
            urls.append(static(name))
        except ValueError:  # not in the static manifest
            continue
    return urls


def _offline_page() -> str:
    """The page a navigation gets offline when no copy of it is kept on this phone."""
    return format_html(
        '<!doctype html><html lang="{lang}" dir="{dir}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>{title}</title>"
        '<link rel="stylesheet" href="{css}"></head>'
        '<body><header class="top"><a class="brand" href="/">Boulmous</a></header>'
        '<main class="offline-page"><h1>{title}</h1><p>{text}</p>'
        '<h2 hidden>{kept}</h2><ul class="offline-kept"></ul></main></body></html>',
        lang=get_language(),
        dir="rtl" if get_language_bidi() else "ltr",
        title=gettext("No connection"),
        css=static("css/boulmous.css"),
        text=gettext(
            "This page is not kept on this phone. The games you score here open "
            "without a connection, and the hands you save are sent when it returns."
        ),
        kept=gettext("Games kept on this phone"),
    )


def _worker_version(shell: list[str], offline_page: str) -> str:
    """A new name for the worker's caches whenever a static file, or the page, changes."""
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "")
    text = "\n".join([manifest_hash, *shell, offline_page])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _worker_source() -> str:
    with staticfiles_storage.open("js/sw.js") as source:
        text: bytes = source.read()
    return text.decode()


@require_safe
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js, at the site's root so that it may keep every page, after a
    preamble naming the shell's hashed files, this deploy's version and the offline page.

    Served fresh each time (the browser compares it to the worker it runs to find a new
    deploy); the language it is asked in words the offline page.
    """
    shell = _shell()
    offline_page = _offline_page()
    preamble = "".join(
        f"const {name} = {json.dumps(value)};\n"
        for name, value in [
            ("VERSION", _worker_version(shell, offline_page)),
            ("SHELL", shell),
            ("OFFLINE_PAGE", offline_page),
        ]
    )
    response = HttpResponse(
        preamble + _worker_source(), content_type="application/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
