"""One rule for names and free text in a club (issue 18): a club's, a season's and a night's
text refuses control, invisible and bidi characters; the club import keeps names in NFC;
and no new player of a club may look like another (UTS #39 skeletons), whichever way he
comes in: added by an admin, through the invite link, seated in a club game, checked in at
a night, or read from the club's records. Said where it was typed; nothing stored."""

from datetime import date

import pytest

from scoring.clubs.members import services as member_services
from scoring.clubs.models import Attendance, Club, Member, Night, Season
from scoring.clubs.nights import services as night_services
from scoring.table.models import Game
from tests.clubs.factories import (
    account,
    club_data,
    club_game_data,
    errors,
    import_through,
    make_club,
    record_line,
    season_data,
    signed_in,
)

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0410"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
REFUSED = ["This field cannot hold control or invisible characters."]


def alike(name, like):
    return (
        f"“{name}” looks like “{like}”, another player of the club: give a name that reads apart."
    )


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    """Sfax: Amina, its admin, and Ali."""
    club = make_club(amina)
    member_services.add_member(club=club, name="Ali")
    return club


@pytest.fixture
def admin(amina):
    return signed_in(amina)


# --- Free text ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [f"Club{RLO} de Sfax", "Club\u2067 de Sfax", "Club\u200e"])
def test_new_club_name_with_a_bidi_control_is_refused(amina, name):
    response = signed_in(amina).post("/clubs/new", club_data(name=name, slug="sfax2"))

    assert (response.status_code, response.context["form"].errors["name"]) == (422, REFUSED)
    assert Club.objects.count() == 0


def test_club_settings_name_with_a_right_to_left_override_is_refused(club, admin):
    response = admin.post("/clubs/sfax/settings", club_data(name=f"Sfax{RLO}"))

    club.refresh_from_db()
    assert (response.status_code, response.context["form"].errors["name"], club.name) == (
        422,
        REFUSED,
        "Sfax",
    )


def test_new_club_name_is_kept_in_nfc(amina):
    signed_in(amina).post("/clubs/new", club_data(name="Cafe\u0301 de Sfax", slug="cafe"))

    assert Club.objects.get().name == "Caf\u00e9 de Sfax"


def test_new_season_name_with_a_right_to_left_override_is_refused(club, admin):
    response = admin.post("/clubs/sfax/seasons/new", season_data(name=f"Spring{RLO}", slug="s"))

    assert (response.status_code, response.context["form"].errors["name"]) == (422, REFUSED)
    assert Season.objects.count() == 0


def test_new_night_place_with_a_right_to_left_override_is_refused(club, admin):
    response = admin.post(
        "/clubs/sfax/nights/new", {"date": "2025-03-07", "place": f"Caf{RLO}", "rounds": ""}
    )

    assert (response.status_code, response.context["form"].errors["place"]) == (422, REFUSED)
    assert Night.objects.count() == 0


# --- Players who look alike -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "like"), [(CYRILLIC_A + "mina", "Amina"), (CYRILLIC_A + "li", "Ali"), ("AIi", "Ali")]
)
def test_add_member_who_looks_like_a_player_is_refused_naming_both(club, admin, name, like):
    response = admin.post("/clubs/sfax/members", {"name": name, "role": "member"})

    assert (response.status_code, response.context["add_form"].errors["name"]) == (
        422,
        [alike(name, like)],
    )
    assert sorted(club.members.values_list("name", flat=True)) == ["Ali", "Amina"]


def test_join_under_a_name_that_looks_like_a_player_is_refused(club):
    bilal = account("bilal")

    response = signed_in(bilal).post(
        f"/clubs/sfax/join/{club.invite_secret}", {"member": "", "name": CYRILLIC_A + "li"}
    )

    assert (response.status_code, response.context["form"].errors["name"]) == (
        422,
        [alike(CYRILLIC_A + "li", "Ali")],
    )
    assert club.members.count() == 2


def test_club_game_guest_who_looks_like_a_player_is_refused_at_his_seat(club, admin):
    data = club_game_data(player_1="Bilal", player_3=CYRILLIC_A + "li")

    response = admin.post("/clubs/sfax/games/new", data)

    assert (response.status_code, response.context["form"].errors["player_3"]) == (
        422,
        [alike(CYRILLIC_A + "li", "Ali")],
    )
    assert (Game.objects.count(), club.members.count()) == (0, 2)


def test_club_game_four_players_two_alike_are_refused_by_the_games_rule(club, admin):
    response = admin.post("/clubs/sfax/games/new", club_game_data(player_3="Bi1al"))

    assert (response.status_code, response.context["form"].errors["player_3"]) == (
        422,
        ['players: "Bi1al" and "Bilal" look alike'],
    )
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("guests", "name", "like"),
    [
        (CYRILLIC_A + "mina", CYRILLIC_A + "mina", "Amina"),
        ("Yasmine, Ya\u0455mine", "Ya\u0455mine", "Yasmine"),
    ],
)
def test_check_in_guest_who_looks_like_a_player_or_another_guest_is_refused(
    club, admin, guests, name, like
):
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=None)

    response = admin.post(f"/clubs/sfax/nights/{night.pk}/checkin", {"guests": guests})

    assert (response.status_code, response.context["form"].errors["guests"]) == (
        422,
        [alike(name, like)],
    )
    assert (Attendance.objects.count(), club.members.count()) == (0, 2)


def test_import_records_player_who_looks_like_a_member_is_refused_by_line(club, admin):
    text = "\n".join(
        [
            record_line("g1", players=["Amina", "Bilal", "Chafik", "Dalila"]),
            record_line("g2", players=["Bilal", CYRILLIC_A + "li", "Chafik", "Dalila"]),
        ]
    )

    response = import_through(admin, "sfax", {"text": text})

    assert (response.status_code, errors(response)) == (
        200,
        ["line 2: " + alike(CYRILLIC_A + "li", "Ali")],
    )
    assert (Game.objects.count(), club.members.count()) == (0, 2)


def test_import_records_two_new_players_who_look_alike_are_refused(club, admin):
    text = "\n".join(
        [
            record_line("g1", players=["Amina", "Bilal", "Chafik", "Dalila"]),
            record_line("g2", players=["Amina", "Bi1al", "Chafik", "Dalila"]),
        ]
    )

    response = import_through(admin, "sfax", {"text": text})

    assert (response.status_code, errors(response)) == (200, ["line 2: " + alike("Bi1al", "Bilal")])
    assert Game.objects.count() == 0


def test_import_records_keeps_names_in_nfc(club, admin):
    text = record_line("g1", players=["Amina", "Rene\u0301", "Chafik", "Dalila"])

    response = import_through(admin, "sfax", {"text": text})

    assert response.status_code == 200
    assert sorted(club.members.values_list("name", flat=True)) == [
        "Ali",
        "Amina",
        "Chafik",
        "Dalila",
        "Ren\u00e9",
    ]


def test_import_records_player_with_a_right_to_left_override_is_refused(club, admin):
    text = record_line("g1", players=["Amina", f"Bi{RLO}lal", "Chafik", "Dalila"])

    response = import_through(admin, "sfax", {"text": text})

    assert (response.status_code, errors(response)) == (
        200,
        [
            "line 1: players: seat 1: character 3 is U+202E RIGHT-TO-LEFT OVERRIDE, "
            "a control or invisible character"
        ],
    )
    assert Member.objects.count() == 2
