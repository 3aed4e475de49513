"""The API marks a won game's result final or provisional (issue 40.4): ``finality`` on a
game, beside its record and report, which stay as they were (no key of ``boulmous/1`` is
added)."""

from decimal import Decimal

import pytest
from django.test import Client

from scoring.engine import Confirmation, Rules
from scoring.table import services
from tests.factories import NAMES
from tests.table.agreement import record

pytestmark = pytest.mark.django_db

WON = {"taker": 1, "bid": 5, "trump": "S", "tricks": (0, 5, 1)}


def game_of(mode, hands):
    rules = Rules(confirmation=mode, stake=Decimal("0.50"), currency="EUR")
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    for number in range(1, hands + 1):
        record(game, number, **WON)
    return game


def finality(game):
    answer = Client().get(f"/api/v1/games/{game.public_id}").json()
    return answer["finality"], sorted(answer)


@pytest.mark.parametrize(
    ("mode", "hands", "said"),
    [
        (Confirmation.OFF, 1, None),
        (Confirmation.OFF, 5, "final"),
        (Confirmation.WHOLE_GAME, 5, "provisional"),
    ],
)
def test_game_says_its_finality_beside_its_record_and_report(mode, hands, said):
    game = game_of(mode, hands)

    assert finality(game) == (said, ["finality", "id", "record", "report"])


def test_game_is_final_once_signed_and_its_settlement_agreed_by_the_four():
    game = game_of(Confirmation.WHOLE_GAME, 5)
    for seat in range(4):
        services.agree_settlement(public_id=game.public_id, seat=seat)

    assert finality(game)[0] == "final"
