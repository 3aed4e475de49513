"""A whole game: dealer rotation, totals, the end of the game, boîtes and boulmous."""

from decimal import Decimal

import pytest

from scoring.engine import (
    DEFAULT_TARGET,
    Card,
    Contract,
    Ending,
    FailedTaker,
    GameResult,
    Hand,
    HandScore,
    Rules,
    RulesError,
    Trump,
    dealer_of,
    ranks,
    score_game,
    winner_of,
)

VOID = Hand(calls=(None, None, None, None))

# A clean play-out at hearts with seat 0 taking (see test_play.py): tricks 3 2 1 0.
CLEAN_PLAYS = tuple(
    tuple(Card.parse(text) for text in trick.split())
    for trick in [
        "JH 9H QH TH",
        "AH JD KH 9D",
        "AC QC KC 9C",
        "KD AD QD TD",
        "9S JS AS QS",
        "KS TC TS JC",
    ]
)


def deal(taker: int, bid: int, *tricks: int, trump: Trump = Trump.HEARTS) -> Hand:
    return Hand(Contract(taker, bid, trump), tricks=tuple(tricks))


# --- dealer rotation ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "first_dealer", "dealer"),
    [(0, 0, 0), (1, 0, 1), (3, 0, 3), (4, 0, 0), (0, 2, 2), (1, 2, 3), (2, 2, 0), (9, 3, 0)],
)
def test_dealer_of_passes_the_deal_to_the_left_every_hand(index, first_dealer, dealer):
    assert dealer_of(index, first_dealer) == dealer


def test_score_game_void_deals_pass_the_deal_too():
    hands = [VOID, deal(0, 3, 3, 1, 1, 1), VOID, VOID, deal(2, 4, 1, 1, 4, 0)]

    result = score_game(hands, first_dealer=3)

    assert (
        [hand.dealer for hand in result.hands],
        [hand.number for hand in result.hands],
        result.next_dealer,
        result.next_speaker,
    ) == ([3, 0, 1, 2, 3], [1, 2, 3, 4, 5], 0, 1)


@pytest.mark.parametrize(
    ("first_dealer", "played", "next_dealer", "next_speaker"),
    [(0, 0, 0, 1), (0, 1, 1, 2), (2, 3, 1, 2), (3, 1, 0, 1), (1, 6, 3, 0)],
)
def test_next_dealer_and_speaker_follow_the_rotation(
    first_dealer, played, next_dealer, next_speaker
):
    result = score_game([VOID] * played, first_dealer=first_dealer)

    assert (result.next_dealer, result.next_speaker) == (next_dealer, next_speaker)


def test_score_game_refuses_a_bad_first_dealer():
    with pytest.raises(RulesError) as error:
        score_game([], first_dealer=4)
    assert str(error.value) == "seat 4 is not 0, 1, 2 or 3"


# --- totals and the end of the game -----------------------------------------------


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((21, 0, 0, 0), 21, 0),
        ((20, 19, 0, 0), 21, None),
        ((25, 22, 3, -1), 21, 0),
        ((3, 22, 25, 1), 21, 2),
        # A tie at the top plays on, even above the target.
        ((21, 21, 0, 0), 21, None),
        ((22, 22, 23, 0), 21, 2),
        ((0, 24, 3, 24), 21, None),
        # Alone at the top but below the target.
        ((5, 4, 0, 0), 6, None),
        ((5, 4, 0, 0), 5, 0),
        ((-1, -2, -3, -4), 1, None),
        ((0, 0, 0, 1), 1, 3),
    ],
)
def test_winner_of_is_alone_at_the_top_with_the_target(totals, target, winner):
    assert winner_of(totals, target) == winner


def test_score_game_totals_add_each_hands_points():
    hands = [deal(0, 3, 3, 1, 1, 1), VOID, deal(1, 4, 1, 2, 2, 1), deal(2, 6, 0, 0, 6, 0)]

    result = score_game(hands)

    assert (
        [hand.points for hand in result.hands],
        [hand.totals for hand in result.hands],
        result.totals,
    ) == (
        [(3, 1, 1, 1), (0, 0, 0, 0), (1, -2, 2, 1), (0, 0, 6, 0)],
        [(3, 1, 1, 1), (3, 1, 1, 1), (4, -1, 3, 2), (4, -1, 9, 2)],
        (4, -1, 9, 2),
    )


def test_score_game_a_tie_at_the_target_plays_on_until_one_is_alone():
    rules = Rules(target=6)
    tie = [deal(0, 3, 3, 3, 0, 0), deal(1, 3, 3, 3, 0, 0)]
    won = [*tie, deal(0, 3, 4, 2, 0, 0)]

    tied, finished = score_game(tie, rules=rules), score_game(won, rules=rules)

    assert (tied.totals, tied.winner, tied.finished, tied.next_dealer, tied.leaders) == (
        (6, 6, 0, 0),
        None,
        False,
        2,
        (0, 1),
    )
    assert (finished.totals, finished.winner, finished.finished, finished.leaders) == (
        (10, 8, 0, 0),
        0,
        True,
        (0,),
    )
    assert (finished.next_dealer, finished.next_speaker) == (None, None)


def test_score_game_refuses_a_hand_after_the_game_is_won():
    rules = Rules(target=6)
    hands = [deal(0, 3, 6, 0, 0, 0), VOID]

    with pytest.raises(RulesError) as error:
        score_game(hands, rules=rules)
    assert str(error.value) == "hand 2: the game was already won at hand 1"


@pytest.mark.parametrize(
    ("target", "hands_played", "winner"),
    [
        (DEFAULT_TARGET, 3, None),  # 18 points
        (DEFAULT_TARGET, 4, 0),  # 24 points
        (18, 3, 0),
        (19, 3, None),
        (12, 2, 0),
        (1, 1, 0),
    ],
)
def test_score_game_ends_at_the_target(target, hands_played, winner):
    hands = [deal(0, 3, 6, 0, 0, 0)] * hands_played

    result = score_game(hands, rules=Rules(target=target))

    assert (DEFAULT_TARGET, result.winner) == (21, winner)


def test_score_game_with_no_rules_plays_to_21():
    assert score_game([deal(0, 3, 6, 0, 0, 0)] * 4).winner == 0


def test_score_game_failed_taker_rule_decides_the_takers_points():
    hands = [deal(1, 5, 1, 4, 1, 0)]

    literal = score_game(hands, rules=Rules(failed_taker=FailedTaker.TRICKS_MINUS_BID))
    harsh = score_game(hands, rules=Rules(failed_taker=FailedTaker.MINUS_BID))

    assert (literal.totals, harsh.totals) == ((1, -1, 1, 0), (1, -5, 1, 0))


def test_game_result_counts_boites_and_boulmous_by_taker():
    hands = [
        deal(0, 4, 3, 1, 1, 1),  # boîte of seat 0
        deal(1, 6, 0, 6, 0, 0),  # boulmous made by seat 1
        VOID,
        deal(2, 6, 1, 0, 5, 0),  # boulmous missed by seat 2: also a boîte
        deal(0, 3, 0, 2, 2, 2),  # boîte of seat 0
        deal(3, 3, 0, 0, 0, 6),
    ]

    counts = score_game(hands).taker_counts()

    assert (counts.boites, counts.boulmous_made, counts.boulmous_missed) == (
        (2, 0, 1, 0),
        (0, 1, 0, 0),
        (0, 0, 1, 0),
    )


def test_hand_result_of_a_void_deal_scores_nothing():
    result = score_game([VOID])

    assert (result.hands[0].score, result.hands[0].points, result.totals) == (
        None,
        (0, 0, 0, 0),
        (0, 0, 0, 0),
    )


def test_score_game_of_no_hands_is_a_game_not_started():
    result = score_game([], first_dealer=1)

    assert result == GameResult(
        first_dealer=1, rules=Rules(), hands=(), totals=(0, 0, 0, 0), winner=None
    )


# --- the auction of a hand -------------------------------------------------------------


@pytest.mark.parametrize(
    ("calls", "first_dealer", "contract"),
    [
        # Dealer 0 speaks last: the 4th call is seat 0's.
        ((None, 3, None, 4), 0, Contract(0, 4, Trump.HEARTS)),
        ((None, 3, None, 4), 2, Contract(2, 4, Trump.HEARTS)),
        ((3, None, None, None), 1, Contract(2, 3, Trump.HEARTS)),
    ],
)
def test_score_game_accepts_calls_giving_the_contract(calls, first_dealer, contract):
    hand = Hand(contract, tricks=(1, 1, 2, 2), calls=calls)

    result = score_game([hand], first_dealer=first_dealer)

    assert result.hands[0].hand.contract == contract


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (
            Hand(Contract(3, 4, Trump.HEARTS), tricks=(1, 1, 2, 2), calls=(None, 3, None, 4)),
            "hand 1: the calls do not give this contract",
        ),
        (
            Hand(Contract(0, 3, Trump.HEARTS), tricks=(1, 1, 2, 2), calls=(None, 3, None, 4)),
            "hand 1: the calls do not give this contract",
        ),
        (
            Hand(Contract(0, 3, Trump.HEARTS), tricks=(1, 1, 2, 2), calls=(None,) * 4),
            "hand 1: the calls do not give this contract",
        ),
        (
            Hand(calls=(None, None, None)),
            "hand 1: calls: one call per player expected, 4 in all, not 3",
        ),
        (
            Hand(Contract(0, 4, Trump.HEARTS), tricks=(1, 1, 2, 2), calls=(None, 5, None, 4)),
            "hand 1: calls: call 4 (seat 0) bids 4, which must be higher than the 5 already bid",
        ),
    ],
)
def test_score_game_refuses_calls_not_giving_the_contract(hand, message):
    with pytest.raises(RulesError) as error:
        score_game([hand])
    assert str(error.value) == message


# --- Hand ------------------------------------------------------------------------------


def test_hand_void_deal_is_void_with_or_without_calls():
    assert (Hand().is_void, VOID.is_void, deal(0, 3, 3, 1, 1, 1).is_void) == (True, True, False)


def test_hand_tricks_are_kept_as_a_tuple():
    hand = Hand(Contract(0, 3, Trump.SPADES), tricks=[3, 1, 1, 1])  # type: ignore[arg-type]

    assert hand.tricks == (3, 1, 1, 1)


def test_hand_with_plays_counts_its_tricks_and_keeps_the_play_out():
    hand = Hand(Contract(0, 3, Trump.HEARTS), plays=CLEAN_PLAYS)

    assert (hand.tricks, hand.play is not None and hand.play.winners) == (
        (3, 2, 1, 0),
        (0, 1, 1, 2, 0, 0),
    )


def test_hand_with_tricks_and_plays_agreeing_is_accepted():
    hand = Hand(Contract(0, 3, Trump.HEARTS), tricks=(3, 2, 1, 0), plays=CLEAN_PLAYS)

    assert hand.tricks == (3, 2, 1, 0)


def test_hand_equality_ignores_the_play_out_it_computes():
    assert Hand(Contract(0, 3, Trump.HEARTS), plays=CLEAN_PLAYS) == Hand(
        Contract(0, 3, Trump.HEARTS), tricks=(3, 2, 1, 0), plays=CLEAN_PLAYS
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tricks": (3, 1, 1, 1)}, "a void deal has no tricks or plays"),
        ({"plays": CLEAN_PLAYS}, "a void deal has no tricks or plays"),
        ({"calls": (None, 3, None, None)}, "a void deal is four passes"),
        ({"contract": Contract(0, 3, Trump.HEARTS)}, "a contract needs its tricks or its plays"),
        (
            {
                "contract": Contract(0, 3, Trump.HEARTS),
                "tricks": (2, 2, 1, 1),
                "plays": CLEAN_PLAYS,
            },
            "tricks [2, 2, 1, 1] disagree with the plays, which give [3, 2, 1, 0]",
        ),
        (
            # The same cards led by seat 1: the leaders shift, the winners are seats
            # 1 (JH), 2 (JD), 2 (AC), 3 (AD), 1 (AS), 1 (KS).
            {
                "contract": Contract(1, 3, Trump.HEARTS),
                "tricks": (3, 2, 1, 0),
                "plays": CLEAN_PLAYS,
            },
            "tricks [3, 2, 1, 0] disagree with the plays, which give [0, 3, 2, 1]",
        ),
        (
            {"contract": Contract(0, 3, Trump.HEARTS), "tricks": (3, 2, 1, 1)},
            "tricks add up to 7, not 6",
        ),
        (
            {"contract": Contract(0, 3, Trump.HEARTS), "plays": CLEAN_PLAYS[:5]},
            "plays: six tricks of four cards expected",
        ),
    ],
)
def test_hand_refuses_inconsistent_facts(kwargs, message):
    with pytest.raises(RulesError) as error:
        Hand(**kwargs)
    assert str(error.value) == message


# --- Rules ------------------------------------------------------------------------------


def test_rules_defaults_are_21_literal_reading_no_money_in_euros():
    assert Rules() == Rules(21, FailedTaker.TRICKS_MINUS_BID, Decimal(0), "EUR")


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (
            {"failed_taker": "minus_bid", "stake": "0.50"},
            Rules(21, FailedTaker.MINUS_BID, Decimal("0.50"), "EUR"),
        ),
        (
            {"stake": 2, "currency": "JPY"},
            Rules(21, FailedTaker.TRICKS_MINUS_BID, Decimal(2), "JPY"),
        ),
        (
            {"stake": Decimal("0.250"), "currency": "TND"},
            Rules(stake=Decimal("0.25"), currency="TND"),
        ),
    ],
)
def test_rules_keep_the_failed_taker_and_stake_as_the_scoring_uses_them(kwargs, expected):
    rules = Rules(**kwargs)

    assert (rules, type(rules.stake), type(rules.failed_taker)) == (expected, Decimal, FailedTaker)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 0}, "target 0 is not a whole number of 1 or more"),
        ({"target": -5}, "target -5 is not a whole number of 1 or more"),
        ({"target": True}, "target true is not a whole number of 1 or more"),
        ({"target": "21"}, 'target "21" is not a whole number of 1 or more'),
        ({"target": 21.0}, "target 21.0 is not a whole number of 1 or more"),
        (
            {"failed_taker": "minus"},
            'failed_taker "minus" is not "tricks_minus_bid" or "minus_bid"',
        ),
        ({"currency": "eur"}, 'currency "eur" is not an ISO 4217 code such as "EUR"'),
        ({"currency": "XYZ"}, 'currency "XYZ" is not an ISO 4217 code such as "EUR"'),
        ({"stake": Decimal("-1")}, 'stake "-1" must be zero or more'),
        (
            {"stake": Decimal("0.505")},
            'stake "0.505" has more decimals than EUR uses (2)',
        ),
        (
            {"stake": Decimal("0.5"), "currency": "JPY"},
            'stake "0.5" has more decimals than JPY uses (0)',
        ),
    ],
)
def test_rules_refuse_bad_values(kwargs, message):
    with pytest.raises(RulesError) as error:
        Rules(**kwargs)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("stake", "has_money"), [(Decimal(0), False), (Decimal("0.00"), False), (Decimal("0.01"), True)]
)
def test_rules_has_money_with_a_stake_above_zero(stake, has_money):
    assert Rules(stake=stake).has_money == has_money


def test_hand_score_of_each_hand_is_kept():
    result = score_game([deal(0, 4, 3, 1, 1, 1)])

    assert result.hands[0].score == HandScore(made=False, points=(-1, 1, 1, 1))


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((25, 10, 10, 3), (1, 2, 2, 4)),
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        ((-3, 5, 5, 5), (4, 1, 1, 1)),
        ((4, 3, 2, 1), (1, 2, 3, 4)),
    ],
)
def test_ranks_count_the_players_strictly_higher(totals, expected):
    assert ranks(totals) == expected


def test_game_result_ending_says_playing_won_or_abandoned():
    playing = score_game([deal(0, 3, 3, 1, 1, 1)])
    won = score_game([deal(0, 3, 3, 1, 1, 1)], rules=Rules(target=3))

    assert (
        playing.ending(abandoned=False),
        playing.ending(abandoned=True),
        won.ending(abandoned=True),
        Ending.PLAYING.over,
        Ending.ABANDONED.over,
    ) == (Ending.PLAYING, Ending.ABANDONED, Ending.WON, False, True)


def test_game_result_leading_is_nobody_before_anyone_scores():
    start = score_game([VOID])
    later = score_game([deal(0, 3, 3, 1, 1, 1)])

    assert (start.leading, later.leading, later.ranks) == ((), (0,), (1, 2, 2, 2))


def test_game_result_tied_at_top_only_at_or_above_the_target():
    tied = score_game([deal(0, 3, 3, 3, 0, 0)], rules=Rules(target=3))
    below = score_game([deal(0, 3, 3, 3, 0, 0)], rules=Rules(target=4))

    assert (tied.tied_at_top, tied.finished, below.tied_at_top) == ((0, 1), False, ())


@pytest.mark.parametrize(("first_dealer", "played", "passes_to"), [(0, 0, 0), (0, 1, 1), (3, 2, 1)])
def test_game_result_deal_passes_to_the_left_even_after_the_end(first_dealer, played, passes_to):
    result = score_game([VOID] * played, first_dealer=first_dealer)

    assert result.deal_passes_to == passes_to


def test_score_game_drop_after_end_leaves_out_the_hands_after_the_win():
    hands = [deal(0, 3, 3, 1, 1, 1), deal(1, 3, 0, 6, 0, 0)]

    result = score_game(hands, rules=Rules(target=3), drop_after_end=True)

    assert (len(result.hands), result.winner) == (1, 0)
