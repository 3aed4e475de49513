"""The referee's words, and a hand followed card by card."""

import pytest

from scoring.engine import (
    Card,
    Contract,
    Hand,
    Phrase,
    RulesError,
    Trump,
    card_name,
    explain_revoke,
    explain_trick,
    follow_play,
    format_cards,
    in_tricks,
    parse_cards,
)


def cards(text):
    return [Card.parse(card) for card in text.split()]


@pytest.mark.parametrize(
    ("trump", "played", "winner", "reason", "notes"),
    [
        (
            Trump.HEARTS,
            "JD AD KD QD",
            0,
            "the jack of diamonds is the second-highest trump when hearts are trump.",
            ["the jack of diamonds belongs to the trump suit: hearts were led."],
        ),
        (
            Trump.HEARTS,
            "AS JD KS QS",
            1,
            "the jack of diamonds is the second-highest trump when hearts are trump.",
            [],
        ),
        (
            Trump.HEARTS,
            "JD JH AH 9H",
            1,
            "the jack of hearts is the highest card when hearts are trump.",
            ["the jack of diamonds belongs to the trump suit: hearts were led."],
        ),
        (
            Trump.HEARTS,
            "AS KS QS 9S",
            0,
            "the ace of spades is the highest card of the suit led, spades, and nobody trumped.",
            [],
        ),
        (
            Trump.NO_TRUMP,
            "JD AD KD QD",
            1,
            "the ace of diamonds is the highest card of the suit led, diamonds: at no trump, "
            "each suit runs from the ace down to the nine.",
            [],
        ),
        (
            Trump.SPADES,
            "AH 9S TS KH",
            2,
            "the ten of spades is the highest trump played; spades are trump.",
            [],
        ),
        (
            Trump.SPADES,
            "AH 9S QH KH",
            1,
            "the nine of spades is a trump, spades, and no other trump was played.",
            [],
        ),
        (
            Trump.CLUBS,
            "AC 9H QC KH",
            0,
            "the ace of clubs is the highest trump played; clubs are trump.",
            [],
        ),
    ],
)
def test_explain_trick_says_why_the_card_wins(trump, played, winner, reason, notes):
    verdict = explain_trick(cards(played), trump)

    assert (verdict.winner, str(verdict.reason), [str(note) for note in verdict.notes]) == (
        winner,
        reason,
        notes,
    )


def test_phrase_translates_its_parts():
    french = {
        "the jack of {suit}": "le valet de {suit}",
        "diamonds": "carreau",
    }

    assert card_name(Card.parse("JD")).translate(lambda text: french.get(text, text)) == (
        "le valet de carreau"
    )


def test_phrase_without_params_is_its_template():
    assert str(Phrase("hearts")) == "hearts"


def test_follow_play_knows_whose_turn_it_is():
    # Hearts trump, taker seat 2 leads; the jack of diamonds (seat 3) wins the first trick.
    play = follow_play(2, Trump.HEARTS, cards("AH JD 9H TH KS"))

    assert (len(play.tricks), play.tricks[0].winner, play.current, play.leader, play.to_play) == (
        1,
        3,
        (Card.parse("KS"),),
        3,
        0,
    )


def test_follow_play_of_nothing_starts_with_the_taker():
    play = follow_play(1, Trump.SPADES, [])

    assert (play.tricks, play.current, play.to_play, play.cards) == ((), (), 1, ())


def test_follow_play_of_24_cards_is_complete():
    deck = cards("JH 9H QH TH AH JD KH 9D AC QC KC 9C KD AD QD TD AS KS QS 9S JS TS JC TC")

    play = follow_play(0, Trump.HEARTS, deck)

    assert (play.complete, play.to_play, len(play.cards)) == (True, None, 24)


def test_follow_play_refuses_a_card_played_twice():
    with pytest.raises(RulesError) as error:
        follow_play(0, Trump.HEARTS, cards("AH AH"))

    assert str(error.value) == "a card cannot be played twice"


def first_revoke():
    """Hearts trump; Bilal (seat 1) discards the 9 of clubs on a heart at trick 1, and
    plays the king of hearts at trick 2: he held it."""
    plays = in_tricks(
        cards("AH 9C QH JH JD TH KH 9H AC QC KC TC KD AD QD TD AS KS QS 9S 9D JS TS JC")
    )
    return Hand(Contract(0, 3, Trump.HEARTS), plays=plays).play.revokes[0]


def test_explain_revoke_names_the_player_suit_and_cards_held():
    revoke = first_revoke()

    assert str(explain_revoke(revoke, "Bilal")) == (
        "Bilal did not follow hearts in trick 1: Bilal played the nine of clubs while holding K♥."
    )


def test_parse_cards_reads_commas_and_spaces_and_formats_back():
    parsed = parse_cards("JD, ad 10S")

    assert (parsed, format_cards(parsed)) == (tuple(cards("JD AD TS")), "JD,AD,TS")


def test_parse_cards_refuses_a_bad_card():
    with pytest.raises(RulesError) as error:
        parse_cards("JD XX")

    assert str(error.value) == 'card "XX" is not a card: a rank 9 T J Q K A then a suit S H D C'


def test_in_tricks_groups_four_by_four():
    assert in_tricks(cards("AH KH QH JH TH 9H")) == (
        tuple(cards("AH KH QH JH")),
        tuple(cards("TH 9H")),
    )


def test_explain_revoke_shows_the_cards_held_with_the_labels_given():
    revoke = first_revoke()

    explained = explain_revoke(revoke, "Bilal", label=str)

    assert explained.params["held"] == "KH"
