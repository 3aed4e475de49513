"""The forms of a club night (issue 12): the night itself, made or changed, and who is
present."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import MAX_NAME, DateField, TextField, clean_name
from ...common.once import OnceFields
from ...common.words import isolate

MAX_ROUNDS = 50
GUEST_SEPARATORS = ("\n", "،", ";")
"""Besides the comma, what separates guests' names: a new line, the Arabic comma, a semicolon."""


class NightForm(forms.Form):
    """A club night: its day, its place, and how many rounds (none: until we stop)."""

    date = DateField(label=_("Date"))
    place = TextField(label=_("Place (optional)"), max_length=80, required=False)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        help_text=_("Leave empty to play until we stop."),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )


class NewNightForm(OnceFields, NightForm):
    """A new night, made once however often its form is sent."""


class NightEditForm(NightForm):
    """A night changed: never fewer rounds planned than it has drawn."""

    def __init__(self, *args: Any, drawn: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drawn = drawn

    def clean_rounds(self) -> int | None:
        rounds: int | None = self.cleaned_data.get("rounds")
        if rounds is not None and rounds < self.drawn:
            raise forms.ValidationError(rounds_drawn_message(self.drawn))
        return rounds


def rounds_drawn_message(drawn: int) -> str:
    return ngettext(
        "%(count)s round is drawn already: plan at least %(count)s, or leave empty to play "
        "until we stop.",
        "%(count)s rounds are drawn already: plan at least %(count)s, or leave empty to play "
        "until we stop.",
        drawn,
    ) % {"count": drawn}


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
                    % {"max": MAX_NAME, "name": isolate(name[:MAX_NAME] + "…")}
                )
            if name.casefold() not in seen:  # NFC already: the key the club compares
                seen.add(name.casefold())
                names.append(name)
        return names
