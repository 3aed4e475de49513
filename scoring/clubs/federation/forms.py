"""A federation's forms: made, set, an admin added, a club invited, an invitation
answered."""

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ...accounts.face import account_named
from ...common.forms import TextField
from ...common.once import OnceFields
from ..forms import slug_of
from ..models import Club


class FederationSettingsForm(forms.Form):
    name = TextField(label=_("Name"), max_length=80)
    public = forms.BooleanField(
        label=_("Public ranking"),
        help_text=_("Anyone may see the ranking; else only the members of its clubs."),
        required=False,
    )


class NewFederationForm(OnceFields, FederationSettingsForm):
    """A new federation: its name, address and whether its ranking is public."""

    slug = forms.SlugField(
        label=_("Address"),
        help_text=_("Letters, digits and dashes; made from the name if left empty."),
        required=False,
        max_length=40,
    )

    field_order = ["name", "slug", "public"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = slug_of(data["name"])
            if not data["slug"]:
                self.add_error(
                    "slug", gettext("Give the federation an address in Latin letters or digits.")
                )
        return data


class InviteClubForm(forms.Form):
    """A club invited, by its address (``sfax`` in ``/clubs/sfax/``)."""

    club = forms.SlugField(label=_("The club's address"), max_length=40)

    def clean_club(self) -> Club:
        slug = self.cleaned_data["club"]
        found = Club.objects.filter(slug=slug).first()
        if found is None:
            raise forms.ValidationError(gettext("No club has this address."))
        return found


class AddAdminForm(forms.Form):
    """Another admin: an account named by its username (not by an address: that would tell
    anyone whether an address has an account)."""

    account = forms.CharField(
        label=_("Username"),
        help_text=_("An account of the site: the username its owner signs in with."),
        max_length=254,
    )

    def clean_account(self) -> int:
        found = account_named(self.cleaned_data["account"])
        if found is None:
            raise forms.ValidationError(gettext("No account has this username."))
        return found


class AnswerForm(forms.Form):
    """The club's admin accepts the invitation, or declines it."""

    answer = forms.ChoiceField(choices=[("accept", "accept"), ("decline", "decline")])
