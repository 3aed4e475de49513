"""Two requests to a club fired at once, many rounds over, each on a fresh club (PostgreSQL
only)."""

import threading
import traceback
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scoring.clubs import services as club_services
from scoring.engine import Rules

ROUNDS = 20
JOIN_SECONDS = 30


racing = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent connections need PostgreSQL",
)


def at_once(*requests: Callable[[], object]) -> list:
    """Fire the requests together, each on its own connection; their answers in order. A
    request that raises (a 500 re-raised by the test client) or never ends fails the test."""
    start = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)
    errors: list[str] = []

    def run(index, request):
        try:
            start.wait(timeout=JOIN_SECONDS)
            responses[index] = request()
        except BaseException:  # recorded for the test to fail on, not lost with the thread
            errors.append(f"request {index}:\n{traceback.format_exc()}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_SECONDS)
    stuck = [index for index, thread in enumerate(threads) if thread.is_alive()]
    if stuck or errors:
        pytest.fail(f"requests never ended: {stuck}\n" + "\n".join(errors), pytrace=False)
    return responses


def signed_in(user):
    browser = Client()
    browser.force_login(user)
    return browser


def new_club(round_, *, invite_admits=False):
    """A club whose first admin is a new account, Amina; the club and the account."""
    amina = User.objects.create(username=f"amina{round_}")
    club = club_services.create_club(
        name="Sfax",
        slug=f"sfax-{round_}",
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=invite_admits,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    return club, amina


def report(outcomes: Counter) -> None:
    """The interleavings seen, shown with ``pytest -rP``."""
    for outcome, count in sorted(outcomes.items()):
        print(f"{count:3} × {outcome}")
