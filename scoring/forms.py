"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

import unicodedata
from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .engine import (
    BOULMOUS,
    CURRENCIES,
    DEFAULT_TARGET,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    Card,
    Contract,
    FailedTaker,
    Hand,
    Limits,
    Record,
    RecordError,
    Rules,
    RulesError,
    TooManyProblems,
    Trump,
    auction_taker,
    check_players,
    check_tricks,
    dealer_of,
    fill_tricks,
    follow_play,
    in_tricks,
    loads,
    parse_call,
    parse_cards,
    speaking_order,
    trick_winner,
)
from .engine.league import DEFAULT_POINTS, check_points
from .models import Member
from .words import TRUMP_NAMES

FAILED_TAKER_CHOICES = [
    (
        FailedTaker.TRICKS_MINUS_BID.value,
        _("His tricks count, minus his bid: 2 tricks on a bid of 4 score −2."),
    ),
    (
        FailedTaker.MINUS_BID.value,
        _("His tricks do not count, he scores minus his bid: a missed 4 scores −4."),
    ),
]
# What this site keeps; the game record itself sets no limits.
MAX_TARGET = 32767
MAX_HANDS = 1000
MAX_NAME = 40
# The currencies a table is most likely to use first, then every other ISO 4217 code.
COMMON_CURRENCIES = ["EUR", "TND", "DZD", "MAD", "USD", "GBP", "CHF", "CAD"]


def clean_name(name: str) -> str:
    """A player's name as the site keeps it: NFC, trimmed, with no control or invisible
    (format) character, which would make it print oddly or not read back."""
    name = unicodedata.normalize("NFC", name).strip()
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in name):
        raise forms.ValidationError(gettext("A name cannot hold control or invisible characters."))
    return name


class NameField(forms.CharField):
    def clean(self, value: Any) -> Any:
        value = super().clean(value)
        return clean_name(value) if value else value


def rules_error(error: RulesError) -> forms.ValidationError:
    """An engine error, in the user's language."""
    return forms.ValidationError(error.translate(gettext))


def currency_choices() -> list[tuple[str, str]]:
    return [(code, code) for code in COMMON_CURRENCIES] + [
        (code, code) for code in sorted(CURRENCIES - set(COMMON_CURRENCIES))
    ]


class RulesFields(forms.Form):
    """A game's rules as a table or a club sets them, read into the engine's ``Rules``."""

    target = forms.IntegerField(
        label=_("Points to win"), min_value=1, max_value=999, initial=DEFAULT_TARGET
    )
    failed_taker = forms.ChoiceField(
        label=_("A taker who misses his bid"),
        choices=FAILED_TAKER_CHOICES,
        initial=FailedTaker.TRICKS_MINUS_BID.value,
        widget=forms.RadioSelect,
    )
    stake = forms.DecimalField(
        label=_("Stake"),
        help_text=_("Leave empty to play without money."),
        required=False,
        min_value=Decimal(0),
        max_digits=16,
        decimal_places=4,
    )
    currency = forms.ChoiceField(label=_("Currency"), choices=currency_choices, initial="EUR")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if data.get("target") and data.get("failed_taker") and data.get("currency"):
            try:
                data["rules"] = Rules(
                    target=data["target"],
                    failed_taker=FailedTaker(data["failed_taker"]),
                    stake=data.get("stake") or Decimal(0),
                    currency=data["currency"],
                )
            except RulesError as error:
                self.add_error("stake", rules_error(error))
        return data


class SeatsFields(forms.Form):
    """Four players round the table, and who deals first: a new game's seats."""

    token = forms.UUIDField(widget=forms.HiddenInput, required=False)
    """The form's one-time token: a double tap on Start starts one game."""
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


class NewGameForm(SeatsFields, RulesFields):
    """A game at a table: its seats, its rules, and where it is played."""

    place = forms.CharField(label=_("Club or place (optional)"), max_length=80, required=False)


class ContractFields(forms.Form):
    """The taker, the bid and the trump, as keys to tap: the hand form's and the
    card-by-card page's."""

    taker = forms.TypedChoiceField(
        label=_("Taker"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("This taker is not one of the four players.")},
    )
    bid = forms.TypedChoiceField(
        label=_("Bid"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        choices=[(bid, str(bid)) for bid in range(LOWEST_BID, BOULMOUS)]
        + [(BOULMOUS, _("6 boulmous"))],
        error_messages={"invalid_choice": _("This bid is not 3, 4, 5 or 6.")},
    )
    trump = forms.ChoiceField(
        label=_("Trump"),
        required=False,
        widget=forms.RadioSelect,
        choices=[(trump.value, TRUMP_NAMES[trump]) for trump in Trump],
        error_messages={"invalid_choice": _("This trump is not one of the five.")},
    )


class HandForm(ContractFields):
    """One hand: taker, bid, trump, tricks (the fourth follows), or an all-pass deal.

    ``number`` is the hand this form records or edits, ``dealer`` its dealer, and
    ``names`` label the seats. The form makes an engine hand of the input; whether it
    fits the game is the service's question, put to the engine.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_HANDS)
    dealer = forms.TypedChoiceField(
        widget=forms.HiddenInput,
        coerce=int,
        empty_value=None,
        required=False,
        choices=[(seat, seat) for seat in range(SEATS)],
    )
    """The hand's dealer, as the page showed it: it orders the calls. The engine checks
    the calls again against the game's own rotation."""
    token = forms.UUIDField(widget=forms.HiddenInput, required=False)
    void = forms.BooleanField(required=False, widget=forms.HiddenInput)
    discard_after_end = forms.BooleanField(required=False, widget=forms.HiddenInput)
    plays = forms.CharField(required=False, widget=forms.HiddenInput, max_length=200)
    """The 24 cards in the order played (``AH,9H,...``), for a hand recorded card by card."""
    # Where the errors about the tricks together, and about the auction, are shown:
    # beside those controls. Nothing is sent under these names.
    tricks = forms.CharField(required=False, widget=forms.HiddenInput, max_length=0)
    calls = forms.CharField(required=False, widget=forms.HiddenInput, max_length=0)

    def __init__(self, *args: Any, names: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ends_at: int | None = None
        self.outbid: RulesError | None = None
        """A bid refused by the auction, to be said with the players' names."""
        for seat in range(SEATS):
            self.fields[f"tricks_{seat}"] = forms.TypedChoiceField(
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
                choices=[(count, str(count)) for count in range(TRICKS_PER_HAND + 1)],
            )
        self.speakers = speaking_order(self._dealer())
        call_choices = [("", "—"), ("pass", _("pass"))] + [
            (str(bid), str(bid)) for bid in range(LOWEST_BID, BOULMOUS + 1)
        ]
        for position in range(SEATS):
            self.fields[f"call_{position}"] = forms.ChoiceField(
                required=False, choices=call_choices
            )
        self.name_seats(names or [f"{seat + 1}" for seat in range(SEATS)])

    def name_seats(self, names: Sequence[str]) -> None:
        """Label the seats' fields with the players' names, and name them in errors."""
        taker = self.fields["taker"]
        assert isinstance(taker, forms.TypedChoiceField)
        taker.choices = list(enumerate(names))
        for seat, name in enumerate(names):
            self.fields[f"tricks_{seat}"].label = name
        for position, seat in enumerate(self.speakers):
            self.fields[f"call_{position}"].label = names[seat]
        if self.outbid is not None:  # set by clean(): the errors are there
            params = self.outbid.params
            self.errors["calls"] = self.error_class(
                [
                    gettext(
                        "%(name)s bid %(bid)s, which must be higher than %(other)s’s %(highest)s."
                    )
                    % {
                        "name": names[params["seat"]],
                        "bid": params["bid"],
                        "other": names[params["by"]],
                        "highest": params["highest"],
                    }
                ]
            )

    def _dealer(self) -> int:
        """The dealer sent, to order the call fields; an unreadable one is left to clean()."""
        raw = self.data.get("dealer") if self.is_bound else self.initial.get("dealer")
        seats = {str(seat): seat for seat in range(SEATS)}
        return seats.get(str(raw), 0)

    @property
    def hand_number(self) -> int:
        """The hand this form is about, even when the number sent is not a number."""
        raw = self.data.get("number") if self.is_bound else self.initial.get("number")
        try:
            return min(max(1, int(raw)), MAX_HANDS)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return 1

    tricks_per_hand = TRICKS_PER_HAND

    @property
    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{seat}"] for seat in range(SEATS)]

    @property
    def call_fields(self) -> list[forms.BoundField]:
        return [self[f"call_{position}"] for position in range(SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if data.get("number") is None:
            raise forms.ValidationError(gettext("This hand number is not the next one."))
        hand = self._hand(data)
        if hand is not None:
            data["hand"] = hand
        return data

    def _hand(self, data: dict[str, Any]) -> Hand | None:
        if data.get("void"):
            return Hand()
        calls = self._calls()
        taken = None
        if calls is not None:
            try:
                taken = auction_taker(calls, self.speakers[-1])
            except RulesError as error:
                self.outbid = error if "by" in error.params else None
                self.add_error("calls", rules_error(error))
                return None
            if taken is None:
                return Hand(calls=calls)
            taker, bid = data.get("taker"), data.get("bid")
            if (taker is not None and taker != taken[0]) or (bid is not None and bid != taken[1]):
                self.add_error("calls", gettext("The calls give a different taker or bid."))
                return None
            data["taker"], data["bid"] = taken
        missing = [
            (name, message)
            for name, message in (
                ("taker", gettext("Choose the taker.")),
                ("bid", gettext("Choose the bid.")),
                ("trump", gettext("Choose the trump, or no trump.")),
            )
            if data.get(name) in (None, "")
        ]
        for name, message in missing:
            self.add_error(name, message)
        if data.get("plays"):
            return self._played(data, calls) if not missing else None
        tricks = self._tricks(data)
        if missing or tricks is None:
            return None
        try:
            contract = Contract(taker=data["taker"], bid=data["bid"], trump=Trump(data["trump"]))
            return Hand(contract, tricks=tricks, calls=calls)
        except RulesError as error:
            self.add_error(None, rules_error(error))
            return None

    def _played(self, data: dict[str, Any], calls: tuple[int | None, ...] | None) -> Hand | None:
        """A hand recorded card by card: its tricks follow from the play."""
        try:
            contract = Contract(taker=data["taker"], bid=data["bid"], trump=Trump(data["trump"]))
            return Hand(contract, plays=in_tricks(parse_cards(data["plays"])), calls=calls)
        except RulesError as error:
            self.add_error(None, rules_error(error))
            return None

    def _calls(self) -> tuple[int | None, ...] | None:
        given = [self.cleaned_data.get(f"call_{position}") or "" for position in range(SEATS)]
        if not any(given):
            return None
        if not all(given):
            self.add_error("calls", gettext("Give the four calls, or none."))
            return None
        if self.cleaned_data.get("dealer") is None:
            self.add_error("calls", gettext("Reload the page: it did not say who dealt this hand."))
            return None
        return tuple(parse_call(call if call == "pass" else int(call)) for call in given)

    def _tricks(self, data: dict[str, Any]) -> tuple[int, ...] | None:
        """Tricks by seat; the blanks the six tricks decide are filled by the engine."""
        counts = fill_tricks([data.get(f"tricks_{seat}") for seat in range(SEATS)])
        if None in counts:
            self.add_error("tricks", gettext("Give the tricks of at least three players."))
            return None
        try:
            return check_tricks(counts)
        except RulesError as error:
            self.add_error("tricks", rules_error(error))
            return None


def hand_initial(number: int, first_dealer: int, hand: Hand | None = None) -> dict[str, Any]:
    """The hand form's initial values: a new hand's, or a recorded hand's to edit it."""
    initial: dict[str, Any] = {"number": number, "dealer": dealer_of(number - 1, first_dealer)}
    if hand is None:
        return initial
    if hand.contract is None:
        return initial
    contract = hand.contract
    initial.update(taker=contract.taker, bid=contract.bid, trump=contract.trump.value)
    initial.update({f"tricks_{seat}": count for seat, count in enumerate(hand.tricks or ())})
    for position, call in enumerate(hand.calls or ()):
        initial[f"call_{position}"] = "pass" if call is None else str(call)
    return initial


class ImportForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a boulmous/1 record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
    )
    file = forms.FileField(label=_("or choose a file"), required=False)

    MAX_BYTES = 1_000_000
    # Checked while the record is read, so that a large or hostile one costs little: its
    # size (uploaded or pasted), its nesting (a valid record nests 5 deep), its number of
    # hands before any is read; and the problems listed, the hands after them not read.
    LIMITS = Limits(max_bytes=MAX_BYTES, max_depth=10, max_hands=MAX_HANDS, max_problems=20)
    # The record's descriptive keys that the game keeps in columns of these lengths.
    ABOUT_LENGTHS = {"id": 64, "place": 80, "club": 80, "season": 80}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(gettext("The file is larger than 1 MB."))
            text: str | bytes = upload.read()
        else:
            text = data.get("text") or ""
        if not text:
            raise forms.ValidationError(gettext("Paste a record or choose a file."))
        try:
            record = loads(text, limits=self.LIMITS)
        except RecordError as error:
            raise forms.ValidationError(self._problems(error)) from None
        # What the record allows but this site does not keep.
        if record.rules.target > MAX_TARGET:
            raise forms.ValidationError(
                gettext("This site keeps games of up to %(max)s points.") % {"max": MAX_TARGET}
            )
        for key, length in self.ABOUT_LENGTHS.items():
            value = getattr(record.about, key) or ""
            if len(value) > length or not self._storable(value):
                raise forms.ValidationError(
                    gettext("%(key)s: this site keeps text of up to %(max)s characters.")
                    % {"key": key, "max": length}
                )
        for name in record.players:
            if len(name) > MAX_NAME or not name.isprintable():
                raise forms.ValidationError(
                    gettext("Names have up to %(max)s printable characters: %(name)r.")
                    % {"max": MAX_NAME, "name": name}
                )
        data["record"] = record
        return data

    @staticmethod
    def _storable(text: str) -> bool:
        """Text every database keeps: no NUL (PostgreSQL refuses it), no lone surrogate
        (which JSON can write, ``"\\ud800"``, and UTF-8 cannot)."""
        return "\x00" not in text and not any("\ud800" <= char <= "\udfff" for char in text)

    @staticmethod
    def _problems(error: RecordError) -> list[str]:
        """The problems of a refused record, in the user's language; past the limit, a
        last line counts those left out."""
        lines = [problem.translate(gettext) for problem in error.problems]
        if isinstance(error, TooManyProblems):
            count = error.more
            if error.stopped:  # the hands after them were not read
                line = ngettext(
                    "… and at least %(count)s more problem",
                    "… and at least %(count)s more problems",
                    count,
                )
            else:
                line = ngettext(
                    "… and %(count)s more problem", "… and %(count)s more problems", count
                )
            lines.append(line % {"count": count})
        return lines


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


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]  # generic in django-stubs only
    """A new account: a username and a password (Django's validators check it), and an email
    address if one wants to be able to reset a forgotten password."""

    email = forms.EmailField(
        label=_("Email address"),
        required=False,
        max_length=254,
        help_text=_("Optional: only to reset a forgotten password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class JoinForm(forms.Form):
    """A phone taking a scorer link: the name the history will give its changes."""

    label = NameField(
        label=_("This phone is"),
        help_text=_("For the history: Amina’s phone, the club’s tablet…"),
        required=False,
        max_length=40,
    )


# --- Clubs ---


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every time zone this server knows (``zoneinfo``), by name."""
    return [(zone, zone) for zone in sorted(available_timezones())]


def slug_of(name: str) -> str:
    """An address made of a name: Latin letters, digits and dashes (empty if none is left)."""
    return slugify(name)[:40].strip("-")


class PointsFields(forms.Form):
    """League points for ranks 1 to 4 at a table; the engine says whether they are a scale."""

    points_0 = forms.IntegerField(label=_("1st"), min_value=0, max_value=999)
    points_1 = forms.IntegerField(label=_("2nd"), min_value=0, max_value=999)
    points_2 = forms.IntegerField(label=_("3rd"), min_value=0, max_value=999)
    points_3 = forms.IntegerField(label=_("4th"), min_value=0, max_value=999)
    # Where the errors about the four together are shown. Nothing is sent under this name.
    points = forms.CharField(required=False, widget=forms.HiddenInput, max_length=0)

    POINTS_FIELDS = [f"points_{rank}" for rank in range(SEATS)]

    @staticmethod
    def points_initial(points: Sequence[int]) -> dict[str, int]:
        return {f"points_{rank}": value for rank, value in enumerate(points)}

    @property
    def points_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.POINTS_FIELDS]

    def clean_points_scale(self, data: dict[str, Any]) -> None:
        values = [data.get(name) for name in self.POINTS_FIELDS]
        if any(value is None for value in values):
            return
        try:
            data["league_points"] = check_points(values)  # type: ignore[arg-type]
        except RulesError as error:
            self.add_error("points", rules_error(error))


class ClubSettingsForm(PointsFields, RulesFields):
    """A club's settings: its name, time zone, rules, league points, and who sees what."""

    name = forms.CharField(label=_("Club name"), max_length=80)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("The day a game finished, and so its season, is the day in this zone."),
        choices=time_zone_choices,
        initial="Europe/Paris",
    )
    public = forms.BooleanField(
        label=_("Public standings"),
        help_text=_("Anyone with the address sees the club's page, seasons and records."),
        required=False,
    )
    invite_admits = forms.BooleanField(
        label=_("The invite link admits at once"),
        help_text=_("Else an admin confirms each player who comes through it."),
        required=False,
    )

    @classmethod
    def initial_of(cls, club: Any) -> dict[str, Any]:
        """The form's values for a club as it is."""
        return {
            "name": club.name,
            "time_zone": club.time_zone,
            "target": club.target,
            "failed_taker": club.failed_taker,
            "stake": club.stake or None,
            "currency": club.currency,
            "public": club.public,
            "invite_admits": club.invite_admits,
            **cls.points_initial(club.points),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_points_scale(data)
        return data


class NewClubForm(ClubSettingsForm):
    """A new club: its settings, its address, and the name its creator goes by in it."""

    slug = forms.SlugField(
        label=_("Address"),
        help_text=_("Letters, digits and dashes; made from the name if left empty."),
        required=False,
        max_length=40,
    )
    your_name = NameField(label=_("Your name in the club"), max_length=MAX_NAME)

    field_order = ["name", "slug", "your_name"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial = {**self.points_initial(DEFAULT_POINTS), **self.initial}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = slug_of(data["name"])
            if not data["slug"]:
                self.add_error(
                    "slug", gettext("Give the club an address in Latin letters or digits.")
                )
        return data


class MemberForm(forms.Form):
    """A player added to the club by an admin: many will never touch the app."""

    name = NameField(label=_("Name"), max_length=MAX_NAME)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(role.value, role.label) for role in Member.Role if role != Member.Role.GUEST],
        initial=Member.Role.MEMBER.value,
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Member.Role.choices)


class ClaimForm(forms.Form):
    """An admin's answer to an account that says it is a player of the club."""

    decision = forms.ChoiceField(choices=[("accept", _("Accept")), ("refuse", _("Refuse"))])


class ClubJoinForm(forms.Form):
    """Someone who came through the invite link: one of the club's players who has no
    account yet, or a new name."""

    member = forms.TypedChoiceField(label=_("I am"), coerce=int, empty_value=None, required=False)
    name = NameField(
        label=_("or I am new here, and my name is"), max_length=MAX_NAME, required=False
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        assert isinstance(member, forms.TypedChoiceField)
        member.choices = [("", gettext("Someone new")), *players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if data.get("member") is None and not data.get("name") and not self.errors:
            self.add_error("name", gettext("Choose your name in the list, or give a new one."))
        return data


class SeasonForm(PointsFields):
    """A season: its name and address, its days, and its league points."""

    name = forms.CharField(label=_("Name"), max_length=80)
    slug = forms.SlugField(
        label=_("Address"),
        help_text=_("Letters, digits and dashes; made from the name if left empty."),
        required=False,
        max_length=40,
    )
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))

    field_order = ["name", "slug", "first_day", "last_day"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = slug_of(data["name"])
            if not data["slug"]:
                self.add_error(
                    "slug", gettext("Give the season an address in Latin letters or digits.")
                )
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            self.add_error("last_day", gettext("The last day comes before the first."))
        self.clean_points_scale(data)
        return data


class ClubGameForm(SeatsFields):
    """A club game: four players by name (members, or guests), and the first dealer; the
    rules are the club's."""


class ClubImportForm(forms.Form):
    """A club's ``records.jsonl``: one ``boulmous/1`` record a line, each read and checked as
    a single record is (:class:`ImportForm`); every line's problems are said with its number."""

    text = forms.CharField(
        label=_("Paste the records, one a line"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8}),
    )
    file = forms.FileField(label=_("or choose a records.jsonl file"), required=False)

    MAX_BYTES = 50_000_000
    MAX_LINES = 20_000
    MAX_PROBLEMS = 20

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        text = self._text(data)
        records: list[Record] = []
        problems: list[str] = []
        bad_lines: list[int] = []
        shown: set[int] = set()
        """The lines whose problems are said: past the limit, the others are counted."""
        seen: dict[str, int] = {}
        """Each record's id, and the line it is on."""
        lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
        if not lines:
            raise forms.ValidationError(gettext("Paste the records or choose a file."))
        if len(lines) > self.MAX_LINES:
            raise forms.ValidationError(
                gettext("This site imports up to %(max)s games at once.") % {"max": self.MAX_LINES}
            )
        for number, line in lines:
            found = self._line(line)
            if isinstance(found, Record) and found.about.id and found.about.id in seen:
                found = [
                    gettext("the id %(id)s is on line %(other)s too")
                    % {"id": found.about.id, "other": seen[found.about.id]}
                ]
            if isinstance(found, Record):
                if found.about.id:
                    seen[found.about.id] = number
                records.append(found)
                continue
            bad_lines.append(number)
            for problem in found:
                if len(problems) < self.MAX_PROBLEMS:
                    shown.add(number)
                    problems.append(
                        gettext("line %(number)s: %(problem)s")
                        % {"number": number, "problem": problem}
                    )
        if bad_lines:
            more = len(bad_lines) - len(shown)
            if more:
                problems.append(
                    ngettext(
                        "… and %(count)s more line with problems",
                        "… and %(count)s more lines with problems",
                        more,
                    )
                    % {"count": more}
                )
            raise forms.ValidationError(problems)
        data["records"] = records
        return data

    def _text(self, data: dict[str, Any]) -> str:
        upload = data.get("file")
        if upload is None:
            return str(data.get("text") or "")
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(gettext("The file is larger than 50 MB."))
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise forms.ValidationError(gettext("The file is not UTF-8 text.")) from None

    @staticmethod
    def _line(line: str) -> Record | list[str]:
        """The record on this line, or its problems, as a single record's import says them."""
        single = ImportForm({"text": line.rstrip("\r")})
        if single.is_valid():
            record: Record = single.cleaned_data["record"]
            return record
        return [str(problem) for problem in single.errors.get(NON_FIELD_ERRORS, [])] + [
            f"{name}: {problem}"
            for name, problems in single.errors.items()
            if name != NON_FIELD_ERRORS
            for problem in problems
        ]


# Club nights (issue 12).

MAX_ROUNDS = 50
GUEST_SEPARATORS = ("\n", "،", ";")
"""Besides the comma, what separates guests' names: a new line, the Arabic comma, a semicolon."""


class NightForm(forms.Form):
    """A club night: its day, its place, and how many rounds (none: until we stop)."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place (optional)"), max_length=80, required=False)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        help_text=_("Leave empty to play until we stop."),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )


class CheckInForm(forms.Form):
    """Who is present: the club's players tapped, and guests named, new or known."""

    present = forms.TypedMultipleChoiceField(
        label=_("Present"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    guests = forms.CharField(
        label=_("Add guests"),
        help_text=_("Their names, separated by commas or one per line."),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        present = self.fields["present"]
        assert isinstance(present, forms.TypedMultipleChoiceField)
        present.choices = list(players)

    def clean_guests(self) -> list[str]:
        """Each name as the site keeps it (:func:`clean_name`), once, in the order given."""
        text = str(self.cleaned_data.get("guests") or "")
        for separator in GUEST_SEPARATORS:
            text = text.replace(separator, ",")
        names: list[str] = []
        seen: set[str] = set()
        for part in text.split(","):
            name = clean_name(part)
            if not name:
                continue
            if len(name) > MAX_NAME:
                raise forms.ValidationError(
                    gettext("A name has at most %(max)s characters: %(name)s")
                    % {"max": MAX_NAME, "name": name[:MAX_NAME] + "…"}
                )
            if name.casefold() not in seen:  # NFC already: the key the club compares
                seen.add(name.casefold())
                names.append(name)
        return names
