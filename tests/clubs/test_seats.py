"""A club member whose account is linked to the member seated in a club game holds that
seat through his account, with no seat's code (issue 40.1); he watches, and scores nothing."""

import re

import pytest

from scoring.clubs import services as club_services
from scoring.clubs.models import Member
from scoring.table import services
from scoring.table.models import Hand
from tests.clubs.factories import account, signed_in
from tests.factories import hand_data

pytestmark = pytest.mark.django_db

SEAT_HELD = re.compile(r'<p class="notice seat-held">(.*?)</p>')


def held_line(response):
    found = SEAT_HELD.search(response.content.decode())
    return found.group(1) if found else None


def club_game(club):
    names = ("Amina", "Chafik", "Bilal", "Dalila")
    return club_services.start_club_game(club=club, names=names, first_dealer=0, owner_id=None).game


def test_member_holds_his_seat_of_a_club_game_through_his_account(club):
    bilal = account("bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=bilal)
    game = club_game(club)
    phone = signed_in(bilal)

    line = held_line(phone.get(f"/games/{game.public_id}/"))
    scored = phone.post(f"/games/{game.public_id}/hands", hand_data(1))

    assert (line, scored.status_code, Hand.objects.filter(game=game).count()) == (
        "You hold <bdi>Bilal</bdi>’s seat.",
        403,
        0,
    )


def test_member_not_seated_holds_no_seat(club):
    emna = account("emna")
    Member.objects.filter(club=club, name="Emna").update(user=emna)
    game = club_game(club)

    assert held_line(signed_in(emna).get(f"/games/{game.public_id}/")) is None


def test_account_of_no_member_holds_no_seat_of_a_plain_game(club):
    bilal = account("bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=bilal)
    game = services.create_game(
        names=("Amina", "Bilal", "C", "D"), rules=club.rules, first_dealer=0
    )

    assert held_line(signed_in(bilal).get(f"/games/{game.game.public_id}/")) is None
