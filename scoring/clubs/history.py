"""The club's history: what each admin changed, in the club's own log (ClubChange).

Every service that changes the club, its members, seasons, nights or games outside a table
writes one line here, in its own transaction, through :func:`log`. The actions are declared
once, in :data:`CLUB_ACTIONS`, with the words the history page says them in.
"""

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..common.rights import Actor
from .models import Club, ClubChange

CLUB_ACTIONS: dict[str, Promise] = {
    "club_edited": _("club settings changed"),
    "member_renamed": _("player renamed"),
    "members_merged": _("players merged"),
    "member_removed": _("player removed"),
    "member_retired": _("player retired"),
    "member_returned": _("player back from retirement"),
    "season_edited": _("season changed"),
    "season_deleted": _("season deleted"),
    "night_edited": _("night changed"),
    "night_deleted": _("night deleted"),
    "night_reopened": _("night reopened"),
    "game_deleted": _("game deleted"),
    "game_moved": _("date of a game changed"),
}
"""Each action of the club's history, and how the page says it."""


def log(
    club: Club,
    by: Actor,
    action: str,
    subject: str,
    *,
    before: Any = None,
    after: Any = None,
) -> ClubChange:
    """One line of the club's history; call it inside the change's transaction."""
    if action not in CLUB_ACTIONS:
        raise ValueError(f"unknown club action {action!r}: declare it in CLUB_ACTIONS")
    return ClubChange.objects.create(
        club=club,
        by_user_id=by.user_id,
        action=action,
        subject=subject[:120],
        before=before,
        after=after,
    )


def label(action: str) -> str:
    return str(CLUB_ACTIONS.get(action, action))


def as_json(value: Any) -> Any:
    """A value as the history keeps it (JSON): a day, a moment or an amount as text."""
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):  # 0.5 and 0.5000 alike
        return format(value.normalize(), "f")
    return value


def changed(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What differs between two states of a thing (empty if nothing does), before and after;
    its ``id``, if it has one, kept in both, to find it again."""
    keys = [key for key in before if before[key] != after.get(key)]
    if not keys:
        return {}, {}
    kept = ["id", *keys] if "id" in before and "id" not in keys else keys
    return {key: before[key] for key in kept}, {key: after.get(key) for key in kept}
