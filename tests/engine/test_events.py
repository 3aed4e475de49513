"""An event's ranking and finals (events.md, "Points of a round", "The event's ranking",
"The final"): checked against hand-computed lines and against this file's own plain
computation of the contract."""

import hashlib
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import cmp_to_key

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import RulesError
from scoring.engine.events import (
    ATTENDANCE,
    EventGame,
    EventRules,
    FinalLine,
    RankingLine,
    Seating,
    check_late_entry,
    final_standing,
    finalists,
    places_after_finals,
    rank_event,
    ranking_csv,
    round_points,
    table_ranks,
    three_decimals,
)
from scoring.engine.seating import seat_round

# --- This file's own computation of the contract --------------------------------------------


def reference(entrants, nights, rounds, games, rules, up_to=None):
    """The ranking as events.md words it, written plainly: (entrant, rank, rounds,
    league_points, points, opponents, firsts, nights, eligible, decided_by, reason,
    night_points, counted_nights) per line."""
    last = len(rounds) if up_to is None else up_to
    rounds = list(rounds)[:last]
    games = [game for game in games if game.round <= last]
    resting = Fraction(sum(rules.scheme), 4) if rules.sit_out_points == "average" else Fraction(0)
    nightly = {entrant: [Fraction(0)] * nights for entrant in entrants}
    played = dict.fromkeys(entrants, 0)
    present = {entrant: set() for entrant in entrants}
    for night, seating in rounds:
        for player in [p for table in seating.tables for p in table]:
            played[player] += 1
            present[player].add(night)
        for player in seating.sitting_out:
            played[player] += 1
            present[player].add(night)
            nightly[player][night] += resting
    finish = {}  # (game index, player) -> rank at the table
    for number, game in enumerate(games):
        for seat, player in enumerate(game.players):
            rank = 1 + len([t for t in game.totals if t > game.totals[seat]])
            finish[number, player] = rank
            nightly[player][game.night] += rules.scheme[rank - 1]
    league, counted = {}, {}
    for entrant in entrants:
        left = list(range(nights))
        chosen = []
        wanted = nights if rules.best_nights is None else min(rules.best_nights, nights)
        while len(chosen) < wanted:
            top = max(nightly[entrant][night] for night in left)
            pick = next(night for night in left if nightly[entrant][night] == top)
            chosen.append(pick)
            left.remove(pick)
        counted[entrant] = tuple(sorted(chosen))
        league[entrant] = sum(nightly[entrant][night] for night in chosen)
    mine = {e: [n for n, g in enumerate(games) if e in g.players] for e in entrants}
    points = {
        e: sum(g.totals[g.players.index(e)] for g in games if e in g.players) for e in entrants
    }
    firsts = {e: len([n for n in mine[e] if finish[n, e] == 1]) for e in entrants}
    opponents = {}
    for e in entrants:
        if not mine[e]:
            opponents[e] = Decimal("0.000")
            continue
        faced = sum(league[o] for n in mine[e] for o in games[n].players if o != e)
        mean = Fraction(faced) / (3 * len(mine[e]))
        exact = Decimal(mean.numerator) / Decimal(mean.denominator)
        opponents[e] = exact.quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)

    def first_four(e):
        return (league[e], points[e], opponents[e], firsts[e])

    def head_to_head(e):
        tied = {o for o in entrants if o != e and first_four(o) == first_four(e)}
        score = 0
        for n in mine[e]:
            for o in games[n].players:
                if o in tied:
                    if finish[n, e] < finish[n, o]:
                        score += 1
                    elif finish[n, e] > finish[n, o]:
                        score -= 1
        return score

    def steps(e):
        return (
            league[e],
            points[e],
            opponents[e],
            firsts[e],
            head_to_head(e),
            hashlib.sha256(f"{rules.seed}:{e}".encode()).hexdigest(),
        )

    def compare(a, b):
        for step, (x, y) in enumerate(zip(steps(a), steps(b), strict=True)):
            if x != y:
                larger_first = step < 5
                return (-1 if x > y else 1) if larger_first else (-1 if x < y else 1)
        return 0

    order = sorted(entrants, key=cmp_to_key(compare))

    def decided(e):
        alike = 0
        for o in entrants:
            if o != e:
                same = 0
                while same < 6 and steps(o)[same] == steps(e)[same]:
                    same += 1
                alike = max(alike, same)
        return None if alike == 0 else alike + 1

    eligible = {
        e: rules.min_attendance is None or len(present[e]) >= rules.min_attendance * nights
        for e in entrants
    }
    listed = [e for e in order if eligible[e]] + [e for e in order if not eligible[e]]
    return tuple(
        (
            e,
            position,
            played[e],
            league[e],
            points[e],
            opponents[e],
            firsts[e],
            len(present[e]),
            eligible[e],
            decided(e),
            None if eligible[e] else "attendance",
            tuple(nightly[e]),
            counted[e],
        )
        for position, e in enumerate(listed, start=1)
    )


def as_rows(lines):
    return tuple(
        (
            line.entrant,
            line.rank,
            line.rounds,
            line.league_points,
            line.points,
            line.opponents,
            line.firsts,
            line.nights,
            line.eligible,
            line.decided_by,
            line.reason,
            line.night_points,
            line.counted_nights,
        )
        for line in lines
    )


def figures(lines):
    """(entrant, rank, league points, points, opponents, firsts, decided by) per line."""
    return [
        (
            line.entrant,
            line.rank,
            line.league_points,
            line.points,
            str(line.opponents),
            line.firsts,
            line.decided_by,
        )
        for line in lines
    ]


# --- A hand-made event where every step decides a place -------------------------------------

EIGHT = list(range(1, 9))
TWO_ROUNDS = [
    (0, Seating(((1, 4, 6, 8), (2, 3, 5, 7)), ())),
    (0, Seating(((1, 5, 6, 7), (2, 3, 4, 8)), ())),
]
FOUR_GAMES = [
    EventGame(1, 0, (1, 4, 6, 8), (2, 0, 1, 0)),
    EventGame(1, 0, (2, 3, 5, 7), (2, 1, 0, 1)),
    EventGame(2, 0, (1, 5, 6, 7), (0, 2, 1, 0)),
    EventGame(2, 0, (2, 3, 4, 8), (0, 0, 2, 1)),
]
RULES = EventRules(seed="x")


def test_rank_event_every_step_decides_a_place():
    # League points: 1, 2, 4, 6 have 4; 3, 5, 7, 8 have 3. Points: 5 has 2 of the threes
    # (step 2). Opponents: 2 faced 19/6 against the others' 21/6 (step 3); 8 faced 23/6
    # (step 3). Firsts: 6 has none, 1 and 4 one (step 4). Head to head: 1 beat 4 in round 1
    # (step 5). 3 and 7 tied at their one shared table (0 each): the lot (step 6).
    lot_3, lot_7 = (hashlib.sha256(f"x:{e}".encode()).hexdigest() for e in (3, 7))
    assert lot_7 < lot_3

    lines = rank_event(EIGHT, 1, TWO_ROUNDS, FOUR_GAMES, RULES)

    assert figures(lines) == [
        (1, 1, 4, 2, "3.500", 1, 5),
        (4, 2, 4, 2, "3.500", 1, 5),
        (6, 3, 4, 2, "3.500", 0, 4),
        (2, 4, 4, 2, "3.167", 1, 3),
        (5, 5, 3, 2, "3.500", 1, 2),
        (8, 6, 3, 1, "3.833", 0, 3),
        (7, 7, 3, 1, "3.500", 0, 6),
        (3, 8, 3, 1, "3.500", 0, 6),
    ]
    assert as_rows(lines) == reference(EIGHT, 1, TWO_ROUNDS, FOUR_GAMES, RULES)


def test_rank_event_line_has_every_column():
    lines = rank_event(EIGHT, 1, TWO_ROUNDS, FOUR_GAMES, RULES)

    assert lines[0] == RankingLine(
        entrant=1,
        rank=1,
        rounds=2,
        league_points=Fraction(4),
        points=2,
        opponents=Decimal("3.500"),
        firsts=1,
        nights=1,
        eligible=True,
        decided_by=5,
        reason=None,
        night_points=(Fraction(4),),
        counted_nights=(0,),
    )


def test_rank_event_unique_league_points_decide_alone():
    rounds = [(0, Seating(((1, 2, 3, 4),), ()))]
    games = [EventGame(1, 0, (1, 2, 3, 4), (30, 20, 10, 0))]

    lines = rank_event([1, 2, 3, 4], 1, rounds, games, RULES)

    assert [(line.entrant, line.league_points, line.decided_by) for line in lines] == [
        (1, 3, None),
        (2, 2, None),
        (3, 1, None),
        (4, 0, None),
    ]


def test_rank_event_with_no_game_lists_everyone_by_the_lot():
    lines = rank_event([5, 6], 2, [], [], EventRules(seed="s"))
    by_lot = sorted([5, 6], key=lambda e: hashlib.sha256(f"s:{e}".encode()).hexdigest())

    assert [
        (line.entrant, line.rounds, str(line.opponents), line.decided_by) for line in lines
    ] == [
        (by_lot[0], 0, "0.000", 6),
        (by_lot[1], 0, "0.000", 6),
    ]


# --- Late entries -------------------------------------------------------------------------


def test_check_late_entry_opens_until_half_the_rounds_are_drawn():
    check_late_entry(6, 2)
    check_late_entry(7, 2)
    with pytest.raises(RulesError) as error:
        check_late_entry(7, 3)

    assert str(error.value) == "entry: entries closed once 3 of the 7 rounds were drawn"


def test_check_late_entry_with_one_round_is_closed_from_the_start():
    with pytest.raises(RulesError) as error:
        check_late_entry(1, 0)

    assert str(error.value) == "entry: entries closed once 0 of the 1 rounds were drawn"


# --- Points of a round ----------------------------------------------------------------------


def test_table_ranks_share_a_rank_on_equal_totals():
    assert (table_ranks([25, 10, 10, 3]), round_points([25, 10, 10, 3], (3, 2, 1, 0))) == (
        (1, 2, 2, 4),
        (3, 2, 2, 0),
    )


def test_rank_event_sitting_out_scores_the_average_or_zero():
    rounds = [(0, Seating(((1, 2, 3, 4),), (5,)))]
    games = [EventGame(1, 0, (1, 2, 3, 4), (30, 20, 10, 0))]

    average = rank_event([1, 2, 3, 4, 5], 1, rounds, games, EventRules(sit_out_points="average"))
    zero = rank_event([1, 2, 3, 4, 5], 1, rounds, games, EventRules())

    assert (
        [(line.entrant, line.league_points, line.rounds) for line in average],
        [(line.entrant, line.league_points) for line in zero][-1],
    ) == ([(1, 3, 1), (2, 2, 1), (5, Fraction(3, 2), 1), (3, 1, 1), (4, 0, 1)], (5, 0))


def test_rank_event_seated_without_a_counted_game_scores_nothing():
    rounds = [(0, Seating(((1, 2, 3, 4),), ()))]

    lines = rank_event([1, 2, 3, 4], 1, rounds, [], RULES)

    assert {(line.rounds, line.league_points, line.points) for line in lines} == {(1, 0, 0)}


def test_three_decimals_rounds_half_to_even():
    assert [
        str(three_decimals(value))
        for value in (
            Fraction(1, 2000),
            Fraction(3, 2000),
            Fraction(5, 2000),
            Fraction(19, 6),
            Fraction(7, 3),
            Fraction(4),
        )
    ] == ["0.000", "0.002", "0.002", "3.167", "2.333", "4.000"]


# --- Best nights, attendance, hidden rounds -------------------------------------------------

THREE_NIGHTS = [
    (0, Seating(((1, 2, 3, 4),), ())),
    (1, Seating(((1, 2, 3, 4),), ())),
    (2, Seating(((1, 2, 3, 5),), (4,))),
]
THREE_GAMES = [
    EventGame(1, 0, (1, 2, 3, 4), (40, 30, 20, 10)),
    EventGame(2, 1, (1, 2, 3, 4), (10, 20, 30, 40)),
    EventGame(3, 2, (1, 2, 3, 5), (10, 40, 30, 20)),
]


def test_rank_event_best_nights_counts_the_highest_nightly_sums():
    lines = rank_event([1, 2, 3, 4, 5], 3, THREE_NIGHTS, THREE_GAMES, EventRules(best_nights=2))

    assert [
        (line.entrant, line.league_points, line.night_points, line.counted_nights, line.points)
        for line in lines
    ] == [
        (2, 5, (2, 1, 3), (0, 2), 90),
        (3, 4, (1, 2, 2), (1, 2), 80),
        (1, 3, (3, 0, 0), (0, 1), 60),
        (4, 3, (0, 3, 0), (0, 1), 50),
        (5, 1, (0, 0, 1), (0, 2), 20),
    ]


def test_rank_event_all_nights_count_without_best_nights():
    lines = rank_event([1, 2, 3, 4, 5], 3, THREE_NIGHTS, THREE_GAMES, EventRules(best_nights=5))

    assert [(line.entrant, line.league_points, line.counted_nights) for line in lines] == [
        (2, 6, (0, 1, 2)),
        (3, 5, (0, 1, 2)),
        (1, 3, (0, 1, 2)),
        (4, 3, (0, 1, 2)),
        (5, 1, (0, 1, 2)),
    ]


def test_rank_event_below_attendance_is_listed_apart_with_the_reason():
    rules = EventRules(min_attendance=Fraction(3, 4))

    lines = rank_event([1, 2, 3, 4, 5], 3, THREE_NIGHTS, THREE_GAMES, rules)

    assert [
        (line.entrant, line.rank, line.nights, line.eligible, line.reason) for line in lines
    ] == [
        (2, 1, 3, True, None),
        (3, 2, 3, True, None),
        (1, 3, 3, True, None),
        (4, 4, 3, True, None),
        (5, 5, 1, False, ATTENDANCE),
    ]


def test_rank_event_hidden_rounds_count_only_the_rounds_before():
    shown = rank_event([1, 2, 3, 4, 5], 3, THREE_NIGHTS, THREE_GAMES, RULES, up_to_round=1)

    assert [(line.entrant, line.league_points, line.rounds, line.nights) for line in shown] == [
        (1, 3, 1, 1),
        (2, 2, 1, 1),
        (3, 1, 1, 1),
        (4, 0, 1, 1),
        (5, 0, 0, 0),
    ]


# --- Bad input ------------------------------------------------------------------------------


def test_rank_event_refuses_an_event_without_nights():
    with pytest.raises(RulesError) as error:
        rank_event([1, 2, 3, 4], 0, [], [], RULES)

    assert str(error.value) == "nights: an event has 1 night or more, not 0"


@pytest.mark.parametrize(
    ("entrants", "rounds", "games", "rules", "message"),
    [
        ([1, 1, 2, 3], [], [], RULES, "entrants: an entrant listed more than once"),
        (
            [1, 2, 3, 4],
            [],
            [],
            EventRules(sit_out_points="2"),
            "rules: sit-out points are 0 or average, not 2",
        ),
        (
            [1, 2, 3, 4],
            [],
            [],
            EventRules(best_nights=0),
            "rules: best nights must be 1 or more, not 0",
        ),
        (
            [1, 2, 3, 4],
            [(2, Seating(((1, 2, 3, 4),), ()))],
            [],
            RULES,
            "round 1: night 3 is not one of the event's 2 nights",
        ),
        (
            [1, 2, 3, 4],
            [(0, Seating(((1, 2, 3, 9),), (8,)))],
            [],
            RULES,
            "round 1: 8, 9 not entered in the event",
        ),
        (
            [1, 2, 3, 4],
            [(0, Seating(((1, 2, 3, 4),), ()))],
            [EventGame(2, 0, (1, 2, 3, 4), (0, 0, 0, 0))],
            RULES,
            "games: a game of round 2, night 1, players 1, 2, 3, 4",
        ),
        (
            [1, 2, 3, 4],
            [(0, Seating(((1, 2, 3, 4),), ()))],
            [EventGame(1, 0, (1, 2, 3, 7), (0, 0, 0, 0))],
            RULES,
            "games: a game of round 1, night 1, players 1, 2, 3, 7",
        ),
        (
            [1, 2, 3, 4],
            [(0, Seating(((1, 2, 3, 4),), ()))],
            [EventGame(1, 5, (1, 2, 3, 4), (0, 0, 0, 0))],
            RULES,
            "games: a game of round 1, night 6, players 1, 2, 3, 4",
        ),
    ],
)
def test_rank_event_refuses_bad_input(entrants, rounds, games, rules, message):
    with pytest.raises(RulesError) as error:
        rank_event(entrants, 2, rounds, games, rules)

    assert str(error.value) == message


# --- Properties -----------------------------------------------------------------------------


@st.composite
def events(draw):
    """A small event: entrants, nights, rounds seated at random, games with small totals
    (many ties), some tables without a counted game, and rules."""
    count = draw(st.integers(4, 9))
    entrants = list(range(10, 10 + count))
    nights = draw(st.integers(1, 3))
    planned = draw(st.integers(0, 4))
    rounds, games, history = [], [], []
    for number in range(1, planned + 1):
        night = (number - 1) * nights // planned
        present = draw(st.lists(st.sampled_from(entrants), min_size=4, unique=True))
        seating = seat_round("random", present, history, seed=number)
        history.append(seating)
        rounds.append((night, seating))
        for table in seating.tables:
            if draw(st.integers(0, 5)):
                totals = tuple(draw(st.lists(st.integers(0, 3), min_size=4, max_size=4)))
                games.append(EventGame(number, night, table, totals))
    rules = EventRules(
        scheme=draw(st.sampled_from([(3, 2, 1, 0), (5, 3, 1, 0), (1, 1, 0, 0)])),
        sit_out_points=draw(st.sampled_from(["0", "average"])),
        best_nights=draw(st.none() | st.integers(1, 3)),
        min_attendance=draw(st.none() | st.sampled_from([Fraction(1, 2), Fraction(3, 4)])),
        seed=draw(st.text("ab:1", max_size=3)),
    )
    up_to = draw(st.none() | st.integers(0, planned))
    return entrants, nights, rounds, games, rules, up_to


@settings(max_examples=60, deadline=None)
@given(events())
def test_rank_event_equals_the_plain_computation(event):
    entrants, nights, rounds, games, rules, up_to = event

    lines = rank_event(entrants, nights, rounds, games, rules, up_to_round=up_to)

    assert as_rows(lines) == reference(entrants, nights, rounds, games, rules, up_to)


@settings(max_examples=60, deadline=None)
@given(events())
def test_rank_event_ranks_everyone_once_eligible_first(event):
    entrants, nights, rounds, games, rules, up_to = event

    lines = rank_event(entrants, nights, rounds, games, rules, up_to_round=up_to)
    eligible = [line.eligible for line in lines]

    assert (
        sorted(line.entrant for line in lines),
        [line.rank for line in lines],
        eligible,
        all(line.league_points <= sum(line.night_points) for line in lines),
        {line.decided_by for line in lines} <= {None, 2, 3, 4, 5, 6},
    ) == (entrants, list(range(1, len(entrants) + 1)), sorted(eligible, reverse=True), True, True)


# --- The final ------------------------------------------------------------------------------


def hand_ranking():
    return rank_event(EIGHT, 1, TWO_ROUNDS, FOUR_GAMES, RULES)


def test_finalists_are_the_top_eligible_and_the_next_four():
    ranking = hand_ranking()

    assert (finalists(ranking), finalists(ranking, count=4, start=4)) == (
        (1, 4, 6, 2),
        (5, 8, 7, 3),
    )


def test_finalists_skip_those_below_attendance():
    lines = rank_event(
        [1, 2, 3, 4, 5], 3, THREE_NIGHTS, THREE_GAMES, EventRules(min_attendance=Fraction(1))
    )

    assert finalists(lines) == (2, 3, 1, 4)


def test_finalists_refuse_too_few_eligible():
    with pytest.raises(RulesError) as error:
        finalists(hand_ranking(), count=4, start=6)

    assert str(error.value) == "final: a final needs 4 eligible entrants from place 7, not 2"


@pytest.mark.parametrize(
    ("carry", "expected"),
    [
        (
            Fraction(1),
            [(6, 1, 7, None), (5, 2, 5, "table"), (2, 3, 5, "table"), (8, 4, 3, None)],
        ),
        (
            Fraction(1, 2),
            [
                (6, 1, 5, None),
                (5, 2, Fraction(7, 2), None),
                (2, 3, 3, None),
                (8, 4, Fraction(3, 2), None),
            ],
        ),
        (
            Fraction(0),
            [(6, 1, 3, None), (5, 2, 2, None), (2, 3, 1, None), (8, 4, 0, None)],
        ),
    ],
)
def test_final_standing_by_carried_and_final_points(carry, expected):
    # League points: 2 and 6 have 4, 5 and 8 have 3. The final: 6 first (3), 5 second
    # (2), 2 third (1), 8 last (0).
    game = EventGame(3, 0, (2, 5, 6, 8), (5, 10, 20, 0))

    standing = final_standing(hand_ranking(), game, carry, RULES)

    assert [
        (line.entrant, line.place, line.total, line.decided_by) for line in standing
    ] == expected


def test_final_standing_ties_at_the_table_go_by_the_ranking():
    game = EventGame(3, 0, (1, 4, 6, 2), (10, 10, 0, 0))

    standing = final_standing(hand_ranking(), game, Fraction(1), RULES)

    assert standing == (
        FinalLine(1, 1, Fraction(4), 3, Fraction(7), 1, 1, "ranking"),
        FinalLine(4, 2, Fraction(4), 3, Fraction(7), 1, 2, "ranking"),
        FinalLine(6, 3, Fraction(4), 1, Fraction(5), 3, 3, "ranking"),
        FinalLine(2, 4, Fraction(4), 1, Fraction(5), 3, 4, "ranking"),
    )


def test_places_after_finals_put_the_finals_first_then_the_ranking():
    ranking = hand_ranking()
    final = final_standing(ranking, EventGame(3, 0, (1, 4, 6, 2), (0, 0, 0, 9)), Fraction(0), RULES)
    consolation = final_standing(
        ranking, EventGame(3, 0, (5, 8, 7, 3), (0, 0, 9, 0)), Fraction(1, 2), RULES
    )

    assert (
        places_after_finals(ranking, final, consolation),
        places_after_finals(ranking, final),
    ) == ((2, 1, 4, 6, 7, 5, 8, 3), (2, 1, 4, 6, 5, 8, 7, 3))


@pytest.mark.parametrize(
    ("players", "carry", "message"),
    [
        ((1, 4, 6, 2), Fraction(1, 3), "final: the carry-over is 1, 0.5 or 0, not 1/3"),
        (
            (1, 4, 6, 9),
            Fraction(1),
            "final: the final's players 1, 4, 6, 9 are not four entrants of the ranking",
        ),
        (
            (1, 4, 6, 6),
            Fraction(1),
            "final: the final's players 1, 4, 6, 6 are not four entrants of the ranking",
        ),
    ],
)
def test_final_standing_refuses_bad_input(players, carry, message):
    with pytest.raises(RulesError) as error:
        final_standing(hand_ranking(), EventGame(3, 0, players, (0, 0, 0, 0)), carry, RULES)

    assert str(error.value) == message


# --- ranking.csv ----------------------------------------------------------------------------


def test_ranking_csv_has_the_contracts_columns():
    # Scheme 5, 3, 1, 0, sitting out 9/4. Bachir 3 + 5, Amina 5 + 1, Chérif 1 + 3, Driss
    # 0 + 9/4 and Emna 9/4 + 0 (her points -10 put her after Driss: step 2); Farid never
    # came.
    rounds = [(0, Seating(((1, 2, 3, 4),), (5,))), (1, Seating(((1, 2, 3, 5),), (4,)))]
    games = [
        EventGame(1, 0, (1, 2, 3, 4), (30, 20, 10, 0)),
        EventGame(2, 1, (1, 2, 3, 5), (-5, 20, 10, -10)),
    ]
    rules = EventRules(
        scheme=(5, 3, 1, 0), sit_out_points="average", min_attendance=Fraction(1, 2), seed="s"
    )
    lines = rank_event([1, 2, 3, 4, 5, 6], 2, rounds, games, rules)
    names = {1: "Amina", 2: "Bachir", 3: "=Chérif", 4: "Driss, fils", 5: "Emna", 6: "Farid"}

    assert ranking_csv(lines, names) == (
        "rank,player,rounds,league_points,points,opponents,firsts,nights,eligible,decided_by\r\n"
        "1,Bachir,2,8,40,4.083,1,2,1,\r\n"
        "2,Amina,2,6,25,4.750,1,2,1,\r\n"
        "3,'=Chérif,2,4,20,5.417,0,2,1,\r\n"
        '4,"Driss, fils",2,2.25,0,6.000,0,2,1,2\r\n'
        "5,Emna,2,2.25,-10,6.000,0,2,1,2\r\n"
        "6,Farid,0,0,0,0.000,0,0,0,\r\n"
    )
