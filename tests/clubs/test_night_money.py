"""The night's money (issue 19): one settlement for the whole club night, for a club that
plays for stakes: each player's balance over all his tables (won games' money, and the
boulmous paid in games not won), and the fewest payments that settle them, on the night's
ranking page and in its PDF."""

import io
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation
from pypdf import PdfReader

from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member
from scoring.clubs.nights import services as night_services
from scoring.clubs.nights.pages import night_money
from scoring.table.models import Game
from tests.clubs.factories import signed_in, with_role
from tests.clubs.night_money import (
    BOULMOUS_MADE,
    STAKE,
    new_night,
    play_two_rounds,
    record,
    round_games,
    url,
)
from tests.engine.fewest import fewest_possible

pytestmark = pytest.mark.django_db


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
    ClubResult.objects.filter(game=won).update(amount=None)  # as league.py keeps them
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
