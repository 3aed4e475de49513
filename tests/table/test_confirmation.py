"""Confirmation (issue 40.2): under the rule ``each_hand`` a hand waits until a player of
another seat than the one that entered it confirms it, or until its minutes run out; under
``whole_game`` the four sign the result at the end. Every phone's page says what waits and
for whom; the history says each confirmation, and each one by itself."""

import re
import uuid
from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client

from scoring.engine import Confirmation as Mode
from scoring.engine import Rules
from scoring.table import services
from scoring.table.confirming import agreement_of
from scoring.table.models import Change, Confirmation, Game, Hand
from scoring.table.state import load_game
from tests.factories import NAMES, hand_data
from tests.table.agreement import confirm, hand_of, new_game, record, seat_phone

pytestmark = pytest.mark.django_db

WAITING = re.compile(r'class="waiting-hand"[^>]*>.*?(Hand \d+ waits for .*?)</(?:p|span)>', re.S)


def waiting_lines(response):
    return [re.sub(r"<[^>]+>", "", line) for line in WAITING.findall(response.content.decode())]


# --- Services -------------------------------------------------------------------------------


def test_record_hand_keeps_the_seat_that_entered_it():
    game = new_game()
    record(game, seat=1)

    hand = Hand.objects.get(game=game)
    assert (hand.entered_seat, hand.version) == (1, 1)


def test_confirm_hand_by_another_seat_confirms_it_and_the_history_says_so():
    game = new_game()
    record(game, seat=1)

    state = confirm(game, seat=2)

    agreement = agreement_of(state)
    change = game.changes.first()
    assert (
        agreement.hands[0].by,
        agreement.final,
        change.action,
        change.hand_number,
        change.after,
    ) == (2, False, Change.Action.CONFIRMED, 1, {"seat": 2})


def test_confirm_hand_from_the_seat_that_entered_it_is_refused():
    game = new_game()
    record(game, seat=1)

    with pytest.raises(services.ConfirmRefused) as refused:
        confirm(game, seat=1)

    assert (refused.value.why, Confirmation.objects.count()) == ("own", 0)


def test_confirm_hand_changed_since_is_refused():
    game = new_game()
    record(game, seat=1)
    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, tricks=(0, 5, 1)),
        discard_after_end=False,
        seat=1,
    )

    with pytest.raises(services.ConfirmRefused) as refused:
        confirm(game, version=1)
    confirm(game, version=2)

    assert (refused.value.why, Hand.objects.get(game=game).version) == ("changed", 2)
    assert agreement_of(load_game(game)).hands[0].by == 2


def test_confirmation_of_a_hand_corrected_since_counts_for_nothing():
    game = new_game()
    record(game, seat=1)
    confirm(game, seat=2)

    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, tricks=(0, 5, 1)),
        discard_after_end=False,
        seat=0,
        referee=True,  # confirmed: only the referee changes it (tests/table/test_proposals.py)
    )

    assert agreement_of(load_game(game)).hands[0].waiting_for == (1, 2, 3)


def test_confirm_hand_twice_writes_one_confirmation():
    game = new_game()
    record(game, seat=1)

    confirm(game, seat=2)
    confirm(game, seat=2)
    confirm(game, seat=3)

    assert (Confirmation.objects.count(), game.changes.filter(action="confirmed").count()) == (
        1,
        1,
    )


def test_confirm_hand_in_a_game_without_confirmation_is_refused():
    game = new_game(Mode.OFF)
    record(game)

    with pytest.raises(services.ConfirmRefused) as refused:
        confirm(game)

    assert refused.value.why == "off"


def test_hand_is_confirmed_by_itself_after_its_minutes_and_the_history_says_so(client):
    game = new_game(minutes=5)
    record(game, seat=1)
    entered = Hand.objects.get(game=game).entered_at
    Hand.objects.filter(game=game).update(entered_at=entered - timedelta(minutes=6))

    state = load_game(game)
    agreement = agreement_of(state)
    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert (agreement.hands[0].by_itself, agreement.hands[0].at) == (
        True,
        entered - timedelta(minutes=1),
    )
    assert "Hand 1 confirmed by itself after 5 minutes" in page
    assert "waits for" not in page


def test_next_hand_is_entered_while_one_waits():
    game = new_game()
    record(game, seat=1)

    state = record(game, number=2, seat=1, taker=2, tricks=(1, 1, 4))

    assert [hand.number for hand in agreement_of(state).waiting] == [1, 2]


def test_whole_game_is_signed_by_each_seat_once_over_and_then_final():
    game = new_game(Mode.WHOLE_GAME)
    for number in range(1, 6):
        record(game, number, taker=1, bid=5, trump="S", tricks=(0, 5, 1))

    for seat in (0, 1, 2, 3, 3):
        state = services.sign_game(public_id=game.public_id, seat=seat)

    assert (
        agreement_of(state).final,
        Confirmation.objects.count(),
        game.changes.filter(action="signed").count(),
    ) == (True, 4, 4)


def test_whole_game_signed_then_a_hand_corrected_waits_for_the_four_signatures_again():
    game = new_game(Mode.WHOLE_GAME)
    for number in range(1, 6):
        record(game, number, taker=1, bid=5, trump="S", tricks=(0, 5, 1))
    for seat in range(4):
        services.sign_game(public_id=game.public_id, seat=seat)

    state = services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, taker=1, bid=5, trump="S", tricks=(1, 5, 0)),
        discard_after_end=False,
        referee=True,
    )

    assert (agreement_of(state).final, agreement_of(state).signed.waiting_for) == (
        False,
        (0, 1, 2, 3),
    )


def test_sign_game_while_it_is_played_is_refused():
    game = new_game(Mode.WHOLE_GAME)
    record(game)

    with pytest.raises(services.ConfirmRefused) as refused:
        services.sign_game(public_id=game.public_id, seat=0)

    assert refused.value.why == "playing"


def test_confirm_waiting_confirms_every_waiting_hand_by_itself_once():
    game = new_game()
    record(game, seat=1)
    record(game, number=2, seat=1, taker=2, tricks=(1, 1, 4))
    confirm(game, number=1, seat=3)

    agreement = services.confirm_waiting(public_id=game.public_id)
    services.confirm_waiting(public_id=game.public_id)

    change = game.changes.first()
    assert (
        [hand.by for hand in agreement.hands],
        agreement.hands[1].by_itself,
        change.action,
        change.after,
        game.changes.filter(action="night_end").count(),
    ) == ([3, None], True, Change.Action.NIGHT_CONFIRMED, {"hands": [2]}, 1)


def test_undo_stays_redoable_after_a_confirmation(client):
    game = new_game()
    client.post(f"/games/{game.public_id}/hands", hand_data(1))
    client.post(f"/games/{game.public_id}/hands", hand_data(2, taker=2, tricks=(1, 1, 4)))
    confirm(game, number=1, seat=2)
    client.post(f"/games/{game.public_id}/hands/2/undo")

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert f"/games/{game.public_id}/hands/2/redo" in page


# --- Pages ----------------------------------------------------------------------------------


DUE = re.compile(r'id="board"[^>]*? data-due="(\d+)"')


def due_of(response):
    """The moment a page's (or a live answer's) board says it changes by itself, in epoch ms."""
    found = DUE.search(response.content.decode())
    return None if found is None else int(found.group(1))


def epoch_ms(moment):
    return int(moment.timestamp() * 1000)


def test_live_fragment_says_when_the_earliest_hand_waiting_is_confirmed_by_itself(client):
    game = new_game(minutes=5)
    record(game, seat=1)
    record(game, number=2, seat=1, taker=2, tricks=(1, 1, 4))
    first = Hand.objects.get(game=game, number=1).entered_at

    live = client.get(f"/games/{game.public_id}/live")
    page = client.get(f"/games/{game.public_id}/")

    assert (live.status_code, due_of(live), due_of(page)) == (
        200,
        epoch_ms(first + timedelta(minutes=5)),
        epoch_ms(first + timedelta(minutes=5)),
    )


def test_live_fragment_says_no_due_moment_when_nothing_waits(client, watcher):
    game = new_game(minutes=5)
    record(game, seat=1)
    confirm(game, seat=2)
    off = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    services.record_hand(public_id=off.public_id, number=1, hand=hand_of(1), token=uuid.uuid4())

    answers = [
        phone.get(f"/games/{one.public_id}/live")
        for phone in (client, watcher)
        for one in (game, off)
    ]

    assert [(answer.status_code, due_of(answer)) for answer in answers] == [(200, None)] * 4
    assert "data-due" not in client.get(f"/games/{game.public_id}/").content.decode()


def test_live_fragment_of_a_hand_whose_minutes_ran_out_says_it_confirmed_by_itself(client):
    game = new_game(minutes=5)
    record(game, seat=1)
    waiting = client.get(f"/games/{game.public_id}/live")
    Hand.objects.filter(game=game).update(entered_at=F("entered_at") - timedelta(minutes=6))

    fresh = client.get(f"/games/{game.public_id}/live")

    assert (waiting_lines(waiting), waiting_lines(fresh), due_of(fresh)) == (
        ["Hand 1 waits for Amina, Chafik or Dalila"],
        [],
        None,
    )
    assert "Hand 1 confirmed by itself after 5 minutes" in fresh.content.decode()


def test_game_over_page_waiting_for_signatures_says_when_and_loads_the_live_view(watcher):
    game = new_game(Mode.WHOLE_GAME)
    for number in range(1, 6):
        record(game, number, taker=1, bid=5, trump="S", tricks=(0, 5, 1))
    services.sign_game(public_id=game.public_id, seat=0)
    Hand.objects.filter(game=game).update(entered_at=F("entered_at") - timedelta(minutes=10))
    Game.objects.filter(pk=game.pk).update(finished_at=F("finished_at") - timedelta(minutes=3))
    ended = Game.objects.get(pk=game.pk).finished_at

    page = watcher.get(f"/games/{game.public_id}/")

    assert (due_of(page), "js/live" in page.content.decode()) == (
        epoch_ms(ended + timedelta(minutes=15)),
        True,
    )


def test_every_phone_says_which_hand_waits_for_whom(client, watcher):
    game = new_game()
    record(game, seat=1)
    bilal = seat_phone(game, 1)

    pages = [phone.get(f"/games/{game.public_id}/") for phone in (client, watcher, bilal)]

    assert [waiting_lines(page) for page in pages] == [
        ["Hand 1 waits for Amina, Chafik or Dalila"]
    ] * 3


def test_seat_holder_of_another_seat_confirms_by_a_plain_post_sent_twice():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    page = chafik.get(f"/games/{game.public_id}/").content.decode()
    first = chafik.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})
    again = chafik.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})
    after = chafik.get(f"/games/{game.public_id}/")

    assert "Confirm hand 1" in page
    assert (first.status_code, again.status_code, Confirmation.objects.count()) == (302, 302, 1)
    assert (waiting_lines(after), "hand confirmed, hand 1: Chafik" in after.content.decode()) == (
        [],
        True,
    )


def test_seat_holder_of_the_entering_seat_sees_no_confirm_button_and_is_refused():
    game = new_game()
    record(game, seat=1)
    bilal = seat_phone(game, 1)

    page = bilal.get(f"/games/{game.public_id}/").content.decode()
    refused = bilal.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})

    assert ("Confirm hand 1" in page, refused.status_code) == (False, 409)
    assert "a player of another seat confirms it" in refused.content.decode()


def test_confirm_of_a_hand_changed_since_is_refused_with_the_new_hand_shown():
    game = new_game()
    record(game, seat=None)
    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, tricks=(0, 5, 1)),
        discard_after_end=False,
    )
    chafik = seat_phone(game, 2)

    refused = chafik.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})

    page = refused.content.decode()
    assert (refused.status_code, "was changed since you saw it" in page) == (409, True)
    assert 'name="version" value="2"' in page


@pytest.mark.parametrize("version", ["", "zero", "0", "-1", "99999999999"])
def test_confirm_with_a_bad_version_is_a_400_that_says_so(version):
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    response = chafik.post(f"/games/{game.public_id}/hands/1/confirm", {"version": version})

    assert (response.status_code, Confirmation.objects.count()) == (400, 0)
    assert "This confirmation could not be read." in response.content.decode()


def test_watcher_without_a_seat_cannot_confirm_or_sign(watcher):
    game = new_game()
    record(game, seat=1)

    confirmed = watcher.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})
    signed = watcher.post(f"/games/{game.public_id}/sign")

    assert (confirmed.status_code, signed.status_code, Confirmation.objects.count()) == (
        403,
        403,
        0,
    )


def test_scorer_without_a_seat_cannot_confirm(client):
    game = new_game()
    record(game, seat=1)

    response = client.post(f"/games/{game.public_id}/hands/1/confirm", {"version": "1"})

    assert (response.status_code, Confirmation.objects.count()) == (403, 0)


def test_confirm_by_get_is_refused():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    assert chafik.get(f"/games/{game.public_id}/hands/1/confirm").status_code == 405


def test_whole_game_page_offers_each_seat_holder_to_sign_and_says_who_signed():
    game = new_game(Mode.WHOLE_GAME)
    for number in range(1, 6):
        record(game, number, taker=1, bid=5, trump="S", tricks=(0, 5, 1))
    amina, bilal = seat_phone(game, 0), seat_phone(game, 1)

    before = amina.get(f"/games/{game.public_id}/").content.decode()
    signed = amina.post(f"/games/{game.public_id}/sign")
    twice = amina.post(f"/games/{game.public_id}/sign")
    mine = amina.get(f"/games/{game.public_id}/").content.decode()
    his = bilal.get(f"/games/{game.public_id}/").content.decode()

    assert ("Sign the result" in before, signed.status_code, twice.status_code) == (
        True,
        302,
        302,
    )
    assert ("Sign the result" in mine, "Sign the result" in his) == (False, True)
    assert (
        "Signed by <bdi>Amina</bdi>; waiting for <bdi>Bilal</bdi>, <bdi>Chafik</bdi> and "
        "<bdi>Dalila</bdi>." in his
    )


def test_game_without_confirmation_shows_no_confirmation_part(client):
    game = new_game(Mode.OFF)
    record(game)

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert 'class="agreement"' not in page


def test_new_game_with_confirmation_keeps_it(client):
    from tests.factories import new_game_data

    client.post(
        "/games/new",
        new_game_data(confirmation="each_hand", confirmation_minutes="20"),
    )
    game = services.Game.objects.latest("id")

    assert (game.rules.confirmation, game.rules.confirmation_minutes) == (Mode.EACH_HAND, 20)


def test_new_game_with_confirmation_minutes_of_zero_is_refused_on_the_field(client):
    from tests.factories import new_game_data

    response = client.post(
        "/games/new", new_game_data(confirmation="each_hand", confirmation_minutes="0")
    )

    assert (response.status_code, list(response.context["form"].errors)) == (
        422,
        ["confirmation_minutes"],
    )


def test_waiting_line_is_said_in_french_and_arabic():
    game = new_game()
    record(game, seat=1)
    lines = {}
    for language in ("fr", "ar"):
        phone = Client(headers={"accept-language": language})
        page = phone.get(f"/games/{game.public_id}/").content.decode()
        found = re.search(r'class="waiting-hand"[^>]*>(.*?)</p>', page, re.S)
        lines[language] = re.sub(r"<[^>]+>", "", found.group(1)) if found else None

    assert lines == {
        "fr": "La donne 1 attend Amina, Chafik ou Dalila",
        "ar": "الجولة 1 بانتظار Amina، Chafik أو Dalila",
    }


def test_confirm_waiting_signs_by_itself_a_whole_game_over_and_unsigned():
    game = new_game(Mode.WHOLE_GAME)
    for number in range(1, 6):
        record(game, number, taker=1, bid=5, trump="S", tricks=(0, 5, 1))
    services.sign_game(public_id=game.public_id, seat=0)

    agreement = services.confirm_waiting(public_id=game.public_id)

    assert (
        agreement.final,
        agreement.signed.by_itself is not None,
        sorted(agreement.signed.signed),
    ) == (
        True,
        True,
        [0],
    )


def test_confirm_waiting_leaves_a_game_still_played_under_whole_game_as_it_is():
    game = new_game(Mode.WHOLE_GAME)
    record(game)

    agreement = services.confirm_waiting(public_id=game.public_id)

    assert (agreement.final, Confirmation.objects.count(), game.changes.count()) == (False, 0, 2)


def test_whole_game_page_shows_no_hand_waiting_while_it_is_played(client):
    game = new_game(Mode.WHOLE_GAME)
    record(game)

    page = client.get(f"/games/{game.public_id}/")

    assert waiting_lines(page) == []


def test_edit_sent_unchanged_keeps_the_hand_and_its_confirmation():
    game = new_game()
    record(game, seat=1)
    confirm(game, seat=2)

    services.edit_hand(
        public_id=game.public_id, number=1, hand=hand_of(1), discard_after_end=False, seat=0
    )

    hand = Hand.objects.get(game=game)
    assert (hand.version, hand.entered_seat, agreement_of(load_game(game)).hands[0].by) == (
        1,
        1,
        2,
    )


def test_hand_undone_and_recorded_again_waits_again_its_old_confirmation_kept():
    game = new_game()
    record(game, seat=1)
    confirm(game, seat=2)
    services.undo_hand(public_id=game.public_id, number=1, referee=True)  # confirmed: his

    state = record(game, seat=1)

    assert (Confirmation.objects.count(), agreement_of(state).hands[0].waiting_for) == (
        1,
        (0, 2, 3),
    )
