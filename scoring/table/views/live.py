"""The live view (issue 13): every open page of a game follows it within seconds.

A game's version is its summary's ``changed_at`` (``pages.game.version_of``), which every
change of the game writes in its own transaction. The game page shows the version it was
drawn from, and static/js/live.js asks ``games/<gid>/live`` every second and a half with
it, as ``If-None-Match``:

- unchanged: a 304 with no body, from one indexed query (the summary joined to the game's
  unique public id), reading no session, no account, no hand, and scoring nothing. It is
  what almost every ask gets; boulmous_site/wsgi.py answers it before Django's middleware.
- changed: a 200 with the page's fragments drawn anew, as this phone sees them (edit and
  undo for a scorer only): the board (winner, totals, tie, last hand), the scores (money,
  sheet, chart, history), and for a scorer of a game still playing, the next hand's form,
  from which live.js renumbers the form being filled without replacing it. The new version
  is its ETag, and the board's ``data-version``.

Anyone with the game's address may watch it: rights only decide what the fragments show.
"""

import re
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.http.request import split_domain_port, validate_host
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ..access import may
from ..hooks import loaded_with_game
from ..models import Game, Summary
from ..pages.game import version_of
from ..state import load_game
from .table import game_context

CACHE_CONTROL = "private, no-cache"
"""Never answered from a cache without asking: the answer changes with every hand."""


def etag(version: str) -> str:
    return f'"{version}"'


def unchanged(if_none_match: str, version: str) -> bool:
    """Whether ``If-None-Match`` names ``version`` (weak or strong: GZip weakens the ETag
    of the 200 it compresses)."""
    tag = etag(version)
    return any(sent.strip().removeprefix("W/") == tag for sent in if_none_match.split(",") if sent)


def not_modified(version: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = etag(version)
    response["Cache-Control"] = CACHE_CONTROL
    return response


def version_query(gid: str) -> QuerySet[Summary, datetime]:
    """The summary's ``changed_at``, joined to the game's unique public id: one row at most."""
    return Summary.objects.filter(game__public_id=gid).values_list("changed_at", flat=True)[:1]


def current_version(gid: str) -> str | None:
    """The game's version, or None for a game that does not exist: one indexed query."""
    found = list(version_query(gid))
    return version_of(found[0]) if found else None


@require_GET
def game_live(request: HtmxHttpRequest, gid: str) -> HttpResponse:
    version = current_version(gid)
    if version is None:
        raise Http404
    if unchanged(request.META.get("HTTP_IF_NONE_MATCH", ""), version):
        return not_modified(version)
    # Read after the version: a change made meanwhile is drawn under the older version,
    # and the next ask gets it again, rather than never.
    game = get_object_or_404(Game.objects.select_related(*loaded_with_game), public_id=gid)
    can_score = may(request, Action.SCORE_GAME, gid, game)
    context = game_context(request, load_game(game), can_score=can_score, version=version)
    response = render(request, "table/game.html#live", context)
    response["ETag"] = etag(version)
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Cookie"])
    return response


LIVE_PATH = re.compile(r"/games/([-a-zA-Z0-9_]+)/live")
"""The live view's address, as urls.py has it (a slug): PATH_INFO, below SCRIPT_NAME."""

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class LiveShortcut:
    """WSGI middleware (boulmous_site/wsgi.py): the live view's unchanged answer, given
    before Django's middleware, URL resolving and view, which cost most of a request when
    the answer is a 304 from one query.

    It answers only a GET of ``/games/<gid>/live`` with an ``If-None-Match``, no query
    string, a host that ALLOWED_HOSTS admits, over HTTPS where SECURE_SSL_REDIRECT asks for
    it, and then only when the version is the one sent: the same query as the view's, on
    Django's own persistent connection (its CONN_MAX_AGE kept). Anything else, a database
    error included, goes to Django, which answers as it always would (a 200 with the
    fragments, a 404, a redirect to HTTPS, a 400 for a bad host, a 405).
    """

    def __init__(self, application: WSGIApp) -> None:
        self.application = application
        self.sql: str | None = None
        # As the view's 304 says them, but for the Content-Security-Policy, which says
        # nothing about an answer with no body.
        self.headers = [
            ("Cache-Control", CACHE_CONTROL),
            # The fragments follow the phone's rights (its cookie) and its language.
            ("Vary", "Cookie, Accept-Language, Accept-Encoding"),
            ("X-Frame-Options", settings.X_FRAME_OPTIONS),
        ]
        if settings.SECURE_CONTENT_TYPE_NOSNIFF:
            self.headers.append(("X-Content-Type-Options", "nosniff"))
        if settings.SECURE_REFERRER_POLICY:
            self.headers.append(("Referrer-Policy", str(settings.SECURE_REFERRER_POLICY)))
        self.hsts: list[tuple[str, str]] = []
        if settings.SECURE_HSTS_SECONDS:
            hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
            if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
                hsts += "; includeSubDomains"
            if settings.SECURE_HSTS_PRELOAD:
                hsts += "; preload"
            self.hsts.append(("Strict-Transport-Security", hsts))

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        version = self.unchanged_version(environ)
        if version is None:
            return self.application(environ, start_response)
        headers = [("ETag", etag(version)), *self.headers]
        if self.secure(environ):
            headers += self.hsts
        start_response("304 Not Modified", headers)
        return []

    def unchanged_version(self, environ: dict[str, Any]) -> str | None:
        """The version sent, where it is the game's: else None, and Django answers."""
        sent = environ.get("HTTP_IF_NONE_MATCH")
        if not sent or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        match = LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or not self.admitted(environ):
            return None
        try:
            version = self.version(match[1])
        except DatabaseError:
            return None
        return version if version is not None and unchanged(sent, version) else None

    def admitted(self, environ: dict[str, Any]) -> bool:
        """The host is allowed, and the request secure if it must be, as Django checks."""
        domain, _ = split_domain_port(environ.get("HTTP_HOST", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return False
        return not settings.SECURE_SSL_REDIRECT or self.secure(environ)

    @staticmethod
    def secure(environ: dict[str, Any]) -> bool:
        """Over HTTPS, as Django's ``request.is_secure()`` says it."""
        header = settings.SECURE_PROXY_SSL_HEADER
        if header is not None and environ.get(header[0]) is not None:
            return str(environ[header[0]]).split(",", 1)[0].strip() == header[1]
        return environ.get("wsgi.url_scheme") == "https"

    def version(self, gid: str) -> str | None:
        """:func:`current_version`, its SQL made by the ORM once rather than per ask."""
        connection = connections["default"]
        # What Django does around each request: a connection past its CONN_MAX_AGE, or
        # after an error, is not reused. (Never one in a transaction: a test's.)
        if (
            connection.connection is not None
            and not connection.in_atomic_block
            and (
                connection.errors_occurred
                or (connection.close_at is not None and time.monotonic() >= connection.close_at)
            )
        ):
            connection.close()
        if self.sql is None:
            self.sql = version_query(gid).query.sql_with_params()[0]
        try:
            with connection.cursor() as cursor:
                cursor.execute(self.sql, [gid])
                row = cursor.fetchone()
        except DatabaseError:
            if not connection.in_atomic_block:
                connection.close()  # the next request connects anew
            raise
        if row is None:
            return None
        changed_at = row[0]
        if isinstance(changed_at, str):  # SQLite's text, in UTC
            changed_at = parse_datetime(changed_at)
        if changed_at.tzinfo is None:  # SQLite's, in UTC, as its ORM converter reads it
            changed_at = changed_at.replace(tzinfo=UTC)
        return version_of(changed_at)
