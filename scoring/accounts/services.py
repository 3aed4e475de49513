"""The account's own writes and reads beyond Django's: all its data, and its deletion.

What other contexts keep about an account they give and change through the hooks
(scoring/accounts/hooks.py): games and clubs are theirs, not the account's.
"""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from . import hooks

DATA_FORMAT = "boulmous-account-data/1"
"""The ``format`` of an account's data: the shape docs/privacy.md declares."""


class AccountNeeded(Exception):
    """The account may not go yet: it is the only admin with an account of these clubs,
    which would be left with nobody to run them."""

    def __init__(self, clubs: Sequence[str]) -> None:
        self.clubs = list(clubs)
        super().__init__(*clubs)


def account_data(user_id: int) -> dict[str, Any]:
    """Everything the site keeps about this account, as JSON data (docs/privacy.md): the
    account itself, then each context's sections."""
    user = get_user_model().objects.get(pk=user_id)
    data: dict[str, Any] = {
        "format": DATA_FORMAT,
        "account": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
    }
    for part in hooks.data_parts:
        data.update(part(user_id))
    return data


@transaction.atomic
def delete_account(*, user_id: int, anonymous: bool) -> None:
    """The account goes, and with it every session's sign-in. His games and club results
    stay: under his player name, or, if ``anonymous``, under an anonymous name in each of
    his clubs (``Player 7``), rated as before. Games he started belong to nobody, the
    history lines he made name no account. One transaction: the account's row locked,
    then his clubs (the hooks); AccountNeeded if a club would be left without an admin,
    and nothing changes."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    for leave in hooks.leaving:
        leave(user_id, anonymous)
    user.delete()
