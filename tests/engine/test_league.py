"""A club's league in the engine (league.md): league points, each player's part in a won
game, the OpenSkill ratings, the standings and their CSV."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring.engine import Contract, Hand, Rules, RulesError, Trump, score_game
from scoring.engine.league import (
    COUNTED,
    CSV_HEADER,
    DEFAULT_POINTS,
    STATISTICS,
    Placing,
    Rating,
    SeatFacts,
    Source,
    Standing,
    Statistic,
    check_points,
    csv_line,
    first_rating,
    placings,
    ranked,
    rate,
    replay,
    standings,
    standings_csv,
)

VOID = Hand(calls=(None, None, None, None))


def deal(taker: int, bid: int, trump: Trump, *tricks: int) -> Hand:
    return Hand(Contract(taker, bid, trump), tricks=tuple(tricks))


# Won by seat 3 at target 10 (failed taker: tricks minus bid):
#   1 seat 1 makes a boulmous          totals [0, 6, 0, 0]
#   2 a void deal                      totals [0, 6, 0, 0]
#   3 seat 2 misses a boulmous         totals [1, 6, -1, 0]
#   4 seat 0 misses 4 (a boîte)        totals [0, 7, 0, 1]
#   5 seat 3 makes 3 at clubs          totals [0, 7, 0, 7]
#   6 seat 3 makes 5 at no trump       totals [0, 8, 0, 12]: seat 3 wins
# Ranks [3, 2, 3, 1]. Units: boulmous [-1, 3, -1, -1] + [1, 1, -3, 1], the game
# [-1, -1, -1, 3], the losers' boîtes (seats 0 and 2) [-1, 0, -1, 2]: [-2, 3, -6, 5].
KNOWN_GAME = score_game(
    [
        deal(1, 6, Trump.HEARTS, 0, 6, 0, 0),
        VOID,
        deal(2, 6, Trump.SPADES, 1, 0, 5, 0),
        deal(0, 4, Trump.DIAMONDS, 3, 1, 1, 1),
        deal(3, 3, Trump.CLUBS, 0, 0, 0, 6),
        deal(3, 5, Trump.NO_TRUMP, 0, 1, 0, 5),
    ],
    rules=Rules(target=10),
)

MODEL = PlackettLuce()


def placing(rank: int, total: int, *, won: bool = False, **counts: int) -> Placing:
    """A placing for the standings, its seat and counts as given (0 unless given)."""
    facts = SeatFacts(0, rank, total, won, 0, 0, 0, 0, ())
    return Placing(facts, {statistic.name: 0 for statistic in COUNTED} | counts)


def in_csv_order(player: str, *counts: int, rating: Rating | None = None, rank: int = 0):
    """A standing given as standings.csv gives it: its counts in the CSV's order."""
    names = list(CSV_HEADER[2:-3])
    return Standing(player, rating=rating, rank=rank, **dict(zip(names, counts, strict=True)))


def part(placing: Placing) -> tuple:
    """A placing as the spec's columns say it: seat, rank, total, won, taken, made, boîtes,
    boulmous made and missed, units, and the contracts."""
    return (
        placing.seat,
        placing.rank,
        placing.total,
        placing.won,
        placing.taken,
        placing.made,
        placing.boites,
        placing.boulmous_made,
        placing.boulmous_missed,
        placing.units,
        placing.contracts,
    )


# --- league points ------------------------------------------------------------------


@pytest.mark.parametrize("points", [(3, 2, 1, 0), [5, 5, 0, 0], (0, 0, 0, 0), (10, 6, 3, 1)])
def test_check_points_valid_gives_them_as_a_tuple(points):
    assert check_points(points) == tuple(points)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ((3, 2, 1), "points: league points must be four numbers from 0 up, not 3, 2, 1"),
        (
            (4, 3, 2, 1, 0),
            "points: league points must be four numbers from 0 up, not 4, 3, 2, 1, 0",
        ),
        ((3, 2, 1, -1), "points: league points must be four numbers from 0 up, not 3, 2, 1, -1"),
        ((3, 2.5, 1, 0), "points: league points must be four numbers from 0 up, not 3, 2.5, 1, 0"),
        (
            (3, 2, True, 0),
            "points: league points must be four numbers from 0 up, not 3, 2, True, 0",
        ),
        ((3, 2, 2, 4), "points: league points must not grow with the rank: 3, 2, 2, 4"),
        ((0, 1, 0, 0), "points: league points must not grow with the rank: 0, 1, 0, 0"),
    ],
)
def test_check_points_invalid_raises_located_error(points, message):
    with pytest.raises(RulesError) as raised:
        check_points(points)

    assert (str(raised.value), raised.value.places) == (message, (("points", {}),))


def test_default_points_are_three_two_one_nothing():
    assert check_points(DEFAULT_POINTS) == (3, 2, 1, 0)


# --- a player's part in a won game ---------------------------------------------------


def test_placings_known_game_gives_each_seats_part():
    result = placings(KNOWN_GAME)

    assert [part(placing) for placing in result] == [
        (0, 3, 0, False, 1, 0, 1, 0, 0, -2, ((4, "D", False),)),
        (1, 2, 8, False, 1, 1, 0, 1, 0, 3, ((6, "H", True),)),
        (2, 3, 0, False, 1, 0, 1, 0, 1, -6, ((6, "S", False),)),
        (3, 1, 12, True, 2, 2, 0, 0, 0, 5, ((3, "C", True), (5, "NT", True))),
    ]


def test_placings_units_add_up_to_zero():
    result = placings(KNOWN_GAME)

    assert sum(part.units for part in result) == 0


def test_placings_game_not_won_raises():
    unfinished = score_game([deal(1, 6, Trump.HEARTS, 0, 6, 0, 0)])

    with pytest.raises(RulesError) as raised:
        placings(unfinished)

    assert str(raised.value) == "a game counts in the league only once it is won"


def test_placings_void_deals_only_then_a_win_takes_nothing_for_the_others():
    result = placings(score_game([VOID, VOID, deal(2, 6, Trump.CLUBS, 0, 0, 6, 0)], rules=Rules(6)))

    assert [(part.seat, part.rank, part.taken, part.made) for part in result] == [
        (0, 2, 0, 0),
        (1, 2, 0, 0),
        (2, 1, 1, 1),
        (3, 2, 0, 0),
    ]


# --- ratings ------------------------------------------------------------------------


def test_first_rating_is_the_models_default():
    assert first_rating() == Rating(25.0, 25 / 3)


def test_rating_shown_is_mu_minus_three_sigma():
    assert Rating(30.0, 2.5).shown == 22.5


@pytest.mark.parametrize("ranks", [(1, 2, 3, 4), (4, 3, 2, 1), (1, 2, 2, 4), (3, 2, 3, 1)])
def test_rate_equals_openskill_plackett_luce_called_directly(ranks):
    before = [Rating(25.0, 25 / 3), Rating(28.5, 4.25), Rating(19.0, 7.0), Rating(31.2, 1.5)]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    expected = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(ranks))]

    after = rate(before, ranks)

    assert [(rating.mu, rating.sigma) for rating in after] == expected


def openskill_rate(before, ranks):
    """The reference: OpenSkill's own update, as the contract calls it."""
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    return tuple(Rating(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(ranks)))


RATINGS = st.builds(
    Rating,
    st.floats(min_value=-200, max_value=250, allow_nan=False),
    st.floats(min_value=1e-6, max_value=50, allow_nan=False),
)
RANK_PATTERNS = st.lists(st.integers(1, 4), min_size=4, max_size=4)
"""Any ranks, ties of two, three or four included (also patterns a table never gives)."""
TABLE_RANKS = st.lists(st.integers(-20, 40), min_size=4, max_size=4).map(
    lambda totals: [1 + sum(other > total for other in totals) for total in totals]
)
"""Ranks as a table gives them: 1 + the players with a higher total."""


@settings(max_examples=600, deadline=None)
@given(st.lists(RATINGS, min_size=4, max_size=4), st.one_of(RANK_PATTERNS, TABLE_RANKS))
@example([Rating(25.0, 25 / 3)] * 4, [1, 1, 1, 1])
@example(
    [Rating(-0.0, 1.0), Rating(0.0, 2.0), Rating(3.0, 1e-6), Rating(250.0, 50.0)], [2, 2, 1, 4]
)
def test_rate_is_bit_identical_to_openskill(before, ranks):
    assert rate(before, ranks) == openskill_rate(before, ranks)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.permutations("abcdef").map(lambda p: p[:4]), TABLE_RANKS), max_size=30)
)
def test_replay_chains_openskill_bit_for_bit(games):
    current = {}
    expected = []
    for players, ranks in games:
        before = [current.get(player, Rating(25.0, 25 / 3)) for player in players]
        after = openskill_rate(before, ranks)
        current.update(zip(players, after, strict=True))
        expected.append(after)

    assert replay(games) == expected


def test_rate_tied_players_with_equal_ratings_stay_equal():
    after = rate([first_rating()] * 4, (1, 2, 2, 4))

    assert (after[1] == after[2], after[0].mu > after[1].mu > after[3].mu) == (True, True)


def test_replay_chains_ratings_and_starts_newcomers_from_default():
    games = [(("a", "b", "c", "d"), (1, 2, 3, 4)), (("e", "c", "a", "b"), (2, 1, 2, 4))]
    first = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 2, 3, 4])
    a, b, c, _ = (team[0] for team in first)
    second = MODEL.rate([[MODEL.rating()], [c], [a], [b]], ranks=[2, 1, 2, 4])

    after = replay(games)

    assert [[(rating.mu, rating.sigma) for rating in game] for game in after] == [
        [(team[0].mu, team[0].sigma) for team in first],
        [(team[0].mu, team[0].sigma) for team in second],
    ]


def test_replay_with_start_rates_from_the_ratings_given():
    start = {"a": Rating(30.0, 3.0), "b": Rating(20.0, 5.0)}
    expected = MODEL.rate(
        [
            [MODEL.rating(mu=30.0, sigma=3.0)],
            [MODEL.rating(mu=20.0, sigma=5.0)],
            [MODEL.rating()],
            [MODEL.rating()],
        ],
        ranks=[4, 1, 2, 3],
    )

    after = replay([(("a", "b", "c", "d"), (4, 1, 2, 3))], start)

    assert (after, start) == (
        [tuple(Rating(team[0].mu, team[0].sigma) for team in expected)],
        {"a": Rating(30.0, 3.0), "b": Rating(20.0, 5.0)},
    )


def test_replay_no_game_gives_nothing():
    assert replay([]) == []


# --- standings ----------------------------------------------------------------------


def test_ranked_orders_by_points_wins_total_then_name_and_shares_ranks():
    lines = [
        Standing("Zina", league_points=6, wins=1, points=30),
        Standing("Amel", league_points=6, wins=1, points=30),
        Standing("Bob", league_points=6, wins=2, points=10),
        Standing("Chams", league_points=6, wins=1, points=31),
        Standing("Dora", league_points=7, wins=0, points=0),
        Standing("Eli", league_points=1, wins=0, points=-5),
    ]

    result = ranked(lines)

    assert [(line.rank, line.player) for line in result] == [
        (1, "Dora"),
        (2, "Bob"),
        (3, "Chams"),
        (4, "Amel"),
        (4, "Zina"),
        (6, "Eli"),
    ]


def test_ranked_all_equal_share_rank_one_in_name_order():
    result = ranked([Standing("b"), Standing("B"), Standing("a")])

    assert [(line.rank, line.player) for line in result] == [(1, "B"), (1, "a"), (1, "b")]


def test_ranked_no_line_gives_nothing():
    assert ranked([]) == []


def test_standings_adds_up_each_players_games():
    games = [
        (
            ("Amina", "Bilal", "Chafik", "Dalila"),
            placings(KNOWN_GAME),
        ),
        (
            ("Dalila", "Amina", "Emna", "Bilal"),
            (
                placing(1, 25, won=True, taken=3, made=2, boites=1, units=4),
                placing(2, 10, taken=1, made=1, boulmous_made=1, units=2),
                placing(2, 10, boulmous_missed=1, boites=1, taken=1, units=-3),
                placing(4, -3, taken=2, units=-3),
            ),
        ),
    ]

    result = standings(games)

    assert [
        (
            line.rank,
            line.player,
            line.games,
            line.wins,
            line.league_points,
            line.points,
            line.taken,
            line.made,
            line.boites,
            line.boulmous_made,
            line.boulmous_missed,
            line.units,
            line.rating,
        )
        for line in result
    ] == [
        (1, "Dalila", 2, 2, 6, 37, 5, 4, 1, 0, 0, 9, None),
        (2, "Amina", 2, 0, 3, 10, 2, 1, 1, 1, 0, 0, None),
        (3, "Emna", 1, 0, 2, 10, 1, 0, 1, 0, 1, -3, None),
        (4, "Bilal", 2, 0, 2, 5, 3, 1, 0, 1, 0, 0, None),
        (5, "Chafik", 1, 0, 1, 0, 1, 0, 1, 0, 1, -6, None),
    ]


def test_standings_custom_points_and_ratings_where_known():
    games = [(("a", "b", "c", "d"), (placing(1, 21, won=True), *(placing(2, 5),) * 3))]
    ratings = {"a": Rating(27.0, 6.0), "c": Rating(24.0, 7.0)}

    result = standings(games, points=(10, 4, 1, 0), ratings=ratings)

    assert [(line.rank, line.player, line.league_points, line.rating) for line in result] == [
        (1, "a", 10, Rating(27.0, 6.0)),
        (2, "b", 4, None),
        (2, "c", 4, Rating(24.0, 7.0)),
        (2, "d", 4, None),
    ]


def test_standings_no_game_gives_nothing():
    assert standings([]) == []


# --- standings.csv ------------------------------------------------------------------


def test_csv_header_is_exactly_the_specs():
    assert ",".join(CSV_HEADER) == (
        "rank,player,games,wins,league_points,points,taken,made,boites,"
        "boulmous_made,boulmous_missed,units,rating_mu,rating_sigma,rating"
    )


def test_csv_line_with_rating_writes_six_decimals():
    line = in_csv_order(
        "Amina", 3, 1, 5, 40, 4, 3, 1, 1, 0, -2, rating=Rating(27.1234567, 1 / 3), rank=2
    )

    assert csv_line(line) == [
        "2",
        "Amina",
        "3",
        "1",
        "5",
        "40",
        "4",
        "3",
        "1",
        "1",
        "0",
        "-2",
        "27.123457",
        "0.333333",
        "26.123457",
    ]


def test_csv_line_without_rating_leaves_ratings_empty():
    line = Standing("Bilal", games=1, rank=1)

    assert csv_line(line)[-4:] == ["0", "", "", ""]


def test_standings_csv_header_then_a_line_per_player_crlf():
    lines = [
        in_csv_order(
            "Amina, la grande", 1, 1, 3, 21, 1, 1, 0, 0, 0, 3, rating=Rating(26.5, 8.0), rank=1
        ),
        in_csv_order('Bilal "B"', 1, 0, 0, -4, 2, 0, 2, 0, 1, -3, rank=2),
    ]

    text = standings_csv(lines)

    assert text == (
        "rank,player,games,wins,league_points,points,taken,made,boites,"
        "boulmous_made,boulmous_missed,units,rating_mu,rating_sigma,rating\r\n"
        '1,"Amina, la grande",1,1,3,21,1,1,0,0,0,3,26.500000,8.000000,2.500000\r\n'
        '2,"Bilal ""B""",1,0,0,-4,2,0,2,0,1,-3,,,\r\n'
    )


@pytest.mark.parametrize(
    "name", ["=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"]
)
def test_csv_line_name_that_starts_a_formula_is_written_after_a_quote(name):
    line = in_csv_order(name, 1, 0, 0, -4, 2, 0, 2, 0, 1, -3, rank=2)

    assert csv_line(line)[:2] == ["2", "'" + name]


def test_csv_line_negative_counts_and_ratings_stay_numbers():
    line = in_csv_order("Bilal", 1, 0, 0, -4, 2, 0, 2, 0, 1, -3, rating=Rating(1.5, 1.0), rank=4)

    counts, ratings = ["-4", "2", "0", "2", "0", "1", "-3"], ["1.500000", "1.000000", "-1.500000"]
    assert csv_line(line)[5:] == [*counts, *ratings]


def test_standings_csv_formula_names_are_text_and_the_header_is_the_specs():
    lines = [
        in_csv_order("=cmd|' /C calc'!A0", 1, 1, 3, 21, 1, 1, 0, 0, 0, 3, rank=1),
        in_csv_order("@SUM(1+1)", 1, 0, 0, -4, 2, 0, 2, 0, 1, -3, rank=2),
    ]

    text = standings_csv(lines)

    assert text == (
        "rank,player,games,wins,league_points,points,taken,made,boites,"
        "boulmous_made,boulmous_missed,units,rating_mu,rating_sigma,rating\r\n"
        "1,'=cmd|' /C calc'!A0,1,1,3,21,1,1,0,0,0,3,,,\r\n"
        "2,'@SUM(1+1),1,0,0,-4,2,0,2,0,1,-3,,,\r\n"
    )


# --- the statistics' registry ---------------------------------------------------------


def test_statistic_counted_without_a_count_raises():
    with pytest.raises(ValueError, match="taken"):
        Statistic("taken", "Taken", "Taken", Source.COUNT)


def test_statistic_not_counted_with_a_count_raises():
    with pytest.raises(ValueError, match="games"):
        Statistic("games", "Games", "Games", Source.GAMES, count=lambda facts: 1)


def test_placing_unknown_figure_raises_attribute_error():
    with pytest.raises(AttributeError, match="nothing"):
        _ = placing(1, 10).nothing


def test_standing_unknown_statistic_raises_type_error():
    with pytest.raises(TypeError, match="nothing"):
        Standing("Amina", nothing=1)


def test_standing_unknown_figure_raises_attribute_error():
    with pytest.raises(AttributeError, match="nothing"):
        _ = Standing("Amina").nothing


def test_standing_equals_only_standings_alike():
    assert (Standing("Amina", wins=1) == Standing("Amina", wins=1), Standing("A") == "A") == (
        True,
        False,
    )


def test_standing_repr_names_the_player_and_rank():
    assert repr(Standing("Amina", rank=2)).startswith("Standing('Amina', rank=2, ")


def test_csv_columns_are_the_registrys_in_csv_statistics():
    assert CSV_HEADER[2:-3] == tuple(statistic.name for statistic in STATISTICS if statistic.in_csv)


def test_standing_values_are_the_csv_line_as_values():
    from scoring.engine.league import CSV_HEADER, Rating, Standing, csv_line, standing_values

    rated = Standing("=Amina", rating=Rating(27.123456789, 7.5), rank=1, games=2, wins=1)
    unrated = Standing("Bilal", rank=2)

    values = standing_values(rated)
    assert list(values) == list(CSV_HEADER)
    assert (values["rank"], values["player"], values["games"], values["rating_mu"]) == (
        1,
        "=Amina",
        2,
        27.123457,
    )
    assert csv_line(rated)[-3:] == ["27.123457", "7.500000", f"{27.123456789 - 22.5:.6f}"]
    assert standing_values(unrated)["rating"] is None
    assert csv_line(unrated)[-3:] == ["", "", ""]
