"""Forms that make something (a game, a night, a season, a member, an import) make it once.

Each carries a one-time token, made when the form is drawn (:class:`OnceFields`, a hidden
field): a random id, signed with the moment it was made. The view makes the thing through
:func:`make_once`, which claims the token in the transaction that makes it; sent again (Back
and resend, a double tap, a plain POST twice), the form leads to what the first sending
made, with a word that it was already sent (:func:`made_before`), and makes nothing more.
A token is good for :data:`GOOD_FOR`: a form older than that is refused (the page offers it
again, with a new token), so that what the tokens made need be kept no longer."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic, TypeVar

from django import forms
from django.contrib import messages
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext

from .models import FormSent

GOOD_FOR = timedelta(days=7)
"""How long a form, once drawn, may be sent: a week on a phone left open on it."""
T = TypeVar("T")
SALT = "scoring.common.once"


def _signer() -> signing.TimestampSigner:
    # Made when a form is drawn or read, not at import: `manage.py check` imports this
    # module before it tells a missing SECRET_KEY (boulmous.E001).
    return signing.TimestampSigner(salt=SALT)


def new_token() -> str:
    """A form's one-time token: a random id, signed with the moment it was made."""
    return _signer().sign(str(uuid.uuid4()))


def read_token(value: str) -> uuid.UUID | None:
    """The id of a token this site made less than :data:`GOOD_FOR` ago; else None."""
    try:
        return uuid.UUID(_signer().unsign(value, max_age=GOOD_FOR))
    except (signing.BadSignature, ValueError):  # expired, altered, or not ours
        return None


class OnceFields(forms.Form):
    """The one-time token of a form that makes something: a hidden field, new each time the
    form is drawn. A form sent without it (a script's plain POST) is taken as it is."""

    once = forms.CharField(widget=forms.HiddenInput, required=False, initial=new_token)

    def clean_once(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("once") or ""
        if not value:
            return None
        token = read_token(value)
        if token is None:
            # Drawn again with a new token, to be checked and sent again.
            self.data = {**self.data, self.add_prefix("once"): new_token()}
            self.add_error(
                None,
                gettext(
                    "This form was opened too long ago: check what it says, then send it again."
                ),
            )
        return token


@dataclass(frozen=True)
class Made(Generic[T]):
    """What a form made: ``thing``, at ``address``; ``thing`` is None where an earlier
    sending of the same form made it (``again``)."""

    thing: T | None
    address: str

    @property
    def again(self) -> bool:
        return self.thing is None


def make_once(
    token: uuid.UUID | None, make: Callable[[], T], address_of: Callable[[T], str]
) -> Made[T]:
    """``make()``, unless the form of ``token`` made something already: then where that is.

    The token is claimed before ``make()``, in the same transaction: a second sending at the
    same moment waits on the first's row (its key) and then finds what it made; if ``make()``
    fails, the claim goes with it, and the form may be sent again. Tokens past
    :data:`GOOD_FOR` are let go on the way."""
    with transaction.atomic():
        if token is not None:
            try:
                with transaction.atomic():
                    FormSent.objects.create(token=token)
            except IntegrityError:
                return Made(None, FormSent.objects.get(token=token).address)
        thing = make()
        address = address_of(thing)
        if token is not None:
            FormSent.objects.filter(token=token).update(address=address)
            FormSent.objects.filter(sent_at__lt=timezone.now() - GOOD_FOR).delete()
        return Made(thing, address)


def made_before(request: HttpRequest, made: Made[Any]) -> HttpResponse:
    """The answer to a form sent again: what it made the first time, and a word saying so."""
    messages.info(request, gettext("This form was already sent: here is what it made, once."))
    return redirect(made.address)
