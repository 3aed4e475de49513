"""The forms of the club's players: one added, renamed, made anonymous, merged, given a role;
a claim answered; an account joining through the invite link."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import MAX_NAME, NameField, TextField
from ...common.names import name_key
from ...common.once import OnceFields
from ...common.words import isolate
from ..models import Member
from .care import AlreadyMerged, BothHaveAccounts, DrawnTogether, MergeRefused, SatTogether


class MemberForm(OnceFields):
    """A player added to the club by an admin: many will never touch the app."""

    name = NameField(label=_("Name"), max_length=MAX_NAME)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(role.value, role.label) for role in Member.Role if role != Member.Role.GUEST],
        initial=Member.Role.MEMBER.value,
    )


class RenameForm(forms.Form):
    """A member's new name, given by an admin: refused as a new player's name is, when the
    club has it already or one that looks like it (the view says so, from the service)."""

    name = NameField(label=_("New name"), max_length=MAX_NAME)


class AnonymiseForm(forms.Form):
    """The name of the member an admin makes anonymous, typed again to confirm: it cannot be
    undone. Taken as the club writes it whatever its case and however its accents were
    typed (NFC, case-folded: ``name_key``)."""

    name = TextField(label=_("Type his name to confirm"), max_length=MAX_NAME)

    def __init__(self, *args: Any, expected: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expected = expected
        # data-expected: the name the page asks for, which it shows above the field.
        self.fields["name"].widget.attrs.update(
            {"autocomplete": "off", "spellcheck": "false", "data-expected": expected}
        )

    def clean_name(self) -> str:
        typed = str(self.cleaned_data["name"])
        if name_key(typed.strip()) != name_key(self.expected):
            raise forms.ValidationError(
                gettext("This is not “%(name)s”: type the name as the club writes it.")
                % {"name": isolate(self.expected)}
            )
        return typed


class MergeForm(forms.Form):
    """The member another one is merged into: one of the club's other players."""

    into = forms.TypedChoiceField(label=_("Merge into"), coerce=int)

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        into = self.fields["into"]
        assert isinstance(into, forms.TypedChoiceField)
        into.choices = [("", gettext("Choose a player")), *players]


def merge_refused_message(refusal: MergeRefused, gone: str, kept: str) -> str:
    """What is said of two members who cannot be merged (scoring/clubs/members/care.py)."""
    names = {"gone": isolate(gone), "kept": isolate(kept)}
    if isinstance(refusal, AlreadyMerged):
        return gettext(
            "%(gone)s is already merged into %(into)s: another admin merged them meanwhile. "
            "Nothing more changed."
        ) % {"gone": isolate(gone), "into": isolate(refusal.into)}
    if isinstance(refusal, SatTogether):
        return ngettext(
            "%(gone)s and %(kept)s sat in %(count)s game together: they are two players.",
            "%(gone)s and %(kept)s sat in %(count)s games together: they are two players.",
            refusal.games,
        ) % {**names, "count": refusal.games}
    if isinstance(refusal, DrawnTogether):
        return gettext(
            "%(gone)s and %(kept)s were both drawn in round %(round)s of the night of "
            "%(date)s: they are two players."
        ) % {
            **names,
            "round": refusal.round.number,
            "date": date_format(refusal.round.night.date, "DATE_FORMAT"),
        }
    assert isinstance(refusal, BothHaveAccounts)
    return (
        gettext(
            "%(gone)s and %(kept)s each have an account: merged, one account would lose its player."
        )
        % names
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
