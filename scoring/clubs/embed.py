"""A season's standings on the club's own website (issue 22.4): the origins an admin lists,
checked strictly; the frame's Content-Security-Policy (``frame-ancestors`` those origins,
``'none'`` when there are none); and CORS for the same origins on standings.csv and the
API's reads of the club.

An origin is what a browser sends in ``Origin`` and matches ``frame-ancestors`` against:
``https://host`` with an optional port, nothing else (no path, no wildcard, no user); plain
``http`` only for this machine (``localhost``, ``127.0.0.1``, ``[::1]``), to try it out.
Origins are kept as browsers write them: lower case, without the scheme's own port."""

import ipaddress
import re
from collections.abc import Iterable
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from .models import Club

MAX_ORIGINS = 20
"""At most this many origins per club."""

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
"""The hosts plain http is accepted for: this machine's."""

DEFAULT_PORTS = {"https": 443, "http": 80}

_ORIGIN = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*)://(?P<host>\[[0-9a-f:.]+\]|[^/:?#@\[\]\s]+)"
    r"(?::(?P<port>[0-9]{1,5}))?(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def _host(host: str) -> str | None:
    """``host`` as browsers write it in an origin (lower case, a name in punycode), or None
    if it is no host name or address."""
    if host.startswith("["):
        try:
            return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
        except ValueError:
            return None
    try:
        name = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    if all(label.isdigit() for label in labels):  # an IPv4 address, written in full
        try:
            return str(ipaddress.IPv4Address(name))
        except ValueError:
            return None
    return name


def clean_origin(text: str) -> str:
    """``text`` as an origin, as a browser writes it; else a :class:`ValidationError`
    that says what is wrong with it."""
    text = text.strip()
    found = _ORIGIN.fullmatch(text)
    if found is None or found["rest"].startswith("@"):  # none, or a user before the host
        raise ValidationError(
            _("“%(origin)s” is not an origin: write it as https://example.org."),
            code="origin",
            params={"origin": text},
        )
    scheme = found["scheme"].lower()
    host = _host(found["host"])
    if host is None:
        raise ValidationError(
            _("“%(origin)s”: “%(host)s” is not a host name."),
            code="origin_host",
            params={"origin": text, "host": found["host"]},
        )
    if found["rest"]:
        raise ValidationError(
            _(
                "“%(origin)s”: an origin has no path; write only the scheme, the host and "
                "the port, such as https://example.org."
            ),
            code="origin_path",
            params={"origin": text},
        )
    if scheme != "https" and not (scheme == "http" and host in LOCAL_HOSTS):
        raise ValidationError(
            _("“%(origin)s”: a website must use https (http only for localhost)."),
            code="origin_scheme",
            params={"origin": text},
        )
    port = found["port"]
    if port is not None and not 1 <= int(port) <= 65535:
        raise ValidationError(
            _("“%(origin)s”: the port must be a number from 1 to 65535."),
            code="origin_port",
            params={"origin": text},
        )
    if port is None or int(port) == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{int(port)}"


def clean_origins(text: str) -> list[str]:
    """The origins in ``text`` (one a line, or apart by spaces or commas), each checked
    (:func:`clean_origin`), once each, in their order; every bad one is said."""
    origins: list[str] = []
    problems: list[ValidationError] = []
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        try:
            origin = clean_origin(word)
        except ValidationError as problem:
            problems.append(problem)
            continue
        if origin not in origins:
            origins.append(origin)
    if problems:
        raise ValidationError(problems)
    if len(origins) > MAX_ORIGINS:
        raise ValidationError(
            _("At most %(most)d websites."), code="origins_many", params={"most": MAX_ORIGINS}
        )
    return origins


def frame_ancestors(origins: Iterable[str]) -> list[str]:
    """The ``frame-ancestors`` sources for these origins: ``'none'`` when there are none."""
    return list(origins) or ["'none'"]


Response = TypeVar("Response", bound=HttpResponseBase)


def allow_frames(response: Response, club: Club) -> Response:
    """The response may be framed by the club's origins and no other: its CSP's
    ``frame-ancestors`` is theirs (django-csp's ``csp_replace``, per response, as the
    origins are the club's). The view drops X-Frame-Options (``xframe_options_exempt``),
    which would refuse every frame whatever the CSP says."""
    response._csp_replace = {"frame-ancestors": frame_ancestors(club.embed_origins)}  # type: ignore[attr-defined]
    return response


def allow_origin(request: HttpRequest, response: HttpResponseBase, club: Club | None) -> None:
    """CORS for a public read of the club: ``Access-Control-Allow-Origin`` is the request's
    ``Origin`` when the club lists it and is public, and nothing otherwise (no credentials
    ever: a private club's data never reaches another site). The answer differs by
    ``Origin``, which ``Vary`` says, for every cache in between."""
    patch_vary_headers(response, ["Origin"])
    origin = request.headers.get("Origin", "")
    if club is not None and club.public and origin and origin in club.embed_origins:
        response["Access-Control-Allow-Origin"] = origin
