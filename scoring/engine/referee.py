"""The referee's words: why a card wins a trick, what a revoke was, a play in progress.

Explanations are :class:`Phrase` objects, English templates marked for translation
whose parameters may be phrases themselves, so that the web layer can say them in
the user's language (``phrase.translate(gettext)``) and the engine stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .auction import SEATS
from .cards import Card, Rank, Suit, Trump, effective_suit, is_trump, trick_winner
from .errors import RulesError, gettext_noop
from .hand import TRICKS_PER_HAND
from .play import PlayedTrick, Revoke


@dataclass(frozen=True)
class Phrase:
    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def translate(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        values = {
            name: value.translate(gettext) if isinstance(value, Phrase) else value
            for name, value in self.params.items()
        }
        return gettext(self.template).format(**values)

    def __str__(self) -> str:
        return self.translate()


SUIT_NAMES = {
    Suit.SPADES: gettext_noop("spades"),
    Suit.HEARTS: gettext_noop("hearts"),
    Suit.DIAMONDS: gettext_noop("diamonds"),
    Suit.CLUBS: gettext_noop("clubs"),
}
# Whole names, since other languages change the article with the rank (le valet, la dame, l'as).
CARD_NAMES = {
    Rank.NINE: gettext_noop("the nine of {suit}"),
    Rank.TEN: gettext_noop("the ten of {suit}"),
    Rank.JACK: gettext_noop("the jack of {suit}"),
    Rank.QUEEN: gettext_noop("the queen of {suit}"),
    Rank.KING: gettext_noop("the king of {suit}"),
    Rank.ACE: gettext_noop("the ace of {suit}"),
}


def suit_name(suit: Suit) -> Phrase:
    return Phrase(SUIT_NAMES[suit])


def card_name(card: Card) -> Phrase:
    """``the jack of diamonds``."""
    return Phrase(CARD_NAMES[card.rank], {"suit": suit_name(card.suit)})


@dataclass(frozen=True)
class TrickVerdict:
    winner: int
    """The index, in play order, of the winning card."""
    reason: Phrase
    notes: tuple[Phrase, ...] = ()


def explain_trick(cards: Sequence[Card], trump: Trump) -> TrickVerdict:
    """Which card wins these cards, and why, in words."""
    winner = trick_winner(cards, trump)
    card, led = cards[winner], effective_suit(cards[0], trump)
    named = {"card": card_name(card)}
    notes: list[Phrase] = []
    if trump.suit is not None and effective_suit(cards[0], trump) is not cards[0].suit:
        notes.append(
            Phrase(
                gettext_noop("{card} belongs to the trump suit: {suit} were led."),
                {"card": card_name(cards[0]), "suit": suit_name(led)},
            )
        )
    if trump.suit is None:
        reason = Phrase(
            gettext_noop(
                "{card} is the highest card of the suit led, {suit}: at no trump, "
                "each suit runs from the ace down to the nine."
            ),
            {**named, "suit": suit_name(led)},
        )
    elif not is_trump(card, trump):
        reason = Phrase(
            gettext_noop("{card} is the highest card of the suit led, {suit}, and nobody trumped."),
            {**named, "suit": suit_name(led)},
        )
    elif card.rank is Rank.JACK:
        reason = Phrase(
            gettext_noop("{card} is the highest card when {trump} are trump.")
            if card.suit is trump.suit
            else gettext_noop("{card} is the second-highest trump when {trump} are trump."),
            {**named, "trump": suit_name(trump.suit)},
        )
    else:
        trumps = sum(is_trump(other, trump) for other in cards)
        reason = Phrase(
            gettext_noop("{card} is the highest trump played; {trump} are trump.")
            if trumps > 1 or led is trump.suit
            else gettext_noop("{card} is a trump, {trump}, and no other trump was played."),
            {**named, "trump": suit_name(trump.suit)},
        )
    return TrickVerdict(winner, reason, tuple(notes))


@dataclass(frozen=True)
class PlayInProgress:
    """A hand being entered card by card."""

    tricks: tuple[PlayedTrick, ...]
    """The complete tricks."""
    current: tuple[Card, ...]
    """The cards of the trick under way, in the order played."""
    leader: int
    """Who led, or leads, the trick under way."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for trick in self.tricks for card in trick.cards) + self.current

    @property
    def complete(self) -> bool:
        return len(self.tricks) == TRICKS_PER_HAND

    @property
    def to_play(self) -> int | None:
        """Whose turn it is; None once the six tricks are played."""
        return None if self.complete else (self.leader + len(self.current)) % SEATS


def follow_play(taker: int, trump: Trump, cards: Sequence[Card]) -> PlayInProgress:
    """The cards played so far, in order: the taker leads, each trick's winner leads the next."""
    # The deck has 24 cards: with none twice, there are no more than 24.
    if len(set(cards)) != len(cards):
        raise RulesError(gettext_noop("a card cannot be played twice"))
    tricks: list[PlayedTrick] = []
    leader = taker
    for start in range(0, len(cards) - len(cards) % SEATS, SEATS):
        trick = tuple(cards[start : start + SEATS])
        winner = (leader + trick_winner(trick, trump)) % SEATS
        tricks.append(PlayedTrick(leader, trick, winner))
        leader = winner
    current = tuple(cards[len(tricks) * SEATS :])
    return PlayInProgress(tuple(tricks), current, leader)


def explain_revoke(
    revoke: Revoke, player: str, label: Callable[[Card], str] = lambda card: card.label
) -> Phrase:
    """``Dalila did not follow hearts in trick 2: ...``, naming what he could have played.

    ``label`` shows each card held; the web layer passes its own, in the user's language.
    """
    return Phrase(
        gettext_noop(
            "{player} did not follow {suit} in trick {trick}: {player} played {card} "
            "while holding {held}."
        ),
        {
            "player": player,
            "suit": suit_name(revoke.led),
            "trick": revoke.trick,
            "card": card_name(revoke.card),
            "held": " ".join(map(label, revoke.held)),
        },
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards written one after another, separated by commas or spaces: ``"JD,AD 10S"``."""
    return tuple(Card.parse(part) for part in text.replace(",", " ").split())


def format_cards(cards: Sequence[Card]) -> str:
    return ",".join(str(card) for card in cards)


def in_tricks(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Cards in the order played, four to a trick."""
    return tuple(tuple(cards[start : start + SEATS]) for start in range(0, len(cards), SEATS))
