"""The club's history: what each admin changed, in the club's own log (ClubChange).

Every service that changes the club, its members, seasons, nights or games outside a table
writes one line here, in its own transaction, through :func:`log`. The kinds of change are
declared once, in :data:`CLUB_ACTIONS`: the words the history page says each in, and who
may make it (the policy's action, scoring/common/rights.py). The history page, its filter
and docs/league.md's list follow from that declaration; ``tests/clubs/test_history.py``
posts every staff form of the URL conf and expects one line naming who sent it.
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..common.rights import Action, Actor
from ..common.words import say_day
from ..engine import OPTIONS
from .models import Club, ClubChange, Member

PER_PAGE = 50
"""The history's lines to a page: its page's (views/history.py) and the API's."""


@dataclass(frozen=True)
class ClubAction:
    """A kind of change the club's history keeps."""

    kind: str
    """Stored in ``ClubChange.action`` (20 characters at most)."""
    words: Promise
    """How the history page says it."""
    who: Action | None
    """Who may make it: the policy's action its view needs; None for any account signed in
    (making a club, joining one through its invite link)."""


def _declared(*actions: ClubAction) -> dict[str, ClubAction]:
    return {action.kind: action for action in actions}


CLUB_ACTIONS: dict[str, ClubAction] = _declared(
    ClubAction("club_created", _("club made"), None),
    ClubAction("club_edited", _("club settings changed"), Action.RUN_CLUB),
    ClubAction("invite_renewed", _("invite link replaced"), Action.RUN_CLUB),
    ClubAction("member_added", _("player added"), Action.RUN_CLUB),
    ClubAction("member_joined", _("player joined through the invite link"), None),
    ClubAction("claim_made", _("player claimed through the invite link"), None),
    ClubAction("claim_accepted", _("claim accepted"), Action.RUN_CLUB),
    ClubAction("claim_refused", _("claim refused"), Action.RUN_CLUB),
    ClubAction("role_changed", _("role changed"), Action.RUN_CLUB),
    ClubAction("member_renamed", _("player renamed"), Action.RUN_CLUB),
    ClubAction("members_merged", _("players merged"), Action.RUN_CLUB),
    ClubAction("member_removed", _("player removed"), Action.RUN_CLUB),
    ClubAction("member_anonymised", _("player made anonymous"), Action.REMOVE_MEMBER),
    ClubAction("public_name_set", _("name in public chosen"), Action.NAME_MEMBER_IN_PUBLIC),
    ClubAction("member_retired", _("player retired"), Action.RUN_CLUB),
    ClubAction("member_returned", _("player back from retirement"), Action.RUN_CLUB),
    ClubAction("feed_key_changed", _("calendar link changed"), Action.RUN_CLUB),
    ClubAction("season_created", _("season made"), Action.RUN_CLUB),
    ClubAction("season_edited", _("season changed"), Action.RUN_CLUB),
    ClubAction("season_deleted", _("season deleted"), Action.RUN_CLUB),
    ClubAction("records_imported", _("records imported"), Action.RUN_CLUB),
    ClubAction("night_created", _("night made"), Action.SCORE_CLUB),
    ClubAction("round_drawn", _("round drawn"), Action.SCORE_CLUB),
    ClubAction("round_closed", _("round closed"), Action.SCORE_CLUB),
    ClubAction("night_ended", _("night ended"), Action.SCORE_CLUB),
    ClubAction("night_reopened", _("night reopened"), Action.RUN_CLUB),
    ClubAction("night_edited", _("night changed"), Action.RUN_CLUB),
    ClubAction("night_deleted", _("night deleted"), Action.RUN_CLUB),
    ClubAction("game_deleted", _("game deleted"), Action.RUN_CLUB),
    ClubAction("game_moved", _("date of a game changed"), Action.RUN_CLUB),
    ClubAction("change_undone", _("last change undone"), Action.RUN_CLUB),
)
"""Each kind of change of the club's history, how the page says it, and who may make it."""


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
    """How the history page says a kind of change (a kind no longer declared, as stored)."""
    declared = CLUB_ACTIONS.get(action)
    return str(declared.words) if declared is not None else action


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


FIELD_WORDS: dict[str, Promise] = {
    "name": _("name"),
    "slug": _("address"),
    "time_zone": _("time zone"),
    "target": _("target"),
    "failed_taker": _("failed taker"),
    "stake": _("stake"),
    "currency": _("currency"),
    "points": _("league points"),
    "public": _("public standings"),
    "invite_admits": _("invite link admits at once"),
    "embed_origins": _("websites showing the standings"),
    "colour": _("colour"),
    "first_day": _("first day"),
    "last_day": _("last day"),
    "date": _("date"),
    "place": _("place"),
    "rounds": _("rounds"),
    "role": _("role"),
    "account": _("account"),
    "short": _("first name and initial in public"),
    "games": _("games"),
    "players": _("new players"),
    "round": _("round"),
    "tables": _("tables"),
    "abandoned": _("tables abandoned"),
    "undone": _("change undone"),
}
"""How a history line names what a change is about (``before`` and ``after``'s keys);
others (an ``id`` kept to find a thing again) are not said."""
for _option in OPTIONS:  # a house-rule option is named as the club's form names it
    FIELD_WORDS.setdefault(_option.name, _(_option.label))

DAYS = frozenset({"first_day", "last_day", "date"})


@dataclass(frozen=True)
class Detail:
    """One thing a change changed or set: its words, and its value before (None for a thing
    made) and after, as the page says them."""

    words: str
    before: str | None
    after: str


def _said(key: str, value: Any) -> str:
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, list):
        return ", ".join(str(one) for one in value)
    if key == "undone":
        return label(value)
    if key == "role" and value in Member.Role.values:
        return str(Member.Role(value).label)
    if key == "stake" and isinstance(value, str):
        return number_format(Decimal(value))
    if key in DAYS and isinstance(value, str):
        try:
            return say_day(date.fromisoformat(value))
        except ValueError:
            return value
    return str(value)


def details(change: ClubChange) -> list[Detail]:
    """What a line of the history says it changed: each key of its ``after`` the page has
    words for, with its value before when the change had one."""
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    return [
        Detail(
            str(FIELD_WORDS[key]),
            _said(key, before[key]) if key in before else None,
            _said(key, value),
        )
        for key, value in after.items()
        if key in FIELD_WORDS
    ]


def subject(change: ClubChange) -> str:
    """What a line is about, as the page says it: a night's day (a night's or a round's
    line keeps it in ISO 8601) as the pages say a day."""
    if change.action.startswith(("night_", "round_")):
        return _said("date", change.subject)
    return change.subject
