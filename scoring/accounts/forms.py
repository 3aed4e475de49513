"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
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


class DeleteAccountForm(forms.Form):
    """Deleting one's account: the password typed again, and how his past games name him."""

    KEEP, ANONYMOUS = "keep", "anonymous"
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    names = forms.ChoiceField(
        label=_("In the games you played"),
        choices=[
            (KEEP, _("Keep my player name in past games")),
            (ANONYMOUS, _("Show me under an anonymous name (“Player 7”)")),
        ],
        initial=KEEP,
        widget=forms.RadioSelect,
    )

    def __init__(self, user: AbstractBaseUser, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="password")
        return password

    @property
    def anonymous(self) -> bool:
        return bool(self.cleaned_data["names"] == self.ANONYMOUS)
