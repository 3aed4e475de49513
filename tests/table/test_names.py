"""One rule for names and free text at the table (issue 18): the new-game form and the game
record import keep names and places in NFC, refuse control, invisible and bidi characters,
and refuse four players two of whom look alike (UTS #39 skeletons), said where it was typed,
storing nothing."""

import json

import pytest

from scoring.table.models import Game, Player
from tests.factories import new_game_data

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0410"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def record_text(players=("Amina", "Bilal", "Chafik", "Dalila"), **about):
    return json.dumps({"format": "boulmous/1", "players": list(players), "hands": [], **about})


@pytest.mark.parametrize(
    ("names", "field", "said"),
    [
        ({"player_2": CYRILLIC_A + "mina"}, "player_2", f'"{CYRILLIC_A}mina" and "Amina"'),
        (
            {"player_0": "Ali", "player_3": CYRILLIC_A + "li"},
            "player_3",
            f'"{CYRILLIC_A}li" and "Ali"',
        ),
    ],
)
def test_new_game_players_who_look_alike_are_refused_at_the_later_seat(client, names, field, said):
    response = client.post("/games/new", new_game_data(**names))

    assert (response.status_code, response.context["form"].errors[field]) == (
        422,
        [f"players: {said} look alike"],
    )
    assert (Game.objects.count(), Player.objects.count()) == (0, 0)


@pytest.mark.parametrize("place", [f"Caf{RLO}\u00e9", "Caf\u00e9\u2066", "Caf\u200f\u00e9"])
def test_new_game_place_with_a_bidi_control_is_refused(client, place):
    response = client.post("/games/new", new_game_data(place=place))

    assert (response.status_code, response.context["form"].errors["place"]) == (
        422,
        ["This field cannot hold control or invisible characters."],
    )
    assert Game.objects.count() == 0


def test_new_game_place_is_kept_in_nfc(client):
    client.post("/games/new", new_game_data(place="Cafe\u0301 des Sports"))

    assert Game.objects.get().place == "Caf\u00e9 des Sports"


def test_import_keeps_names_and_place_in_nfc(client):
    text = record_text(("Rene\u0301", "Bilal", "Chafik", "Dalila"), place="Cafe\u0301")

    response = client.post("/games/import", {"text": text})

    game = Game.objects.get()
    assert (response.status_code, game.place) == (302, "Caf\u00e9")
    assert sorted(Player.objects.values_list("name", flat=True)) == [
        "Bilal",
        "Chafik",
        "Dalila",
        "Ren\u00e9",
    ]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (
            ("Amina", "Bilal", CYRILLIC_A + "mina", "Dalila"),
            f'players: "{CYRILLIC_A}mina" and "Amina" look alike',
        ),
        (
            ("Amina", f"Bi{RLO}lal", "Chafik", "Dalila"),
            "players: seat 1: character 3 is U+202E RIGHT-TO-LEFT OVERRIDE, "
            "a control or invisible character",
        ),
    ],
)
def test_import_refuses_players_who_look_alike_or_hold_a_bidi_control(client, players, said):
    response = client.post("/games/import", {"text": record_text(players)})

    assert (response.status_code, response.context["form"].non_field_errors()) == (422, [said])
    assert (Game.objects.count(), Player.objects.count()) == (0, 0)


@pytest.mark.parametrize("key", ["place", "club", "season"])
def test_import_refuses_free_text_with_a_right_to_left_override(client, key):
    response = client.post("/games/import", {"text": record_text(**{key: f"Sfax{RLO}"})})

    assert (response.status_code, response.context["form"].non_field_errors()) == (
        422,
        [f"{key}: character 5 is U+202E RIGHT-TO-LEFT OVERRIDE, a control or invisible character"],
    )
    assert Game.objects.count() == 0
