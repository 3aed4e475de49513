"""Confirmation (scoring/engine/confirmation.py): each hand's state and whether a game's
result is final, from the hands as entered, the confirmations given and the moment."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    Confirmation,
    RecordError,
    Rules,
    RulesError,
    parse_record,
    record_to_dict,
)
from scoring.engine.confirmation import (
    Decided,
    Disputed,
    Entered,
    Given,
    HandState,
    Signatures,
    hand_states,
    is_final,
    may_confirm,
    next_due,
    signatures,
)

START = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
EACH = Rules(confirmation=Confirmation.EACH_HAND)
WHOLE = Rules(confirmation=Confirmation.WHOLE_GAME, confirmation_minutes=10)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_hand_states_under_off_wait_for_nobody():
    states = hand_states(Rules(), [Entered(1, 0, START)], [], at(1))

    assert (states, is_final(Rules(), True, states)) == ((HandState(1),), True)


def test_hand_entered_by_a_seat_waits_for_the_three_others():
    states = hand_states(EACH, [Entered(1, 1, START)], [], at(3))

    assert (states, may_confirm(None)) == ((HandState(1, waiting_for=(0, 2, 3)),), (0, 1, 2, 3))


def test_hand_confirmed_by_another_seat_says_which_and_when():
    states = hand_states(EACH, [Entered(1, 1, START)], [Given(1, 2, at(2))], at(3))

    assert states == (HandState(1, by=2, at=at(2)),)


def test_confirmation_by_the_seat_that_entered_the_hand_counts_for_nothing():
    states = hand_states(EACH, [Entered(1, 1, START)], [Given(1, 1, at(2))], at(3))

    assert states[0].waiting_for == (0, 2, 3)


def test_hand_is_confirmed_by_itself_after_the_minutes():
    states = hand_states(EACH, [Entered(1, 0, START)], [], at(15))

    assert (states[0].by_itself, states[0].at, states[0].waiting) == (True, at(15), False)


def test_confirmation_with_no_seat_confirms_by_itself_at_once():
    states = hand_states(EACH, [Entered(1, 0, START)], [Given(1, None, at(4))], at(5))

    assert states == (HandState(1, at=at(4)),)


def test_confirmation_given_before_the_hand_was_corrected_counts_for_nothing():
    states = hand_states(EACH, [Entered(1, 0, at(5))], [Given(1, 2, at(2))], at(6))

    assert states[0].waiting_for == (1, 2, 3)


def test_each_hand_is_final_only_when_over_and_every_hand_confirmed():
    hands = [Entered(1, 0, START), Entered(2, 0, at(1))]
    one = hand_states(EACH, hands, [Given(1, 1, at(2))], at(3))
    both = hand_states(EACH, hands, [Given(1, 1, at(2)), Given(2, 3, at(2))], at(3))

    assert (is_final(EACH, True, one), is_final(EACH, True, both), is_final(EACH, False, both)) == (
        False,
        True,
        False,
    )


def test_whole_game_is_final_when_all_four_have_signed():
    given = [Given(None, seat, at(1 + seat)) for seat in range(4)]
    three = signatures(WHOLE, START, given[:3], at(5))
    four = signatures(WHOLE, START, given, at(5))

    assert (
        three.waiting_for,
        is_final(WHOLE, True, (), three),
        is_final(WHOLE, True, (), four),
        four.by_itself,
    ) == ((3,), False, True, None)


def test_whole_game_is_signed_by_itself_after_the_minutes_from_its_end():
    signed = signatures(WHOLE, START, [Given(None, 0, at(1))], at(10))

    assert (signed.by_itself, signed.waiting_for, is_final(WHOLE, True, (), signed)) == (
        at(10),
        (),
        True,
    )


def test_whole_game_is_not_signed_while_it_is_played():
    signed = signatures(WHOLE, None, [Given(None, 0, at(1))], at(30))

    assert (signed.signed, is_final(WHOLE, False, (), signed)) == ({}, False)


def test_confirmation_is_written_in_the_record_only_when_not_off():
    record = {
        "format": "boulmous/1",
        "players": ["Amina", "Bilal", "Chafik", "Dalila"],
        "rules": {"confirmation": "each_hand", "confirmation_minutes": 20},
        "hands": [],
    }
    usual = dict(record, rules={})

    assert (
        record_to_dict(parse_record(record))["rules"].get("confirmation"),
        record_to_dict(parse_record(record))["rules"].get("confirmation_minutes"),
        "confirmation" in record_to_dict(parse_record(usual))["rules"],
    ) == ("each_hand", 20, False)


def test_confirmation_minutes_of_zero_is_refused_in_a_record():
    record = {
        "format": "boulmous/1",
        "players": ["Amina", "Bilal", "Chafik", "Dalila"],
        "rules": {"confirmation": "each_hand", "confirmation_minutes": 0},
        "hands": [],
    }
    try:
        parse_record(record)
        refused = False
    except RecordError:
        refused = True

    assert refused is True


entries = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.integers(0, 60)), max_size=6
)
confirmations = st.lists(
    st.tuples(st.integers(1, 6), st.one_of(st.none(), st.integers(0, 3)), st.integers(0, 90)),
    max_size=10,
)


@settings(max_examples=200)
@given(entries, confirmations, st.integers(0, 120), st.integers(1, 30))
def test_hand_states_are_confirmed_by_an_allowed_seat_after_entry_or_wait(
    entered, given_, now, minutes
):
    rules = Rules(confirmation=Confirmation.EACH_HAND, confirmation_minutes=minutes)
    hands = [Entered(number, seat, at(moment)) for number, (seat, moment) in enumerate(entered, 1)]
    given_list = [Given(number, seat, at(moment)) for number, seat, moment in given_]

    states = hand_states(rules, hands, given_list, at(now))

    for hand, state in zip(hands, states, strict=True):
        assert state.number == hand.number
        if state.waiting:
            assert state.waiting_for == may_confirm(hand.seat)
            assert hand.at + timedelta(minutes=minutes) > at(now)
        else:
            assert state.waiting_for == ()
            assert hand.at <= state.at <= min(at(now), hand.at + timedelta(minutes=minutes))
            assert state.by != hand.seat or state.by is None


@settings(max_examples=200)
@given(entries, confirmations, st.integers(0, 120), st.integers(0, 120))
def test_hand_confirmed_stays_confirmed_as_time_passes(entered, given_, now, later):
    hands = [Entered(number, seat, at(moment)) for number, (seat, moment) in enumerate(entered, 1)]
    given_list = [Given(number, seat, at(moment)) for number, seat, moment in given_]

    before = hand_states(EACH, hands, given_list, at(now))
    after = hand_states(EACH, hands, given_list, at(now + later))

    for one, other in zip(before, after, strict=True):
        if not one.waiting:
            assert other == one


def test_disputed_hand_waits_for_the_referee_past_the_minutes():
    states = hand_states(EACH, [Entered(1, 0, START)], [], at(60), [Disputed(1, 2, at(3))])

    assert (states, states[0].disputed, states[0].waiting, is_final(EACH, True, states)) == (
        (HandState(1, disputed_by=2),),
        True,
        False,
        False,
    )


def test_disputed_hand_is_confirmed_by_nothing_at_the_nights_end():
    states = hand_states(
        EACH, [Entered(1, 0, START)], [Given(1, None, at(5))], at(6), [Disputed(1, 2, at(3))]
    )

    assert states == (HandState(1, disputed_by=2),)


def test_referees_decision_confirms_a_disputed_hand():
    states = hand_states(
        EACH, [Entered(1, 0, START)], [], at(9), [Disputed(1, 2, at(3))], [Decided(1, at(8))]
    )

    assert (states, is_final(EACH, True, states)) == (
        (HandState(1, at=at(8), disputed_by=2, decided=True),),
        True,
    )


def test_referees_correction_then_decision_confirms_the_corrected_hand():
    states = hand_states(
        EACH, [Entered(1, None, at(7))], [], at(9), [Disputed(1, 2, at(3))], [Decided(1, at(7))]
    )

    assert states == (HandState(1, at=at(7), disputed_by=2, decided=True),)


def test_decision_with_no_dispute_confirms_the_hand():
    states = hand_states(EACH, [Entered(1, 0, START)], [], at(9), [], [Decided(1, at(2))])

    assert states == (HandState(1, at=at(2), decided=True),)


def test_dispute_after_the_hand_was_confirmed_counts_for_nothing():
    states = hand_states(
        EACH, [Entered(1, 0, START)], [Given(1, 1, at(2))], at(9), [Disputed(1, 2, at(3))]
    )

    assert states == (HandState(1, by=1, at=at(2)),)


def test_dispute_of_the_hand_before_its_correction_counts_for_nothing():
    states = hand_states(EACH, [Entered(1, 0, at(4))], [], at(5), [Disputed(1, 2, at(3))])

    assert states == (HandState(1, waiting_for=(1, 2, 3)),)


def test_dispute_after_now_is_not_read_yet():
    states = hand_states(EACH, [Entered(1, 0, START)], [], at(2), [Disputed(1, 2, at(3))])

    assert states == (HandState(1, waiting_for=(1, 2, 3)),)


def test_disputed_hand_under_whole_game_holds_the_signed_result():
    signed = signatures(WHOLE, START, [Given(None, seat, at(1)) for seat in range(4)], at(2))
    disputed = hand_states(WHOLE, [Entered(1, 0, START)], [], at(2), [Disputed(1, 3, at(0.5))])
    decided = hand_states(
        WHOLE, [Entered(1, 0, START)], [], at(2), [Disputed(1, 3, at(0.5))], [Decided(1, at(1))]
    )

    assert (is_final(WHOLE, True, disputed, signed), is_final(WHOLE, True, decided, signed)) == (
        False,
        True,
    )


def test_disputes_under_off_count_for_nothing():
    states = hand_states(Rules(), [Entered(1, 0, START)], [], at(2), [Disputed(1, 3, at(1))])

    assert states == (HandState(1),)


def test_signatures_under_each_hand_are_signed_only_by_the_nights_end():
    given = [Given(1, 2, at(1)), Given(None, None, at(3)), Given(None, None, at(2))]

    assert signatures(EACH, START, given, at(4)) == Signatures({}, at(2))


def test_hands_under_whole_game_wait_for_nobody():
    states = hand_states(WHOLE, [Entered(1, 0, START)], [], at(1))

    assert [state.waiting for state in states] == [False]


def test_whole_game_signatures_count_only_the_game_s_given_between_its_end_and_now():
    given = [
        Given(1, 0, at(1)),  # a hand's confirmation, not the game's
        Given(None, 1, at(-1)),  # before the game ended
        Given(None, 2, at(40)),  # after the moment asked about
        Given(None, 3, at(2)),
    ]

    assert signatures(WHOLE, START, given, at(5)) == Signatures({3: at(2)})


def test_whole_game_signed_with_no_seat_at_the_night_s_end_is_signed_by_itself_then():
    signed = signatures(WHOLE, START, [Given(None, None, at(3))], at(5))

    assert (signed.by_itself, signed.waiting_for) == (at(3), ())


def test_signatures_of_a_game_played_without_whole_game_sign_nothing_by_themselves():
    signed = signatures(EACH, START, [], at(60))

    assert (signed.by_itself, signed.waiting_for) == (None, (0, 1, 2, 3))


def test_confirmation_other_than_off_each_hand_or_whole_game_is_refused():
    with pytest.raises(RulesError) as refused:
        Rules.from_data({"confirmation": "sometimes"})

    assert (
        str(refused.value) == 'confirmation "sometimes" is not "off", "each_hand" or "whole_game"'
    )


def test_next_due_is_the_end_of_the_minutes_of_the_earliest_hand_waiting():
    hands = [Entered(1, 0, START), Entered(2, 1, at(3)), Entered(3, 2, at(4))]
    states = hand_states(EACH, hands, [Given(1, 1, at(1))], at(5))

    assert next_due(EACH, hands, states) == at(3 + EACH.confirmation_minutes)


def test_next_due_is_none_once_every_hand_is_confirmed_or_disputed():
    hands = [Entered(1, 0, START), Entered(2, 1, at(1))]
    states = hand_states(EACH, hands, [], at(2), [Disputed(2, 0, at(1))])
    later = hand_states(EACH, hands[:1], [], at(60))

    assert (next_due(EACH, hands[:1], later), states[0].waiting) == (None, True)
    assert next_due(EACH, hands[1:], states[1:]) is None


def test_next_due_under_whole_game_is_the_end_of_the_signatures_minutes_while_some_wait():
    three = signatures(WHOLE, START, [Given(None, seat, at(1)) for seat in range(3)], at(5))
    four = signatures(WHOLE, START, [Given(None, seat, at(1)) for seat in range(4)], at(5))
    itself = signatures(WHOLE, START, [], at(30))

    assert (
        next_due(WHOLE, [], [], START, three),
        next_due(WHOLE, [], [], START, four),
        next_due(WHOLE, [], [], START, itself),
        next_due(WHOLE, [], [], None, signatures(WHOLE, None, [], at(5))),
        next_due(EACH, [], [], START, signatures(EACH, START, [], at(5))),
    ) == (at(10), None, None, None, None)
