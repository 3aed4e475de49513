"""The game page after each action: the last hand in a line with Undo, Redo after an undo,
a tie at the top explained, an announcement for screen readers, and every page in each
language the app speaks."""

import re

import pytest

from scoring.table.models import Change, Hand
from scoring.table.state import load_game
from tests.factories import hand_data

HTMX = {"HTTP_HX_REQUEST": "true"}


def game_url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_game_page_shows_the_last_hand_in_a_line_with_undo(client, game):
    client.post(game_url(game, "hands"), hand_data(1))

    page = text(client.get(game_url(game)))

    assert "<span>Hand 1: Bilal 4♥ made</span>" in page
    assert 'aria-label="Undo hand 1">Undo</button>' in page


def test_game_won_offers_to_undo_the_winning_hand_and_plays_on(client, game):
    # Bilal (seat 1) makes 5 tricks a hand and reaches 21 at the fifth.
    for number in range(1, 6):
        client.post(game_url(game, "hands"), hand_data(number, bid=5, tricks=(0, 5, 1)))
    won = text(client.get(game_url(game)))

    response = client.post(game_url(game, "hands/5/undo"))

    after = text(client.get(game_url(game)))
    state = load_game(game)
    assert ("Bilal wins!" in won, 'aria-label="Undo hand 5">Undo</button>' in won) == (True, True)
    assert (response.status_code, len(state.hands), state.result.winner) == (302, 4, None)
    assert ("Bilal wins!" in after, "Hand 5 undone." in after, 'id="entry"' in after) == (
        False,
        True,
        True,
    )


def test_abandoned_game_offers_no_undo(client, game):
    client.post(game_url(game, "hands"), hand_data(1))
    client.post(game_url(game, "abandon"))

    page = text(client.get(game_url(game)))

    assert ("<span>Hand 1: Bilal 4♥ made</span>" in page, ">Undo</button>" in page) == (True, False)


def test_htmx_save_announces_the_hand_for_screen_readers(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1, tricks=(2, 3, 0)), **HTMX)

    assert "<template data-announce>Hand 1: Bilal 4♥ missed</template>" in text(response)


def test_undo_then_redo_records_the_same_hand_again(client, game):
    client.post(
        game_url(game, "hands"),
        hand_data(1, call_0="4", call_1="pass", call_2="pass", call_3="pass", taker="", bid=""),
    )
    before = list(Hand.objects.values_list("number", "calls", "taker", "tricks"))
    client.post(game_url(game, "hands/1/undo"))
    offered = "Hand 1 undone." in text(client.get(game_url(game)))

    response = client.post(game_url(game, "hands/1/redo"))

    after = list(Hand.objects.values_list("number", "calls", "taker", "tricks"))
    assert (response.status_code, offered, after) == (302, True, before)
    assert Change.objects.first().action == Change.Action.REDONE


def test_redo_tapped_twice_records_the_hand_once(client, game):
    client.post(game_url(game, "hands"), hand_data(1))
    client.post(game_url(game, "hands/1/undo"))

    first = client.post(game_url(game, "hands/1/redo"))
    second = client.post(game_url(game, "hands/1/redo"))

    assert (first.status_code, second.status_code, Hand.objects.count()) == (302, 302, 1)


def test_redo_after_another_change_is_refused_with_the_game_as_it_stands(client, game):
    client.post(game_url(game, "hands"), hand_data(1))
    client.post(game_url(game, "hands/1/undo"))
    client.post(game_url(game, "hands"), hand_data(1, taker=2))

    response = client.post(game_url(game, "hands/1/redo"))

    assert (response.status_code, response.context["notice"]) == (
        409,
        "The game changed since the undo: that hand cannot come back.",
    )
    assert list(Hand.objects.values_list("taker", flat=True)) == [2]


def test_game_page_explains_a_tie_at_the_top(client, game):
    # Bilal and Chafik take turns at 5 spades, then Bilal makes 3 with Chafik taking 3:
    # 21 each after hand 7, nobody alone at the top.
    turns = [(1, (0, 5, 1)), (2, (0, 1, 5))] * 3
    hands = [
        hand_data(number, taker=taker, bid=5, trump="S", tricks=tricks)
        for number, (taker, tricks) in enumerate(turns, start=1)
    ]
    hands.append(hand_data(7, taker=1, bid=3, trump="S", tricks=(0, 3, 3)))
    for data in hands:
        client.post(game_url(game, "hands"), data)

    page = text(client.get(game_url(game)))

    result = load_game(game).result
    assert (result.totals, result.winner) == ((0, 21, 21, 0), None)
    assert (
        '<p class="tie" role="note">Bilal and Chafik are tied at 21: '
        "play on until one is alone at the top.</p>"
    ) in page


@pytest.mark.parametrize(
    ("address", "english"),
    [
        ("/", "Boulmous, scored and refereed"),
        ("/games/new", "New game"),
        ("/games/import", "Import a game"),
        ("/rules", "The rules"),
        ("/referee/trick", "Who wins the trick?"),
    ],
)
@pytest.mark.parametrize(("lang", "direction"), [("en", "ltr"), ("fr", "ltr"), ("ar", "rtl")])
@pytest.mark.django_db
def test_every_page_speaks_the_language_and_its_direction(
    client, address, english, lang, direction
):
    response = client.get(address, HTTP_ACCEPT_LANGUAGE=lang)

    page = response.content.decode()
    heading = re.sub(r"<[^>]+>|\s+", " ", re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)[1]).strip()
    assert (response.status_code, f'<html lang="{lang}" dir="{direction}">' in page) == (200, True)
    assert (heading == english) == (lang == "en")
