"""What the confirmation and dispute tests make: a game played under a confirmation rule,
its hands recorded from a seat, a phone holding a seat, a hand confirmed."""

import uuid

from django.test import Client

from scoring.engine import Confirmation as Mode
from scoring.engine import Rules
from scoring.table import services
from scoring.table.forms import HandForm
from tests.factories import NAMES, hand_data


def new_game(mode=Mode.EACH_HAND, minutes=15):
    rules = Rules(confirmation=mode, confirmation_minutes=minutes)
    return services.create_game(names=NAMES, rules=rules, first_dealer=0).game


def hand_of(number, **changes):
    form = HandForm(hand_data(number, **changes), names=NAMES)
    assert form.is_valid(), form.errors
    return form.cleaned_data["hand"]


def record(game, number=1, seat=None, **changes):
    return services.record_hand(
        public_id=game.public_id,
        number=number,
        hand=hand_of(number, **changes),
        token=uuid.uuid4(),
        seat=seat,
    )


def seat_phone(game, seat):
    """A phone holding ``seat`` of the game, by its code."""
    link = services.make_seat_links(public_id=game.public_id)[seat]
    phone = Client()
    phone.post("/seat", {"code": link.code})
    return phone


def confirm(game, number=1, version=1, seat=2):
    return services.confirm_hand(
        public_id=game.public_id, number=number, version=version, seat=seat
    )
