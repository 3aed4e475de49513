"""The Café des Sports of the privacy tests, which the accounts', the browser's and the form
pages' tests build on too: its players (full names, that the public sees shortened), two
games of six and five hands, the club with a season around today, and their accounts."""

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from scoring.clubs import services as club_services
from scoring.clubs.models import ClubResult, Member
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services

H, S, C = Trump.HEARTS, Trump.SPADES, Trump.CLUBS

PLAYERS = ("Amina Belhaj", "Bilal Chebbi", "Chafik Daoud", "Dalila")


WON_BY_BILAL = (
    Hand(Contract(1, 4, H), (1, 4, 1, 0)),
    Hand(Contract(0, 6, S), (6, 0, 0, 0)),
    Hand(Contract(1, 5, C), (0, 5, 1, 0)),
    Hand(Contract(1, 5, C), (0, 5, 0, 1)),
    Hand(Contract(1, 5, H), (1, 5, 0, 0)),
    Hand(Contract(1, 5, H), (1, 5, 0, 0)),
)

WON_BY_AMINA = tuple(Hand(Contract(0, 5, S), (5, 1, 0, 0)) for _ in range(5))


def user(name):
    return get_user_model().objects.create_user(name, f"{name}@example.com", "pw-" + name)


def new_club(admin, *, public=True, slug="cafe", admin_name=PLAYERS[0]):
    club = club_services.create_club(
        name="Café des Sports" if slug == "cafe" else "Le Trèfle",
        slug=slug,
        time_zone="Europe/Paris",
        rules=Rules(stake=Decimal("0.50"), currency="EUR"),
        points=(3, 2, 1, 0),
        public=public,
        invite_admits=True,
        admin_user_id=admin.pk,
        admin_name=admin_name,
    )
    today = timezone.localdate()
    club_services.create_season(
        club=club,
        name="This season",
        slug="now",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
    )
    return club


def play(club, hands, names=PLAYERS, owner=None):
    state = club_services.start_club_game(
        club=club, names=names, first_dealer=0, owner_id=owner.pk if owner else None
    )
    for number, hand in enumerate(hands, start=1):
        state = services.record_hand(
            public_id=state.game.public_id, number=number, hand=hand, token=None
        )
    assert state.result.finished
    return state.game


def ratings(club):
    """Every stored result: who, where, and the rating after it, to the last digit."""
    return list(
        ClubResult.objects.filter(club=club)
        .order_by("position", "seat")
        .values_list("game_id", "seat", "position", "rank", "mu", "sigma")
    )


def member(club, name):
    return Member.objects.get(club=club, name=name)


def signed_in(account):
    client = Client()
    client.force_login(account)
    return client
