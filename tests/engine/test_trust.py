"""Ratings people trust (league.md): idle growth, the provisional mark, the expected place,
the ratings list and why a rating moved. The idle growth and the expected place are
computed here apart, from the contract's formulas, with openskill's model for the update."""

import math
from datetime import date

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring.engine import RulesError
from scoring.engine.league import Rating, first_rating, rate
from scoring.engine.trust import (
    BETA,
    RATING_SETTINGS,
    START_SIGMA,
    Entry,
    RatingRules,
    Reason,
    SettingKind,
    before_game,
    check_setting,
    expected_places,
    explain,
    grown,
    is_provisional,
    ratings_list,
)

MODEL = PlackettLuce()

ratings = st.builds(
    Rating,
    st.floats(min_value=-20, max_value=70, allow_nan=False),
    st.floats(min_value=0.05, max_value=25 / 3, allow_nan=False),
)


def idle_sigma(sigma, days, per_day=0.04):
    """The contract's idle growth, written as it says: min(25/3, sqrt(sigma² + 0.04 d)).
    The square is ``sigma * sigma``, IEEE's correctly rounded product: ``sigma**2`` goes
    through the C library's pow(), which is a last bit off for some sigmas (4.853649932355259)."""
    return min(25 / 3, math.sqrt(sigma * sigma + per_day * days))


def test_start_and_beta_are_the_models():
    assert (first_rating().sigma, MODEL.beta) == (START_SIGMA, BETA)


def test_settings_default_to_the_contracts_figures():
    assert {setting.name: setting.default for setting in RATING_SETTINGS} == {
        "idle_growth": True,
        "idle_rate": 0.04,
        "provisional_games": 10,
        "provisional_sigma": 6.0,
        "ranked_games": 20,
        "ranked_days": 60,
    }


def test_settings_declare_each_field_of_the_rules_once():
    assert [setting.name for setting in RATING_SETTINGS] == list(RatingRules().to_data())


def test_rules_growth_is_the_rate_only_when_on():
    assert (RatingRules().growth, RatingRules(idle_growth=False).growth) == (0.04, None)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("idle_growth", 1, "idle_growth 1 is not true or false"),
        ("idle_rate", 0, "idle_rate must be a number from 0.0001 to 10, not 0"),
        ("provisional_games", 2.5, "provisional_games must be a number from 0 to 1000, not 2.5"),
        ("ranked_games", True, "ranked_games must be a number from 0 to 10000, not true"),
        ("ranked_days", 0, "ranked_days must be a number from 1 to 3650, not 0"),
        ("provisional_sigma", 9.0, "provisional_sigma must be a number from 0.1 to"),
    ],
)
def test_rules_refuse_a_setting_out_of_bounds(name, value, message):
    with pytest.raises(RulesError) as raised:
        RatingRules(**{name: value})
    assert (str(raised.value).startswith(f"{name}: {message}"), raised.value.places[-1][0]) == (
        True,
        name,
    )


def test_check_setting_takes_a_whole_number_for_a_decimal():
    decimal = next(s for s in RATING_SETTINGS if s.kind is SettingKind.DECIMAL)
    assert check_setting(decimal, 1) is None


@given(ratings, st.integers(min_value=0, max_value=5000))
@example(Rating(25.0, 25 / 3), 0)
@example(Rating(30.0, 1.0), 94)
def test_grown_is_the_contracts_formula_bit_for_bit(rating, days):
    assert grown(rating, days, 0.04) == Rating(rating.mu, idle_sigma(rating.sigma, days))


@given(ratings, st.integers(min_value=0, max_value=5000))
def test_grown_never_changes_mu_nor_passes_the_start(rating, days):
    after = grown(rating, days, 0.04)
    assert (after.mu, after.sigma >= rating.sigma, after.sigma <= START_SIGMA) == (
        rating.mu,
        True,
        True,
    )


def test_grown_after_94_days():
    assert grown(Rating(30.0, 2.0), 94, 0.04) == Rating(30.0, math.sqrt(4 + 0.04 * 94))


def test_grown_refuses_a_game_before_the_last():
    with pytest.raises(RulesError, match="a game cannot come 3 days after the next one"):
        grown(Rating(30.0, 2.0), -3, 0.04)


@pytest.mark.parametrize(
    ("games", "sigma", "provisional"),
    [(9, 2.0, True), (10, 6.0, False), (10, 6.01, True), (400, 1.2, False)],
)
def test_provisional_while_few_games_or_high_sigma(games, sigma, provisional):
    assert is_provisional(games, sigma, RatingRules()) is provisional


def expected_apart(before):
    """The contract's expected place, written as it says, with Φ from the error function."""
    places = []
    for i, mine in enumerate(before):
        total = 1.0
        for j, other in enumerate(before):
            if j != i:
                x = (other.mu - mine.mu) / math.sqrt(
                    2 * (25 / 6) ** 2 + mine.sigma**2 + other.sigma**2
                )
                total += (1 + math.erf(x / math.sqrt(2))) / 2
        places.append(total)
    return places


def test_expected_places_of_equals_are_two_and_a_half():
    assert expected_places([first_rating()] * 4) == (2.5, 2.5, 2.5, 2.5)


@given(st.lists(ratings, min_size=4, max_size=4))
def test_expected_places_agree_with_the_formula_and_add_up_to_ten(before):
    places = expected_places(before)
    assert [round(place, 9) for place in places] == [
        round(place, 9) for place in expected_apart(before)
    ]
    assert round(sum(places), 9) == 10


def test_expected_place_of_the_strongest_is_below_two():
    before = [Rating(40.0, 2.0), Rating(25.0, 2.0), Rating(25.0, 2.0), Rating(10.0, 2.0)]
    assert [round(place, 1) for place in expected_places(before)] == [1.0, 2.5, 2.5, 4.0]


single_first = st.tuples(
    st.just(1), st.integers(2, 4), st.integers(2, 4), st.integers(2, 4)
).flatmap(st.permutations)


@given(st.lists(ratings, min_size=4, max_size=4), single_first)
@example([Rating(60.0, 0.1), Rating(0.0, 8.0), Rating(0.0, 8.0), Rating(0.0, 8.0)], (1, 2, 3, 4))
def test_without_a_pause_finishing_first_alone_never_lowers_a_rating(before, ranks):
    winner = ranks.index(1)
    after = rate(before, ranks)
    assert after[winner].mu >= before[winner].mu


def test_a_first_place_shared_with_a_much_weaker_player_lowers_the_strongers_mu():
    before = [Rating(40.0, 3.0), Rating(15.0, 3.0), Rating(25.0, 3.0), Rating(25.0, 3.0)]
    after = rate(before, (1, 1, 3, 4))
    assert (after[0].mu < before[0].mu, after[1].mu > before[1].mu) == (True, True)


def test_before_game_grows_the_returning_and_starts_newcomers():
    previous = [(Rating(30.0, 2.0), 100), None, (Rating(20.0, 3.0), 150), (Rating(27.0, 1.0), 150)]
    assert before_game(previous, 150, 0.04) == [
        Rating(30.0, idle_sigma(2.0, 50)),
        first_rating(),
        Rating(20.0, idle_sigma(3.0, 0)),
        Rating(27.0, 1.0),
    ]
    assert before_game(previous, 150, None) == [
        Rating(30.0, 2.0),
        first_rating(),
        Rating(20.0, 3.0),
        Rating(27.0, 1.0),
    ]


def test_rate_after_growth_agrees_with_openskill_from_grown_sigmas():
    previous = [(Rating(30.0, 2.0), 100), (Rating(22.0, 3.5), 140), None, None]
    before = before_game(previous, 194, 0.04)
    teams = [
        [MODEL.rating(mu=30.0, sigma=idle_sigma(2.0, 94))],
        [MODEL.rating(mu=22.0, sigma=idle_sigma(3.5, 54))],
        [MODEL.rating()],
        [MODEL.rating()],
    ]
    expected = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=[2, 1, 3, 4])]
    assert [(r.mu, r.sigma) for r in rate(before, (2, 1, 3, 4))] == expected


def test_explain_after_a_pause_says_the_pauses_part():
    previous = [(Rating(30.0, 2.0), 100), (Rating(22.0, 3.5), 190), None, None]
    before = before_game(previous, 194, 0.04)
    after = rate(before, (2, 1, 3, 4))
    why = explain(0, previous, 194, (2, 1, 3, 4), after[0], 0.04)
    assert why.days == 94
    assert why.place == 2
    assert why.pause == pytest.approx(-3 * (idle_sigma(2.0, 94) - 2.0))
    assert why.change == pytest.approx(after[0].shown - Rating(30.0, 2.0).shown)
    assert why.game == pytest.approx(why.change - why.pause)
    assert why.expected == expected_places(before)[0]
    assert why.shared_first_lowered is False


def test_explain_a_first_game_without_growth():
    after = rate([first_rating()] * 4, (1, 2, 3, 4))
    why = explain(0, [None] * 4, 10, (1, 2, 3, 4), after[0], None)
    assert (why.days, why.pause, why.expected, why.change) == (
        0,
        0.0,
        2.5,
        after[0].shown - first_rating().shown,
    )


def test_explain_says_a_shared_first_place_lowered_mu():
    previous = [(Rating(40.0, 3.0), 5), (Rating(15.0, 3.0), 5), None, None]
    ranks = (1, 1, 3, 4)
    after = rate(before_game(previous, 5, None), ranks)
    assert explain(0, previous, 5, ranks, after[0], None).shared_first_lowered is True
    assert explain(1, previous, 5, ranks, after[1], None).shared_first_lowered is False


def entry(name, shown, games, last):
    return Entry(name, Rating(shown + 6.0, 2.0), games, last)


def test_ratings_list_ranks_the_regular_and_lists_the_others_apart():
    day = date(2026, 6, 30)
    entries = [
        entry("Amina", 20.0, 25, date(2026, 6, 29)),
        entry("Bilal", 30.0, 7, date(2026, 6, 29)),
        entry("Chafik", 25.0, 40, date(2026, 3, 28)),
        entry("Dalila", 20.0, 20, date(2026, 5, 1)),
        entry("Emna", 10.0, 3, date(2026, 1, 1)),
    ]
    ranked, apart = ratings_list(entries, day, RatingRules())
    assert [(line.entry.player, line.place, line.days) for line in ranked] == [
        ("Amina", 1, 1),
        ("Dalila", 2, 60),
    ]
    assert [(line.entry.player, line.reason, line.days) for line in apart] == [
        ("Bilal", Reason.GAMES, 1),
        ("Chafik", Reason.AWAY, 94),
        ("Emna", Reason.GAMES, 180),
    ]
    assert [line.provisional for line in (*ranked, *apart)] == [False, False, True, False, True]


@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=5),
            st.floats(-20, 60),
            st.integers(0, 50),
            st.integers(0, 200),
        ),
        max_size=12,
    )
)
def test_ratings_list_keeps_everyone_once_in_order(lines):
    day = date(2026, 6, 30)
    entries = [
        entry(name, shown, games, date.fromordinal(day.toordinal() - ago))
        for name, shown, games, ago in lines
    ]
    ranked, apart = ratings_list(entries, day, RatingRules())
    assert sorted(id(line.entry) for line in (*ranked, *apart)) == sorted(map(id, entries))
    for part in (ranked, apart):
        keys = [(-line.entry.rating.shown, line.entry.player) for line in part]
        assert keys == sorted(keys)
    assert all(line.entry.games >= 20 and line.days <= 60 for line in ranked)
    assert all(line.entry.games < 20 or line.days > 60 for line in apart)
