"""What a view needs before it runs, checked in one place."""

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from ..models import Game

P = ParamSpec("P")


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (installed for every request)."""

    htmx: HtmxDetails


class GameView(Protocol[P]):
    """A view of the game named in the address, as Django calls it: ``pk`` by keyword."""

    def __call__(
        self, request: HtmxHttpRequest, pk: int, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse: ...


def with_game(
    view: Callable[Concatenate[HtmxHttpRequest, Game, P], HttpResponse],
) -> GameView[P]:
    """The game named in the address (one query), or a 404."""

    @wraps(view)
    def wrapper(
        request: HtmxHttpRequest, pk: int, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        return view(request, get_object_or_404(Game, pk=pk), *args, **kwargs)

    return wrapper


def writes_game(
    view: Callable[Concatenate[HtmxHttpRequest, int, P], HttpResponse],
) -> GameView[P]:
    """A write to the game named in the address. Its service locks and reads the game in
    the same query, so nothing is read here; a game that does not exist is a 404."""

    @wraps(view)
    def wrapper(
        request: HtmxHttpRequest, pk: int, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        try:
            return view(request, pk, *args, **kwargs)
        except Game.DoesNotExist:
            raise Http404 from None

    return wrapper
