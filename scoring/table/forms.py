"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.forms.boundfield import BoundWidget
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ..common.forms import (
    MACHINE_TEXT,
    MAX_HANDS,
    MAX_NAME,
    MAX_TARGET,
    NameField,
    RulesFields,
    SeatsFields,
    TextField,
    rules_error,
)
from ..common.once import OnceFields
from ..common.words import TRUMP_NAMES, elide, isolate
from ..engine import (
    BOULMOUS,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    Contract,
    GameResult,
    Hand,
    Limits,
    Record,
    RecordError,
    RulesError,
    TooManyProblems,
    Trump,
    auction_taker,
    check_tricks,
    dealer_of,
    fill_tricks,
    in_tricks,
    loads_scored,
    parse_call,
    parse_cards,
    speaking_order,
)
from ..engine.names import tellable_names
from ..infra.fragments import NOT_KEPT
from .models import REASON_LENGTH, SeatLink
from .waiting import MOST


class NewGameForm(SeatsFields, RulesFields):
    """A game at a table: its seats, its rules, and where it is played."""

    place = TextField(label=_("Club or place (optional)"), max_length=80, required=False)


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
        self.names: tuple[str, ...] = ()
        self.labels: tuple[str, ...] = ()
        """The names as the keys and the rows show them, each told from the others."""
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
        self.names, self.labels = tuple(names), tellable_names(names)
        for seat, name in enumerate(names):
            self.fields[f"tricks_{seat}"].label = name
        for position, seat in enumerate(self.speakers):
            self.fields[f"call_{position}"].label = names[seat]
        if self.outbid is not None:  # set by clean(): the errors are there
            params = self.outbid.params
            self.errors["calls"] = self.error_class(
                [
                    elide(
                        gettext(
                            "%(name)s bid %(bid)s, which must be higher than %(other)s’s "
                            "%(highest)s."
                        )
                        % {
                            "name": isolate(names[params["seat"]]),
                            "bid": params["bid"],
                            "other": isolate(names[params["by"]]),
                            "highest": params["highest"],
                        },
                        [names[params["by"]]],
                    )
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

    SHOWN_ELSEWHERE = frozenset({"number", "dealer", "token"})

    @property
    def fields_shown(self) -> object:
        """What the taker, bid, trump and tricks fields show (``hand-fields`` in
        table/game.html, kept drawn by ``{% kept %}``): the seats' names and the values the
        fields start with; for a form sent, NOT_KEPT (its values and errors are its own)."""
        if self.is_bound:
            return NOT_KEPT
        names = tuple(str(self.fields[f"tricks_{seat}"].label) for seat in range(SEATS))
        shown = self.SHOWN_ELSEWHERE
        values = {name: value for name, value in self.initial.items() if name not in shown}
        return names, tuple(sorted(values.items()))

    @property
    def calls_shown(self) -> object:
        """What the auction's fields show (kept drawn, as :attr:`fields_shown`): the players
        in speaking order, and the calls they start with; NOT_KEPT for a form sent."""
        if self.is_bound:
            return NOT_KEPT
        fields = [self.fields[f"call_{position}"] for position in range(SEATS)]
        calls = [self.initial.get(f"call_{position}") for position in range(SEATS)]
        return tuple(str(field.label) for field in fields), tuple(calls)

    @property
    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{seat}"] for seat in range(SEATS)]

    @property
    def taker_keys(self) -> list[tuple[BoundWidget, str, str]]:
        """Each taker's key, with his name as the key shows it, and whole."""
        return list(zip(self["taker"], self.labels, self.names, strict=True))

    @property
    def trick_rows(self) -> list[tuple[forms.BoundField, str]]:
        """Each seat's trick row, with the player's name as the row shows it."""
        return list(zip(self.trick_fields, self.labels, strict=True))

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


class ImportForm(OnceFields):
    text = forms.CharField(
        label=_("Paste a boulmous/1 record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, **MACHINE_TEXT}),
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
        data["record"], data["result"] = self.read(text)
        return data

    @classmethod
    def read(cls, text: str | bytes) -> tuple[Record, GameResult]:
        """The record in ``text`` with the engine's result for it, as this site keeps
        records; or a ValidationError listing its problems. A club's import reads each of
        its lines with it."""
        try:
            record, result = loads_scored(text, limits=cls.LIMITS)
        except RecordError as error:
            raise forms.ValidationError(cls._problems(error)) from None
        # What the record allows but this site does not keep.
        if record.rules.target > MAX_TARGET:
            raise forms.ValidationError(
                gettext("This site keeps games of up to %(max)s points.") % {"max": MAX_TARGET}
            )
        # The engine read its names and text by the site's rule (engine/names.py): NFC, no
        # control or invisible character (no NUL, which PostgreSQL refuses, no lone
        # surrogate, which JSON can write and UTF-8 cannot), no two players alike.
        for key, length in cls.ABOUT_LENGTHS.items():
            value = getattr(record.about, key) or ""
            if len(value) > length:
                raise forms.ValidationError(
                    gettext("%(key)s: this site keeps text of up to %(max)s characters.")
                    % {"key": key, "max": length}
                )
        for name in record.players:
            if len(name) > MAX_NAME:
                raise forms.ValidationError(
                    gettext("Names have up to %(max)s printable characters: %(name)r.")
                    % {"max": MAX_NAME, "name": name}
                )
        return record, result

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


class JoinForm(forms.Form):
    """A phone taking a scorer link: the name the history will give its changes."""

    label = NameField(
        label=_("This phone is"),
        help_text=_("For the history: Amina’s phone, the club’s tablet…"),
        required=False,
        max_length=40,
    )


def seat_code(typed: str) -> str:
    """A seat's code as typed, made as it is kept: capitals, no spaces or dashes."""
    return "".join(typed.split()).replace("-", "").upper()


class SeatForm(forms.Form):
    """A phone taking a seat by its code, typed or read from the seat's QR code."""

    code = forms.CharField(
        label=_("Your seat’s code"),
        help_text=_("Six letters and digits, shown for each seat on the scorer’s phone."),
        max_length=20,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.link: SeatLink | None = None

    def clean_code(self) -> str:
        code = seat_code(self.cleaned_data["code"])
        live = SeatLink.objects.select_related("game").filter(code=code, revoked_at=None)
        self.link = live.first()
        if self.link is None:
            raise forms.ValidationError(
                gettext(
                    "No seat has this code now: check it, or ask the scorer for your seat’s code."
                ),
                code="unknown",
            )
        return code


class ConfirmForm(forms.Form):
    """A seat holder confirming a hand as his page showed it: its version, so that a hand
    changed since is not confirmed unseen."""

    version = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)
    """The form's one-time token: sent again (a double tap, a phone's queue replaying it),
    it confirms nothing more, whatever changed since."""


class DisputeForm(forms.Form):
    """A seat holder disputing a hand, saying why: its number, and the version his page
    showed (none: as it now stands, the whole-game form)."""

    number = forms.IntegerField(label=_("Hand"), min_value=1, max_value=MAX_HANDS)
    version = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )
    reason = TextField(
        label=_("Why do you dispute it?"),
        max_length=REASON_LENGTH,
        error_messages={"required": _("Say why you dispute this hand.")},
    )
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)


class DecisionForm(forms.Form):
    """The referee's decision on a dispute: as it stands, or corrected (the hand's fields
    then sent with it), always with a reason."""

    outcome = forms.ChoiceField(
        choices=[("confirmed", _("confirmed as it stands")), ("corrected", _("corrected"))]
    )
    reason = TextField(
        label=_("Your reason, which the players see"),
        max_length=REASON_LENGTH,
        error_messages={"required": _("Say why: the players see your reason.")},
    )


class WaitingForm(forms.Form):
    """How many hands a phone holds waiting to be sent (static/js/offline.js, waiting.py)."""

    count = forms.IntegerField(min_value=0, max_value=MOST)


# --- Clubs ---


class AgreeForm(forms.Form):
    """A player agreeing to the settlement as his page showed it (issue 40.4): its content
    (``confirming.settlement_key``), so that a settlement changed since is not agreed
    unseen; and, on his own phone, the seat the page offered (which must be his)."""

    key = forms.CharField(max_length=64, widget=forms.HiddenInput)
    seat = forms.IntegerField(min_value=0, max_value=3, required=False, widget=forms.HiddenInput)


class AgreeWithCodeForm(AgreeForm):
    """The scorer's phone passed round: a player agrees for his seat by typing its short
    code, which the service checks against that seat's live code."""

    seat = forms.IntegerField(min_value=0, max_value=3, widget=forms.HiddenInput)
    code = forms.CharField(
        label=_("Your seat’s code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    def clean_code(self) -> str:
        return seat_code(self.cleaned_data["code"])
