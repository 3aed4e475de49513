"""What a request costs: exact query counts, and one scoring of the game per request.

The counts are the same at 1 hand and at 60: nothing is read hand by hand. The tests
run outside a test transaction, as requests do, so that each write's transaction is
counted as it runs in production (a savepoint would be two queries more). A write is:
BEGIN, the game locked with its seats, its hands, the hand written, the history line,
the game's summary row for lists, COMMIT; under htmx, the history read for the page.
The phone that started the game is known from its signed cookie: no query.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import scoring.engine.game
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from tests.factories import NAMES, hand_data

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def scorings(monkeypatch):
    """Counts the games the engine scores: every scoring makes one GameResult."""
    made = []

    class CountedResult(scoring.engine.game.GameResult):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(scoring.engine.game, "GameResult", CountedResult)
    return made


def game_with(hands):
    """A game at 1000 points with ``hands`` hands, Bilal 4♥ each time, 1-4-0-1."""
    game = services.create_game(names=NAMES, rules=Rules(target=1000), first_dealer=0).game
    for number in range(1, hands + 1):
        hand = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


def cost(client, scorings, method, url, data=None, **headers):
    """The response, its number of queries, and the number of scorings it made."""
    scorings.clear()
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, data, **headers)
    return response.status_code, len(queries), len(scorings)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_game_page_costs_four_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    assert cost(client, scorings, "get", f"/games/{game.public_id}/") == (200, 4, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_plain_save_costs_seven_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    result = cost(client, scorings, "post", f"/games/{game.public_id}/hands", hand_data(hands + 1))

    assert result == (302, 7, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_htmx_save_costs_eight_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    result = cost(
        client, scorings, "post", f"/games/{game.public_id}/hands", hand_data(hands + 1), **HTMX
    )

    assert result == (200, 8, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_htmx_undo_costs_eight_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    result = cost(client, scorings, "post", f"/games/{game.public_id}/hands/{hands}/undo", **HTMX)

    assert result == (200, 8, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_edit_save_costs_seven_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    result = cost(client, scorings, "post", f"/games/{game.public_id}/hands/1/edit", hand_data(1))

    assert result == (302, 7, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("hands", [1, 60])
def test_invalid_htmx_save_costs_three_queries_and_one_scoring(client, scorings, hands):
    game = game_with(hands)

    result = cost(
        client, scorings, "post", f"/games/{game.public_id}/hands", {"number": hands + 1}, **HTMX
    )

    assert result == (422, 3, 1)
