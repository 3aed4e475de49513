"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

import unicodedata
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.db.models import Value
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from ..common.forms import TextField
from ..common.once import OnceFields
from .models import AccountEmail
from .verification import send_account_mail


def same_address(one: str, other: str) -> bool:
    """Whether two addresses are one, whatever their case, by Unicode's rules."""
    return bool(
        unicodedata.normalize("NFKC", one).casefold()
        == unicodedata.normalize("NFKC", other).casefold()
    )


def email_field(**kwargs: Any) -> forms.EmailField:
    return forms.EmailField(
        label=_("Email address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        **kwargs,
    )


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]  # generic in django-stubs only
    """A new account: a username and a password (Django's validators check it), and an email
    address if one wants to be able to reset a forgotten password. Any address is taken as
    a claim: the page answers the same whether another account has it or not."""

    email = email_field(
        required=False,
        help_text=_(
            "Optional: only to reset a forgotten password. We send it a link to verify it."
        ),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class EmailForm(forms.Form):
    """One's email address, set or changed: a new one must be verified again. Whether
    another account has it is said to the address alone, in its mail (services)."""

    email = email_field(
        help_text=_("A password reset goes only to an address verified by the link we send it.")
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's form, sending its link only to an address the account verified: an address
    typed by someone else, never confirmed, gets nothing. The page answers the same either
    way, so it tells nobody which addresses have an account."""

    def get_users(self, email: str) -> Iterator[User]:
        verified = (
            AccountEmail.objects.alias(key=Lower("address"))
            .filter(
                key=Lower(Value(email)),
                verified_at__isnull=False,
                user__is_active=True,
            )
            .select_related("user")
        )
        for row in verified:
            # Django mails User.email: only while it is still the verified address. And, as
            # Django does, only if the address typed is that one by Unicode's rules too.
            if (
                row.user.has_usable_password()
                and row.user.email == row.address
                and same_address(email, row.address)
            ):
                yield row.user

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        """Rendered here, in the request's language, as Django's form does; sent by a job
        that tries again while the mail server refuses it (verification.py
        ``send_account_mail``)."""
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        html = (
            render_to_string(html_email_template_name, context) if html_email_template_name else ""
        )
        send_account_mail.enqueue(subject, body, to_email, html)


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


class ApiTokenForm(OnceFields):
    """A new API token: its name, for its owner to know what it is for."""

    name = TextField(
        label=_("Token's name"),
        max_length=80,
        help_text=_("What it is for, such as the club's website."),
    )
