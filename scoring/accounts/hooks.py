"""How accounts ask the contexts that keep data about a person, without knowing them.

An account's data and its deletion (scoring/accounts/services.py) reach into games and
clubs, which stand beside or above accounts: each says what it keeps about an account
(:data:`data_parts`) and what it does when one is deleted (:data:`leaving`), subscribed
when the app is ready (scoring/apps.py for the table, scoring/clubs/subscriptions.py for
clubs).
"""

from collections.abc import Callable
from typing import Any

data_parts: list[Callable[[int], dict[str, Any]]] = []
"""Each gives its sections of an account's data (by user id), keyed by section name: the
table its games, history lines and scorer links; clubs the memberships and claims."""

leaving: list[Callable[[int, bool], None]] = []
"""Each is called with the user id and whether he chose an anonymous name, inside the
deletion's transaction, before the account's row goes: clubs lock the account's clubs,
detach his members and rename them if asked. One may raise
:class:`~scoring.accounts.services.AccountNeeded`, and nothing changes."""
