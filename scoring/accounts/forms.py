"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


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
