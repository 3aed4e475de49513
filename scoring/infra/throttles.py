"""Throttles: what one address may do over and over, as a script would and a club never does.

Logging in is django-axes's (its settings in boulmous_site/settings.py: 10 failures per
account and per address, then 15 minutes' pause); every other throttled form names its
limit below, counted by django-ratelimit. Both count in Django's cache, which every worker
must share (Redis, ``REDIS_URL``): the check boulmous.E003 refuses a production start
otherwise. docs/deploy.md, "Throttles", gives the table and the reasons for each figure.
"""

import ipaddress
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from axes.handlers.cache import AxesCacheHandler
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django_ratelimit import ALL
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

P = ParamSpec("P")
R = TypeVar("R", bound=HttpRequest)

HOUR = 60 * 60

log = logging.getLogger(__name__)
CACHE_DOWN = "throttles: the cache does not answer (%s): %s let through uncounted"


@dataclass(frozen=True)
class Limit:
    """At most ``count`` posts of one form from one address in ``seconds``."""

    name: str
    count: int
    seconds: int
    what: str
    """What is counted, for docs/deploy.md (which a test compares with this table)."""

    @property
    def rate(self) -> str:
        """As django-ratelimit reads a rate."""
        return f"{self.count}/{self.seconds}s"


# A club night at the club's wifi is one address for everyone there: each figure leaves
# room for the biggest night (20 tables, 80 players), and a script reaches it in seconds.
SIGN_UP = Limit("sign-up", 50, HOUR, "sign-up forms sent")
PASSWORD_RESET = Limit("password-reset", 10, HOUR, "password-reset requests")
SCORER_LINK_JOIN = Limit("scorer-link-join", 120, HOUR, "scorer links taken")
SEAT_TAKE = Limit("seat-take", 400, HOUR, "seats' codes typed (a seat taken, a settlement agreed)")
CLUB_JOIN = Limit("club-join", 120, HOUR, "invite-link joins sent")
GAME_IMPORT = Limit("game-import", 30, HOUR, "game records imported")
CLUB_IMPORT = Limit("club-import", 10, HOUR, "club records.jsonl imports")
WAITING_HANDS = Limit("waiting-hands", 600, HOUR, "reports of hands waiting to be sent")
API_TOKEN = Limit("api-token", 20, HOUR, "API tokens made")
# The API's every request, per token (else per address): a script reading a club's 20,000
# games page by page (400 pages) twice an hour stays under it; one asking in a loop does not.
API_REQUESTS = Limit("api-requests", 3600, HOUR, "API requests, per token (else per address)")
LIMITS = (
    SIGN_UP,
    PASSWORD_RESET,
    SCORER_LINK_JOIN,
    SEAT_TAKE,
    CLUB_JOIN,
    GAME_IMPORT,
    CLUB_IMPORT,
    WAITING_HANDS,
    API_TOKEN,
)

# Counted by something else than the address alone: each view names its key (an account, an
# email address, a club). Every mail the site sends to an address someone typed is behind
# them, so that no account, script or scorer makes the site mail anyone over and over.
DAY = 24 * HOUR
VERIFY_MAIL_ACCOUNT = Limit(
    "verify-mail-account",
    5,
    HOUR,
    "verification mails asked for (address changes, resends), per account",
)
VERIFY_MAIL_ADDRESS = Limit(
    "verify-mail-address", 50, HOUR, "verification mails asked for (address changes, resends)"
)
VERIFY_MAIL_COOL_DOWN = Limit(
    "verify-mail-cool-down",
    1,
    5 * 60,
    "mails to one email address (verification, sign-up, password reset), from anyone",
)
VERIFY_MAIL_RECIPIENT = Limit(
    "verify-mail-recipient",
    5,
    DAY,
    "mails to one email address (verification, sign-up, password reset), from anyone",
)
NIGHT_CREATE = Limit("night-create", 10, DAY, "club nights created, per club")
KEYED_LIMITS = (
    VERIFY_MAIL_ACCOUNT,
    VERIFY_MAIL_ADDRESS,
    VERIFY_MAIL_COOL_DOWN,
    VERIFY_MAIL_RECIPIENT,
    NIGHT_CREATE,
)

FORM_PAUSED = _("This form was sent too many times from this address in a short time.")
MAIL_PAUSED = _(
    "Too many emails were asked for, for this account or this email address, in a short time."
)
NIGHTS_PAUSED = _("This club has made too many nights in a short time.")
LOGIN_PAUSED = _(
    "Too many wrong passwords for this account, or from this address. Logging in is paused, "
    "even with the right password."
)


def client_address(request: HttpRequest) -> str:
    """The address a request comes from, as the throttles count it.

    Behind nginx every request comes from nginx: the phone's address is the last one of
    ``X-Forwarded-For``, which nginx writes. That header is believed only from the proxies
    gunicorn believes (``FORWARDED_ALLOW_IPS``), or over a Unix socket, which only this
    machine reaches; from anyone else it is the peer's address. An IPv6 address counts by
    its /64, the block one phone or one household is given; an IPv4 address as a
    dual-stack listener writes it (``::ffff:10.0.0.1``) counts as that IPv4 address,
    else every IPv4 phone would share one /64. django-axes counts logins by it too
    (``AXES_CLIENT_IP_CALLABLE``).
    """
    peer = request.META.get("REMOTE_ADDR") or ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    address = _parsed(peer)
    if forwarded and (address is None or _trusted(address)):
        address = _parsed(forwarded.rsplit(",", 1)[-1]) or address
    if address is None:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _parsed(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address in ``text``, an IPv4-mapped IPv6 one as the IPv4 address it maps."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    proxies: list[str] = settings.TRUSTED_PROXIES
    return "*" in proxies or any(
        address in ipaddress.ip_network(proxy, strict=False) for proxy in proxies
    )


def _address_key(group: str, request: HttpRequest) -> str:
    return client_address(request)


def throttled(
    limit: Limit,
) -> Callable[
    [Callable[Concatenate[R, P], HttpResponseBase]], Callable[Concatenate[R, P], HttpResponseBase]
]:
    """Count each POST of this view from an address against ``limit``; past it, the 429
    page, which changes nothing. Showing the form (GET, HEAD) is never counted."""

    def decorator(
        view: Callable[Concatenate[R, P], HttpResponseBase],
    ) -> Callable[Concatenate[R, P], HttpResponseBase]:
        @wraps(view)
        def wrapper(request: R, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
            if request.method == "POST":
                seconds = refused_for(limit, request)
                if seconds is not None:
                    return too_many(request, FORM_PAUSED, seconds)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def refused_for(
    limit: Limit, request: HttpRequest, key: Callable[[str, HttpRequest], str] = _address_key
) -> int | None:
    """Count this request against ``limit`` (by ``key``: the address unless given); past
    it, the seconds until it is let through again, else None."""
    try:
        usage = get_usage(
            request, group=limit.name, key=key, rate=limit.rate, method=ALL, increment=True
        )
    except RedisError as error:
        log.error(CACHE_DOWN, error, limit.name)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    # time_left is -1 when the cache failed to count: try again in a minute.
    return int(usage["time_left"]) if usage["time_left"] > 0 else 60


def too_many(request: HttpRequest, message: str | Promise, seconds: int) -> HttpResponse:
    """The 429 page: what was refused, and when to try again (``Retry-After`` says it too)."""
    context = {
        "message": message,
        "minutes": math.ceil(seconds / 60),
        "until": timezone.now() + timedelta(seconds=seconds),
    }
    response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


class LoginFailures(AxesCacheHandler):  # type: ignore[misc]  # axes has no type hints
    """django-axes's cache handler (``AXES_HANDLER``), which lets logins through while the
    cache does not answer, and logs each one: logging in refused to everyone, or failing,
    would be worse than a while without the count."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        try:
            failures: int = super().get_failures(request, credentials)
        except RedisError as error:
            log.error(CACHE_DOWN, error, "a login")
            return 0
        return failures

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        except RedisError as error:
            log.error(CACHE_DOWN, error, "a login failure")


def cool_off_seconds() -> int:
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    return int(cool_off.total_seconds())


def locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """django-axes's answer to a login refused (``AXES_LOCKOUT_CALLABLE``). Each attempt
    while locked starts the pause again (axes' ``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT``),
    so it ends one cool-off from now."""
    return too_many(request, LOGIN_PAUSED, cool_off_seconds())
