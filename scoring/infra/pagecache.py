"""Pages drawn once per version (issue 21): a page's HTML kept in Django's cache (Redis when
REDIS_URL is set, else this process's memory: settings.CACHES), under a key made of all it
depends on, so that a page is drawn once for each state of what it shows, and every other
request of the same kind gets it from the cache.

Nothing is ever invalidated: a key says the version of everything it was drawn from (the
game's version, the names shown, the viewer's kind, the language, the time zone, the deploy),
so a change makes another key, and the old entry is never asked again (it expires, or Redis
evicts it: docs/deploy.md). What differs between two requests of the same kind is put in
after the cache, never kept in it: the CSRF token (:data:`CSRF_PLACEHOLDER`, each phone its
own), and a form's one-use token (:data:`TOKEN_PLACEHOLDER`, a new one each time). A request
with messages to show, or a query string the key does not say, is drawn as before, uncached.

Each such page has an ETag made from its key and the phone's CSRF cookie: a phone asking again
with ``If-None-Match`` for a page that has not changed gets a 304 with no body.
"""

import hashlib
import logging
import threading
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache as django_cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

CSRF_PLACEHOLDER = "csrfPAGECACHEplaceholder0x7f3a9c"
"""Drawn where the CSRF token goes (``csrf_token`` in the context), replaced per request."""
TOKEN_PLACEHOLDER = "00000000-7f3a-4c9e-8000-00000000cafe"
"""Drawn where a form's one-use token goes (a UUID's shape, as the field expects), replaced
per request by a new one: two phones never send the same form token."""

TIMEOUT = 3600
"""How long an entry stays at most (an hour): its key never goes stale, this only frees the
memory of versions no one asks for any more (docs/deploy.md, "The page cache")."""

CACHE_CONTROL = "private, no-cache"
"""Browsers keep the page but ask again (If-None-Match) before showing it."""

KEY_PREFIX = "page"

ROOT = Path(__file__).resolve().parents[2]
DEPLOYED = ("scoring", "templates", "locale", "boulmous_site")
"""What a deploy changes in a page, besides the static files' names: the code that draws it,
its templates and its translations."""


@cache
def deploy_version() -> str:
    """The version of what draws the pages: the static files' hashed names (a deploy changes
    them), and the code, templates and translations, by their content (servers deployed from
    the same commit share their entries). Computed once per process."""
    digest = hashlib.blake2b(digest_size=8)
    from django.contrib.staticfiles.storage import staticfiles_storage

    hashed = getattr(staticfiles_storage, "hashed_files", None) or {}
    digest.update(repr(sorted(hashed.items())).encode())
    digest.update(str(settings.STATIC_URL).encode())
    for folder in DEPLOYED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in {".py", ".html", ".mo", ".txt", ".json"} and path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cacheable(request: HttpRequest, *, query: bool = False) -> bool:
    """Whether the page may come from the cache: a GET or HEAD, with no messages waiting to
    be shown (they are the request's own), and no query string unless the key says it."""
    if request.method not in ("GET", "HEAD"):
        return False
    if not query and request.META.get("QUERY_STRING"):
        return False
    return not len(get_messages(request))


def account_shown(request: HttpRequest) -> tuple[object, ...]:
    """What base.html's frame shows of this request: the account in its header (its id and
    name, None when signed out), and whether the phone scores any game (it then loads the
    offline code: templates/base.html)."""
    user = getattr(request, "user", None)
    phone = getattr(request, "phone", None)
    scores = bool(phone is not None and phone.games)
    if user is None or not user.is_authenticated:
        return None, scores
    return (user.pk, user.get_username()), scores


def page_key(*parts: object, language: bool = True) -> str:
    """The cache key of a page drawn from ``parts``, with the deploy and (unless the page
    says no word, as a record's JSON) the language."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (deploy_version(), get_language() if language else "", *parts):
        digest.update(repr(part).encode())
        digest.update(b"\x00")
    return f"{KEY_PREFIX}:{digest.hexdigest()}"


def etag_of(request: HttpRequest, key: str) -> str:
    """The page's ETag: its key, and the phone's CSRF cookie (a page kept by the browser holds
    a token of that cookie's secret, so a new secret, after logging in, makes another tag)."""
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    digest = hashlib.blake2b(f"{key}\x00{cookie}".encode(), digest_size=12)
    return f'"{digest.hexdigest()}"'


def unchanged(request: HttpRequest, tag: str) -> bool:
    """``If-None-Match`` names the tag (weak or strong: GZip weakens the tag it compresses)."""
    sent = request.META.get("HTTP_IF_NONE_MATCH", "")
    return sent.strip() == "*" or any(
        one.strip().removeprefix("W/") == tag for one in sent.split(",") if one
    )


VARY = ("Cookie", "Accept-Language")


def not_modified(tag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, VARY)
    return response


class Local:
    """The texts this process drew or read last, up to :data:`LOCAL_LIMIT` characters, the
    least recently used going first: a key never names two texts, so a copy kept here is
    never stale, and a page asked again and again costs no round trip to Redis."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.texts: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self.lock:
            text = self.texts.get(key)
            if text is not None:
                self.texts.move_to_end(key)
            return text

    def put(self, key: str, text: str) -> None:
        with self.lock:
            if key in self.texts:
                return
            self.texts[key] = text
            self.size += len(text)
            while self.size > self.limit and self.texts:
                _, gone = self.texts.popitem(last=False)
                self.size -= len(gone)

    def clear(self) -> None:
        with self.lock:
            self.texts.clear()
            self.size = 0


LOCAL_LIMIT = 16 * 1024 * 1024
"""Characters of pages kept in each process (16 MB, about 400 game pages of 30 hands)."""
LOCAL = Local(LOCAL_LIMIT)


def cached_text(key: str, draw: Callable[[], str]) -> str:
    """The text kept under ``key``: in this process, else in the shared cache (compressed: a
    game page of 60 hands is about 60 KB of HTML, 7 KB kept), else drawn and kept in both. A
    shared cache that does not answer (Redis down) costs the drawing, never the page."""
    text = LOCAL.get(key)
    if text is not None:
        return text
    try:
        kept = django_cache.get(key)
    except RedisError as error:
        logger.error("the page cache does not answer (%s): page drawn", error)
        return draw()
    if isinstance(kept, bytes):
        text = zlib.decompress(kept).decode()
        LOCAL.put(key, text)
        return text
    text = draw()
    try:
        django_cache.set(key, zlib.compress(text.encode(), 6), TIMEOUT)
    except RedisError as error:
        logger.error("the page cache does not answer (%s): page not kept", error)
    else:
        LOCAL.put(key, text)
    return text


def personal(request: HttpRequest, text: str) -> str:
    """The kept text with this request's own parts: its CSRF token, a new form token."""
    if CSRF_PLACEHOLDER in text:
        text = text.replace(CSRF_PLACEHOLDER, get_token(request))
    if TOKEN_PLACEHOLDER in text:
        text = text.replace(TOKEN_PLACEHOLDER, str(uuid.uuid4()))
    return text


def cached_page(
    request: HttpRequest,
    key: str,
    draw: Callable[[], str],
    *,
    content_type: str = "text/html; charset=utf-8",
    headers: Iterable[tuple[str, str]] = (),
) -> HttpResponse:
    """The page of ``key``: a 304 when the phone has it (``If-None-Match``), else its text
    from the cache (or drawn, and kept), with this request's own parts put in."""
    tag = etag_of(request, key)
    if unchanged(request, tag):
        return not_modified(tag)
    response = HttpResponse(personal(request, cached_text(key, draw)), content_type=content_type)
    for name, value in headers:
        response[name] = value
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, VARY)
    return response
