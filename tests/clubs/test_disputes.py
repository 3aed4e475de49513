"""A club game's referee (issue 40.3) is an admin of its club: he alone decides its
disputes, and the club page tells the admins which hands wait for him."""

import uuid

import pytest

from scoring.clubs import services as club_services
from scoring.clubs.models import Club, Member
from scoring.table import services
from scoring.table.forms import HandForm
from scoring.table.models import Decision
from tests.clubs.factories import account, signed_in, with_role
from tests.factories import hand_data

pytestmark = pytest.mark.django_db

NAMES = ("Amina", "Chafik", "Bilal", "Dalila")


def disputed_club_game(club):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    club.refresh_from_db()
    game = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None).game
    form = HandForm(hand_data(1), names=NAMES)
    assert form.is_valid(), form.errors
    services.record_hand(
        public_id=game.public_id, number=1, hand=form.cleaned_data["hand"], token=uuid.uuid4()
    )
    services.dispute_hand(
        public_id=game.public_id, number=1, version=1, seat=2, reason="Bilal made 4"
    )
    return game


def test_club_admin_sees_the_disputes_waiting_and_decides_one(club, organiser):
    game = disputed_club_game(club)

    page = organiser.get(f"/clubs/{club.slug}/").content.decode()
    decided = organiser.post(
        f"/games/{game.public_id}/hands/1/decide", {"outcome": "confirmed", "reason": "Recounted"}
    )
    after = organiser.get(f"/clubs/{club.slug}/").content.decode()

    assert (
        "Disputes waiting" in page,
        f"/games/{game.public_id}/hands/1/decide" in page,
        decided.status_code,
        Decision.objects.count(),
        "Disputes waiting" in after,
    ) == (True, True, 302, 1, False)


def test_club_scorer_and_member_are_no_referee(club):
    game = disputed_club_game(club)
    scorer = signed_in(with_role(club, "Zied", Member.Role.SCORER))
    member = signed_in(with_role(club, "Youssef", Member.Role.MEMBER))
    data = {"outcome": "confirmed", "reason": "Recounted"}

    codes = [
        phone.post(f"/games/{game.public_id}/hands/1/decide", data).status_code
        for phone in (scorer, member)
    ]
    page = member.get(f"/clubs/{club.slug}/").content.decode()

    assert (codes, Decision.objects.count(), "Disputes waiting" in page) == (
        [403, 403],
        0,
        False,
    )


def test_game_outside_a_club_is_refereed_by_its_owner_account():
    owner = account("yasmine")
    game = services.create_game(
        names=NAMES,
        rules=Club(confirmation="each_hand").rules,
        first_dealer=0,
        owner_id=owner.pk,
    ).game
    form = HandForm(hand_data(1), names=NAMES)
    assert form.is_valid()
    services.record_hand(
        public_id=game.public_id, number=1, hand=form.cleaned_data["hand"], token=uuid.uuid4()
    )
    services.dispute_hand(public_id=game.public_id, number=1, version=1, seat=2, reason="no")

    response = signed_in(owner).post(
        f"/games/{game.public_id}/hands/1/decide", {"outcome": "confirmed", "reason": "ok"}
    )

    assert (response.status_code, Decision.objects.count()) == (302, 1)
