"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext

from ..common.forms import (
    rules_error,
)
from ..engine import (
    BOULMOUS,
    LOWEST_BID,
    SEATS,
    Card,
    Contract,
    RulesError,
    Trump,
    follow_play,
    parse_cards,
    trick_winner,
)
from ..table.face import ContractFields


class PlayForm(forms.Form):
    """A hand being entered card by card: its contract, and the cards played so far.

    Read from the query string, so that every tap is a plain link and a reload
    shows the same play.
    """

    taker = forms.TypedChoiceField(coerce=int, choices=[(seat, seat) for seat in range(SEATS)])
    bid = forms.TypedChoiceField(
        coerce=int, choices=[(bid, bid) for bid in range(LOWEST_BID, BOULMOUS + 1)]
    )
    trump = forms.ChoiceField(choices=[(trump.value, trump.value) for trump in Trump])
    cards = forms.CharField(required=False, max_length=200)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if self.errors:
            return data
        contract = Contract(taker=data["taker"], bid=data["bid"], trump=Trump(data["trump"]))
        try:
            data["play"] = follow_play(
                contract.taker, contract.trump, parse_cards(data.get("cards") or "")
            )
        except RulesError as error:
            raise rules_error(error) from None
        data["contract"] = contract
        return data


# --- The trick calculator ---


class TrickForm(forms.Form):
    """The trick calculator's question, read from the query string: a trump, up to four cards.

    What the engine refuses is left out, each time with its message, so that the page
    always shows a question it can answer; text too long to be a question is a field error.
    """

    trump = forms.CharField(required=False, max_length=8)
    cards = forms.CharField(required=False, max_length=64)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        data["trump"] = self._trump(data.get("trump") or "")
        data["cards"] = self._cards(data.get("cards") or "")
        return data

    def _trump(self, text: str) -> Trump | None:
        if not text:
            return None
        try:
            return Trump.parse(text)
        except RulesError as error:
            self.add_error(None, rules_error(error))
            return None

    def _cards(self, text: str) -> tuple[Card, ...]:
        cards: list[Card] = []
        for part in text.replace(",", " ").split():
            try:
                cards.append(Card.parse(part))
            except RulesError as error:
                self.add_error(None, rules_error(error))
        if cards:
            try:
                trick_winner(cards, Trump.NO_TRUMP)  # the engine says whether they make a trick
            except RulesError as error:
                self.add_error(None, rules_error(error))
        # Each card once, where it was first played, and no more than a trick.
        return tuple(dict.fromkeys(cards))[:SEATS]


class RulesQueryForm(forms.Form):
    """The rules page's query: the game whose options it shows, if any."""

    game = forms.SlugField(required=False, max_length=32)


# --- The contract of a hand to play card by card, and the calculator's way back ---


class PlayContractForm(ContractFields):
    """The contract chosen on the card-by-card page, when its address lacks one: the taker,
    the bid and the trump, each kept once chosen, and the cards already played, if any.

    With none of the three, the page simply asks; once one is given, each one missing or
    not a choice is said once, plainly. ``contract`` is in cleaned_data once all three are.
    """

    cards = forms.CharField(required=False, widget=forms.HiddenInput, max_length=200)

    CONTRACT_FIELDS = ("taker", "bid", "trump")

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        taker = self.fields["taker"]
        assert isinstance(taker, forms.TypedChoiceField)
        taker.choices = list(enumerate(names))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        missing = [name for name in self.CONTRACT_FIELDS if data.get(name) in (None, "")]
        if not missing:
            data["contract"] = Contract(
                taker=data["taker"], bid=data["bid"], trump=Trump(data["trump"])
            )
        elif any(self.data.get(name) for name in self.CONTRACT_FIELDS):
            messages = {
                "taker": gettext("Choose the taker."),
                "bid": gettext("Choose the bid."),
                "trump": gettext("Choose the trump, or no trump."),
            }
            for name in missing:
                if name not in self.errors:  # a value that is not a choice: said already
                    self.add_error(name, messages[name])
        return data


class CalculatorQueryForm(forms.Form):
    """The trick calculator's query besides its question: the game it was opened from, if
    any, for the way back. A value that is not a game's address is no game."""

    game = forms.SlugField(required=False, max_length=32)
