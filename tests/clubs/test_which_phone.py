"""A club game's confirmations, disputes and decisions (issue 40.5) are in the club's
history too: who, which seat, which phone, and when; a member holding his seat through his
account confirms as "the seat's player signed in"."""

import re
import uuid

import pytest
from django.test import Client

from scoring.clubs import services as club_services
from scoring.clubs.models import Club, ClubChange, Member
from scoring.table import services
from scoring.table.forms import HandForm
from tests.clubs.factories import account, signed_in
from tests.factories import hand_data
from tests.table.agreement import new_game, record

pytestmark = pytest.mark.django_db

NAMES = ("Amina", "Chafik", "Bilal", "Dalila")


def club_game(club):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    club.refresh_from_db()
    game = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None).game
    form = HandForm(hand_data(1), names=NAMES)
    assert form.is_valid(), form.errors
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=form.cleaned_data["hand"],
        token=uuid.uuid4(),
        seat=0,
    )
    return game


def seat_phone(game, seat):
    link = services.make_seat_links(public_id=game.public_id)[seat]
    phone = Client()
    phone.post("/seat", {"code": link.code})
    return phone


def lines(page):
    found = re.findall(r'<ol class="club-history">(.*?)</ol>', page, re.S)
    items = found[0].split('<span class="when">')[1:] if found else []
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_member_confirming_through_his_account_is_said_in_both_histories(club, organiser):
    bilal = account("bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=bilal)
    game = club_game(club)

    response = signed_in(bilal).post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})
    line = ClubChange.objects.filter(club=club).latest("pk")
    game_page = organiser.get(f"/games/{game.public_id}/").content.decode()
    club_page = organiser.get(f"/clubs/{club.slug}/history").content.decode()

    assert (response.status_code, line.action, line.member.name, line.by_user) == (
        302,
        "hand_confirmed",
        "Bilal",
        bilal,
    )
    assert line.after == {"game": "Amina, Chafik, Bilal, Dalila", "hand": 1, "phone": "account"}
    assert "hand confirmed, hand 1: Bilal" in game_page
    assert "bilal, the seat’s player signed in" in game_page
    assert lines(club_page)[0].endswith(
        "hand confirmed : Bilal game: Amina, Chafik, Bilal, Dalila hand: 1 "
        "phone: the seat’s player signed in by bilal"
    )


def test_dispute_by_a_seat_code_and_the_admins_decision_in_the_clubs_history(club, organiser):
    game = club_game(club)
    chafik = seat_phone(game, 1)

    chafik.post(f"/games/{game.public_id}/dispute", {"number": "1", "reason": "Bilal made 4"})
    organiser.post(
        f"/games/{game.public_id}/hands/1/decide", {"outcome": "confirmed", "reason": "Recount"}
    )
    said = lines(organiser.get(f"/clubs/{club.slug}/history").content.decode())

    decided = [line for line in said if "referee’s decision" in line]
    disputed = [line for line in said if "hand disputed" in line]
    assert len(decided) == len(disputed) == 1
    assert (
        "decision: confirmed as it stands" in decided[0],
        "reason: Recount" in decided[0],
        "phone: the referee" in decided[0],
        "by amina" in decided[0],
    ) == (True, True, True, True)
    assert (
        "hand disputed : Chafik" in disputed[0],
        "phone: the seat’s own phone (its code)" in disputed[0],
        "reason: Bilal made 4" in disputed[0],
        "by no account: the phone above" in disputed[0],
    ) == (True, True, True, True)


def test_plain_game_writes_no_club_line(club):
    game = new_game()
    record(game, seat=0)
    before = ClubChange.objects.count()

    seat_phone(game, 1).post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})

    assert (game.confirmations.count(), ClubChange.objects.count()) == (1, before)
