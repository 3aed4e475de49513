"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

import math
from datetime import date
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..engine import (
    CURRENCIES,
    OPTION_NAMES,
    OPTIONS,
    SEATS,
    Kind,
    Option,
    Rules,
    RulesError,
    check_players,
)
from .names import check_name, check_text
from .once import OnceFields
from .words import say_day

# What this site keeps; the game record itself sets no limits.
MAX_TARGET = 32767
MAX_HANDS = 1000
MAX_NAME = 40
MACHINE_TEXT = {"dir": "ltr", "spellcheck": "false", "autocapitalize": "none"}
"""A text box for what a program reads (a record's JSON, web addresses): left to right in
every language, so that an Arabic page does not set JSON's brackets and quotes backwards,
and neither spelling nor capitals are corrected as it is typed."""
# The currencies a table is most likely to use first, then every other ISO 4217 code.
COMMON_CURRENCIES = ["EUR", "TND", "DZD", "MAD", "USD", "GBP", "CHF", "CAD"]


class DateInput(forms.DateInput):
    """A day in the browser's date control: its value always ISO (2026-12-04), the only
    format an ``<input type="date">`` takes; a localised 04/12/2026 is dropped by the
    browser, which then sends the field empty. Read back, ISO is taken in every language."""

    input_type = "date"
    ISO = "%Y-%m-%d"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format=self.ISO)


FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)
"""The days a date field takes: a club's seasons, nights and filters, with room on both
sides for what is worked out from a day (its start in the club's zone, the day after),
which Python's dates, ending at years 1 and 9999, would not have."""


class DateField(forms.DateField):
    """A day typed in the browser's date control (:class:`DateInput`), from
    :data:`FIRST_DAY` to :data:`LAST_DAY`."""

    widget = DateInput

    def __init__(self, *args: Any, bounded: bool = True, **kwargs: Any) -> None:
        """``bounded=False``: any day Python has, for a filter, which bounds nothing past
        the calendar's edges (the games list gives the whole list or none, as the API)."""
        super().__init__(*args, **kwargs)
        self.bounded = bounded

    def validate(self, value: Any) -> None:
        super().validate(value)
        if self.bounded and value and not FIRST_DAY <= value <= LAST_DAY:
            raise forms.ValidationError(
                gettext("Give a day between %(first)s and %(last)s.")
                % {"first": say_day(FIRST_DAY), "last": say_day(LAST_DAY)},
                code="out_of_range",
            )


def form_megabytes() -> str:
    """How much text a form may send (Django's DATA_UPLOAD_MAX_MEMORY_SIZE, its files not
    counted), in MB rounded down, as the reader writes numbers: what a page says of it."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return number_format(math.floor(limit / 100_000) / 10) if limit else "∞"


def clean_name(name: str) -> str:
    """A player's name as the site keeps it (:func:`~.names.check_name`): trimmed, NFC, with
    no control, invisible (format) or bidi control character, which would make it print
    oddly, not read back, or turn the text around it."""
    try:
        return check_name(name)
    except RulesError:
        raise forms.ValidationError(
            gettext("A name cannot hold control or invisible characters.")
        ) from None


def clean_text(text: str) -> str:
    """Any other text people type (a club's or a season's name, a place), kept by the same
    rule as names (:func:`~.names.check_text`)."""
    try:
        return check_text(text)
    except RulesError:
        raise forms.ValidationError(
            gettext("This field cannot hold control or invisible characters.")
        ) from None


class NameField(forms.CharField):
    """A player's name: :func:`clean_name`."""

    def clean(self, value: Any) -> Any:
        value = super().clean(value)
        return clean_name(value) if value else value


class TextField(forms.CharField):
    """Free text: :func:`clean_text`."""

    def clean(self, value: Any) -> Any:
        value = super().clean(value)
        return clean_text(value) if value else value


def rules_error(error: RulesError) -> forms.ValidationError:
    """An engine error, in the user's language."""
    return forms.ValidationError(error.translate(gettext))


def currency_choices() -> list[tuple[str, str]]:
    return [(code, code) for code in COMMON_CURRENCIES] + [
        (code, code) for code in sorted(CURRENCIES - set(COMMON_CURRENCIES))
    ]


def rules_field(option: Option) -> forms.Field:
    """The form field that sets ``option`` (:data:`~scoring.engine.OPTIONS`)."""
    label, help_text = _(option.label), _(option.help) if option.help else ""
    match option.kind:
        # An option the record spec does not list may be left out of what is sent (a form
        # from before it, a script): it is then its default (RulesFields.clean).
        case Kind.NUMBER:
            return forms.IntegerField(
                label=label,
                help_text=help_text,
                min_value=option.least,
                max_value=999,
                initial=option.default,
                required=option.in_spec,
            )
        case Kind.CHOICE:
            return forms.ChoiceField(
                label=label,
                choices=[(choice.value, _(choice.meaning)) for choice in option.choices],
                initial=option.to_data(option.default),
                widget=forms.RadioSelect,
                required=option.in_spec,
            )
        case Kind.MONEY:
            return forms.DecimalField(
                label=label,
                help_text=help_text,
                required=False,
                # Read as the page's language writes it, as the page shows it and a phone's
                # decimal keypad types it: 0,50 in fr and ar (0.50 too), 0.50 in en.
                localize=True,
                min_value=Decimal(0),
                max_digits=16,
                decimal_places=4,
            )
        case Kind.CURRENCY:
            return forms.ChoiceField(label=label, choices=currency_choices, initial=option.default)
        case Kind.YES_NO:
            return forms.BooleanField(label=label, help_text=help_text, required=False)


class RulesFields(forms.Form):
    """A game's rules as a table or a club sets them, read into the engine's ``Rules``: one
    field per option of :data:`~scoring.engine.OPTIONS` (added below)."""

    @staticmethod
    def initial_of(rules: Rules) -> dict[str, Any]:
        """The fields' values for ``rules``."""
        data = rules.to_data()
        return data | {"stake": rules.stake or None}

    @property
    def rules_fields(self) -> list[tuple[str, forms.BoundField]]:
        """The options' fields in the registry's order, each with its kind (``number``,
        ``choice``, ``money``, ``yes_no``), as the pages lay them out; the currency goes
        beside the stake."""
        return [
            (option.kind.value, self[option.name])
            for option in OPTIONS
            if option.kind is not Kind.CURRENCY
        ]

    @property
    def rules_errors(self) -> bool:
        return any(name in self.errors for name in OPTION_NAMES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        for option in OPTIONS:
            left_out = data.get(option.name) in (None, "") and option.name not in self.errors
            if left_out and not option.in_spec:
                data[option.name] = option.to_data(option.default)
        # An option left out of what was sent, or refused beside its field, leaves no rules.
        if all(data.get(name) not in (None, "") or name == "stake" for name in OPTION_NAMES):
            given = {name: data.get(name) for name in OPTION_NAMES}
            given["stake"] = data.get("stake") or Decimal(0)
            try:
                data["rules"] = Rules.from_data(given)
            except RulesError as error:
                self.add_error("stake", rules_error(error))
        return data


for _option in OPTIONS:
    RulesFields.base_fields[_option.name] = RulesFields.declared_fields[_option.name] = rules_field(
        _option
    )


class SeatsFields(OnceFields):
    """Four players round the table, and who deals first: a new game's seats; its one-time
    token makes a double tap on Start start one game."""

    player_0 = NameField(label=_("Player 1"), max_length=MAX_NAME)
    player_1 = NameField(label=_("Player 2"), max_length=MAX_NAME)
    player_2 = NameField(label=_("Player 3"), max_length=MAX_NAME)
    player_3 = NameField(label=_("Player 4"), max_length=MAX_NAME)
    first_dealer = forms.ChoiceField(
        label=_("First dealer"),
        choices=[
            ("random", _("Draw at random")),
            ("0", _("Player 1")),
            ("1", _("Player 2")),
            ("2", _("Player 3")),
            ("3", _("Player 4")),
        ],
        initial="random",
        widget=forms.RadioSelect,
    )

    NAME_FIELDS = [f"player_{seat}" for seat in range(SEATS)]

    @property
    def name_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.NAME_FIELDS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        names = [data.get(field) for field in self.NAME_FIELDS]
        if all(names):
            try:
                data["names"] = check_players(names)
            except RulesError as error:
                seat = error.params.get("seat", SEATS - 1)
                self.add_error(f"player_{seat}", rules_error(error))
        dealer = data.get("first_dealer")
        data["first_dealer_seat"] = None if dealer in (None, "random") else int(dealer)
        return data
