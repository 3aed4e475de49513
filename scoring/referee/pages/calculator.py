"""What the trick calculator shows, laid out from the engine: no rules here."""

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext

from ...common.words import TRUMP_NAMES, card_label, is_red, red_card
from ...engine import DECK, SEATS, Card, Suit, Trump, card_name, explain_trick, suit_name


def trick_href(trump: Trump | None, cards: tuple[Card, ...], game: str | None = None) -> str:
    """The calculator's address for this question: ``/referee/trick?trump=H&cards=JD,AD``,
    then ``&game=7`` when it was opened from game 7, to find the way back."""
    params = {
        "trump": trump.value if trump else "",
        "cards": ",".join(map(str, cards)),
        "game": str(game) if game else "",
    }
    query = urlencode({name: value for name, value in params.items() if value}, safe=",")
    return reverse("calculator") + (f"?{query}" if query else "")


def calculator_context(
    trump: Trump | None, cards: tuple[Card, ...], game: str | None = None
) -> dict[str, Any]:
    """What the calculator shows: trump keys, the cards played, the 24 card keys, the verdict;
    opened from a game, the way back to it, and every link keeps it."""
    full = len(cards) == SEATS
    verdict = explain_trick(cards, trump) if full and trump else None
    positions = [gettext("1st"), gettext("2nd"), gettext("3rd"), gettext("4th")]

    def ask(choice: Trump | None, question: tuple[Card, ...]) -> str:
        """A link to another question, from the same game if any."""
        return trick_href(choice, question, game)

    def shown(card: Card) -> dict[str, Any]:
        return {
            "code": str(card),
            "label": card_label(card),
            "name": card_name(card).translate(gettext),
            "red": red_card(card),
        }

    trumps = [
        {
            "value": choice.value,
            "name": TRUMP_NAMES[choice],
            "symbol": choice.suit.symbol if choice.suit else "∅",
            "red": is_red(choice),
            "current": choice is trump,
            "href": ask(choice, cards),
        }
        for choice in Trump
    ]
    played = [
        {
            "position": position,
            "card": shown(cards[index]) if index < len(cards) else None,
            "winner": verdict is not None and verdict.winner == index,
        }
        for index, position in enumerate(positions)
    ]
    suits = [
        {
            "name": suit_name(suit).translate(gettext),
            "keys": [
                {
                    **shown(card),
                    "played": card in cards,
                    "href": None if full or card in cards else ask(trump, (*cards, card)),
                }
                for card in DECK
                if card.suit is suit
            ],
        }
        for suit in Suit
    ]
    return {
        "trump": trump,
        "cards": cards,
        "full": full,
        "trumps": trumps,
        "played": played,
        "suits": suits,
        "verdict": None
        if verdict is None
        else {
            "card": card_name(cards[verdict.winner]).translate(gettext),
            "reason": capfirst(verdict.reason.translate(gettext)),
            "notes": [capfirst(note.translate(gettext)) for note in verdict.notes],
        },
        "new_href": ask(trump, ()),
        "back_href": ask(trump, cards[:-1]),
        "game_href": reverse("game", args=[game]) if game else None,
    }
