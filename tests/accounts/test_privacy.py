"""An account's privacy (docs/privacy.md): all its data downloaded, and the account deleted,
its games and club results kept under his name or an anonymous one, rated as before."""

import json

import pytest
from django.contrib import auth
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.accounts.services import account_data
from scoring.clubs.federation import services as federation_services
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Change, Game
from tests.clubs.cafe import (
    PLAYERS,
    WON_BY_AMINA,
    WON_BY_BILAL,
    member,
    new_club,
    play,
    ratings,
    signed_in,
    user,
)
from tests.factories import hand_data, new_game_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def amina(db):
    return user("amina")


@pytest.fixture
def bilal(db):
    return user("bilal")


@pytest.fixture
def cafe(amina, bilal):
    """Amina Belhaj and Bilal Chebbi both admins of the club (so that either may go), two
    club games Amina started, and a game of Bilal's own."""
    club = new_club(amina)
    play(club, WON_BY_BILAL, owner=amina)
    play(club, WON_BY_AMINA, owner=amina)
    Member.objects.filter(club=club, name=PLAYERS[1]).update(user=bilal, role=Member.Role.ADMIN)
    services.create_game(
        names=("Bilal", "Sami", "Tarek", "Walid"),
        rules=Rules(),
        first_dealer=0,
        place="",
        owner_id=bilal.pk,
    )
    return club


def own_game(owner, hands=1):
    state = services.create_game(
        names=("Amina", "Yasmine", "Zied", "Omar"),
        rules=Rules(),
        first_dealer=0,
        place="",
        owner_id=owner.pk,
    )
    for number in range(1, hands + 1):
        state = services.record_hand(
            public_id=state.game.public_id,
            number=number,
            hand=Hand(Contract(1, 3, Trump.HEARTS), (1, 3, 1, 1)),
            token=None,
        )
    return state.game


def delete(client, *, password="pw-amina", names="keep"):
    return client.post("/accounts/delete/", {"password": password, "names": names})


# --- My data ---------------------------------------------------------------------------------


def test_my_data_holds_the_accounts_data_and_nothing_of_anyone_elses(cafe, amina, bilal):
    game = own_game(amina)
    Change.objects.filter(game=game).update(by_user=amina)
    services.make_scorer_link(public_id=game.public_id)

    response = signed_in(amina).get("/accounts/my-data.json")

    data = json.loads(response.content)
    assert (response.status_code, response["Content-Disposition"]) == (
        200,
        'attachment; filename="boulmous-my-data.json"',
    )
    assert sorted(data) == [
        "account",
        "changes_made",
        "claims",
        "federations_run",
        "format",
        "games_owned",
        "memberships",
        "scorer_links",
    ]
    assert (data["format"], data["account"]["username"], data["account"]["email"]) == (
        "boulmous-account-data/1",
        "amina",
        "amina@example.com",
    )
    owned = Game.objects.filter(owner=amina).order_by("created_at", "id")
    assert [g["game"] for g in data["games_owned"]] == [g.public_id for g in owned]
    assert [c["game"] for c in data["changes_made"]] == [game.public_id] * 2
    assert [link["game"] for link in data["scorer_links"]] == [game.public_id]
    [membership] = data["memberships"]
    assert (membership["club"], membership["name"], membership["role"]) == (
        "Café des Sports",
        "Amina Belhaj",
        "admin",
    )
    assert [result["rank"] for result in membership["results"]] == [2, 1]
    assert len(membership["games"]) == 2
    text = response.content.decode()
    assert ("bilal@example.com" in text, '"Sami"' in text) == (False, False)


def test_my_data_holds_the_federations_the_account_runs_and_no_other(cafe, amina, bilal):
    sahel = federation_services.create_federation(
        name="Sahel", slug="sahel", public=True, admin_user_id=amina.pk
    )
    federation_services.create_federation(
        name="Cap Bon", slug="cap-bon", public=False, admin_user_id=bilal.pk
    )
    federation_services.add_admin(federation_id=sahel.pk, user_id=bilal.pk)

    data = json.loads(signed_in(amina).get("/accounts/my-data.json").content)

    assert data["federations_run"] == [
        {
            "federation": "Sahel",
            "address": "sahel",
            "public": True,
            "created_at": sahel.created_at.isoformat(),
        }
    ]
    # Its other admins are theirs, not his, and so is the federation Bilal alone runs.
    text = json.dumps(data)
    assert ('"bilal"' in text, "Cap Bon" in text) == (False, False)


def test_my_data_signed_out_asks_to_sign_in(cafe):
    response = Client().get("/accounts/my-data.json")

    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/accounts/my-data.json",
    )


def test_my_data_queries_do_not_grow_with_games_or_clubs(amina, bilal):
    club = new_club(amina)
    play(club, WON_BY_BILAL, owner=amina)
    own_game(amina)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            account_data(amina.pk)
        return len(captured)

    few = queries()
    other = new_club(amina, slug="trefle")
    for _ in range(3):
        play(club, WON_BY_AMINA, owner=amina)
        play(other, WON_BY_AMINA, owner=amina)
        own_game(amina, hands=3)

    assert queries() == few == 14


# --- Delete my account -----------------------------------------------------------------------


def test_delete_account_page_asks_for_the_password_and_the_names(amina):
    response = signed_in(amina).get("/accounts/delete/")

    html = response.content.decode()
    assert response.status_code == 200
    assert ('name="password"' in html, 'value="keep"' in html, 'value="anonymous"' in html) == (
        True,
        True,
        True,
    )


def test_delete_account_wrong_password_says_so_and_changes_nothing(cafe, amina):
    client = signed_in(amina)

    response = delete(client, password="not-it")

    assert response.status_code == 422
    assert "This is not your password." in response.content.decode()
    assert (auth.get_user(client).is_authenticated, member(cafe, PLAYERS[0]).user_id) == (
        True,
        amina.pk,
    )


def test_delete_account_bad_choice_says_so_and_changes_nothing(amina):
    response = delete(signed_in(amina), names="vanish")

    assert response.status_code == 422
    assert auth.get_user_model().objects.filter(pk=amina.pk).exists()


def test_delete_account_keeping_his_name_keeps_games_results_and_ratings(cafe, amina, bilal):
    before = ratings(cafe)
    client, elsewhere = signed_in(amina), signed_in(amina)
    games = list(Game.objects.filter(owner=amina).values_list("pk", flat=True))
    bilal_data = account_data(bilal.pk)

    response = delete(client)

    assert (response.status_code, response["Location"]) == (302, "/accounts/deleted/")
    assert auth.get_user_model().objects.filter(username="amina").exists() is False
    shown = member(cafe, PLAYERS[0])
    assert (shown.user_id, shown.role) == (None, "admin")
    assert Game.objects.filter(pk__in=games, owner=None).count() == len(games) == 2
    assert ratings(cafe) == before
    assert ClubResult.objects.filter(club=cafe, name="Amina Belhaj").count() == 2
    assert (auth.get_user(client).is_authenticated, auth.get_user(elsewhere).is_authenticated) == (
        False,
        False,
    )
    logging_in = Client().post("/accounts/login/", {"username": "amina", "password": "pw-amina"})
    assert logging_in.status_code == 200  # the form again: no such account
    after = account_data(bilal.pk)
    assert after["memberships"] == bilal_data["memberships"]
    assert after["games_owned"] == bilal_data["games_owned"]


def test_delete_account_anonymous_renames_him_in_the_club_ratings_identical(cafe, amina, bilal):
    before = ratings(cafe)
    bilal_before = member(cafe, PLAYERS[1])

    response = delete(signed_in(amina), names="anonymous")

    assert response.status_code == 302
    shown = Member.objects.get(club=cafe, name="Player 1")
    assert (shown.user_id, shown.key) == (None, "player 1")
    for game in Game.objects.filter(club_game__club=cafe):
        assert list(game.seats.values_list("player__name", flat=True)) == [
            "Player 1",
            *PLAYERS[1:],
        ]
        record = Client().get(f"/games/{game.public_id}/record.json").json()
        assert record["players"][0] == "Player 1"
    assert ratings(cafe) == before
    rebuild(cafe)
    assert ratings(cafe) == before
    assert member(cafe, PLAYERS[1]) == bilal_before
    assert member(cafe, PLAYERS[1]).name == bilal_before.name
    page = signed_in(bilal).get("/clubs/cafe/seasons/now/").content.decode()
    assert ("Player 1" in page, "Amina Belhaj" in page) == (True, False)


def test_delete_account_anonymous_name_is_unique_in_each_club(cafe, amina, bilal):
    member_services.add_member(club=cafe, name="Player 1")
    other = new_club(bilal, slug="trefle", admin_name="Bilal Chebbi")
    member_services.add_member(club=other, name="Amina Belhaj", role=Member.Role.MEMBER)
    Member.objects.filter(club=other, name="Amina Belhaj").update(user=amina)

    delete(signed_in(amina), names="anonymous")

    assert Member.objects.get(club=cafe, user=None, role="admin").name == "Player 2"
    assert sorted(Member.objects.filter(club=other).values_list("name", flat=True)) == [
        "Bilal Chebbi",
        "Player 1",
    ]


def test_delete_account_only_admin_of_a_club_is_refused_and_nothing_changes(cafe, amina, bilal):
    Member.objects.filter(club=cafe, user=bilal).update(role=Member.Role.MEMBER)
    before = ratings(cafe)

    response = delete(signed_in(amina), names="anonymous")

    html = response.content.decode()
    assert response.status_code == 422
    assert "You are the only admin of Café des Sports with an account" in html
    assert (member(cafe, PLAYERS[0]).user_id, ratings(cafe)) == (amina.pk, before)


def test_delete_account_only_admin_of_a_federation_is_refused_and_nothing_changes(
    cafe, amina, bilal
):
    federation_services.create_federation(
        name="Sahel", slug="sahel", public=True, admin_user_id=amina.pk
    )
    shared = federation_services.create_federation(
        name="Cap Bon", slug="cap-bon", public=True, admin_user_id=amina.pk
    )
    federation_services.add_admin(federation_id=shared.pk, user_id=bilal.pk)

    response = delete(signed_in(amina), names="anonymous")

    html = response.content.decode()
    assert response.status_code == 422
    # Cap Bon has Bilal too: only Sahel would be left with nobody to run it.
    assert ("the only admin of the federation" in html, "Sahel" in html, "Cap Bon" in html) == (
        True,
        True,
        False,
    )
    assert auth.get_user_model().objects.filter(pk=amina.pk).exists()


def test_delete_account_signed_out_asks_to_sign_in(db):
    response = Client().post("/accounts/delete/", {"password": "x", "names": "keep"})

    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/accounts/delete/",
    )


def test_delete_account_his_game_stays_scorable_by_the_phone_that_started_it(amina, client):
    client.force_login(amina)
    client.post("/games/new", new_game_data())
    game = Game.objects.get(owner=amina)

    delete(client)
    hand = client.post(f"/games/{game.public_id}/hands", hand_data(1))

    game.refresh_from_db()
    assert (game.owner_id, hand.status_code, game.hands.count()) == (None, 302, 1)
