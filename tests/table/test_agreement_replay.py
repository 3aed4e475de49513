"""A seat holder's confirmations and disputes made offline (issue 40.5) wait in the phone's
queue (static/js/agree.js) and are replayed once back online, in JSON, each with its own
token: a replay whose first answer was lost writes nothing more, whatever changed since; a
confirmation of a hand changed since is refused with the new hand shown."""

import uuid

import pytest

from scoring.engine import Confirmation as Mode
from scoring.table import services
from scoring.table.models import Change, Confirmation, Dispute
from tests.table.agreement import hand_of, new_game, record, seat_phone

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def edit(game, number=1, **changes):
    services.edit_hand(
        public_id=game.public_id,
        number=number,
        hand=hand_of(number, **changes),
        discard_after_end=False,
        referee=True,  # the hand may be confirmed already: only the referee changes it
    )


def test_confirmation_replayed_with_its_token_is_written_once_and_answered_in_json():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    sent = {"version": "1", "token": str(uuid.uuid4())}

    first = chafik.post(url(game, "hands/1/confirm"), sent, **JSON)
    again = chafik.post(url(game, "hands/1/confirm"), sent, **JSON)

    assert (first.status_code, again.status_code) == (200, 200)
    assert (first.json()["status"], first.json()["hand"], again.json()["status"]) == (
        "confirmed",
        1,
        "confirmed",
    )
    assert Confirmation.objects.filter(game=game).count() == 1
    assert Change.objects.filter(game=game, action=Change.Action.CONFIRMED).count() == 1


def test_confirmation_replayed_after_the_hand_changed_is_found_written_not_refused():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    sent = {"version": "1", "token": str(uuid.uuid4())}
    chafik.post(url(game, "hands/1/confirm"), sent, **JSON)  # its answer lost on the way
    edit(game, tricks=(0, 5, 1))

    again = chafik.post(url(game, "hands/1/confirm"), sent, **JSON)

    assert (again.status_code, again.json()["status"], Confirmation.objects.count()) == (
        200,
        "confirmed",
        1,
    )


def test_confirmation_of_a_hand_changed_since_is_refused_in_json_and_the_page_shows_it_anew():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    edit(game, tricks=(0, 5, 1))

    refused = chafik.post(
        url(game, "hands/1/confirm"), {"version": "1", "token": str(uuid.uuid4())}, **JSON
    )
    page = chafik.get(url(game)).content.decode()

    assert (refused.status_code, refused.json()["status"], Confirmation.objects.count()) == (
        409,
        "refused",
        0,
    )
    assert refused.json()["message"] == (
        "Hand 1 was changed since you saw it: here it is as it now stands. "
        "Confirm it again if it is right."
    )
    assert 'name="version" value="2"' in page


def test_dispute_replayed_after_the_referee_decided_is_found_written_not_refused():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    sent = {"number": "1", "version": "1", "reason": "4 made", "token": str(uuid.uuid4())}
    first = chafik.post(url(game, "dispute"), sent, **JSON)
    services.decide_dispute(public_id=game.public_id, number=1, reason="Recounted")

    again = chafik.post(url(game, "dispute"), sent, **JSON)

    assert [first.json()["status"], again.json()["status"]] == ["disputed", "disputed"]
    assert (again.status_code, Dispute.objects.count()) == (200, 1)


def test_dispute_without_a_reason_is_refused_in_json():
    game = new_game()
    record(game, seat=1)

    refused = seat_phone(game, 2).post(url(game, "dispute"), {"number": "1"}, **JSON)

    assert (refused.status_code, refused.json()["status"], refused.json()["message"]) == (
        400,
        "invalid",
        "Say why you dispute this hand.",
    )


def test_signature_answers_in_json():
    game = new_game(Mode.WHOLE_GAME)
    services.abandon_game(public_id=game.public_id)

    signed = seat_phone(game, 0).post(url(game, "sign"), **JSON)

    assert (signed.status_code, signed.json()["status"]) == (200, "signed")


def test_two_confirmations_with_other_tokens_from_two_seats_confirm_once():
    game = new_game()
    record(game, seat=1)

    answers = [
        seat_phone(game, seat).post(
            url(game, "hands/1/confirm"), {"version": "1", "token": str(uuid.uuid4())}, **JSON
        )
        for seat in (2, 3)
    ]

    assert [answer.json()["status"] for answer in answers] == ["confirmed", "confirmed"]
    assert Confirmation.objects.count() == 1


def test_seat_holders_page_of_a_game_that_confirms_loads_the_queue_and_its_words():
    game = new_game()
    record(game, seat=1)

    page = seat_phone(game, 2).get(url(game)).content.decode()
    other = new_game(Mode.OFF)
    plain = seat_phone(other, 2).get(url(other)).content.decode()

    assert ("/js/agree." in page, "kept on this phone and sent once it is back online" in page) == (
        True,
        True,
    )
    assert "/js/agree." not in plain


def test_scorers_page_does_not_load_the_agreement_queue(client):
    game = new_game()
    record(game, seat=1)

    assert "/js/agree." not in client.get(url(game)).content.decode()
