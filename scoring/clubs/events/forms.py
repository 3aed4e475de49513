"""The forms of a club's events (issue 41): the event and its settings, its nights, entries,
pairs never seated together, a round drawn, swapped and published, a table settled. Each
turns what was typed into the values the services take; what is wrong is said beside the
field (the view answers 422).

The event's page holds several of them whose fields share names (the entry's and the
check-in's ``present``, the pair's and the swap's ``first`` and ``second``): each has ids of
its own (``auto_id``), so that a label finds its own form's box, not the first of that id
on the page."""

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import DateField, RulesFields, TextField
from ...common.once import OnceFields
from ...engine import SEATS
from ..forms import PointsFields
from ..models import Event, EventFinal, EventRound
from ..nights.forms import MAX_ROUNDS, CheckInForm

MAX_PRIZES = 16


class EventForm(PointsFields, RulesFields):
    """An event's settings: its name, rules and scheme, how its ranking counts, its final,
    its fee and prizes, and who sees it."""

    name = TextField(label=_("Name of the event"), max_length=80)
    sit_out_points = forms.ChoiceField(
        label=_("A player sitting a round out scores"),
        choices=Event.SitOut.choices,
        initial=Event.SitOut.ZERO,
        widget=forms.RadioSelect,
    )
    best_nights = forms.IntegerField(
        label=_("Only the best nights count"),
        help_text=_("How many of each player's best nights count; empty: all of them."),
        min_value=1,
        max_value=99,
        required=False,
    )
    min_attendance = forms.IntegerField(
        label=_("Least attendance to take the title, in %"),
        help_text=_(
            "Players present on a smaller share of the nights are ranked apart; empty: none."
        ),
        min_value=1,
        max_value=100,
        required=False,
    )
    hide_last_rounds = forms.IntegerField(
        label=_("Rounds hidden from the players' ranking"),
        help_text=_("The last rounds the players' ranking leaves out until the event ends."),
        min_value=0,
        max_value=MAX_ROUNDS,
        initial=0,
    )
    counts_in_season = forms.BooleanField(
        label=_("Its games also count in the season"), required=False, initial=True
    )
    final = forms.ChoiceField(
        label=_("Final"), choices=Event.Final.choices, initial=Event.Final.NONE
    )
    carry_over = forms.ChoiceField(
        label=_("League points carried into the final"),
        choices=Event.Carry.choices,
        initial=Event.Carry.FULL,
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee"),
        help_text=_("In the currency of the stake; 0 for none. Apart from the games' stakes."),
        min_value=Decimal(0),
        max_digits=12,
        decimal_places=2,
        localize=True,
        initial=Decimal(0),
    )
    prize_kind = forms.ChoiceField(
        label=_("Prizes"),
        choices=Event.PrizeKind.choices,
        initial=Event.PrizeKind.SHARE,
        widget=forms.RadioSelect,
    )
    prizes = forms.CharField(
        label=_("Prize list"),
        help_text=_("From the first place on, separated by spaces, such as 50 30 20."),
        required=False,
        max_length=200,
    )
    public = forms.BooleanField(
        label=_("Public event"),
        help_text=_("Anyone with the address sees its page and ranking."),
        required=False,
    )

    field_order = ["name"]

    @classmethod
    def of_event(cls, event: Event) -> dict[str, Any]:
        """The form's values for an event as it is."""
        share = event.min_attendance
        return {
            "name": event.name,
            **RulesFields.initial_of(event.rules),
            **cls.points_initial(event.points),
            "sit_out_points": event.sit_out_points,
            "best_nights": event.best_nights,
            "min_attendance": None if share is None else int(Decimal(share) * 100),
            "hide_last_rounds": event.hide_last_rounds,
            "counts_in_season": event.counts_in_season,
            "final": event.final,
            "carry_over": event.carry_over,
            "entry_fee": Decimal(event.entry_fee).normalize(),
            "prize_kind": event.prize_kind,
            "prizes": " ".join(event.prizes),
            "public": event.public,
        }

    @classmethod
    def initial_of_club(cls, club: Any) -> dict[str, Any]:
        """A new event's values: the club's rules and scheme."""
        return {**RulesFields.initial_of(club.rules), **cls.points_initial(club.points)}

    def clean_prizes(self) -> list[str]:
        text = str(self.cleaned_data.get("prizes") or "").replace(",", " ").replace("،", " ")
        values = []
        for part in text.split():
            try:
                value = Decimal(part)
            except InvalidOperation:
                value = Decimal(-1)
            if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
                raise forms.ValidationError(
                    gettext("“%(value)s” is no amount: write numbers such as 50 30 20.")
                    % {"value": part}
                )
            values.append(format(value.normalize(), "f"))
        if len(values) > MAX_PRIZES:
            raise forms.ValidationError(gettext("At most %(most)s prizes.") % {"most": MAX_PRIZES})
        return values

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_points_scale(data)
        kind, prizes = data.get("prize_kind"), data.get("prizes") or []
        if kind == Event.PrizeKind.SHARE and sum(Decimal(one) for one in prizes) > 100:
            self.add_error("prizes", gettext("The shares add up to more than 100%."))
        return data

    def settings(self) -> dict[str, Any]:
        """The services' settings from what was typed (the form valid)."""
        data = self.cleaned_data
        share = data["min_attendance"]
        return {
            "name": data["name"],
            "points": list(data["league_points"]),
            "sit_out_points": data["sit_out_points"],
            "best_nights": data["best_nights"],
            "min_attendance": None if share is None else Decimal(share) / 100,
            "hide_last_rounds": data["hide_last_rounds"],
            "counts_in_season": data["counts_in_season"],
            "final": data["final"],
            "carry_over": data["carry_over"],
            "entry_fee": data["entry_fee"],
            "fee_currency": data["rules"].currency,
            "prize_kind": data["prize_kind"],
            "prizes": data["prizes"],
            "public": data["public"],
        }


class NightFields(forms.Form):
    """A night of the event: its day, place and the rounds it plays."""

    date = DateField(label=_("Date"))
    place = TextField(label=_("Place (optional)"), max_length=80, required=False)
    rounds = forms.IntegerField(label=_("Rounds this night"), min_value=1, max_value=MAX_ROUNDS)


class NewEventForm(OnceFields, NightFields, EventForm):
    """A new event, made once however often its form is sent, with its first night."""

    field_order = ["name", "date", "place", "rounds"]


class EntryForm(CheckInForm):
    """Players entered: the club's members ticked, and guests named."""

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "enter_%s")
        super().__init__(*args, players=players, **kwargs)
        self.fields["present"].label = _("Enter")


class EventCheckInForm(CheckInForm):
    """Who of the entrants is present at the night: counts at the next draw."""

    night = forms.IntegerField(widget=forms.HiddenInput)
    guests = None  # type: ignore[assignment]  # guests are entered first

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "checkin_%s")
        super().__init__(*args, players=players, **kwargs)

    def clean_guests(self) -> list[str]:
        return []


class PairForm(forms.Form):
    """Two players never seated together: in every event of the club, or in this one."""

    CLUB, EVENT = "club", "event"
    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("never at the table of"), coerce=int)
    scope = forms.ChoiceField(
        label=_("In"),
        choices=[(EVENT, _("this event")), (CLUB, _("every event of the club"))],
        initial=EVENT,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "pair_%s")
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = [("", "—"), *players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", gettext("Choose two different players."))
        return data


class DrawForm(forms.Form):
    """The next round (``number``, as the organiser saw the page) drawn by a method; or the
    draft ``number`` drawn again (``again``, with the draft's ``key``)."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    method = forms.ChoiceField(
        label=_("Seating"), choices=EventRound.Method.choices, widget=forms.RadioSelect
    )
    again = forms.BooleanField(widget=forms.HiddenInput, required=False)
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=32)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "draw_%s")
        super().__init__(*args, **kwargs)


class SwapForm(forms.Form):
    """Two players of the draft ``number`` (as seen: ``key``) change places."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    key = forms.CharField(widget=forms.HiddenInput, max_length=32)
    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "swap_%s")
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = [("", "—"), *players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", gettext("Choose two different players."))
        return data


class PublishForm(forms.Form):
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    key = forms.CharField(widget=forms.HiddenInput, max_length=32)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "publish_%s")
        super().__init__(*args, **kwargs)


class SettleForm(forms.Form):
    """A table that did not finish in time: as it stands, or with the totals entered, and
    the reason. A round's table (``number`` and ``table``) or a final's (``final``: its
    kind)."""

    STANDS, ENTERED = "stands", "entered"
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)
    table = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)
    final = forms.ChoiceField(
        widget=forms.HiddenInput, choices=EventFinal.Kind.choices, required=False
    )
    how = forms.ChoiceField(
        label=_("Settle the table"),
        choices=[(STANDS, _("as it stands")), (ENTERED, _("with these totals"))],
        initial=STANDS,
        widget=forms.RadioSelect,
    )
    total_0 = forms.IntegerField(label=_("Seat 1"), required=False, min_value=-9999, max_value=9999)
    total_1 = forms.IntegerField(label=_("Seat 2"), required=False, min_value=-9999, max_value=9999)
    total_2 = forms.IntegerField(label=_("Seat 3"), required=False, min_value=-9999, max_value=9999)
    total_3 = forms.IntegerField(label=_("Seat 4"), required=False, min_value=-9999, max_value=9999)
    reason = TextField(label=_("Reason"), max_length=200, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        data["totals"] = None
        if not data.get("final"):
            for name in ("number", "table"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, gettext("No such table in a published round."))
        if data.get("how") == self.ENTERED:
            totals = [data.get(f"total_{seat}") for seat in range(SEATS)]
            for seat, total in enumerate(totals):
                if total is None and f"total_{seat}" not in self.errors:
                    self.add_error(f"total_{seat}", gettext("Enter the four totals."))
            if not data.get("reason") and "reason" not in self.errors:
                self.add_error("reason", gettext("Say why these totals."))
            if all(total is not None for total in totals):
                data["totals"] = totals
        return data
