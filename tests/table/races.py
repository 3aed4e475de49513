"""Two phones' requests to a game fired at once, many rounds over (PostgreSQL only)."""

import threading
import traceback
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client

from scoring.common.rights import COOKIE
from scoring.table.models import Game
from tests.conftest import scorer_cookie

ROUNDS = 30
JOIN_SECONDS = 30


racing = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent connections need PostgreSQL",
)


def at_once(*requests: Callable[[Client], object]) -> list:
    """Fire the requests together, each from its own phone on its own connection.

    Returns their responses in order. A request that raises (a 500 re-raised by the
    test client, a deadlock) or never ends fails the test with its traceback.
    """
    start = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)
    # Each phone may score every game there is, as the phone that started it would.
    cookie = scorer_cookie(Game.objects.values_list("public_id", flat=True))
    errors: list[str] = []

    def phone(index, request):
        try:
            client = Client()
            client.cookies[COOKIE] = cookie
            start.wait(timeout=JOIN_SECONDS)
            responses[index] = request(client)
        except BaseException:  # recorded for the test to fail on, not lost with the thread
            errors.append(f"request {index}:\n{traceback.format_exc()}")
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_SECONDS)
    stuck = [index for index, thread in enumerate(threads) if thread.is_alive()]
    if stuck or errors:
        pytest.fail(f"requests never ended: {stuck}\n" + "\n".join(errors), pytrace=False)
    return responses


def report(outcomes: Counter) -> None:
    """The interleavings seen, shown with ``pytest -rP``."""
    for outcome, count in sorted(outcomes.items()):
        print(f"{count:3} × {outcome}")
