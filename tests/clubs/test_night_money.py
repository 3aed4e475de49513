"""The night's money (issue 19): one settlement for the whole club night, for a club that
plays for stakes: each player's balance over all his tables (won games' money, and the
boulmous paid in games not won), and the fewest payments that settle them, on the night's
ranking page and in its PDF."""

import io
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation
from pypdf import PdfReader

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member
from scoring.clubs.nights import services as night_services
from scoring.clubs.nights.pages import night_money
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game
from tests.clubs.factories import account, signed_in, with_role
from tests.engine.test_settle_many import fewest_possible

pytestmark = pytest.mark.django_db

PLAYERS = ("Bilal", "Chafik", "Dalila", "Emna", "Farid", "Ghada", "Hedi", "Inès")
STAKE = Decimal("0.50")


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    """Sfax plays for 0.50 EUR a stake; nine players with Amina, its admin."""
    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(target=21, stake=STAKE, currency="EUR"),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    for name in PLAYERS:
        member_services.add_member(club=club, name=name)
    return club


@pytest.fixture
def organiser(amina):
    return signed_in(amina)


def new_night(club, names=("Amina", *PLAYERS)):
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=2)
    member_ids = [club.members.get(name=name).pk for name in names]
    night_services.check_in(night_id=night.pk, member_ids=member_ids, guests=[])
    return night


def url(night, tail="ranking"):
    return f"/clubs/sfax/nights/{night.pk}/{tail}"


def seated(game):
    return [seat.player.name for seat in game.seats.select_related("player").order_by("position")]


def record(game, *hands):
    for number, (taker, bid, tricks) in enumerate(hands, start=1):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(taker, bid, Trump.HEARTS), tricks=tricks),
            token=None,
        )


BOULMOUS_MADE = (0, 6, (6, 0, 0, 0))
"""Seat 1 makes a boulmous: four of them win the game (24 points past 21)."""


def round_games(night, number):
    return list(
        Game.objects.filter(
            club_game__round__night=night, club_game__round__number=number
        ).order_by("club_game__table")
    )


def play_two_rounds(club, organiser, night):
    """Round 1: seat 1 wins each table with four boulmous (+15 stakes, the others -5 each).
    Round 2: table 1 as well, after a boîte of seat 3 (seat 1 +16; seat 3 -6); table 2
    abandoned after seat 4 made a boulmous and seat 2 missed one (+4 and -4 stakes, the
    others nothing). Each player's expected balance in stakes."""
    units: dict[str, int] = defaultdict(int)
    organiser.post(url(night, "draw"))
    for game in round_games(night, 1):
        record(game, *[BOULMOUS_MADE] * 4)
        names = seated(game)
        for seat, name in enumerate(names):
            units[name] += 15 if seat == 0 else -5
    organiser.post(url(night, "draw"))
    first, second = round_games(night, 2)
    record(first, (2, 4, (0, 3, 1, 2)), *[BOULMOUS_MADE] * 4)
    for seat, name in enumerate(seated(first)):
        units[name] += (16, -5, -6, -5)[seat]
    record(second, (3, 6, (0, 0, 0, 6)), (1, 6, (0, 5, 1, 0)))
    for seat, name in enumerate(seated(second)):
        units[name] += (0, -4, 0, 4)[seat]
    night_services.end_night(night_id=night.pk)
    for name in ("Amina", *PLAYERS):
        units.setdefault(name, 0)  # who sat out both rounds owes nothing
    return units


def test_the_night_settles_every_players_balance_over_all_his_tables(club, organiser):
    night = new_night(club)
    units = play_two_rounds(club, organiser, night)

    response = organiser.get(url(night))

    money = response.context["money"]
    balances = {balance.player: balance.value for balance in money.balances}
    assert balances == {name: STAKE * unit for name, unit in units.items()}
    assert [balance.value for balance in money.balances] == sorted(balances.values(), reverse=True)
    left = dict(balances)
    for payment in money.payments:
        assert payment.value > 0
        left[payment.payer] += payment.value
        left[payment.payee] -= payment.value
    assert set(left.values()) == {Decimal(0)}
    assert money.fewest
    assert len(money.payments) == fewest_possible(list(units.values()))
    assert (money.unfinished, money.elsewhere) == (1, 0)
    text = response.content.decode()
    assert "The night&#x27;s money" in text or "The night's money" in text
    assert "only its boulmous payments count" in text
    assert all(balance.amount in text for balance in money.balances)


def test_the_payments_are_listed_by_payer_and_in_the_clubs_currency_by_language(club, organiser):
    night = new_night(club)
    play_two_rounds(club, organiser, night)

    response = organiser.get(url(night), HTTP_ACCEPT_LANGUAGE="fr")

    money = response.context["money"]
    assert [payment.payer.casefold() for payment in money.payments] == sorted(
        payment.payer.casefold() for payment in money.payments
    )
    assert all(payment.amount.endswith("\xa0€") for payment in money.payments)
    assert "L’argent de la soirée" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "fewest"),
    [
        ("fr", "Ce sont les paiements les moins nombreux qui y parviennent."),
        ("ar", "وهي أقل عدد ممكن من الدفعات لذلك."),
    ],
)
def test_the_nights_money_says_its_payments_are_the_fewest_in_the_language(
    club, organiser, language, fewest
):
    night = new_night(club)
    play_two_rounds(club, organiser, night)

    response = organiser.get(url(night), HTTP_ACCEPT_LANGUAGE=language)

    assert fewest in response.content.decode()


def test_a_club_without_stakes_shows_no_money(club, organiser):
    club.stake = Decimal(0)
    club.save()
    night = new_night(club)

    response = organiser.get(url(night))

    assert response.context["money"] is None
    assert "night-money" not in response.content.decode()


def test_a_night_without_games_has_no_balances_to_show(club, organiser):
    night = new_night(club)

    response = organiser.get(url(night))

    assert (response.context["money"].balances, response.context["money"].payments) == ([], [])
    assert "night-money" not in response.content.decode()


def test_games_in_another_currency_are_left_out_and_said(club, organiser):
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    won = round_games(night, 1)[0]
    ClubResult.objects.filter(game=won).update(amount=None)  # as the league keeps them
    abandoned = round_games(night, 2)[1]
    Game.objects.filter(pk=abandoned.pk).update(currency="USD")

    money = night_money(club, night)

    assert (money.unfinished, money.elsewhere) == (0, 2)
    assert "2 games played in another currency are left out." in money.notes
    assert sum(balance.value for balance in money.balances) == 0


def test_the_night_is_read_in_the_same_queries_whatever_its_games(
    club, organiser, django_assert_num_queries
):
    night = new_night(club)
    organiser.post(url(night, "draw"))
    for game in round_games(night, 1):
        record(game, *[BOULMOUS_MADE] * 4)
    with django_assert_num_queries(3):  # results, games not won (none), members
        night_money(club, night)
    organiser.post(url(night, "draw"))
    first, second = round_games(night, 2)
    record(first, (0, 6, (6, 0, 0, 0)))
    record(second, (3, 6, (0, 0, 0, 6)))

    with django_assert_num_queries(5):  # and those games' seats and hands
        money = night_money(club, night)

    assert money.unfinished == 2


def test_a_public_club_names_players_as_the_public_sees_them(club, organiser):
    club.public = True
    club.save()
    nour = member_services.add_member(club=club, name="Nour Haddad")
    Member.objects.filter(pk=nour.pk).update(short_in_public=True)
    night = new_night(club, ("Amina", "Bilal", "Chafik", "Nour Haddad"))
    organiser.post(url(night, "draw"))
    record(round_games(night, 1)[0], *[BOULMOUS_MADE] * 4)

    public = Client().get(url(night))
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER)).get(url(night))

    assert "Nour H." in {balance.player for balance in public.context["money"].balances}
    assert "Nour Haddad" not in public.content.decode()
    assert "Nour Haddad" in {balance.player for balance in member.context["money"].balances}


def test_the_pdf_carries_the_nights_money(club, organiser):
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    money = organiser.get(url(night)).context["money"]

    printed = organiser.get(url(night, "ranking.pdf"))

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed.content)).pages)
    assert "The night's money" in text
    assert all(payment.payer in text and payment.payee in text for payment in money.payments)
    assert money.payments[0].amount in text


def test_the_pdf_of_a_night_where_nobody_owes_says_so(club, organiser):
    night = new_night(club)
    organiser.post(url(night, "draw"))
    game = round_games(night, 1)[0]
    # A boulmous made, then one missed by the same player: even, and the game abandoned.
    record(game, BOULMOUS_MADE, (0, 6, (5, 1, 0, 0)))
    night_services.end_night(night_id=night.pk)

    printed = organiser.get(url(night, "ranking.pdf"))
    shown = organiser.get(url(night))

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed.content)).pages)
    assert "Nobody owes anything." in text
    assert "Nobody owes anything." in shown.content.decode()
    with translation.override("en"):
        assert night_money(club, night).payments == []
