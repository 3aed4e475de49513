"""The table draw of a club night (league.md, "Table draws for a club night"): tables of
four, fair sit-outs, meetings spread evenly counting the rounds played, reproducible."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import RulesError
from scoring.engine.draw import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    Round,
    draw,
    draw_json,
    meetings,
    sit_outs,
    spread,
)


def check_rounds(present, planned):
    """Each round seats everyone present at tables of four or sits him out, exactly once,
    ``n % 4`` sitting out."""
    for round_ in planned:
        named = [player for table in round_.tables for player in table]
        named.extend(round_.sitting_out)
        assert (
            sorted(named),
            {len(table) for table in round_.tables} | {4},
            len(round_.sitting_out),
        ) == (sorted(present), {4}, len(present) % 4)


def unfair_rounds(history, present, planned):
    """The planned rounds that sent out someone who had sat out more than someone who
    played (counting history; a newcomer counts as the present minimum)."""
    before = sit_outs(history)
    newcomer = min((before[player] for player in present if player in before), default=0)
    counts = {player: before.get(player, newcomer) for player in present}
    unfair = []
    for number, round_ in enumerate(planned, start=1):
        seated = [player for table in round_.tables for player in table]
        if round_.sitting_out and max(counts[p] for p in round_.sitting_out) > min(
            counts[p] for p in seated
        ):
            unfair.append(number)
        for player in round_.sitting_out:
            counts[player] += 1
    return unfair


# --- The counts -----------------------------------------------------------------------------

TWO_ROUNDS = (
    Round(tables=((1, 2, 3, 4), (5, 6, 7, 8)), sitting_out=(9,)),
    Round(tables=((1, 2, 5, 9), (3, 6, 7, 8)), sitting_out=(4,)),
)


def test_meetings_counts_each_pair_at_one_table():
    met = meetings(TWO_ROUNDS)

    assert (
        met[frozenset((1, 2))],
        met[frozenset((6, 7))],
        met[frozenset((1, 9))],
        frozenset((1, 6)) in met,
        len(met),
    ) == (2, 2, 1, False, 20)


def test_spread_gives_largest_meetings_and_repeated_pairs():
    assert spread(TWO_ROUNDS) == (2, 4)


def test_spread_of_no_round_is_zero():
    assert spread(()) == (0, 0)


def test_sit_outs_counts_every_player_named():
    assert sit_outs(TWO_ROUNDS) == {1: 0, 2: 0, 3: 0, 4: 1, 5: 0, 6: 0, 7: 0, 8: 0, 9: 1}


def test_draw_json_has_the_spec_shape():
    text = draw_json(TWO_ROUNDS[:1])

    assert (text, json.loads(text)) == (
        '{"rounds": [{"tables": [[1, 2, 3, 4], [5, 6, 7, 8]], "sitting_out": [9]}]}',
        {"rounds": [{"tables": [[1, 2, 3, 4], [5, 6, 7, 8]], "sitting_out": [9]}]},
    )


# --- Known cases ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 42])
def test_draw_16_players_5_rounds_has_no_repeat(seed):
    planned = draw(range(1, 17), 5, seed=seed)

    check_rounds(range(1, 17), planned)
    assert (len(planned), spread(planned)) == (5, (1, 0))


def test_draw_40_players_6_rounds_has_no_repeat():
    planned = draw(range(1, 41), 6, seed=7)

    check_rounds(range(1, 41), planned)
    assert (len(planned), spread(planned)) == (6, (1, 0))


def test_draw_9_players_2_rounds_repeats_no_more_than_it_must():
    # Round 2 seats at most one player of each round-1 table with the one who rested: every
    # table repeats, at best one pair at his table and two at the other.
    planned = draw(range(1, 10), 2, seed=3)

    check_rounds(range(1, 10), planned)
    assert (spread(planned), sorted(sit_outs(planned).values())) == ((2, 3), [0] * 7 + [1, 1])


def test_draw_8_players_3_rounds_reaches_the_least_spread():
    # Each player's three tables place him among 2 ** 3 patterns: at best all differ, and
    # then each player meets three others twice: 12 pairs.
    assert spread(draw(range(8), 3, seed=1)) == (2, 12)


def test_draw_4_players_seats_the_same_table_each_round():
    planned = draw([4, 3, 2, 1], 3)

    assert ([sorted(round_.tables[0]) for round_ in planned], spread(planned)) == (
        [[1, 2, 3, 4]] * 3,
        (3, 6),
    )


@pytest.mark.parametrize(
    ("players", "rounds", "expected"),
    [(5, 5, (3, 10)), (6, 3, (2, 3)), (7, 2, (1, 0)), (5, 1, (1, 0))],
)
def test_draw_few_players_rest_each_in_turn(players, rounds, expected):
    planned = draw(range(players), rounds, seed=5)

    check_rounds(range(players), planned)
    assert (spread(planned), unfair_rounds((), range(players), planned)) == (expected, [])


def test_draw_same_seed_gives_same_draw():
    assert draw(range(1, 21), 4, seed=9) == draw(range(1, 21), 4, seed=9)


def test_draw_other_seed_gives_other_draw():
    assert draw(range(1, 17), 5, seed=1) != draw(range(1, 17), 5, seed=2)


def test_draw_does_not_depend_on_the_order_of_players():
    shuffled = [14, 3, 19, 7, 1, 20, 11, 5, 16, 9, 2, 18, 6, 13, 10, 4, 17, 8, 15, 12]

    assert draw(shuffled, 3, seed=6) == draw(range(1, 21), 3, seed=6)


def test_draw_takes_any_ids():
    planned = draw([-7, 0, 10**12, 33, 5], 2)

    check_rounds([-7, 0, 10**12, 33, 5], planned)
    assert len({round_.sitting_out for round_ in planned}) == 2


# --- With the rounds already played ---------------------------------------------------------


def test_draw_after_history_avoids_its_meetings():
    first = draw(range(1, 17), 1, seed=4)

    rest = draw(range(1, 17), 4, seed=4, history=first)

    assert spread(first + rest) == (1, 0)


def test_draw_after_history_rests_those_who_played_every_round():
    history = (Round(((1, 2, 3, 4),), (5, 6)), Round(((3, 4, 5, 6),), (1, 2)))

    planned = draw(range(1, 7), 1, seed=2, history=history)

    assert planned[0].sitting_out == (3, 4)


def test_draw_newcomer_counts_as_the_present_minimum():
    # 1 to 4 have rested once, 5 not yet; 6 arrives and counts as 5 does (0): both rest.
    history = tuple(
        Round((tuple(p for p in range(1, 6) if p != out),), (out,)) for out in (1, 2, 3, 4)
    )

    planned = draw(range(1, 7), 1, history=history)

    assert planned[0].sitting_out == (5, 6)


def test_draw_newcomer_rests_in_turn_with_everyone_once_all_rested():
    # Everyone there has rested once: the newcomer counts as 1 too, and may rest first.
    history = tuple(
        Round((tuple(p for p in range(1, 6) if p != out),), (out,)) for out in range(1, 6)
    )

    rested = {
        player
        for seed in range(6)
        for player in draw(range(1, 7), 1, seed=seed, history=history)[0].sitting_out
    }

    assert rested == {1, 2, 3, 4, 5, 6}


def test_draw_ignores_players_who_left():
    history = (Round(((1, 2, 3, 4), (5, 6, 7, 8)), (9,)),)

    planned = draw([1, 2, 5, 6, 9, 10, 11, 12], 1, history=history)

    check_rounds([1, 2, 5, 6, 9, 10, 11, 12], planned)
    assert spread(history + planned) == (1, 0)


def test_draw_rests_who_would_repeat():
    # 1 to 4 have rested less than 5 and 6, so two of them rest. 1 and 2 have met three
    # times, 3 and 4 too: resting one of each pair keeps every pair under four meetings.
    history = (
        Round(((1, 2, 3, 4),), (5, 6)),
        Round(((1, 2, 3, 4),), (5, 6)),
        Round(((1, 2, 5, 6),), (3, 4)),
        Round(((3, 4, 5, 6),), (1, 2)),
    )

    planned = draw(range(1, 7), 1, seed=1, history=history)

    assert (
        len(set(planned[0].sitting_out) & {1, 2}),
        len(set(planned[0].sitting_out) & {3, 4}),
        spread(history + planned)[0],
    ) == (1, 1, 3)


# --- Errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "history", "message"),
    [
        ([1, 2, 3], 1, (), "players: a draw needs 4 to 200 players, not 3"),
        ([], 1, (), "players: a draw needs 4 to 200 players, not 0"),
        (range(MAX_PLAYERS + 1), 1, (), "players: a draw needs 4 to 200 players, not 201"),
        ([1, 2, 3, 4, 2, 3], 1, (), "players: 2, 3 listed more than once"),
        (range(4), 0, (), "rounds: a draw needs 1 to 20 rounds, not 0"),
        (range(4), -1, (), "rounds: a draw needs 1 to 20 rounds, not -1"),
        (range(4), MAX_ROUNDS + 1, (), "rounds: a draw needs 1 to 20 rounds, not 21"),
        (
            range(4),
            1,
            (Round(((0, 1, 2, 3),), ()), Round(((0, 1, 2),), (3,))),
            "round 2: a table of 3 players, not 4",
        ),
        (range(4), 1, (Round(((0, 1, 2, 3),), (3, 0)),), "round 1: 0, 3 named more than once"),
    ],
)
def test_draw_refuses_what_cannot_be_drawn(players, rounds, history, message):
    with pytest.raises(RulesError) as raised:
        draw(players, rounds, history=history)

    assert str(raised.value) == message


# --- Properties -----------------------------------------------------------------------------


@st.composite
def nights(draw_from):
    """Players present, rounds to draw and a seed, after rounds drawn at random (not always
    fairly) among players some of whom have left, some of whom are newcomers."""
    before = draw_from(st.integers(4, 40))
    played = draw_from(st.integers(0, 3))
    history = []
    for _ in range(played):
        order = draw_from(st.permutations(range(before)))
        tables = tuple(tuple(order[at : at + 4]) for at in range(0, before - before % 4, 4))
        history.append(Round(tables, tuple(order[before - before % 4 :])))
    left = draw_from(st.sets(st.integers(0, before - 1), max_size=before - 4))
    arrived = draw_from(st.integers(0, 40 - (before - len(left))))
    present = [p for p in range(before) if p not in left] + [100 + p for p in range(arrived)]
    return present, draw_from(st.integers(1, 6)), draw_from(st.integers(0, 2**32)), history


@settings(max_examples=20, deadline=None)
@given(nights())
def test_draw_property_seats_everyone_once_and_rests_fairly(night):
    present, rounds, seed, history = night

    planned = draw(present, rounds, seed=seed, history=tuple(history))

    check_rounds(present, planned)
    assert (len(planned), unfair_rounds(history, present, planned)) == (rounds, [])


@settings(max_examples=5, deadline=None)
@given(st.integers(4, 40), st.integers(1, 6), st.integers(0, 2**32))
def test_draw_property_same_seed_gives_same_draw(players, rounds, seed):
    assert draw(range(players), rounds, seed=seed) == draw(range(players), rounds, seed=seed)


@settings(max_examples=8, deadline=None)
@given(st.integers(4, 40), st.integers(1, 6), st.integers(0, 2**32))
def test_draw_property_nobody_rests_twice_before_everyone_once(players, rounds, seed):
    planned = draw(range(players), rounds, seed=seed)

    gaps = []
    for played in range(1, rounds + 1):
        counts = sit_outs(planned[:played])
        gaps.append(max(counts.values()) - min(counts.values()))
    assert max(gaps) <= 1


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**64))
def test_draw_property_16_players_5_rounds_has_no_repeat(seed):
    assert spread(draw(range(16), 5, seed=seed)) == (1, 0)
