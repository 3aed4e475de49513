"""The API's addresses, under /api/v1/ (scoring/urls.py): ninja's endpoints, each
answering HEAD as GET, as the site's pages do (tests/site/test_head.py), those under a club
with CORS for the origins it lists (clubs/embed.py), and the writes (scoring/api/writes.py)
their own methods alone; the OpenAPI document; its page; and a JSON 404 for any other
address under /api/v1/."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, include, path, re_path, reverse
from django.views.decorators.csrf import csrf_exempt

from ..clubs.face import Club, allow_origin
from . import docs, errors
from .api import api

WRITES = {"record_hand": ("POST",), "hand": ("PUT", "DELETE")}
"""The addresses that write, by name, and the methods each takes (and no GET)."""


def _across_sites(request: HttpRequest, response: HttpResponse, kwargs: dict[str, Any]) -> None:
    """CORS on the reads of a club: under it (``/clubs/{club}/…``) or one of its games
    (``/games/{id}``), for the origins the club lists, if it is public (clubs/embed.py);
    looked up only when the request says its origin."""
    if "club" not in kwargs and "game_id" not in kwargs:
        return
    club = None
    if "Origin" in request.headers:
        if "club" in kwargs:
            club = Club.objects.filter(slug=kwargs["club"]).first()
        else:
            club = Club.objects.filter(club_games__game__public_id=kwargs["game_id"]).first()
    allow_origin(request, response, club)


def _reads(
    view: Callable[..., HttpResponse], writes: tuple[str, ...] = ()
) -> Callable[..., HttpResponse]:
    """``view`` answering HEAD as it answers GET (the server sends no body), and any other
    method with a JSON 405; or, for an address that ``writes``, those methods alone."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if writes:
            if request.method in writes:
                return view(request, *args, **kwargs)
            refused = errors.error_response(
                request, errors.ApiError(405, "method_not_allowed", errors.NOT_ALLOWED)
            )
            refused["Allow"] = ", ".join(writes)
            if request.method == "HEAD":
                refused.content = b""
            return refused
        if request.method == "HEAD":
            request.method = "GET"
            try:
                response = view(request, *args, **kwargs)
            finally:
                request.method = "HEAD"
            response.content = b""
            _across_sites(request, response, kwargs)
            return response
        if request.method != "GET":
            response = errors.error_response(
                request, errors.ApiError(405, "method_not_allowed", errors.NOT_ALLOWED)
            )
            response["Allow"] = "GET, HEAD"
            return response
        response = view(request, *args, **kwargs)
        _across_sites(request, response, kwargs)
        return response

    return wrapper


def index(request: HttpRequest) -> HttpResponse:
    """/api/v1/: where the OpenAPI document and its page are."""
    return JsonResponse(
        {
            "openapi": request.build_absolute_uri(reverse("api:openapi-json")),
            "docs": request.build_absolute_uri(reverse("api_docs")),
        }
    )


def _endpoints() -> list[URLPattern | URLResolver]:
    patterns, _, _ = api.urls
    return [
        URLPattern(
            one.pattern,
            _reads(
                index if one.name == "api-root" else one.callback, WRITES.get(one.name or "", ())
            ),
            one.default_args,
            one.name,
        )
        if isinstance(one, URLPattern)
        else one
        for one in patterns
    ]


def unknown(request: HttpRequest) -> HttpResponse:
    return errors.error_response(request, errors.not_found())


urlpatterns = [
    path("docs", docs.page, name="api_docs"),
    path("", include((_endpoints(), "api"), namespace="api")),
    re_path(r"", csrf_exempt(_reads(unknown))),
]
