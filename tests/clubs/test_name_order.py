"""Names in the reader's order (issue 37.7): every list of a club's players is in the order
of the Unicode Collation Algorithm (scoring/engine/names.py ``sorted_by_name``), in every
language, never by code point (Élodie after Yasmine) nor by the database's collation."""

from datetime import date

import pytest
from django.test import Client

from scoring.clubs import services as club_services
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from tests.clubs.factories import account, make_club, signed_in

pytestmark = pytest.mark.django_db

ORDERED = ("Dounia", "Élodie", "Farid", "Yasmine")
"""The club's players besides Amina, in the reader's order: by code point, Élodie (U+00C9)
comes after Yasmine."""
ARABIC = ("ابتسام", "أحمد", "إيمان", "بلال")
"""And Arabic names in the Arabic alphabet's order: by code point, the two with a hamza
(U+0623, U+0625) come before the bare alef (U+0627)."""


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    """Sfax, whose players joined in the reverse order; Amina its admin."""
    return make_club(amina, target=3, players=reversed((*ORDERED, *ARABIC)))


def in_order(page, names):
    """Whether ``names`` come in ``page`` in this order (each at its first place)."""
    places = [page.index(f"{name}<") for name in names]
    return places == sorted(places)


def night_with_everyone(club):
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=None)
    return night


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
@pytest.mark.parametrize(
    "page",
    [
        "/clubs/sfax/",
        "/clubs/sfax/members",
        "/clubs/sfax/nights/{night}/",
        "/clubs/sfax/members/{amina}/merge",
    ],
)
def test_club_pages_list_players_in_the_reader_s_order(club, amina, language, page):
    night = night_with_everyone(club)
    admin = Member.objects.get(club=club, name="Amina")
    address = page.format(night=night.pk, amina=admin.pk)

    html = signed_in(amina).get(address, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert (in_order(html, ORDERED), in_order(html, ARABIC)) == (True, True)


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_invite_page_offers_players_in_the_reader_s_order(club, language):
    html = signed_in(account("zied")).get(
        f"/clubs/sfax/join/{club.invite_secret}", HTTP_ACCEPT_LANGUAGE=language
    )

    assert in_order(html.content.decode(), ORDERED) is True


def game_with_everyone(club):
    """Amina with Farid, Élodie and Dounia at one table, Amina winning it."""
    state = club_services.start_club_game(
        club=club, names=["Amina", "Farid", "Élodie", "Dounia"], first_dealer=0, owner_id=None
    )
    services.record_hand(
        public_id=state.game.public_id,
        number=1,
        hand=Hand(Contract(0, 3, Trump.HEARTS), tricks=(3, 1, 1, 1)),
        token=None,
    )


def test_api_player_lists_those_he_met_in_the_reader_s_order(club, amina):
    game_with_everyone(club)
    admin = Member.objects.get(club=club, name="Amina")
    browser = Client()
    browser.force_login(amina)

    answer = browser.get(f"/api/v1/clubs/sfax/players/{admin.pk}").json()

    assert [meeting["name"] for meeting in answer["head_to_head"]] == ["Dounia", "Élodie", "Farid"]


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_player_page_lists_those_he_met_in_the_reader_s_order(club, amina, language):
    game_with_everyone(club)
    admin = Member.objects.get(club=club, name="Amina")

    html = signed_in(amina).get(f"/clubs/sfax/players/{admin.pk}/", HTTP_ACCEPT_LANGUAGE=language)

    assert in_order(html.content.decode(), ("Dounia", "Élodie", "Farid")) is True
