"""A hand's write answers in JSON when asked (``Accept: application/json``), as the offline
queue (static/js/offline.js) asks: what happened, the hand, the next hand and the game's
version as the live view's ETag has it; refusals with their HTTP status. The plain POST and
htmx answer the page as before."""

import pytest

from scoring.table.models import Hand
from tests.factories import BILAL_FIVE, game_url, hand_data, play

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
TOKEN = "6f1f0cf6-6a0c-4bde-9d2f-0a6a1d3f3b11"


def live_version(client, game):
    """The version the live view answers with, its ETag's."""
    return client.get(game_url(game, "live"))["ETag"].strip('"')


def answer(response):
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_hand_recorded_answers_its_number_the_next_and_the_live_version(client, game):
    before = live_version(client, game)

    response = client.post(game_url(game, "hands"), hand_data(1, token=TOKEN), **JSON)

    assert response.status_code == 201
    assert answer(response) == {
        "status": "recorded",
        "hand": 1,
        "next_hand": 2,
        "version": live_version(client, game),
    }
    assert answer(response)["version"] != before
    assert Hand.objects.filter(game=game).count() == 1


def test_the_same_token_again_is_a_duplicate_recorded_once(client, game):
    client.post(game_url(game, "hands"), hand_data(1, token=TOKEN), **JSON)

    response = client.post(game_url(game, "hands"), hand_data(1, token=TOKEN), **JSON)

    assert (response.status_code, answer(response)) == (
        200,
        {"status": "duplicate", "hand": 1, "next_hand": 2, "version": live_version(client, game)},
    )
    assert Hand.objects.filter(game=game).count() == 1


def test_the_same_token_again_with_other_taps_is_a_conflict_409_to_keep_as_a_draft(client, game):
    client.post(game_url(game, "hands"), hand_data(1, token=TOKEN), **JSON)

    # A form reached by Back, tapped for the next hand, queued offline with its old token.
    response = client.post(
        game_url(game, "hands"), hand_data(1, taker=2, trump="S", token=TOKEN), **JSON
    )

    assert (response.status_code, answer(response)) == (
        409,
        {"status": "conflict", "hand": 1, "next_hand": 2, "version": live_version(client, game)},
    )
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_recorded_meanwhile_on_another_phone_is_a_conflict_409(client, game):
    client.post(game_url(game, "hands"), hand_data(1))  # another phone's, plain

    response = client.post(game_url(game, "hands"), hand_data(1, taker=2, token=TOKEN), **JSON)

    assert (response.status_code, answer(response)) == (
        409,
        {"status": "conflict", "hand": 1, "next_hand": 2, "version": live_version(client, game)},
    )
    assert Hand.objects.get(game=game).taker == 1


def test_a_hand_after_the_game_was_won_is_refused_409_with_no_next_hand(client, game):
    play(client, game, [BILAL_FIVE] * 5)

    response = client.post(game_url(game, "hands"), {**BILAL_FIVE, "number": 6}, **JSON)

    assert (response.status_code, answer(response)) == (
        409,
        {"status": "won", "hand": None, "next_hand": None, "version": live_version(client, game)},
    )


def test_the_hand_that_wins_the_game_leaves_no_next_hand(client, game):
    play(client, game, [BILAL_FIVE] * 4)

    response = client.post(game_url(game, "hands"), {**BILAL_FIVE, "number": 5}, **JSON)

    assert (response.status_code, answer(response)["status"], answer(response)["next_hand"]) == (
        201,
        "recorded",
        None,
    )


def test_an_invalid_hand_is_400_with_the_errors_in_the_users_language(client, game):
    response = client.post(
        game_url(game, "hands"), hand_data(1, tricks=(5, 4, 0)), HTTP_ACCEPT_LANGUAGE="fr", **JSON
    )

    assert (response.status_code, answer(response)) == (
        400,
        {
            "status": "invalid",
            "hand": 1,
            "next_hand": 1,
            "version": live_version(client, game),
            "errors": {"tricks": ["les levées font 9 en tout, et non 6"]},
        },
    )
    assert not Hand.objects.filter(game=game).exists()


def test_a_hand_the_engine_refuses_is_400_with_its_words(client, game):
    calls = {"call_0": "4", "call_1": "3", "call_2": "pass", "call_3": "pass"}
    data = {**hand_data(1, taker=None, bid=None), **calls}
    del data["taker"], data["bid"]

    response = client.post(game_url(game, "hands"), data, **JSON)

    assert response.status_code == 400
    assert answer(response)["status"] == "invalid"
    assert answer(response)["errors"]["calls"] == [
        "Chafik bid 3, which must be higher than Bilal’s 4."
    ]


def test_a_phone_with_no_right_is_403_and_changes_nothing(watcher, game):
    response = watcher.post(game_url(game, "hands"), hand_data(1), **JSON)

    assert (response.status_code, answer(response)) == (
        403,
        {
            "status": "forbidden",
            "reason": "none",
            "message": "This phone may watch this game, not change it. Only the phone that "
            "started it, a phone handed a scorer link, or the account that started it may.",
        },
    )
    assert not Hand.objects.filter(game=game).exists()


def test_edit_undo_and_redo_answer_what_they_did(client, game):
    play(client, game, [BILAL_FIVE] * 2)
    edit = {**BILAL_FIVE, "number": 1, "tricks_1": 2, "tricks_2": 4}

    edited = client.post(game_url(game, "hands/1/edit"), edit, **JSON)
    version = live_version(client, game)
    undone = client.post(game_url(game, "hands/2/undo"), **JSON)
    redone = client.post(game_url(game, "hands/2/redo"), **JSON)
    again = client.post(game_url(game, "hands/2/redo"), **JSON)
    client.post(game_url(game, "hands/2/undo"))
    client.post(game_url(game, "hands"), hand_data(2))
    gone = client.post(game_url(game, "hands/2/redo"), **JSON)

    assert [(r.status_code, answer(r)["status"], answer(r)["hand"]) for r in (edited, undone)] == [
        (200, "edited", 1),
        (200, "undone", 2),
    ]
    assert (answer(edited)["next_hand"], answer(edited)["version"]) == (3, version)
    assert answer(undone)["next_hand"] == 2
    assert [
        (r.status_code, answer(r)["status"], answer(r)["next_hand"]) for r in (redone, again)
    ] == [
        (200, "redone", 3),
        (200, "redone", 3),
    ]
    assert (gone.status_code, answer(gone)["status"]) == (409, "nothing_to_redo")


def test_an_edit_that_ends_the_game_early_is_409_until_confirmed(client, game):
    play(client, game, [BILAL_FIVE] * 4 + [{"number": 5, "void": "1"}])
    boulmous = {**BILAL_FIVE, "number": 2, "bid": 6, "tricks_0": 0, "tricks_1": 6, "tricks_2": 0}

    refused = client.post(game_url(game, "hands/2/edit"), boulmous, **JSON)
    accepted = client.post(
        game_url(game, "hands/2/edit"), {**boulmous, "discard_after_end": "1"}, **JSON
    )

    assert (refused.status_code, answer(refused)["status"]) == (409, "ends_early")
    assert "discard the hands after hand 4" in answer(refused)["errors"]["__all__"][0]
    assert (accepted.status_code, answer(accepted)["status"]) == (200, "edited")
    assert answer(accepted)["next_hand"] is None  # won at hand 4
    assert Hand.objects.filter(game=game).count() == 4


@pytest.mark.parametrize(
    "accept",
    [
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "*/*",
        "text/html, application/json",
        "",
    ],
)
def test_a_browser_form_still_gets_the_page(client, game, accept):
    response = client.post(game_url(game, "hands"), hand_data(1), HTTP_ACCEPT=accept)
    htmx = client.post(
        game_url(game, "hands"), hand_data(2), HTTP_ACCEPT=accept, HTTP_HX_REQUEST="true"
    )

    assert (response.status_code, response["Location"]) == (302, game_url(game))
    assert (htmx.status_code, htmx["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert 'id="hand-form"' in htmx.content.decode()
