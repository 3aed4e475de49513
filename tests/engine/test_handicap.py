"""The handicap cup (league.md, "The handicap cup"): the handicap and the cup against an
independent computation in decimals, and properties over random seasons."""

from datetime import date, timedelta
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import RulesError
from scoring.engine.handicap import Played, cup, half_even, handicap, month_start, window


def independent_handicap(won: list[int], points: tuple[int, ...]) -> Decimal:
    if len(won) < 5:
        return Decimal("0.00")
    with localcontext() as context:
        context.prec = 60
        a = Decimal(sum(won)) / len(won)
        s = Decimal(sum(points)) / 4
        return (a - s).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


def test_half_even_rounds_halves_to_the_even_hundredth():
    assert [half_even(Fraction(n, 1000)) for n in (125, 135, -125, 1, 5, 15)] == [
        Decimal("0.12"),
        Decimal("0.14"),
        Decimal("-0.12"),
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("0.02"),
    ]


def test_handicap_under_five_games_is_zero():
    assert handicap([3, 3, 3, 3], (3, 2, 1, 0)) == Decimal("0.00")


def test_handicap_known_cases():
    # Mean 2 against 1.5: +0.50; mean 7/8 = 0.875 - 1.5 = -0.625 → -0.62 (half to even).
    assert handicap([3, 2, 1, 2, 2], (3, 2, 1, 0)) == Decimal("0.50")
    assert handicap([1, 1, 1, 1, 1, 1, 0, 1], (3, 2, 1, 0)) == Decimal("-0.62")
    assert handicap([1, 1, 1, 1, 1, 1, 1, 0], (3, 2, 1, 1)) == Decimal("-0.88")


def test_handicap_bad_points_raise():
    with pytest.raises(RulesError):
        handicap([1] * 5, (1, 2, 3, 4))


def test_month_start_and_window():
    assert month_start(date(2026, 3, 17)) == date(2026, 3, 1)
    assert window(date(2026, 3, 1)) == (date(2025, 3, 1), date(2026, 2, 28))


def test_cup_known_season_by_hand():
    points = (3, 2, 1, 0)
    before = date(2026, 1, 10)
    games = [
        # Ana: 5 wins in the window before March: H = 3 - 1.5 = 1.50 in March.
        *(Played(before + timedelta(days=i), "ana", 1) for i in range(5)),
        Played(date(2026, 3, 2), "ana", 1),
        Played(date(2026, 3, 2), "bob", 2),
        Played(date(2026, 3, 3), "bob", 2),
        Played(date(2026, 2, 27), "cyd", 4),  # before the season: not in its cup
    ]
    lines = cup(games, points, date(2026, 3, 1), date(2026, 5, 31), {"ana": "Ana", "bob": "Bob"})
    assert [
        (
            line.name,
            line.games,
            line.league_points,
            line.handicap,
            line.cup,
            line.current,
            line.rank,
        )
        for line in lines
    ] == [
        ("Bob", 2, 4, Decimal("0.00"), Decimal("4.00"), Decimal("0.00"), 1),
        ("Ana", 1, 3, Decimal("1.50"), Decimal("1.50"), Decimal("1.50"), 2),
    ]


def test_cup_equal_on_cup_and_points_share_a_rank_by_name():
    games = [Played(date(2026, 3, 2), "b", 1), Played(date(2026, 3, 2), "a", 1)]
    lines = cup(games, (3, 2, 1, 0), date(2026, 3, 1), date(2026, 3, 31))
    assert [(line.player, line.rank) for line in lines] == [("a", 1), ("b", 1)]


def test_cup_bad_rank_and_days_out_of_order_raise():
    with pytest.raises(RulesError) as raised:
        cup([Played(date(2026, 3, 2), "a", 5)], (3, 2, 1, 0), date(2026, 3, 1), date(2026, 3, 31))
    assert str(raised.value) == "player a: a rank at a table is from 1 to 4, not 5"
    with pytest.raises(RulesError) as raised:
        cup([], (3, 2, 1, 0), date(2026, 3, 2), date(2026, 3, 1))
    assert str(raised.value) == "a season's last day 2026-03-01 comes before its first 2026-03-02"


@settings(max_examples=120, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 800), st.sampled_from("abcd"), st.integers(1, 4)), max_size=60
    ),
    st.sampled_from([(3, 2, 1, 0), (5, 3, 1, 0), (2, 1, 1, 0)]),
)
def test_cup_equals_an_independent_computation(raw, points):
    start = date(2024, 6, 1)
    first, last = date(2025, 4, 12), date(2025, 8, 20)
    games = [Played(start + timedelta(days=d), p, r) for d, p, r in raw]
    lines = cup(games, points, first, last)
    expected: dict[str, tuple[int, int, Decimal]] = {}
    for player in "abcd":
        mine = [(g.day, points[g.rank - 1]) for g in games if g.player == player]
        total, count, taken = 0, 0, Decimal(0)
        for day, value in mine:
            if not first <= day <= last:
                continue
            month = date(day.year, day.month, 1)
            window_games = [v for d, v in mine if month - timedelta(days=365) <= d < month]
            taken += independent_handicap(window_games, points)
            total += value
            count += 1
        if count:
            expected[player] = (count, total, total - taken)
    assert {line.player: (line.games, line.league_points, line.cup) for line in lines} == expected
    order = [(-line.cup, -line.league_points) for line in lines]
    assert order == sorted(order)
    assert all(line.cup == line.league_points - line.handicap for line in lines)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=5, max_size=40))
def test_handicap_sum_of_won_minus_handicaps_is_near_the_season_mean(won):
    # H is A - S to a hundredth: a player whose games equal his window's mean would score S
    # each game, within the rounding.
    h = handicap(won, (3, 2, 1, 0))
    a = Fraction(sum(won), len(won))
    assert abs(Fraction(h) - (a - Fraction(3, 2))) <= Fraction(1, 200)
    assert h == independent_handicap(won, (3, 2, 1, 0))
