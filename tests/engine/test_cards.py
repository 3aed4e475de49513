"""Cards, suits, trump, card order, trick winners and legal plays."""

import pytest

from scoring.engine import (
    DECK,
    Card,
    Colour,
    Rank,
    RulesError,
    Suit,
    Trump,
    effective_suit,
    is_trump,
    legal_cards,
    plain_orders,
    suit_order,
    trick_winner,
    trump_order,
)
from scoring.engine.cards import effective_suits


def cards(text: str) -> tuple[Card, ...]:
    """``"JD TS 9H"`` as cards, parsed independently of Card.parse."""
    return tuple(Card(Rank(word[0]), Suit(word[1])) for word in text.split())


# --- parsing and naming ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("JD", Card(Rank.JACK, Suit.DIAMONDS)),
        ("TS", Card(Rank.TEN, Suit.SPADES)),
        ("10S", Card(Rank.TEN, Suit.SPADES)),
        ("10h", Card(Rank.TEN, Suit.HEARTS)),
        ("jd", Card(Rank.JACK, Suit.DIAMONDS)),
        ("qC", Card(Rank.QUEEN, Suit.CLUBS)),
        (" 9c ", Card(Rank.NINE, Suit.CLUBS)),
        ("AS", Card(Rank.ACE, Suit.SPADES)),
        ("KH", Card(Rank.KING, Suit.HEARTS)),
    ],
)
def test_card_parse_accepts_rank_then_suit(text, expected):
    assert Card.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", 'card "" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("JX", 'card "JX" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("8S", 'card "8S" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("1S", 'card "1S" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("DJ", 'card "DJ" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("JDD", 'card "JDD" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("10", 'card "10" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("1010", 'card "1010" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("J D", 'card "J D" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        ("J♦", 'card "J♦" is not a card: a rank 9 T J Q K A then a suit S H D C'),
        (10, 'card 10 is not a string like "JD"'),
        (None, 'card null is not a string like "JD"'),
        (["JD"], 'card ["JD"] is not a string like "JD"'),
    ],
)
def test_card_parse_refuses_bad_input_naming_it(text, message):
    with pytest.raises(RulesError) as error:
        Card.parse(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("card", "text", "label"),
    [
        (Card(Rank.JACK, Suit.DIAMONDS), "JD", "J♦"),
        (Card(Rank.TEN, Suit.SPADES), "TS", "10♠"),
        (Card(Rank.NINE, Suit.HEARTS), "9H", "9♥"),
        (Card(Rank.ACE, Suit.CLUBS), "AC", "A♣"),
    ],
)
def test_card_str_and_label_name_rank_then_suit(card, text, label):
    assert (str(card), card.label) == (text, label)


def test_deck_is_the_24_cards_nine_to_ace_once_each():
    expected = {Card(rank, suit) for rank in Rank for suit in Suit}

    assert (len(DECK), set(DECK)) == (24, expected)


def test_card_parse_reads_back_every_card_of_the_deck():
    assert [Card.parse(str(card)) for card in DECK] == list(DECK)


@pytest.mark.parametrize(
    ("suit", "colour", "partner", "symbol"),
    [
        (Suit.SPADES, Colour.BLACK, Suit.CLUBS, "♠"),
        (Suit.CLUBS, Colour.BLACK, Suit.SPADES, "♣"),
        (Suit.HEARTS, Colour.RED, Suit.DIAMONDS, "♥"),
        (Suit.DIAMONDS, Colour.RED, Suit.HEARTS, "♦"),
    ],
)
def test_suit_colour_partner_and_symbol(suit, colour, partner, symbol):
    assert (suit.colour, suit.partner, suit.symbol) == (colour, partner, symbol)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("S", Suit.SPADES), ("h", Suit.HEARTS), (" D ", Suit.DIAMONDS), ("c", Suit.CLUBS)],
)
def test_suit_parse_accepts_a_letter(text, expected):
    assert Suit.parse(text) == expected


@pytest.mark.parametrize("text", ["X", "", "NT", "♠", "SH"])
def test_suit_parse_refuses_other_text_naming_it(text):
    with pytest.raises(RulesError) as error:
        Suit.parse(text)
    assert str(error.value) == f'suit "{text}" is not one of S H D C'


@pytest.mark.parametrize(
    ("rank", "label"),
    [(Rank.NINE, "9"), (Rank.TEN, "10"), (Rank.JACK, "J"), (Rank.ACE, "A")],
)
def test_rank_label_writes_ten_as_10(rank, label):
    assert rank.label == label


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S", Trump.SPADES),
        ("H", Trump.HEARTS),
        ("d", Trump.DIAMONDS),
        (" C ", Trump.CLUBS),
        ("NT", Trump.NO_TRUMP),
        ("nt", Trump.NO_TRUMP),
    ],
)
def test_trump_parse_accepts_a_suit_or_nt(text, expected):
    assert Trump.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X", 'trump "X" is not one of S H D C NT'),
        ("", 'trump "" is not one of S H D C NT'),
        ("SA", 'trump "SA" is not one of S H D C NT'),
        (1, "trump 1 is not one of S H D C NT"),
        (None, "trump null is not one of S H D C NT"),
    ],
)
def test_trump_parse_refuses_other_values_naming_them(text, message):
    with pytest.raises(RulesError) as error:
        Trump.parse(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("trump", "suit"),
    [
        (Trump.SPADES, Suit.SPADES),
        (Trump.HEARTS, Suit.HEARTS),
        (Trump.DIAMONDS, Suit.DIAMONDS),
        (Trump.CLUBS, Suit.CLUBS),
        (Trump.NO_TRUMP, None),
    ],
)
def test_trump_suit(trump, suit):
    assert trump.suit == suit


# --- effective suit ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "trump", "suit"),
    [
        # The other jack of the trump's colour is a trump.
        ("JD", Trump.HEARTS, Suit.HEARTS),
        ("JH", Trump.DIAMONDS, Suit.DIAMONDS),
        ("JC", Trump.SPADES, Suit.SPADES),
        ("JS", Trump.CLUBS, Suit.CLUBS),
        # The jack of trump is a trump.
        ("JH", Trump.HEARTS, Suit.HEARTS),
        ("JS", Trump.SPADES, Suit.SPADES),
        # The jacks of the other colour keep their suit.
        ("JS", Trump.HEARTS, Suit.SPADES),
        ("JC", Trump.HEARTS, Suit.CLUBS),
        ("JD", Trump.SPADES, Suit.DIAMONDS),
        ("JH", Trump.CLUBS, Suit.HEARTS),
        # Other cards of the partner suit stay in it.
        ("AD", Trump.HEARTS, Suit.DIAMONDS),
        ("9D", Trump.HEARTS, Suit.DIAMONDS),
        ("QC", Trump.SPADES, Suit.CLUBS),
        # No trump: every card is its printed suit.
        ("JD", Trump.NO_TRUMP, Suit.DIAMONDS),
        ("JH", Trump.NO_TRUMP, Suit.HEARTS),
        ("JS", Trump.NO_TRUMP, Suit.SPADES),
        ("JC", Trump.NO_TRUMP, Suit.CLUBS),
        ("AS", Trump.NO_TRUMP, Suit.SPADES),
    ],
)
def test_effective_suit_puts_the_left_bower_in_trump(card, trump, suit):
    assert effective_suit(Card.parse(card), trump) == suit


@pytest.mark.parametrize("trump", list(Trump))
def test_effective_suits_agrees_with_effective_suit_for_every_card(trump):
    # effective_suits is by card.index, the card's place in DECK.
    expected = [effective_suit(card, trump) for card in DECK]

    assert list(effective_suits(trump)) == expected


@pytest.mark.parametrize(
    ("card", "trump", "expected"),
    [
        ("JH", Trump.HEARTS, True),
        ("JD", Trump.HEARTS, True),
        ("9H", Trump.HEARTS, True),
        ("AD", Trump.HEARTS, False),
        ("JS", Trump.HEARTS, False),
        ("JS", Trump.CLUBS, True),
        ("JC", Trump.CLUBS, True),
        ("JD", Trump.CLUBS, False),
        ("JH", Trump.NO_TRUMP, False),
        ("AS", Trump.NO_TRUMP, False),
    ],
)
def test_is_trump(card, trump, expected):
    assert is_trump(Card.parse(card), trump) == expected


# --- card order -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        # The seed's own example: with hearts trump, J♥ J♦ then A K Q 10 9 of hearts.
        (Trump.HEARTS, "JH JD AH KH QH TH 9H"),
        (Trump.DIAMONDS, "JD JH AD KD QD TD 9D"),
        (Trump.SPADES, "JS JC AS KS QS TS 9S"),
        (Trump.CLUBS, "JC JS AC KC QC TC 9C"),
        (Trump.NO_TRUMP, ""),
    ],
)
def test_trump_order_is_jack_other_jack_then_ace_down(trump, order):
    assert trump_order(trump) == cards(order)


@pytest.mark.parametrize(
    ("suit", "trump", "order"),
    [
        # No trump: A K Q J T 9 in every suit.
        (Suit.SPADES, Trump.NO_TRUMP, "AS KS QS JS TS 9S"),
        (Suit.HEARTS, Trump.NO_TRUMP, "AH KH QH JH TH 9H"),
        (Suit.DIAMONDS, Trump.NO_TRUMP, "AD KD QD JD TD 9D"),
        (Suit.CLUBS, Trump.NO_TRUMP, "AC KC QC JC TC 9C"),
        # The partner suit has lost its jack to the trumps.
        (Suit.DIAMONDS, Trump.HEARTS, "AD KD QD TD 9D"),
        (Suit.HEARTS, Trump.DIAMONDS, "AH KH QH TH 9H"),
        (Suit.CLUBS, Trump.SPADES, "AC KC QC TC 9C"),
        (Suit.SPADES, Trump.CLUBS, "AS KS QS TS 9S"),
        # A suit of the other colour keeps its jack between queen and ten.
        (Suit.SPADES, Trump.HEARTS, "AS KS QS JS TS 9S"),
        (Suit.HEARTS, Trump.CLUBS, "AH KH QH JH TH 9H"),
        # The trump suit itself.
        (Suit.HEARTS, Trump.HEARTS, "JH JD AH KH QH TH 9H"),
    ],
)
def test_suit_order_strongest_first(suit, trump, order):
    assert suit_order(suit, trump) == cards(order)


SEED_HEART_TRUMPS = cards("JH JD AH KH QH TH 9H")
NOT_HEART_TRUMPS = tuple(card for card in DECK if card not in SEED_HEART_TRUMPS)


@pytest.mark.parametrize("trump_card", SEED_HEART_TRUMPS, ids=str)
def test_trick_winner_heart_trump_beats_any_other_card_led_or_played_second(trump_card):
    led_first = [trick_winner([trump_card, other], Trump.HEARTS) for other in NOT_HEART_TRUMPS]
    played_second = [trick_winner([other, trump_card], Trump.HEARTS) for other in NOT_HEART_TRUMPS]

    assert (len(NOT_HEART_TRUMPS), led_first, played_second) == (17, [0] * 17, [1] * 17)


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        (SEED_HEART_TRUMPS[high], SEED_HEART_TRUMPS[low])
        for high in range(len(SEED_HEART_TRUMPS))
        for low in range(high + 1, len(SEED_HEART_TRUMPS))
    ],
    ids=str,
)
def test_trick_winner_heart_trumps_rank_as_the_seed_says(stronger, weaker):
    assert (
        trick_winner([stronger, weaker], Trump.HEARTS),
        trick_winner([weaker, stronger], Trump.HEARTS),
    ) == (0, 1)


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        # No trump: the highest card of the suit led.
        ("9S AS KH QS", Trump.NO_TRUMP, 1),
        ("KS QS AH AD", Trump.NO_TRUMP, 0),
        ("TC JC QC 9C", Trump.NO_TRUMP, 2),
        # No trump: jacks are plain cards between queen and ten.
        ("JD QD JH 9D", Trump.NO_TRUMP, 1),
        ("JS JC TS 9S", Trump.NO_TRUMP, 0),
        ("TD JH JD 9D", Trump.NO_TRUMP, 2),
        # Following the suit led with no trump played.
        ("QS KS 9S JS", Trump.HEARTS, 1),
        # Trumping a plain suit.
        ("AS 9H KS QS", Trump.HEARTS, 1),
        # Over-trumping.
        ("AS 9H TH KS", Trump.HEARTS, 2),
        ("AC 9S QS JS", Trump.SPADES, 3),
        # Trumping with the other jack of the colour (left bower).
        ("AS 9H JD KS", Trump.HEARTS, 2),
        ("AS AH JD JH", Trump.HEARTS, 3),
        ("AD KC JS 9D", Trump.CLUBS, 2),
        # The left bower led is a trump: only the jack of trump beats it.
        ("JD AD KH 9S", Trump.HEARTS, 0),
        ("JD AD JH 9S", Trump.HEARTS, 2),
        # A partner-suit lead is not a trump lead: the left bower trumps it.
        ("AD KD JD QD", Trump.HEARTS, 2),
        # A discard never wins, however high.
        ("KC AD AS 9C", Trump.HEARTS, 0),
        ("9C AD AS AH", Trump.DIAMONDS, 1),
        # A jack of the other colour is no trump.
        ("AS JC JS 9H", Trump.HEARTS, 3),
        # Fewer than four cards.
        ("9S", Trump.HEARTS, 0),
        ("9S 9H", Trump.HEARTS, 1),
        ("KD AD JS", Trump.SPADES, 2),
    ],
)
def test_trick_winner_rules(trick, trump, winner):
    assert trick_winner(cards(trick), trump) == winner


@pytest.mark.parametrize(
    ("trick", "message"),
    [
        ("", "a trick has 1 to 4 cards, not 0"),
        ("9S TS JS QS KS", "a trick has 1 to 4 cards, not 5"),
        ("9S TS 9S", "a trick cannot hold the same card twice"),
    ],
)
def test_trick_winner_refuses_a_malformed_trick(trick, message):
    with pytest.raises(RulesError) as error:
        trick_winner(cards(trick), Trump.HEARTS)
    assert str(error.value) == message


# --- legal plays ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "led", "trump", "legal"),
    [
        # Leading: any card.
        ("AS 9H KD", None, Trump.HEARTS, "AS 9H KD"),
        # Must follow the suit led.
        ("AS 9H KD TS", Suit.SPADES, Trump.HEARTS, "AS TS"),
        ("AS 9H KD", Suit.DIAMONDS, Trump.NO_TRUMP, "KD"),
        # Void in the suit led: anything, trump or discard.
        ("AS KC 9H", Suit.DIAMONDS, Trump.HEARTS, "AS KC 9H"),
        # The left bower follows the trump suit...
        ("JD AS", Suit.HEARTS, Trump.HEARTS, "JD"),
        ("JD 9H AS", Suit.HEARTS, Trump.HEARTS, "JD 9H"),
        ("JC KC AD", Suit.SPADES, Trump.SPADES, "JC"),
        # ...not its printed suit.
        ("JD AD 9S", Suit.DIAMONDS, Trump.HEARTS, "AD"),
        ("JD AS", Suit.DIAMONDS, Trump.HEARTS, "JD AS"),
        ("JS 9C", Suit.SPADES, Trump.CLUBS, "JS 9C"),
        # At no trump a jack is its printed suit.
        ("JD AH", Suit.DIAMONDS, Trump.NO_TRUMP, "JD"),
        ("JD AH", Suit.HEARTS, Trump.NO_TRUMP, "AH"),
        # A jack of the other colour is a plain card of its suit.
        ("JS AH", Suit.SPADES, Trump.HEARTS, "JS"),
        # An empty hand has nothing to play.
        ("", Suit.SPADES, Trump.HEARTS, ""),
    ],
)
def test_legal_cards_follow_the_effective_suit_led(hand, led, trump, legal):
    assert legal_cards(cards(hand), led, trump) == frozenset(cards(legal))


def test_card_index_is_its_place_in_the_deck():
    assert [card.index for card in DECK] == list(range(24))


def test_card_built_again_equals_the_deck_card_with_its_index():
    card = Card(Rank.JACK, Suit.DIAMONDS)

    assert (card, card.index, hash(card)) == (
        Card.parse("JD"),
        Card.parse("JD").index,
        hash(Card.parse("JD")),
    )


def test_plain_orders_at_hearts_leave_out_hearts_and_the_jack_of_diamonds():
    assert plain_orders(Trump.HEARTS) == (
        (Suit.SPADES, cards("AS KS QS JS TS 9S")),
        (Suit.DIAMONDS, cards("AD KD QD TD 9D")),
        (Suit.CLUBS, cards("AC KC QC JC TC 9C")),
    )


def test_plain_orders_at_no_trump_list_the_four_suits():
    assert [suit for suit, _order in plain_orders(Trump.NO_TRUMP)] == list(Suit)
