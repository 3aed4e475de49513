"""The club's history: what each admin changed, in the club's own log (ClubChange).

Every service that changes the club, its members, seasons, nights or games outside a table
writes one line here, in its own transaction, through :func:`log`. The kinds of change are
declared once, in :data:`CLUB_ACTIONS`: the words the history page says each in, and who
may make it (the policy's action, scoring/common/rights.py). The history page, its filter
and docs/league.md's list follow from that declaration; ``tests/clubs/test_history.py``
posts every staff form of the URL conf and expects one line naming who sent it.

Names follow the member: a line keeps the members it is about by id (``member``,
``members``), and :func:`lines` says each by his name now; the names a line stored are
said only where they tell what changed (a rename's, a merge's merged player, a deleted
game's record), and anonymising rewrites those (scoring/clubs/privacy.py).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..common.rights import Action, Actor
from ..common.words import say_day
from ..engine import OPTIONS
from ..engine.names import name_key
from ..engine.trust import RATING_SETTINGS
from ..table.face import phone_said
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
    ClubAction("league_rebuilt", _("league rebuilt and checked"), Action.RUN_CLUB),
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
    # A club's events (issue 41): its admins organise them.
    ClubAction("event_created", _("event made"), Action.ORGANISE_EVENT),
    ClubAction("event_edited", _("event changed"), Action.ORGANISE_EVENT),
    ClubAction("event_night_added", _("night added to an event"), Action.ORGANISE_EVENT),
    ClubAction("entrants_added", _("players entered in an event"), Action.ORGANISE_EVENT),
    ClubAction("entrant_withdrawn", _("player withdrawn from an event"), Action.ORGANISE_EVENT),
    ClubAction("pair_forbidden", _("pair never seated together"), Action.ORGANISE_EVENT),
    ClubAction("pair_allowed", _("pair may sit together again"), Action.ORGANISE_EVENT),
    ClubAction("event_round_drawn", _("event round drawn"), Action.ORGANISE_EVENT),
    ClubAction("round_swapped", _("players swapped in a drawn round"), Action.ORGANISE_EVENT),
    ClubAction("round_published", _("event round published"), Action.ORGANISE_EVENT),
    ClubAction("table_settled", _("unfinished table settled"), Action.ORGANISE_EVENT),
    ClubAction("final_drawn", _("final drawn"), Action.ORGANISE_EVENT),
    ClubAction("final_settled", _("unfinished final settled"), Action.ORGANISE_EVENT),
    ClubAction("event_ended", _("event ended"), Action.ORGANISE_EVENT),
    ClubAction("event_deleted", _("event deleted"), Action.ORGANISE_EVENT),
    # A club game's table agreeing (issue 40): written when the game's history is.
    ClubAction("hand_confirmed", _("hand confirmed"), Action.CONFIRM_GAME),
    ClubAction("result_signed", _("result signed"), Action.CONFIRM_GAME),
    ClubAction("hand_disputed", _("hand disputed"), Action.DISPUTE_GAME),
    ClubAction("dispute_decided", _("referee’s decision"), Action.REFEREE_GAME),
    ClubAction("correction_confirmed", _("correction confirmed"), Action.CONFIRM_GAME),
    # A federation of clubs (issue 42.6): its admin invites, the club's admin answers.
    ClubAction("federation_invited", _("invited to a federation"), Action.RUN_FEDERATION),
    ClubAction("federation_joined", _("federation joined"), Action.RUN_CLUB),
    ClubAction("federation_declined", _("federation declined"), Action.RUN_CLUB),
    ClubAction("federation_left", _("federation left"), Action.RUN_CLUB),
)
"""Each kind of change of the club's history, how the page says it, and who may make it."""

TABLE_KINDS = frozenset(
    kind
    for kind, action in CLUB_ACTIONS.items()
    if action.who in {Action.CONFIRM_GAME, Action.DISPUTE_GAME, Action.REFEREE_GAME}
)
"""The lines a club game's table writes (its agreement): they change no member nor the
club, so an admin's last change, which he may undo, is the last of the other lines."""


def log(
    club: Club,
    by: Actor,
    action: str,
    subject: str | Member,
    *,
    member: Member | None = None,
    members: list[int | None] | None = None,
    before: Any = None,
    after: Any = None,
) -> ClubChange:
    """One line of the club's history; call it inside the change's transaction. A line about
    a member is given him (``subject``, or ``member`` beside a subject of its own, as a
    merge's); a line naming several, their ids (``members``)."""
    if action not in CLUB_ACTIONS:
        raise ValueError(f"unknown club action {action!r}: declare it in CLUB_ACTIONS")
    if isinstance(subject, Member):
        member = subject
    named = subject.name if isinstance(subject, Member) else subject
    return ClubChange.objects.create(
        club=club,
        by_user_id=by.user_id,
        action=action,
        subject=named[:120],
        member=member,
        members=members,
        before=before,
        after=after,
    )


def seat_ids(club: Club, names: Iterable[str]) -> list[int | None]:
    """A game's players as the club's members, by id, in its seats' order (None for a name
    no member has): a game's line's ``members``."""
    keys = [name_key(name) for name in names]
    ids = dict(Member.objects.filter(club=club, key__in=keys).values_list("key", "pk"))
    return [ids.get(key) for key in keys]


def merged(club: Club, gone_id: int, kept_id: int) -> None:
    """A merge: the lines about or naming the merged player, about or naming the player
    kept, who he is now (before the merged player is deleted)."""
    ClubChange.objects.filter(club=club, member_id=gone_id).update(member_id=kept_id)
    naming = ClubChange.objects.filter(club=club, members__isnull=False).only("members")
    lines = [line for line in naming if isinstance(line.members, list) and gone_id in line.members]
    for line in lines:
        line.members = [kept_id if one == gone_id else one for one in line.members or []]
    ClubChange.objects.bulk_update(lines, ["members"])


def deleted(member: Member) -> None:
    """A member about to be deleted: the lines about him keep his name as it is last (each
    but a merge's, whose subject is the merged player's name), and say it from then on."""
    lines = ClubChange.objects.filter(club=member.club_id, member=member)
    lines.exclude(action="members_merged").update(subject=member.name[:120])


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
    "handicap_cup": _("handicap cup"),
    "federation": _("federation"),
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
    "game": _("game"),
    "hand": _("hand"),
    "phone": _("phone"),
    "device": _("phone’s name"),
    "outcome": _("decision"),
    "reason": _("reason"),
    "counted": _("games counted"),
    "differing": _("league rows that differed, repaired"),
    "repaired": _("players whose totals differed, repaired"),
}
"""How a history line names what a change is about (``before`` and ``after``'s keys);
others (an ``id`` kept to find a thing again) are not said."""
for _option in OPTIONS:  # a house-rule option is named as the club's form names it
    FIELD_WORDS.setdefault(_option.name, _(_option.label))
for _setting in RATING_SETTINGS:  # so is a rating setting
    FIELD_WORDS.setdefault(_setting.name, _(_setting.label))

DAYS = frozenset({"first_day", "last_day", "date"})
OUTCOMES = {"confirmed": _("confirmed as it stands"), "corrected": _("corrected")}
"""A referee's decision, as a line says it."""


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
    if key == "phone":
        return phone_said(str(value)) or str(value)
    if key == "outcome" and value in OUTCOMES:
        return str(OUTCOMES[value])
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


GAME_LINES = frozenset({"game_deleted", "game_moved"})
"""The lines whose ``members`` are a game's seats, named in their subject in seat order."""


def reading(changes: QuerySet[ClubChange]) -> QuerySet[ClubChange]:
    """The lines as the history reads them: each with its account and its member (one
    query for any number of lines)."""
    return changes.select_related("by_user", "member")


def names_now(changes: Iterable[ClubChange]) -> dict[int, str]:
    """The names now of the members game lines seat, by id: one query, none if no line is a
    game's. Names are the club's members' full names: the history is its admins'."""
    ids = {
        one
        for change in changes
        if change.action in GAME_LINES and isinstance(change.members, list)
        for one in change.members
        if isinstance(one, int)
    }
    if not ids:
        return {}
    return dict(Member.objects.filter(pk__in=ids).values_list("pk", "name"))


def subject(change: ClubChange, names: dict[int, str] | None = None) -> str:
    """What a line is about, as the page says it: a member by his name now (a merge's, by
    the merged player's name then); a game's players by their names now (``names``, from
    :func:`names_now`), each with what followed his name (his total); a night's day (a
    night's or a round's line keeps it in ISO 8601) as the pages say a day."""
    if change.action.startswith(("night_", "round_")):
        return _said("date", change.subject)
    if change.member is not None and change.action != "members_merged":
        return change.member.name
    if change.action in GAME_LINES and names:
        apart, parts = seat_parts(change)
        seats = [*(change.members if isinstance(change.members, list) else [])]
        seats += [None] * (len(parts) - len(seats))
        return apart.join(
            (names.get(seat, name) if name and isinstance(seat, int) else name) + rest
            for seat, (name, rest) in zip(seats, parts, strict=False)
        )
    return change.subject


def into(change: ClubChange) -> str | None:
    """The player a merge kept, by his name now (as then if he is no longer the club's)."""
    if change.action != "members_merged":
        return None
    if change.member is not None:
        return change.member.name
    kept = change.after.get("into") if isinstance(change.after, dict) else None
    return str(kept) if kept is not None else None


def seat_parts(change: ClubChange) -> tuple[str, list[tuple[str, str]]]:
    """A game's line's subject parted by seat, and each part as its player's name and what
    follows it. A deleted game's names ``name total`` parted by `` · `` (by ``, `` if it had
    no summary: scoring/clubs/edits.py), its record's players beside it, which tell each
    part's name even where the subject was cut short; a moved game's, names parted by ``, ``.
    A part that is not its player's name is all said after an empty name."""
    apart = " · " if change.action == "game_deleted" and " · " in change.subject else ", "
    parts = change.subject.split(apart)
    record = change.before if isinstance(change.before, dict) else {}
    players = record.get("players") if change.action == "game_deleted" else None
    seated = [str(one) for one in players] if isinstance(players, list) else parts
    said = []
    for part, player in zip(parts, seated[: len(parts)] + parts[len(seated) :], strict=True):
        if part.startswith(player[: len(part)]):  # his name, and his total if the part has one
            said.append((part[: len(player)], part[len(player) :]))
        else:
            said.append(("", part))
    return apart, said


@dataclass(frozen=True)
class Line:
    """A line of the history as its page and the API say it."""

    change: ClubChange
    words: str
    subject: str
    into: str | None
    details: list[Detail]


def lines(changes: Iterable[ClubChange]) -> list[Line]:
    """The lines (read through :func:`reading`) as the page says them, members by their
    names now: one query more, for the players of the games' lines among them."""
    changes = list(changes)
    names = names_now(changes)
    return [
        Line(change, label(change.action), subject(change, names), into(change), details(change))
        for change in changes
    ]
