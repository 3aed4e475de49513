"""A club's part of a person's privacy (docs/privacy.md): what it keeps about a member, for
him or for an admin at his request; a member removed at his request, or an account deleted,
his name made anonymous if he asks; and whether the public sees him by his first name and
initial (the rule itself: scoring/clubs/names.py).

A name made anonymous is renamed everywhere the club writes it (its member, the seats of
the club's games, their summaries, its league's rows) and nowhere else: a game that is no
club's names its players as its table typed them, and nothing says which of them he was.
Ratings do not move: the league rates players by the key of their name, and every row of
his is renamed at once, so each rating (mu, sigma) stays what it was, and what a full rebuild gives.
"""

from collections.abc import Iterable, Sequence
from itertools import count
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from ..accounts.face import AccountNeeded
from ..common.rights import NOBODY, Actor
from ..engine import record_to_dict
from ..engine.league import COUNTED
from ..engine.names import look_alike, name_key
from ..table.face import Game, Player, Seat, Summary, exported, load_games
from . import history
from .league import totals
from .models import Club, ClubChange, ClubResult, Federation, MailChoice, Member
from .services import only_admin

ANONYMOUS = "Player {number}"
"""An anonymous name, as stored. Names are data, not words of the page: the game records,
standings.csv and records.jsonl carry them to other sites and languages, and a club's
names are told apart by their key. So it is stored once, in this one neutral form (never in
the language of whoever asked), and shown as stored, like any name."""


class LastAdmin(Exception):
    """The member is the club's only admin with an account: the club would be left with
    nobody to run it."""


# Who the public sees.


@transaction.atomic
def set_short_in_public(*, club: Club, member_id: int, short: bool, by: Actor = NOBODY) -> Member:
    """Whether the public sees this member by his first name and initial."""
    Club.objects.select_for_update().get(pk=club.pk)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.short_in_public == short:
        return member
    member.short_in_public = short
    member.save(update_fields=["short_in_public"])
    history.log(
        club,
        by,
        "public_name_set",
        member,
        before={"short": not short},
        after={"short": short},
    )
    return member


# Anonymous names.


def anonymous_name(club: Club) -> str:
    """The smallest ``Player N`` the club has no player of, nor one that looks like it."""
    names = list(Member.objects.filter(club=club).values_list("name", flat=True))
    keys = {name_key(name) for name in names}
    for number in count(1):
        name = ANONYMOUS.format(number=number)
        if name_key(name) not in keys and look_alike([name], names) is None:
            return name
    raise AssertionError("unreachable: count() never ends")


def _rename(club: Club, member: Member, name: str) -> None:
    """The member renamed in every row the club writes his name in; ratings untouched."""
    old, new = member.key, name_key(name)
    seats = list(
        Seat.objects.filter(game__club_game__club=club, player__key=old).values_list(
            "pk", "game_id", "position"
        )
    )
    if seats:
        player, _ = Player.objects.get_or_create(key=new, defaults={"name": name})
        Seat.objects.filter(pk__in=[pk for pk, _, _ in seats]).update(player=player)
        positions = {game_id: position for _, game_id, position in seats}
        summaries = list(Summary.objects.filter(game_id__in=positions))
        for summary in summaries:
            summary.names[positions[summary.game_id]] = name
        Summary.objects.bulk_update(summaries, ["names"])
        # His old name is no one's now, unless a game outside the club seats it.
        Player.objects.filter(key=old, seats__isnull=True).delete()
    ClubResult.objects.filter(club=club, key=old).update(key=new, name=name)
    totals.rekey(club, old, new)
    _rename_in_history(club, member, name)
    member.name, member.key = name, new


def _rename_in_history(club: Club, member: Member, name: str) -> None:
    """The club's history lines about him or naming him name him ``name`` now: the name
    removed is kept nowhere, nor any name he had before it. (The lines say his name now
    as they are read: what is rewritten is what they stored to say what changed.)

    A line about him (its ``member``) names him by a name he had, wherever it stores one:
    its subject, a rename's names, a merge's (the merged player's is his too). A line
    naming him among others (its ``members``) names him by the name he had then: a game's
    in his seat (its subject's part, its record's player), a deleted night's wherever that
    name stands. The name he had then is told by his own lines, read from the newest back:
    before a rename of him, he had the name he was renamed from; before a merge into him,
    the merged player's name too (a player who had one of his names at another time is
    someone else)."""
    his = {member.key}
    lines = []
    about = ClubChange.objects.filter(club=club).filter(Q(member=member) | Q(members__isnull=False))
    read = about.only("action", "subject", "member", "members", "before", "after")
    for line in read.order_by("-pk"):
        mine = line.member_id == member.pk
        seats = [
            index
            for index, one in enumerate(line.members if isinstance(line.members, list) else [])
            if one == member.pk
        ]
        if not mine and not seats:
            continue
        earlier = _his_names_before(line) if mine else set()
        keys = his | earlier
        if line.action in history.GAME_LINES and not mine:
            subject = _seated_subject(line, seats, name)
            before, after = _seated(line.before, seats, name), line.after
        else:
            subject = name if mine else line.subject
            before, after = _renamed(line.before, keys, name), _renamed(line.after, keys, name)
        now = (subject, before, after)
        if now != (line.subject, line.before, line.after):
            line.subject, line.before, line.after = now
            lines.append(line)
        his = _his_names_then(line, his, earlier)
    ClubChange.objects.bulk_update(lines, ["subject", "before", "after"])


def _line_names(line: ClubChange) -> tuple[str, str] | None:
    """A line's name before and after, if it renamed or merged a player (None else)."""
    before = line.before if isinstance(line.before, dict) else {}
    after = line.after if isinstance(line.after, dict) else {}
    if line.action in ("member_renamed", "change_undone"):
        was, now = before.get("name"), after.get("name")
    elif line.action == "members_merged":
        was, now = before.get("name"), after.get("into")
    else:
        return None
    if isinstance(was, str) and isinstance(now, str):
        return was, now
    return None


def _his_names_before(line: ClubChange) -> set[str]:
    """The keys of his names a line of his adds, the lines before it having named him so:
    the name he was renamed from, or the player merged into him."""
    names = _line_names(line)
    return set() if names is None else {name_key(names[0])}


def _his_names_then(line: ClubChange, his: set[str], earlier: set[str]) -> set[str]:
    """The keys he was named by in the lines before this one."""
    names = _line_names(line)
    if not earlier or names is None:
        return his
    if line.action == "members_merged":
        return his | earlier
    return (his - {name_key(names[1])}) | earlier


def _renamed(value: Any, keys: set[str], name: str) -> Any:
    if isinstance(value, str):
        return name if name_key(value) in keys else value
    if isinstance(value, list):
        return [_renamed(one, keys, name) for one in value]
    if isinstance(value, dict):
        return {key: _renamed(one, keys, name) for key, one in value.items()}
    return value


def _seated_subject(line: ClubChange, seats: list[int], name: str) -> str:
    """A game's line's subject, his seats' parts naming him ``name``, what followed his
    name (his total) kept."""
    apart, parts = history.seat_parts(line)
    said = [
        (name if index in seats and was else was) + rest for index, (was, rest) in enumerate(parts)
    ]
    return apart.join(said)[:120]


def _seated(record: Any, seats: list[int], name: str) -> Any:
    """A deleted game's record, his seats' players named ``name``."""
    if not isinstance(record, dict) or not isinstance(record.get("players"), list):
        return record
    players = [name if index in seats else one for index, one in enumerate(record["players"])]
    return {**record, "players": players}


def _lock_games(members: Iterable[Member]) -> None:
    """The club games these members sat in, locked in order, before their clubs (the order
    a hand's write takes them in: its game, then its club): a hand saved meanwhile is
    written before the renaming, which then renames it too, or after it, and then the
    league reads the seats as they now are (``league.results.as_seated``)."""
    seated = Q()
    for member in members:
        seated |= Q(game__club_game__club=member.club_id, player__key=member.key)
    if not seated:
        return
    ids = Seat.objects.filter(seated).values("game_id")
    list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


def _detach(club: Club, member: Member, *, anonymous: bool) -> None:
    """The member no longer anyone's account; renamed anonymously if asked (shown so to
    everyone, so his choice of a short public name goes with it)."""
    if anonymous:
        _rename(club, member, anonymous_name(club))
        member.short_in_public = False
    member.user_id, member.claimed_by_id = None, None
    member.save(update_fields=["name", "key", "user", "claimed_by", "short_in_public", "role"])
    # What the account asked to be mailed goes with it (scoring/clubs/mail.py).
    MailChoice.objects.filter(member=member).delete()


@transaction.atomic
def remove_member(*, club: Club, member_id: int, by: Actor = NOBODY) -> Member:
    """An admin removes a member at his request: his account detached, his name made
    anonymous, his role that of a guest who sat in the club's games; his results stay.
    LastAdmin if he is the club's only admin with an account, and nothing changes.

    The history line names him by his anonymous name only: the name removed is kept
    nowhere, not even there."""
    _lock_games(Member.objects.filter(club=club, pk=member_id))
    club = Club.objects.select_for_update().get(pk=club.pk)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if only_admin(club, member):
        raise LastAdmin(member.name)
    member.role = Member.Role.GUEST
    _detach(club, member, anonymous=True)
    history.log(club, by, "member_anonymised", member)
    return member


def leave_clubs(user_id: int, anonymous: bool) -> None:
    """An account is being deleted (scoring/accounts/services.py): its clubs locked, in
    order; AccountNeeded, naming them, if it is the only admin with an account of any, or
    the only admin of a federation;
    else each of its members detached, and renamed anonymously if he asked. Its claims
    end with it (the column empties itself)."""
    if anonymous:
        _lock_games(Member.objects.filter(user_id=user_id))
    club_ids = sorted(set(Member.objects.filter(user_id=user_id).values_list("club", flat=True)))
    clubs = list(Club.objects.select_for_update().filter(pk__in=club_ids).order_by("pk"))
    members = {member.club_id: member for member in Member.objects.filter(user_id=user_id)}
    needed = [club.name for club in clubs if only_admin(club, members[club.pk])]
    alone = list(
        Federation.objects.annotate(admin_count=Count("admins"))
        .filter(admin_count=1, admins=user_id)
        .order_by("name")
        .values_list("name", flat=True)
    )
    if needed or alone:
        raise AccountNeeded(needed, alone)
    for club in clubs:
        _detach(club, members[club.pk], anonymous=anonymous)


# What the club keeps about a member.


def memberships_data(members: Sequence[Member]) -> list[dict[str, Any]]:
    """Each member's part of his club, as JSON data: who he is there, his results and
    ratings, and the records of the games he sat in (docs/privacy.md). Five queries for
    any number of members (their clubs read with them)."""
    if not members:
        return []
    mine = Q()
    for member in members:
        mine |= Q(club=member.club_id, key=member.key)
    counted = [statistic.name for statistic in COUNTED]
    results: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for row in ClubResult.objects.filter(mine).select_related("game").order_by("position"):
        results.setdefault((row.club_id, row.key), []).append(_result(row, counted))
    seated = Q()
    for member in members:
        seated |= Q(game__club_game__club=member.club_id, player__key=member.key)
    sat = Seat.objects.filter(seated).values("game_id")
    games = Game.objects.filter(pk__in=sat).select_related("club_game").order_by("created_at", "id")
    states = load_games(games)
    records: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for state in states:
        club_id = state.game.club_game.club_id
        for name in state.names:
            records.setdefault((club_id, name_key(name)), []).append(
                {"game": state.game.public_id, "record": record_to_dict(exported(state))}
            )
    return [
        {
            "club": member.club.name,
            "club_address": member.club.slug,
            "name": member.name,
            "role": member.role,
            "since": member.joined_at.isoformat(),
            "account": member.user_id is not None,
            "shown_to_the_public": "first name and initial"
            if member.short_in_public
            else "full name",
            "results": results.get((member.club_id, member.key), []),
            "games": records.get((member.club_id, member.key), []),
        }
        for member in members
    ]


def _result(row: ClubResult, counted: Iterable[str]) -> dict[str, Any]:
    return {
        "game": row.game.public_id,
        "finished_at": row.finished_at.isoformat(),
        "seat": row.seat,
        "rank": row.rank,
        "points": row.total,
        "won": row.won,
        "statistics": {name: getattr(row, name) for name in counted},
        "contracts": row.contracts,
        "amount": str(row.amount) if row.amount is not None else None,
        "mu": row.mu,
        "sigma": row.sigma,
    }


def account_part(user_id: int) -> dict[str, Any]:
    """The account's sections kept by clubs: its memberships, the players it claims and no
    admin has confirmed yet, and the federations it is an admin of."""
    members = list(Member.objects.filter(user_id=user_id).select_related("club"))
    claims = Member.objects.filter(claimed_by_id=user_id).select_related("club")
    run = Federation.objects.filter(admins=user_id).order_by("created_at", "id")
    return {
        "memberships": memberships_data(members),
        "claims": [
            {"club": claim.club.name, "club_address": claim.club.slug, "name": claim.name}
            for claim in claims
        ],
        "federations_run": [
            {
                "federation": federation.name,
                "address": federation.slug,
                "public": federation.public,
                "created_at": federation.created_at.isoformat(),
            }
            for federation in run
        ],
    }
