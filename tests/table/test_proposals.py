"""After a hand is confirmed only the referee changes it (issue 40.3): a scorer's
correction of a confirmed hand becomes a proposal, the hand staying as confirmed until a
player of another seat than the proposer's confirms it; it then replaces the hand, and the
history says so. The referee (a plain game's owner; a club game's admin) corrects it at
once."""

import pytest
from django.test import Client

from scoring.engine import Confirmation as Mode
from scoring.table import services
from scoring.table.confirming import agreement_of
from scoring.table.models import Change, Hand, Proposal
from scoring.table.state import load_game
from tests.factories import hand_data
from tests.table.agreement import confirm, hand_of, new_game, record, seat_phone

pytestmark = pytest.mark.django_db

MISSED = {"tricks": (0, 3, 2)}
"""Hand 1 corrected: Bilal (the taker, 4♥) made 3 tricks, not 4; Amina none."""


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def confirmed_game(mode=Mode.EACH_HAND):
    """Hand 1 entered from Bilal's seat and confirmed by Chafik's."""
    game = new_game(mode)
    record(game, seat=1)
    if mode is Mode.EACH_HAND:
        confirm(game, seat=2)
    return game


def scorer_link_phone(owner, game):
    """A phone handed a scorer link of the game by its owner's phone: it scores, and is no
    referee."""
    owner.post(url(game, "share/new"))
    link = game.scorer_links.latest("id")
    phone = Client()
    phone.post(url(game, f"score/{link.secret}"), {"label": "Table 2"})
    return phone


def propose(game, seat=1, **changes):
    try:
        services.edit_hand(
            public_id=game.public_id,
            number=1,
            hand=hand_of(1, **(changes or MISSED)),
            discard_after_end=False,
            seat=seat,
        )
    except services.Proposed as proposed:
        return proposed
    raise AssertionError("the correction was applied, not proposed")


def tricks(game):
    return Hand.objects.get(game=game, number=1).tricks


# --- Services -------------------------------------------------------------------------------


def test_correction_of_a_confirmed_hand_is_proposed_and_the_hand_stays_as_confirmed():
    game = confirmed_game()
    before = tricks(game)

    proposed = propose(game)

    agreement = agreement_of(load_game(game))
    assert (proposed.number, tricks(game), agreement.hands[0].by) == (1, before, 2)
    assert [(row.hand_number, row.version, row.seat) for row in agreement.proposals] == [(1, 1, 1)]
    change = game.changes.first()
    assert (change.action, change.hand_number) == (Change.Action.PROPOSED, 1)


def test_proposal_confirmed_by_another_seat_replaces_the_hand_confirmed_by_him():
    game = confirmed_game()
    propose(game)

    state = services.confirm_proposal(public_id=game.public_id, number=1, seat=3)

    agreement = agreement_of(state)
    row = Hand.objects.get(game=game, number=1)
    assert (row.tricks, row.version, row.entered_seat) == ([0, 3, 2, 1], 2, 1)
    assert (agreement.hands[0].by, agreement.proposals) == (3, ())
    assert list(game.changes.values_list("action", flat=True)[:3]) == [
        Change.Action.ACCEPTED,
        Change.Action.EDITED,
        Change.Action.PROPOSED,
    ]


def test_proposal_is_not_confirmed_by_the_seat_that_proposed_it():
    game = confirmed_game()
    propose(game, seat=1)

    with pytest.raises(services.ConfirmRefused) as refused:
        services.confirm_proposal(public_id=game.public_id, number=1, seat=1)

    assert (refused.value.why, tricks(game), Proposal.objects.get().confirmed_at) == (
        "own_proposal",
        [1, 4, 0, 1],
        None,
    )


def test_proposal_confirmed_twice_replaces_the_hand_once():
    game = confirmed_game()
    propose(game)

    services.confirm_proposal(public_id=game.public_id, number=1, seat=3)
    services.confirm_proposal(public_id=game.public_id, number=1, seat=3)

    edited = Change.objects.filter(action="edited").count()
    assert (Hand.objects.get(game=game).version, edited) == (2, 1)


def test_no_proposal_to_confirm_is_refused():
    game = confirmed_game()

    with pytest.raises(services.ConfirmRefused) as refused:
        services.confirm_proposal(public_id=game.public_id, number=1, seat=3)

    assert refused.value.why == "no_proposal"


def test_later_proposal_takes_the_place_of_the_earlier():
    game = confirmed_game()
    propose(game)
    propose(game, tricks=(2, 3, 1))

    services.confirm_proposal(public_id=game.public_id, number=1, seat=0)

    assert tricks(game) == [2, 3, 1, 0]


def test_referee_corrects_a_confirmed_hand_at_once():
    game = confirmed_game()

    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, **MISSED),
        discard_after_end=False,
        referee=True,
    )

    assert (tricks(game), Proposal.objects.count()) == ([0, 3, 2, 1], 0)


def test_hand_waiting_for_confirmation_is_corrected_at_once():
    game = new_game()
    record(game, seat=1)

    services.edit_hand(
        public_id=game.public_id, number=1, hand=hand_of(1, **MISSED), discard_after_end=False
    )

    assert (tricks(game), Proposal.objects.count()) == ([0, 3, 2, 1], 0)


def test_proposal_of_a_hand_corrected_since_is_no_longer_open():
    game = confirmed_game()
    propose(game)
    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=hand_of(1, tricks=(2, 3, 1)),
        discard_after_end=False,
        referee=True,
    )

    with pytest.raises(services.ConfirmRefused) as refused:
        services.confirm_proposal(public_id=game.public_id, number=1, seat=3)

    assert (refused.value.why, tricks(game)) == ("no_proposal", [2, 3, 1, 0])


# --- Pages ----------------------------------------------------------------------------------


def test_scorer_link_correcting_a_confirmed_hand_proposes_it_and_every_phone_says_so(client):
    game = confirmed_game()
    scorer = scorer_link_phone(client, game)
    dalila = seat_phone(game, 3)

    response = scorer.post(url(game, "hands/1/edit"), hand_data(1, **MISSED))
    page = dalila.get(url(game)).content.decode()

    assert (response.status_code, tricks(game)) == (200, [1, 4, 0, 1])
    assert (
        "Hand 1 is confirmed: only the referee changes it now. Your correction is proposed to "
        "the other seats, and replaces it once a player of another seat confirms it."
    ) in response.content.decode()
    assert "Hand 1: a correction waits for" in page
    assert "Confirm the correction of hand 1" in page
    assert "correction proposed, hand 1:" in page


def test_seat_holder_confirms_the_correction_by_a_plain_post_and_the_history_says_so(client):
    game = confirmed_game()
    scorer = scorer_link_phone(client, game)
    scorer.post(url(game, "hands/1/edit"), hand_data(1, **MISSED))
    dalila = seat_phone(game, 3)

    first = dalila.post(url(game, "hands/1/proposal/confirm"))
    again = dalila.post(url(game, "hands/1/proposal/confirm"))
    page = dalila.get(url(game)).content.decode()

    assert (first.status_code, again.status_code, tricks(game)) == (302, 302, [0, 3, 2, 1])
    assert "correction confirmed, hand 1: Dalila" in page
    assert "a correction waits for" not in page


def test_owner_phone_is_the_referee_and_corrects_a_confirmed_hand_at_once(client):
    game = confirmed_game()

    response = client.post(url(game, "hands/1/edit"), hand_data(1, **MISSED))

    assert (response.status_code, tricks(game), Proposal.objects.count()) == (
        302,
        [0, 3, 2, 1],
        0,
    )


def test_api_edit_of_a_confirmed_hand_says_it_is_proposed(client):
    game = confirmed_game()
    scorer = scorer_link_phone(client, game)

    response = scorer.post(
        url(game, "hands/1/edit"), hand_data(1, **MISSED), HTTP_ACCEPT="application/json"
    )

    assert (response.status_code, response.json()["status"]) == (409, "proposed")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "La donne 1 est confirmée"),
        ("ar", "الجولة 1 مؤكَّدة"),
    ],
)
def test_proposal_is_said_in_french_and_arabic(client, language, said):
    game = confirmed_game()
    scorer = scorer_link_phone(client, game)

    response = scorer.post(
        url(game, "hands/1/edit"), hand_data(1, **MISSED), HTTP_ACCEPT_LANGUAGE=language
    )

    assert said in response.content.decode()


def test_correction_confirmed_from_the_queue_answers_json_and_a_replay_finds_it_done(client):
    game = confirmed_game()
    scorer_link_phone(client, game).post(url(game, "hands/1/edit"), hand_data(1, **MISSED))
    dalila = seat_phone(game, 3)
    json = {"HTTP_ACCEPT": "application/json"}

    first = dalila.post(url(game, "hands/1/proposal/confirm"), **json)
    again = dalila.post(url(game, "hands/1/proposal/confirm"), **json)

    assert [first.json()["status"], again.json()["status"]] == ["confirmed", "confirmed"]
    assert (again.status_code, Hand.objects.get(game=game).version) == (200, 2)


def test_scorer_link_cannot_undo_a_confirmed_hand_and_is_told_why(client):
    game = confirmed_game()
    scorer = scorer_link_phone(client, game)

    refused = scorer.post(url(game, "hands/1/undo"))
    answered = scorer.post(url(game, "hands/1/undo"), HTTP_ACCEPT="application/json")

    assert (refused.status_code, answered.status_code, answered.json()["status"]) == (
        409,
        409,
        "confirmed",
    )
    assert (
        "Hand 1 is confirmed: only the referee may undo it now. Correct it instead: your "
        "correction is proposed to the other seats."
    ) in refused.content.decode()
    assert Hand.objects.filter(game=game).count() == 1


def test_referee_undoes_a_confirmed_hand_and_a_hand_waiting_is_undone_by_any_scorer(client):
    confirmed = confirmed_game()
    waiting = new_game()
    record(waiting, seat=1)
    scorer = scorer_link_phone(client, waiting)

    by_referee = client.post(url(confirmed, "hands/1/undo"))
    by_scorer = scorer.post(url(waiting, "hands/1/undo"))

    assert (by_referee.status_code, by_scorer.status_code) == (302, 302)
    assert Hand.objects.filter(game__in=[confirmed, waiting]).count() == 0
