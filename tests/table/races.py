"""Two phones' requests to a game fired at once, many rounds over (PostgreSQL only): the
clubs' race helpers (tests/clubs/races.py), each request sent from a phone that may score
every game there is."""

from collections.abc import Callable

from django.test import Client

from scoring.common.rights import COOKIE
from scoring.table.models import Game
from tests.clubs import races
from tests.clubs.races import racing, report
from tests.conftest import scorer_cookie

__all__ = ["ROUNDS", "at_once", "racing", "report"]

ROUNDS = 30


def at_once(*requests: Callable[[Client], object]) -> list:
    """Fire the requests together, each from its own phone on its own connection; their
    responses in order (a request that raises or never ends fails the test)."""
    # Each phone may score every game there is, as the phone that started it would.
    cookie = scorer_cookie(Game.objects.values_list("public_id", flat=True))

    def from_a_phone(request: Callable[[Client], object]) -> Callable[[], object]:
        def send() -> object:
            client = Client()
            client.cookies[COOKIE] = cookie
            return request(client)

        return send

    return races.at_once(*map(from_a_phone, requests))
