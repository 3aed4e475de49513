"""A federation's ranking (league.md, "A federation of clubs"): each formula against an
independent computation in decimals, and properties over random nights."""

from datetime import date, timedelta
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import RulesError
from scoring.engine.federation import (
    NightPlaces,
    base,
    places,
    ranking,
    score,
    weight,
)

DAY = date(2026, 12, 5)


def independent_score(results: list[tuple[int, int, int]]) -> Decimal:
    """The contract's score computed another way: decimals at 60 digits, weights in
    hundredths, each result given as (age in days, N, r)."""
    with localcontext() as context:
        context.prec = 60
        values = []
        weights = []
        for age, players, rank in results:
            hundredths = 100 if age <= 365 else 66 if age <= 730 else 33
            w = Decimal(hundredths) / 100
            b = Decimal(1000) * (players - rank) / (players - 1)
            values.append(w * b)
            weights.append(w)
        a = sum(values) / sum(weights)
        best = sorted(values, reverse=True)[:5]
        b_part = sum(best) / 5
        return ((a + b_part) / 2).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


def night(days_ago: int, players: int, ranks: dict[object, int], source: str = "A") -> NightPlaces:
    return NightPlaces(DAY - timedelta(days=days_ago), source, players, ranks)


def test_base_first_is_1000_last_is_0_middle_in_proportion():
    assert (base(4, 1), base(4, 4), base(5, 2), base(7, 3)) == (
        Fraction(1000),
        Fraction(0),
        Fraction(750),
        Fraction(2000, 3),
    )


@pytest.mark.parametrize(
    ("players", "rank", "message"),
    [
        (3, 1, "a night counts with 4 players or more, not 3"),
        (4, 0, "a rank at a night of 4 is from 1 to 4, not 0"),
        (4, 5, "a rank at a night of 4 is from 1 to 4, not 5"),
    ],
)
def test_base_out_of_bounds_raises(players, rank, message):
    with pytest.raises(RulesError) as raised:
        base(players, rank)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (0, Fraction(1)),
        (365, Fraction(1)),
        (366, Fraction(66, 100)),
        (730, Fraction(66, 100)),
        (731, Fraction(33, 100)),
        (1095, Fraction(33, 100)),
        (1096, None),
    ],
)
def test_weight_by_age_steps_at_365_730_1095(age, expected):
    assert weight(age) == expected


def test_weight_of_a_night_to_come_raises():
    with pytest.raises(RulesError) as raised:
        weight(-2)
    assert str(raised.value) == "a night after the ranking's day (2 days) does not count"


def test_score_no_result_raises():
    with pytest.raises(RulesError) as raised:
        score([])
    assert str(raised.value) == "a score needs one night at least"


def test_score_known_case_by_hand():
    # Two nights: first of 4 (1000) a year ago or less, last of 8 (0) at 0.66.
    # A = 1000 / 1.66 = 602.409..., B = 1000 / 5 = 200, score = 401.204... → 401.20
    mean, best, total = score([(Fraction(1), Fraction(1000)), (Fraction(66, 100), Fraction(0))])
    assert (mean, best, total) == (Fraction(100000, 166), Fraction(200), Decimal("401.20"))


def test_score_rounds_a_half_to_even():
    # One result alone: A = b, B = b / 5, score = 0.6 b. b = 125: 75 exactly; b = 5/24:
    # 0.125 exactly, a half, to the even 0.12; b = 15/24: 0.375, to the even 0.38.
    assert score([(Fraction(1), Fraction(125))])[2] == Decimal("75.00")
    # A value of exactly 0.125 → 0.12, 0.375 → 0.38 (half to even).
    assert score([(Fraction(1), Fraction(5, 24))])[2] == Decimal("0.12")
    assert score([(Fraction(1), Fraction(15, 24))])[2] == Decimal("0.38")


def test_ranking_known_federation_by_hand():
    nights = [
        night(10, 4, {"ana": 1, "bob": 4}, "Club A"),
        night(400, 5, {"ana": 2, "bob": 1}, "Club B"),
        night(800, 4, {"cyd": 1}, "Club A"),
        night(20, 6, {"cyd": 2, "ana": 1}, "Club B"),
    ]
    names = {"ana": "Ana", "bob": "Bob", "cyd": "Cyd"}
    entries = ranking(nights, DAY, names)
    assert [(e.name, e.rank, e.nights, e.sources) for e in entries] == [
        ("Ana", 1, 3, ("Club A", "Club B")),
        ("Cyd", 2, 2, ("Club A", "Club B")),
        ("Bob", 3, 2, ("Club A", "Club B")),
    ]
    assert [e.score for e in entries] == [
        independent_score([(10, 4, 1), (400, 5, 2), (20, 6, 1)]),
        independent_score([(800, 4, 1), (20, 6, 2)]),
        independent_score([(10, 4, 4), (400, 5, 1)]),
    ]
    # By hand: Ana A = 2495 / 2.66, B = 2495 / 5; Cyd A = 1130 / 1.33, B = 226; Bob A = 660 /
    # 1.66, B = 132.
    assert [e.score for e in entries] == [Decimal("718.48"), Decimal("537.81"), Decimal("264.80")]
    assert [one.day for one in entries[0].results] == [
        DAY - timedelta(days=10),
        DAY - timedelta(days=20),
        DAY - timedelta(days=400),
    ]
    assert entries[0].results[0].value == Fraction(1000)


def test_ranking_leaves_out_small_old_and_future_nights_and_single_nights():
    nights = [
        night(1, 3, {"ana": 1}),  # three players
        night(1096, 4, {"ana": 1}),  # too old
        night(-1, 4, {"ana": 1}),  # after the day
        night(5, 4, {"ana": 2}),
        night(6, 4, {"ana": 3, "bob": 1}),  # bob: one night only
    ]
    entries = ranking(nights, DAY, {"ana": "Ana", "bob": "Bob"})
    assert [(e.name, e.nights) for e in entries] == [("Ana", 2)]


def test_ranking_rank_beyond_the_night_raises_located():
    with pytest.raises(RulesError) as raised:
        ranking([night(1, 4, {"ana": 5}, "Club A")], DAY, {})
    assert str(raised.value) == (
        "night of 2026-12-04 at Club A: a rank at a night of 4 is from 1 to 4, not 5"
    )


def test_ranking_equal_score_and_nights_share_a_rank_in_name_order():
    nights = [
        night(1, 4, {"zoe": 1, "Élie": 1, "bob": 2}),
        night(2, 4, {"zoe": 1, "Élie": 1, "bob": 1}),
    ]
    entries = ranking(nights, DAY, {"zoe": "Zoé", "Élie": "Élie", "bob": "bob"})
    assert [(e.name, e.rank) for e in entries] == [("Élie", 1), ("Zoé", 1), ("bob", 3)]


def test_ranking_more_nights_first_on_equal_score():
    nights = [
        night(1, 4, {"a": 1, "b": 1}),
        night(2, 4, {"a": 1, "b": 1}),
        night(3, 4, {"a": 1}),
    ]
    # a: A 1000, B 600 → 800; b: A 1000, B 400 → 700: score first.
    entries = ranking(nights, DAY, {"a": "Zed", "b": "Abe"})
    assert [(e.name, e.score) for e in entries] == [
        ("Zed", Decimal("800.00")),
        ("Abe", Decimal("700.00")),
    ]
    # Six nights at 1000 against five: B is the same, A too: more nights first.
    six = [night(day, 4, {"a": 1, **({"b": 1} if day < 5 else {})}) for day in range(6)]
    entries = ranking(six, DAY, {"a": "Zed", "b": "Abe"})
    assert [(e.name, e.rank, e.nights) for e in entries] == [("Zed", 1, 6), ("Abe", 2, 5)]


def test_places_share_ranks_as_a_nights_ranking_does():
    assert places([(3, 1, 5), (6, 2, 0), (3, 1, 5), (0, 0, 0)]) == [2, 1, 2, 4]
    assert places([]) == []


night_strategy = st.builds(
    lambda age, players, ranks: (age, players, ranks),
    st.integers(-5, 1200),
    st.integers(2, 12),
    st.dictionaries(st.sampled_from("abcdefg"), st.integers(1, 12), max_size=7),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(night_strategy, max_size=25))
def test_ranking_equals_an_independent_computation(raw):
    nights = []
    kept: dict[str, list[tuple[int, int, int]]] = {}
    for age, players, ranks in raw:
        ranks = {p: min(r, players) for p, r in ranks.items()}
        nights.append(night(age, players, ranks))
        if players >= 4 and 0 <= age <= 1095:
            for player, rank in ranks.items():
                kept.setdefault(player, []).append((age, players, rank))
    entries = ranking(nights, DAY, {p: p.upper() for p in "abcdefg"})
    expected = {
        player: independent_score(results) for player, results in kept.items() if len(results) >= 2
    }
    assert {e.player: e.score for e in entries} == expected
    assert {e.player: e.nights for e in entries} == {p: len(kept[p]) for p in expected}
    assert [score([(r.weight, r.base) for r in e.results])[2] for e in entries] == [
        e.score for e in entries
    ]
    # Ordered by score, then nights, then name; ranks shared only on both equal.
    order = [(-e.score, -e.nights, e.name) for e in entries]
    assert order == sorted(order)
    for position, entry in enumerate(entries, 1):
        assert entry.rank <= position
        assert (entry.rank == position) == (
            position == 1
            or (entries[position - 2].score, entries[position - 2].nights)
            != (entry.score, entry.nights)
        )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1095), st.integers(4, 12), st.integers(1, 12)),
        min_size=1,
        max_size=12,
    )
)
def test_score_between_0_and_1000_and_a_better_place_never_lowers_it(results):
    pairs = [(weight(age), base(n, min(r, n))) for age, n, r in results]
    mean, best, total = score(pairs)
    assert Decimal(0) <= total <= Decimal(1000)
    assert 0 <= best <= mean or best <= 1000
    # The first result one place better (when it can be): the score does not drop.
    age, n, r = results[0]
    r = min(r, n)
    if r > 1:
        better = [(weight(age), base(n, r - 1)), *pairs[1:]]
        assert score(better)[2] >= total
