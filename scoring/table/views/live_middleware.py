"""The live view's unchanged answer, given early in Django's own request handling.

Almost every ask of ``games/<gid>/live`` (static/js/live.js, every second and a half from
every open game page) names the version the page shows, and the game has not changed:
the answer is a 304 with no body, from one indexed query. :class:`LiveMiddleware` gives it
as soon as Django's security has had its say (settings.MIDDLEWARE), before the CSP,
WhiteNoise, sessions, the language, CSRF, accounts, URL resolving for the view, and the
view, which cost most of a request when the answer is that 304.

Nothing of Django's is done by hand here: Django's WSGI handler starts and ends the
request (its signals reuse, check and close the database connection as for any request);
``SecurityMiddleware``, before it, redirects plain HTTP to HTTPS and adds HSTS and its
other headers, and ``XFrameOptionsMiddleware`` its own; ``request.get_host()`` checks the
host against ALLOWED_HOSTS, and a host refused goes on down the chain to get Django's own
400. The 304 is the view's (``views/live.py`` uses the same lookup and the same answer),
but for the Content-Security-Policy, whose middleware comes after and which says nothing
about an answer with no body. Anything else goes down the chain as usual.

Self-contained: it needs the summary's lookup and the hands waiting to be sent (a cache
read, scoring/table/waiting.py), and nothing of the view's.
"""

from collections.abc import Callable
from datetime import datetime
from functools import cache

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve

from ...common.clock import phone_zone
from ...infra.etags import etag, unchanged
from ..models import Summary
from ..pages.game import version_of
from ..waiting import with_waiting

CACHE_CONTROL = "private, no-cache"
"""Never answered from a cache without asking: the answer changes with every hand."""

VARY = "Cookie, Accept-Language, Accept-Encoding"
"""What the 200 varies with (the phone's rights, its language, compression): a 304 says
the same (RFC 9110, 15.4.5)."""

VIEW_NAME = "game_live"
"""The live view's name in scoring/urls.py, whose route gives the game's id."""


def shown_version(version: str, request: HttpRequest) -> str:
    """The version as a page drawn for this request shows it: a game's times are drawn in
    the phone's time zone (scoring/common/clock.py), so a page drawn for another zone is
    another representation, with another ETag (``1767225600000000@Asia/Tokyo``). A phone
    that has not said its zone, or whose zone is the server's (which a page drawn before
    the phone said it is in), shows the version alone: the same page, the same version."""
    zone = phone_zone(request)
    if not version or zone is None or zone.key == settings.TIME_ZONE:
        return version
    return f"{version}@{zone.key}"


def not_modified(version: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = etag(version)
    response["Cache-Control"] = CACHE_CONTROL
    response["Vary"] = VARY
    return response


def version_query(gid: str) -> QuerySet[Summary, datetime]:
    """The summary's ``changed_at``, joined to the game's unique public id: one row at most."""
    return Summary.objects.filter(game__public_id=gid).values_list("changed_at", flat=True)[:1]


@cache
def compiled() -> tuple[SQLCompiler, str]:
    """:func:`version_query` as the ORM compiles it, once: making the query costs more than
    running it. The compiler converts the row as the query's own iteration would."""
    compiler = version_query("").query.get_compiler(DEFAULT_DB_ALIAS)
    return compiler, compiler.as_sql()[0]


def current_version(gid: str) -> str | None:
    """The game's version, or None for a game that does not exist: one indexed query; and
    what its phones hold waiting to be sent (scoring/table/waiting.py), one cache read."""
    compiler, sql = compiled()
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, [gid])
        rows = cursor.fetchall()
    found = list(compiler.results_iter([rows]))
    return with_waiting(version_of(found[0][0]), gid) if found else None


class LiveMiddleware:
    """The 304 of an unchanged game, before the rest of the middleware (settings.py puts
    it right after Django's SecurityMiddleware and XFrameOptionsMiddleware).

    It answers only a GET of the live view's address with an ``If-None-Match`` and no query
    string, and then only when the version sent is the game's. Anything else, a game that
    does not exist or a database error included, goes on down the chain to the view, which
    answers as it always would (a 200 with the fragments, a 404, a 405, a 500).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.unchanged_answer(request) or self.get_response(request)

    def unchanged_answer(self, request: HttpRequest) -> HttpResponse | None:
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        # Cheap tests first: most requests are not the live view's.
        if (
            not sent
            or request.method != "GET"
            or request.META.get("QUERY_STRING")
            or not request.path_info.endswith("/live")
        ):
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        if match.view_name != VIEW_NAME:
            return None
        try:
            request.get_host()  # Django's check of the Host header against ALLOWED_HOSTS
        except DisallowedHost:
            return None  # Django's own 400, from further down (CommonMiddleware)
        try:
            version = current_version(match.kwargs["gid"])
        except DatabaseError:
            return None  # the view meets it again, and Django answers as it does
        if version is None:
            return None
        shown = shown_version(version, request)
        if not unchanged(sent, shown):
            return None
        return not_modified(shown)
