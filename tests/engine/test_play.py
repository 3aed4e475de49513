"""A hand played trick by trick: leaders, winners, tricks won and revokes.

The deals below were worked out by hand; each comment gives the hands they deal.
"""

import pytest

from scoring.engine import (
    Card,
    PlayedTrick,
    PlayOut,
    Rank,
    Revoke,
    RulesError,
    Suit,
    Trump,
    parse_plays,
    play_out,
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card(Rank(word[0]), Suit(word[1])) for word in text.split())


def tricks(*texts: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(text) for text in texts)


# Hearts trump, seat 0 takes. No revoke.
#   seat 0: JH AH AS KS 9C TD    seat 1: JD 9H QS AC KD TC
#   seat 2: KH QH 9S TS AD QC    seat 3: TH JS JC KC QD 9D
# Trick 2: seat 1 follows the heart lead with JD (a heart) and wins with it.
CLEAN = tricks(
    "JH 9H QH TH",  # seat 0 leads; JH wins: seat 0
    "AH JD KH 9D",  # seat 0 leads; JD (left bower) wins: seat 1; seat 3 void in hearts
    "AC QC KC 9C",  # seat 1 leads; AC wins: seat 1
    "KD AD QD TD",  # seat 1 leads; AD wins: seat 2
    "9S JS AS QS",  # seat 2 leads; AS wins: seat 0
    "KS TC TS JC",  # seat 0 leads; KS wins: seat 0; seats 1 and 3 void in spades
)

# CLEAN with seat 3's KC (trick 3) and JS (trick 5) swapped: on the club lead of
# trick 3 he discards JS while he still holds KC and JC. The winners do not change.
CLUB_REVOKE = tricks(
    "JH 9H QH TH",
    "AH JD KH 9D",
    "AC QC JS 9C",
    "KD AD QD TD",
    "9S KC AS QS",
    "KS TC TS JC",
)

# Hearts trump, seat 2 takes.
#   seat 0: TH TD JS 9C QH JC    seat 1: JH KD AS AC KH TC
#   seat 2: JD 9S KS QD AH TS    seat 3: AD 9D QS KC 9H QC
HEART_REVOKES = tricks(
    "JD AD TH JH",  # seat 2 leads JD, a heart; seat 3 plays AD holding 9H; JH wins: seat 1
    "KD 9S 9D TD",  # seat 1 leads; seat 2 plays 9S holding QD; KD wins: seat 1
    "AS KS QS JS",  # seat 1 leads; AS wins: seat 1
    "AC QD KC 9C",  # seat 1 leads; seat 2, void in clubs, discards QD; AC wins: seat 1
    "KH AH 9H QH",  # seat 1 leads; AH wins: seat 2
    "TS QC JC TC",  # seat 2 leads; only spade, TS wins: seat 2
)

# Diamonds trump, seat 3 takes.
#   seat 0: JH 9H KD KS KC QD    seat 1: KH TH 9S QS QC TS
#   seat 2: QH 9D TD JS JC 9C    seat 3: AH AD JD AS AC TC
DIAMOND_REVOKE = tricks(
    "AH JH KH QH",  # seat 3 leads; seat 0 trumps with JH (a diamond) holding 9H: JH wins: seat 0
    "9H TH 9D AD",  # seat 0 leads; seats 2 and 3 void in hearts trump, AD over-trumps: seat 3
    "JD KD 9S TD",  # seat 3 leads; seat 1 void in diamonds; JD wins: seat 3
    "AS KS QS JS",  # seat 3 leads; AS wins: seat 3
    "AC KC QC JC",  # seat 3 leads; AC wins: seat 3
    "TC QD TS 9C",  # seat 3 leads; seat 0, void in clubs, trumps with QD: seat 0
)


@pytest.mark.parametrize(
    ("taker", "trump", "played", "leaders", "winners", "tricks_won"),
    [
        (0, Trump.HEARTS, CLEAN, (0, 0, 1, 1, 2, 0), (0, 1, 1, 2, 0, 0), (3, 2, 1, 0)),
        (0, Trump.HEARTS, CLUB_REVOKE, (0, 0, 1, 1, 2, 0), (0, 1, 1, 2, 0, 0), (3, 2, 1, 0)),
        (2, Trump.HEARTS, HEART_REVOKES, (2, 1, 1, 1, 1, 2), (1, 1, 1, 1, 2, 2), (0, 4, 2, 0)),
        (3, Trump.DIAMONDS, DIAMOND_REVOKE, (3, 0, 3, 3, 3, 3), (0, 3, 3, 3, 3, 0), (2, 0, 0, 4)),
    ],
    ids=["clean", "club_revoke", "heart_revokes", "diamond_revoke"],
)
def test_play_out_leaders_winners_and_tricks_won(
    taker, trump, played, leaders, winners, tricks_won
):
    result = play_out(taker, trump, played)

    assert (
        tuple(trick.leader for trick in result.tricks),
        result.winners,
        tuple(trick.winner for trick in result.tricks),
        result.tricks_won,
        tuple(trick.cards for trick in result.tricks),
    ) == (leaders, winners, winners, tricks_won, played)


@pytest.mark.parametrize(
    ("taker", "trump", "played", "revokes"),
    [
        (0, Trump.HEARTS, CLEAN, ()),
        (
            0,
            Trump.HEARTS,
            CLUB_REVOKE,
            (Revoke(3, 3, Card.parse("JS"), Suit.CLUBS, cards("KC JC")),),
        ),
        (
            2,
            Trump.HEARTS,
            HEART_REVOKES,
            (
                # JD led is a heart: the led suit is H.
                Revoke(1, 3, Card.parse("AD"), Suit.HEARTS, cards("9H")),
                Revoke(2, 2, Card.parse("9S"), Suit.DIAMONDS, cards("QD")),
            ),
        ),
        (
            3,
            Trump.DIAMONDS,
            DIAMOND_REVOKE,
            # JH is a diamond at diamonds trump: it does not follow a heart lead.
            (Revoke(1, 0, Card.parse("JH"), Suit.HEARTS, cards("9H")),),
        ),
    ],
    ids=["clean", "club_revoke", "heart_revokes", "diamond_revoke"],
)
def test_play_out_reports_each_revoke_with_the_cards_held(taker, trump, played, revokes):
    assert play_out(taker, trump, played).revokes == revokes


def test_play_out_at_no_trump_jacks_are_plain():
    # The same first trick at no trump: JD leads diamonds, JH is a plain heart,
    # and AD (seat 3), the highest diamond, wins and leads trick 2.
    result = play_out(2, Trump.NO_TRUMP, HEART_REVOKES)

    assert (result.winners[0], result.tricks[1].leader) == (3, 3)


def test_played_trick_seats_and_cards_count_clockwise_from_the_leader():
    trick = PlayedTrick(leader=2, cards=cards("9S JS AS QS"), winner=0)

    assert (
        [trick.seat_of(index) for index in range(4)],
        [str(trick.card_of(seat)) for seat in range(4)],
    ) == ([2, 3, 0, 1], ["AS", "QS", "9S", "JS"])


def test_play_out_result_is_a_play_out_of_played_tricks():
    result = play_out(0, Trump.HEARTS, CLEAN)

    assert (type(result), result.tricks[0]) == (
        PlayOut,
        PlayedTrick(leader=0, cards=cards("JH 9H QH TH"), winner=0),
    )


@pytest.mark.parametrize(
    ("played", "message"),
    [
        (CLEAN[:5], "plays: six tricks of four cards expected"),
        ((*CLEAN, cards("9S")), "plays: six tricks of four cards expected"),
        ((*CLEAN[:5], CLEAN[5][:3]), "plays: six tricks of four cards expected"),
        ((*CLEAN[:5], cards("KS TC TS JH")), "plays: JH played more than once"),
        ((*CLEAN[:5], cards("AS TC JH JH")), "plays: AS JH played more than once"),
    ],
)
def test_play_out_refuses_anything_but_the_24_cards_in_six_tricks(played, message):
    with pytest.raises(RulesError) as error:
        play_out(0, Trump.HEARTS, played)
    assert str(error.value) == message


def test_parse_plays_reads_six_tricks_of_four_cards():
    written = [
        ["JH", "9H", "QH", "10H"],
        ["ah", "jd", "kh", "9d"],
        ["AC", "QC", "KC", "9C"],
        ["KD", "AD", "QD", "TD"],
        ["9S", "JS", "AS", "QS"],
        [" KS", "TC", "TS", "JC "],
    ]

    assert parse_plays(written) == CLEAN


def test_parse_plays_accepts_tuples():
    assert parse_plays(tuple(tuple(str(card) for card in trick) for trick in CLEAN)) == CLEAN


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        (None, "plays: six tricks expected"),
        ("JH 9H QH TH", "plays: six tricks expected"),
        ([["JH", "9H", "QH", "TH"]] * 5, "plays: six tricks expected"),
        ([["JH", "9H", "QH", "TH"]] * 7, "plays: six tricks expected"),
        (["JH 9H QH TH"] * 6, "plays: trick 1: four cards expected"),
        (
            [["JH", "9H", "QH", "TH"]] * 3 + [["JH", "9H", "QH"]] + [["JH", "9H", "QH", "TH"]] * 2,
            "plays: trick 4: four cards expected",
        ),
        (
            [["JH", "9H", "QH", "TH"], ["AH", "XX", "KH", "9D"]] + [["JH", "9H", "QH", "TH"]] * 4,
            'plays: trick 2: card "XX" is not a card: a rank 9 T J Q K A then a suit S H D C',
        ),
        (
            [["JH", "9H", "QH", "TH"]] * 5 + [["KS", 5, "TS", "JC"]],
            'plays: trick 6: card 5 is not a string like "JD"',
        ),
    ],
)
def test_parse_plays_refuses_a_bad_shape_or_card_naming_the_trick(plays, message):
    with pytest.raises(RulesError) as error:
        parse_plays(plays)
    assert str(error.value) == message
