"""Disputes and the referee (issue 40.3): a seat holder disputes a hand not yet confirmed,
with a reason; the hand waits for the referee, who confirms it as it stands or corrects it,
always with a reason; the game is not final meanwhile."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.engine import Confirmation as Mode
from scoring.table import services
from scoring.table.confirming import agreement_of, open_disputes
from scoring.table.models import Change, Decision, Dispute, Game, Hand
from scoring.table.state import load_game
from tests.factories import hand_data
from tests.table.agreement import confirm, hand_of, new_game, record, seat_phone

pytestmark = pytest.mark.django_db


def dispute(game, number=1, version=1, seat=2, reason="Bilal made 4, not 3"):
    return services.dispute_hand(
        public_id=game.public_id, number=number, version=version, seat=seat, reason=reason
    )


def decide(game, number=1, reason="The tricks were counted again", hand=None):
    return services.decide_dispute(
        public_id=game.public_id, number=number, reason=reason, hand=hand
    )


def past(minutes):
    """The hand entered ``minutes`` ago, and disputed a minute later: its minutes ran out."""
    Hand.objects.update(entered_at=timezone.now() - timedelta(minutes=minutes))
    Dispute.objects.update(at=timezone.now() - timedelta(minutes=minutes - 1))


# --- Services -------------------------------------------------------------------------------


def test_dispute_hand_holds_it_for_the_referee_and_the_history_says_so():
    game = new_game()
    record(game, seat=1)

    state = dispute(game)

    agreement = agreement_of(state)
    change = game.changes.first()
    assert (
        [hand.disputed for hand in agreement.hands],
        agreement.waiting,
        change.action,
        change.hand_number,
        change.after,
        open_disputes(Game.objects.all()).count(),
    ) == (
        [True],
        (),
        Change.Action.DISPUTED,
        1,
        {"seat": 2, "reason": "Bilal made 4, not 3"},
        1,
    )


def test_dispute_hand_twice_disputes_once():
    game = new_game()
    record(game, seat=1)

    dispute(game)
    dispute(game, seat=3, reason="again")

    assert (Dispute.objects.count(), Dispute.objects.get().seat) == (1, 2)


def test_disputed_hand_is_not_confirmed_by_its_minutes_nor_a_confirmation():
    game = new_game()
    record(game, seat=1)
    dispute(game)
    past(20)

    state = confirm(game, seat=3)

    assert [hand.disputed for hand in agreement_of(state).hands] == [True]


def test_dispute_of_a_confirmed_hand_is_refused():
    game = new_game()
    record(game, seat=1)
    confirm(game, seat=2)

    with pytest.raises(services.DisputeRefused) as refused:
        dispute(game, seat=3)

    assert (refused.value.why, Dispute.objects.count()) == ("confirmed", 0)


def test_dispute_of_a_hand_changed_since_is_refused():
    game = new_game()
    record(game, seat=1)
    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, tricks=(0, 5, 1)),
        discard_after_end=False,
    )

    with pytest.raises(services.DisputeRefused) as refused:
        dispute(game)

    assert refused.value.why == "changed"


def test_dispute_of_a_hand_not_there_or_a_game_without_confirmation_is_refused():
    game = new_game()
    off = new_game(Mode.OFF)
    record(off)

    with pytest.raises(services.DisputeRefused) as gone:
        dispute(game)
    with pytest.raises(services.DisputeRefused) as without:
        dispute(off)

    assert (gone.value.why, without.value.why) == ("gone", "off")


def test_decide_dispute_as_it_stands_confirms_the_hand():
    game = new_game()
    record(game, seat=1)
    dispute(game)

    state = decide(game)

    agreement = agreement_of(state)
    decision = Decision.objects.get()
    assert (
        agreement.hands[0].decided,
        agreement.hands[0].disputed_by,
        decision.outcome,
        decision.reason,
        game.changes.first().action,
        game.changes.first().after,
        open_disputes(Game.objects.all()).count(),
    ) == (
        True,
        2,
        Decision.Outcome.CONFIRMED,
        "The tricks were counted again",
        Change.Action.DECIDED,
        {"outcome": "confirmed", "reason": "The tricks were counted again"},
        0,
    )


def test_decide_dispute_with_a_correction_edits_the_hand_and_confirms_it():
    game = new_game()
    record(game, seat=1)
    dispute(game)

    state = decide(game, hand=hand_of(1, tricks=(0, 5, 1)))

    hand = Hand.objects.get()
    actions = list(game.changes.values_list("action", flat=True)[:2])
    assert (
        hand.version,
        hand.entered_seat,
        agreement_of(state).hands[0].decided,
        Decision.objects.get().outcome,
        actions,
    ) == (2, None, True, Decision.Outcome.CORRECTED, [Change.Action.DECIDED, Change.Action.EDITED])


def test_decide_dispute_twice_decides_once():
    game = new_game()
    record(game, seat=1)
    dispute(game)

    decide(game)
    decide(game, reason="twice")

    assert Decision.objects.count() == 1


def test_decide_dispute_with_no_dispute_is_refused():
    game = new_game()
    record(game, seat=1)

    with pytest.raises(services.DisputeRefused) as refused:
        decide(game)

    assert refused.value.why == "none"


def test_game_with_an_open_dispute_is_not_final_until_decided():
    game = new_game()
    record(game, seat=1)
    dispute(game)
    past(20)
    services.abandon_game(public_id=game.public_id)

    disputed = agreement_of(load_game(Game.objects.get())).final
    decide(game)

    assert (disputed, agreement_of(load_game(Game.objects.get())).final) == (False, True)


def test_dispute_under_whole_game_before_signing_holds_the_result():
    game = new_game(Mode.WHOLE_GAME)
    record(game, seat=1)

    dispute(game)
    services.abandon_game(public_id=game.public_id)
    for seat in range(4):
        services.sign_game(public_id=game.public_id, seat=seat)
    signed = agreement_of(load_game(Game.objects.get())).final
    decide(game)

    assert (signed, agreement_of(load_game(Game.objects.get())).final) == (False, True)


# --- Pages ----------------------------------------------------------------------------------

DISPUTED = re.compile(r'class="disputed-hand[^"]*"[^>]*>(.*?)</p>', re.S)


def dispute_lines(response):
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line)).strip()
        for line in DISPUTED.findall(response.content.decode())
    ]


def url(game, tail):
    return f"/games/{game.public_id}/{tail}"


def test_seat_holder_disputes_a_hand_and_every_phone_shows_it(client, watcher):
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    response = chafik.post(
        url(game, "dispute"), {"number": "1", "version": "1", "reason": "4 made"}
    )

    pages = [phone.get(url(game, "")) for phone in (client, watcher, chafik)]
    assert (response.status_code, [dispute_lines(page) for page in pages]) == (
        302,
        [["Hand 1 disputed by Chafik : 4 made Decide"]]
        + [["Hand 1 disputed by Chafik : 4 made"]] * 2,
    )


def test_seat_holder_page_offers_to_dispute_a_waiting_hand():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    page = chafik.get(url(game, "")).content.decode()

    assert (url(game, "dispute") in page, "Dispute hand 1" in page) == (True, True)


def test_dispute_posted_twice_disputes_once():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    data = {"number": "1", "version": "1", "reason": "4 made"}

    codes = [chafik.post(url(game, "dispute"), data).status_code for _ in range(2)]

    assert (codes, Dispute.objects.count()) == ([302, 302], 1)


def test_dispute_without_a_reason_is_refused_with_the_message(client):
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    response = chafik.post(url(game, "dispute"), {"number": "1", "version": "1", "reason": " "})

    assert (
        response.status_code,
        "Say why you dispute this hand." in response.content.decode(),
        Dispute.objects.count(),
    ) == (400, True, 0)


def test_dispute_from_a_phone_holding_no_seat_is_forbidden(client, watcher):
    game = new_game()
    record(game, seat=1)
    data = {"number": "1", "version": "1", "reason": "4 made"}

    codes = [phone.post(url(game, "dispute"), data).status_code for phone in (client, watcher)]

    assert (codes, Dispute.objects.count()) == ([403, 403], 0)


def test_dispute_of_a_confirmed_hand_answers_409_and_says_why():
    game = new_game()
    record(game, seat=1)
    confirm(game, seat=3)
    chafik = seat_phone(game, 2)

    response = chafik.post(url(game, "dispute"), {"number": "1", "version": "1", "reason": "no"})

    assert (
        response.status_code,
        "only the referee may change it now" in response.content.decode(),
    ) == (409, True)


def test_dispute_and_decide_answer_get_with_405_or_the_page(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)

    assert (
        client.get(url(game, "dispute")).status_code,
        client.get(url(game, "hands/1/decide")).status_code,
        client.get(url(game, "hands/9/decide")).status_code,
    ) == (405, 200, 404)


def test_referee_page_is_forbidden_to_a_seat_holder_and_a_watcher(watcher):
    game = new_game()
    record(game, seat=1)
    dispute(game)
    chafik = seat_phone(game, 2)

    codes = [phone.get(url(game, "hands/1/decide")).status_code for phone in (chafik, watcher)]

    assert codes == [403, 403]


def test_referee_decides_with_a_reason_and_the_players_see_it(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)
    chafik = seat_phone(game, 2)

    response = client.post(
        url(game, "hands/1/decide"), {"outcome": "confirmed", "reason": "Counted again"}
    )

    assert (response.status_code, dispute_lines(chafik.get(url(game, "")))) == (
        302,
        [
            "Hand 1 disputed by Chafik : Bilal made 4, not 3 The referee confirmed it as it "
            "stands: Counted again"
        ],
    )


def test_referee_decision_without_a_reason_is_refused_on_the_field(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)

    response = client.post(url(game, "hands/1/decide"), {"outcome": "confirmed", "reason": ""})

    assert (
        response.status_code,
        "Say why: the players see your reason." in response.content.decode(),
        Decision.objects.count(),
    ) == (400, True, 0)


def test_referee_corrects_the_hand_through_the_page(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)
    data = {**hand_data(1, tricks=(0, 5, 1)), "outcome": "corrected", "reason": "Recounted"}

    response = client.post(url(game, "hands/1/decide"), data)

    assert (response.status_code, Hand.objects.get().version, Decision.objects.get().outcome) == (
        302,
        2,
        Decision.Outcome.CORRECTED,
    )


def test_history_says_the_dispute_and_the_decision_with_their_reasons(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)
    decide(game)

    page = client.get(url(game, "")).content.decode()

    assert (
        "hand disputed, hand 1: Chafik — Bilal made 4, not 3" in page,
        "referee’s decision, hand 1: confirmed as it stands — The tricks were counted again"
        in page,
    ) == (True, True)


def test_settlement_says_it_waits_for_the_referee_while_a_hand_is_disputed(client):
    game = new_game()
    record(game, seat=1)
    dispute(game)

    disputed = client.get(url(game, "settlement")).content.decode()
    decide(game)
    decided = client.get(url(game, "settlement")).content.decode()

    said = "Hand 1 is disputed: this settlement waits for the referee"
    assert (said in disputed, said in decided) == (True, False)


def test_whole_game_seat_holder_disputes_a_hand_by_its_number_before_signing():
    game = new_game(Mode.WHOLE_GAME)
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    offered = "Dispute a hand" in chafik.get(url(game, "")).content.decode()
    response = chafik.post(url(game, "dispute"), {"number": "1", "reason": "4 made"})

    assert (offered, response.status_code, Dispute.objects.get().version) == (True, 302, 1)


def test_dispute_of_a_hand_number_not_played_answers_409():
    game = new_game(Mode.WHOLE_GAME)
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    response = chafik.post(url(game, "dispute"), {"number": "7", "reason": "4 made"})

    assert (response.status_code, Dispute.objects.count()) == (409, 0)


def test_dispute_of_a_hand_undone_disputes_nothing_and_is_not_decided():
    game = new_game()
    record(game, seat=1)
    dispute(game)
    services.undo_hand(public_id=game.public_id, number=1)
    record(game, seat=1)

    with pytest.raises(services.DisputeRefused) as refused:
        decide(game)

    agreement = agreement_of(load_game(Game.objects.get()))
    assert (
        refused.value.why,
        Dispute.objects.count(),
        agreement.hands[0].waiting,
        open_disputes(Game.objects.all()).count(),
    ) == ("none", 1, True, 0)
