"""An organiser's care of the club's players (docs/league.md, "Members"): a member renamed,
two merged into one, one without games deleted, one with games retired and brought back.

Each write is one transaction, as the other services of the club: the games the players
sat in locked first (the order a hand's write takes them in: its game, then its club,
scoring/clubs/privacy.py ``_lock_games``), then the club, then the write, a line of the
club's history (scoring/clubs/history.py), and the new state returned.

A name reaches a game through the table's :class:`~scoring.table.models.Player`, one per
name key for the whole site, whose name every seat of that key shows; the game's summary
and the league's rows (:class:`ClubResult` ``key``, ``name``) repeat it. A member renamed is
seated under his new name in every game of the club, and those copies follow. The league
rates players by key: renamed, each rating stays what it was; merged, the games of both
are one player's, rated again from the first of them on (``league.ratings.rerate_from``), so the
stored ratings stay what a full ``league.ratings.rebuild`` gives.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from ...common.names import look_alike, name_key
from ...common.rights import Actor
from ...table.face import Game, Player, Seat, Summary
from .. import history
from ..league import totals
from ..league.ratings import rerate_from
from ..models import (
    Attendance,
    Club,
    ClubChange,
    ClubResult,
    EventEntry,
    EventFinal,
    EventRound,
    ForbiddenPair,
    Member,
    Round,
)
from ..privacy import LastAdmin
from ..services import NameLooksLike, NameTaken, lock_club, only_admin

__all__ = [
    "AlreadyMerged",
    "BothHaveAccounts",
    "DrawnTogether",
    "HasGames",
    "LastAdmin",
    "MergeRefused",
    "NameLooksLike",
    "NameTaken",
    "NotUndoable",
    "SatTogether",
    "bring_back",
    "delete_member",
    "drawn_in",
    "games_of",
    "last_change",
    "merge_members",
    "merge_refusal",
    "played",
    "rename_member",
    "retire_member",
    "undo_last_change",
]


class MergeRefused(Exception):
    """Two members who cannot be one player."""


class SatTogether(MergeRefused):
    """They sat in ``games`` of the club's games together: two players, not one."""

    def __init__(self, games: int) -> None:
        self.games = games
        super().__init__(games)


class DrawnTogether(MergeRefused):
    """They were both drawn in one round of a club night (at two tables, or one at a table
    and the other sitting out): two players."""

    def __init__(self, round: Round) -> None:
        self.round = round
        super().__init__(round.pk)


class BothHaveAccounts(MergeRefused):
    """Each is an account's player: merged, one account would lose its player."""


class AlreadyMerged(MergeRefused):
    """Another admin merged ``gone`` meanwhile (two admins merging the same pair): he is
    ``into``'s now, and nothing more changes."""

    def __init__(self, into: str) -> None:
        self.into = into
        super().__init__(into)


class HasGames(Exception):
    """The member sat in ``games`` of the club's games, or was drawn in ``rounds`` rounds
    of its nights: he is retired, never deleted, so that they keep their players."""

    def __init__(self, games: int, rounds: int) -> None:
        self.games, self.rounds = games, rounds
        super().__init__(games, rounds)


ROLE_ORDER = (Member.Role.GUEST, Member.Role.MEMBER, Member.Role.SCORER, Member.Role.ADMIN)


def _club_seats(club: Club, key: str) -> QuerySet[Seat]:
    return Seat.objects.filter(game__club_game__club=club, player__key=key)


def games_of(club: Club, member: Member) -> int:
    """How many of the club's games the member sat in (any status): one query."""
    return _club_seats(club, member.key).count()


def played(club: Club) -> dict[str, int]:
    """How many of the club's games each of its players sat in, by name key: one query."""
    return dict(
        Seat.objects.filter(game__club_game__club=club)
        .values_list("player__key")
        .annotate(games=Count("pk"))
        .values_list("player__key", "games")
    )


def drawn_in(club: Club, member: Member) -> int:
    """How many rounds of the club's nights drew the member, at a table or sitting out."""
    return len(_rounds_with(club, [member.pk]))


def _rounds_with(club: Club, member_ids: Iterable[int]) -> list[Round]:
    """The rounds of the club's nights in which every one of ``member_ids`` was drawn, at a
    table or sitting out."""
    wanted = set(member_ids)
    return [
        row
        for row in Round.objects.filter(night__club=club).select_related("night")
        if wanted <= _drawn(row)
    ]


def _drawn(row: Round) -> set[int]:
    return {*row.sitting_out, *(member for table in row.tables for member in table)}


def _lock_seated(keys: Iterable[str]) -> None:
    """Every game that seats a player of these name keys, locked in order, before the club
    (as a hand's write takes them: its game, then its club). A hand saved meanwhile is
    written before the change, which then covers it, or after it, and the league then reads
    the seats as they now are (``league.results.as_seated``)."""
    ids = Seat.objects.filter(player__key__in=set(keys)).values("game_id")
    list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


def _rewrite_summaries(seats: Iterable[tuple[int, int]], name: str, batch: int = 1000) -> None:
    """The summaries of these (game, seat position) pairs, with ``name`` at that seat: one
    statement a seat position (a batch of games a statement on SQLite), the name set in the
    list by the database (PostgreSQL ``jsonb_set``, SQLite ``json_set``), as a merge of
    thousands of games would take seconds to write through Django's ``bulk_update``."""
    games: dict[int, list[int]] = {}
    for game_id, position in seats:
        games.setdefault(position, []).append(game_id)
    table = connection.ops.quote_name(Summary._meta.db_table)
    with connection.cursor() as cursor:
        for position, ids in sorted(games.items()):
            if connection.vendor == "postgresql":
                cursor.execute(
                    f"UPDATE {table} SET names = jsonb_set(names, %s, to_jsonb(%s::text)) "
                    "WHERE game_id = ANY(%s)",
                    [[str(position)], name, ids],
                )
                continue
            for first in range(0, len(ids), batch):
                part = ids[first : first + batch]
                cursor.execute(
                    f"UPDATE {table} SET names = json_set(names, %s, %s) "
                    f"WHERE game_id IN ({', '.join(['%s'] * len(part))})",
                    [f"$[{int(position)}]", name, *part],
                )


def _seat_as(club: Club, old_key: str, name: str) -> int:
    """Every seat of the club's games that seats the player of ``old_key`` now seats
    ``name``, and the copies of the name follow (summaries, the club's league rows); the
    ratings are untouched. Returns the number of games.

    The table keeps one player a name key, whose name every seat of that key shows, in any
    game: if the club's new name is that player's in another case (``omar`` made ``Omar``),
    that player is renamed, and so are the copies of his name in every game he sat in."""
    new_key = name_key(name)
    player, _ = Player.objects.get_or_create(key=new_key, defaults={"name": name})
    if player.name != name:
        player.name = name
        player.save(update_fields=["name"])
        _rewrite_summaries(
            Seat.objects.filter(player=player).values_list("game_id", "position"), name
        )
        ClubResult.objects.filter(key=new_key).update(name=name)
    seats = list(_club_seats(club, old_key).values_list("pk", "game_id", "position"))
    if old_key != new_key and seats:
        Seat.objects.filter(pk__in=[pk for pk, _, _ in seats]).update(player=player)
        _rewrite_summaries(((game, position) for _, game, position in seats), name)
        # His old name is no one's now, unless a game outside the club seats it.
        Player.objects.filter(key=old_key, seats__isnull=True).delete()
    ClubResult.objects.filter(club=club, key=old_key).update(key=new_key, name=name)
    totals.rekey(club, old_key, new_key)
    return len(seats)


def _check_name(club: Club, member: Member, name: str) -> None:
    """NameTaken or NameLooksLike, as for a new player, against the club's others."""
    others = Member.objects.filter(club=club).exclude(pk=member.pk)
    if others.filter(key=name_key(name)).exists():
        raise NameTaken(name)
    alike = look_alike([name], others.values_list("name", flat=True))
    if alike is not None:
        raise NameLooksLike(*alike)


@transaction.atomic
def rename_member(*, club: Club, member_id: int, name: str, by: Actor) -> Member:
    """The member's new name, in the club and in every one of its games he sat in, their
    results and standings; refused (NameTaken, NameLooksLike) as a new player's name is,
    and then nothing changes. Member.DoesNotExist for another club's player."""
    found = Member.objects.get(club=club, pk=member_id)
    _lock_seated({found.key, name_key(name)})
    club = lock_club(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if name == member.name:
        return member
    old = member.name
    games = _rename(club, member, name)
    history.log(
        club,
        by,
        "member_renamed",
        old,
        member=member,
        before={"name": old},
        after={"name": name, "games": games},
    )
    return member


def _rename(club: Club, member: Member, name: str) -> int:
    """The member seated as ``name`` in the club's games, and so named: refused as a new
    player's name is (NameTaken, NameLooksLike). Returns the number of his games."""
    _check_name(club, member, name)
    games = _seat_as(club, member.key, name)
    member.name, member.key = name, name_key(name)
    member.save(update_fields=["name", "key"])
    return games


@dataclass(frozen=True)
class Merged:
    """What a merge did: the member kept, and how many games and league rows followed."""

    kept: Member
    games: int
    rerated: int


def merge_refusal(club: Club, gone: Member, kept: Member) -> MergeRefused | None:
    """Why ``gone`` may not be merged into ``kept``, or None: both accounts' players; or
    they sat in one game, or were drawn in one round of a night, together."""
    if gone.user_id is not None and kept.user_id is not None:
        return BothHaveAccounts()
    together = _club_seats(club, kept.key).filter(
        game__in=_club_seats(club, gone.key).values("game_id")
    )
    shared = together.count()
    if shared:
        return SatTogether(shared)
    drawn = _rounds_with(club, [gone.pk, kept.pk])
    if drawn:
        return DrawnTogether(drawn[0])
    return None


@transaction.atomic
def merge_members(*, club: Club, gone_id: int, kept_id: int, by: Actor) -> Merged:
    """``gone`` becomes ``kept`` (a guest typed ``Omarr`` who is ``Omar``): his games, their
    results and his nights are ``kept``'s; the league is rated again from the first of his
    games on; his account, if he has one, and a claim on him if ``kept`` has neither, go to
    ``kept``, who keeps the higher of their roles and the earlier day they joined, is
    shown to the public by first name and initial if either asked, and stays retired only
    if both were. Refused (a :class:`MergeRefused`), and then nothing changes, when they
    cannot be one player. Member.DoesNotExist for another club's player, or the same one
    twice."""
    if gone_id == kept_id:
        raise Member.DoesNotExist
    pair = list(Member.objects.filter(club=club, pk__in=[gone_id, kept_id]))
    if len(pair) != 2:
        raise Member.DoesNotExist
    _lock_seated({member.key for member in pair})
    club = lock_club(club)
    locked = {
        member.pk: member
        for member in Member.objects.select_for_update().filter(
            club=club, pk__in=[gone_id, kept_id]
        )
    }
    if len(locked) != 2:  # one of them merged or removed while this one waited for the lock
        _already_merged(club, next(one for one in pair if one.pk == gone_id), locked)
        raise Member.DoesNotExist
    gone, kept = locked[gone_id], locked[kept_id]
    refusal = merge_refusal(club, gone, kept)
    if refusal is not None:
        raise refusal
    start = ClubResult.objects.filter(club=club, key=gone.key).aggregate(first=Min("position"))[
        "first"
    ]
    games = _seat_as(club, gone.key, kept.name)
    _move_nights(club, gone, kept)
    _move_events(club, gone, kept)
    _take_over(gone, kept)
    before = {
        "name": gone.name,
        "role": gone.role,
        "account": gone.user_id is not None,
        "games": games,
    }
    user_id, claimed_by_id = gone.user_id, gone.claimed_by_id
    history.merged(club, gone.pk, kept.pk)
    gone.delete()
    if user_id is not None:
        kept.user_id, kept.claimed_by_id = user_id, None
    elif kept.user_id is None and kept.claimed_by_id is None:
        kept.claimed_by_id = claimed_by_id
    kept.save()
    rerated = rerate_from(club, start) if start is not None else 0
    history.log(
        club, by, "members_merged", gone.name, member=kept, before=before, after={"into": kept.name}
    )
    return Merged(kept, games, rerated)


def _already_merged(club: Club, gone: Member, locked: dict[int, Member]) -> None:
    """Raises AlreadyMerged if ``gone`` is no longer the club's because the club's history
    says he was merged (into whom it says), ``kept`` being still there."""
    if gone.pk in locked:
        return
    merged = (
        history.reading(club.changes.filter(action="members_merged", subject=gone.name[:120]))
        .order_by("-at", "-pk")
        .first()
    )
    kept = history.into(merged) if merged is not None else None
    if kept is not None:
        raise AlreadyMerged(kept)


def _take_over(gone: Member, kept: Member) -> None:
    """What ``kept`` keeps of the two: the higher role, the earlier day, the shorter public
    name, a retirement only if both had one."""
    kept.role = max(kept.role, gone.role, key=lambda role: ROLE_ORDER.index(Member.Role(role)))
    kept.joined_at = min(kept.joined_at, gone.joined_at)
    kept.short_in_public = kept.short_in_public or gone.short_in_public
    if gone.retired_at is None:
        kept.retired_at = None


def _move_nights(club: Club, gone: Member, kept: Member) -> None:
    """``gone``'s check-ins and draws are ``kept``'s: a night both were checked in at keeps
    one check-in, present if either was."""
    theirs = {one.night_id: one for one in Attendance.objects.filter(member=kept)}
    for attendance in Attendance.objects.filter(member=gone):
        other = theirs.get(attendance.night_id)
        if other is None:
            attendance.member = kept
            attendance.save(update_fields=["member"])
            continue
        if attendance.present and not other.present:
            other.present = True
            other.save(update_fields=["present"])
        attendance.delete()
    for row in _rounds_with(club, [gone.pk]):
        row.tables = [[_same(one, gone, kept) for one in table] for table in row.tables]
        row.sitting_out = [_same(one, gone, kept) for one in row.sitting_out]
        row.save(update_fields=["tables", "sitting_out"])


def _move_events(club: Club, gone: Member, kept: Member) -> None:
    """``gone``'s entries, seats, pairs never together and finals in the club's events are
    ``kept``'s (issue 41): an event both were entered in keeps ``kept``'s entry; a pair of
    the two, or one ``kept`` has already, goes."""
    theirs = set(EventEntry.objects.filter(member=kept).values_list("event_id", flat=True))
    for entry in EventEntry.objects.filter(member=gone):
        if entry.event_id in theirs:
            entry.delete()
        else:
            entry.member = kept
            entry.save(update_fields=["member"])
    for row in EventRound.objects.filter(event__club=club):
        seated = [one for table in row.tables for one in table] + list(row.sitting_out)
        if gone.pk in seated:
            row.tables = [[_same(one, gone, kept) for one in table] for table in row.tables]
            row.sitting_out = [_same(one, gone, kept) for one in row.sitting_out]
            row.save(update_fields=["tables", "sitting_out"])
    for final in EventFinal.objects.filter(event__club=club):
        if gone.pk in final.players:
            final.players = [_same(one, gone, kept) for one in final.players]
            final.save(update_fields=["players"])
    pairs = ForbiddenPair.objects.filter(club=club)
    for pair in pairs.filter(Q(first=gone) | Q(second=gone)):
        other = pair.second_id if pair.first_id == gone.pk else pair.first_id
        low, high = sorted((other, kept.pk))
        if other == kept.pk or pairs.filter(event=pair.event_id, first=low, second=high).exists():
            pair.delete()
        else:
            pair.first_id, pair.second_id = low, high
            pair.save(update_fields=["first", "second"])


def _same(member_id: int, gone: Member, kept: Member) -> int:
    return kept.pk if member_id == gone.pk else member_id


def _one_admin_left(club: Club, member: Member) -> None:
    if only_admin(club, member):
        raise LastAdmin(member.name)


@transaction.atomic
def delete_member(*, club: Club, member_id: int, by: Actor) -> Member:
    """A member who never sat in a game of the club, nor was drawn at a night, deleted
    (HasGames else: he is retired instead). LastAdmin for the club's only admin with an
    account. Returns him as he was."""
    club = lock_club(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    games, rounds = games_of(club, member), drawn_in(club, member)
    if games or rounds:
        raise HasGames(games, rounds)
    _one_admin_left(club, member)
    history.log(
        club,
        by,
        "member_removed",
        member,
        before={"name": member.name, "role": member.role, "account": member.user_id is not None},
    )
    history.deleted(member)
    member.delete()
    return member


@transaction.atomic
def retire_member(*, club: Club, member_id: int, by: Actor) -> Member:
    """The member retired: kept in his games and past standings, gone from the club's lists
    of players, the names offered for a new game and a night's check-in. His account, if
    he has one, stays his. LastAdmin for the club's only admin with an account."""
    club = lock_club(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.retired_at is not None:
        return member
    _one_admin_left(club, member)
    member.retired_at = timezone.now()
    member.save(update_fields=["retired_at"])
    history.log(club, by, "member_retired", member)
    return member


@transaction.atomic
def bring_back(*, club: Club, member_id: int, by: Actor) -> Member:
    """A retired member back in the club's lists."""
    club = lock_club(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.retired_at is None:
        return member
    member.retired_at = None
    member.save(update_fields=["retired_at"])
    history.log(club, by, "member_returned", member)
    return member


# The club's last change undone (its history, scoring/clubs/history.py).

UNDOABLE = frozenset({"member_renamed", "role_changed", "member_retired", "member_returned"})
"""The kinds of change that may be undone while they are the club's last: a member's, which
only he is changed by, put back as it was."""


class NotUndoable(Exception):
    """The change is no longer the club's last, or is not of a kind that may be undone."""


def last_change(club: Club) -> ClubChange | None:
    """The club's last change, the one that may be undone: a line of a game's table
    agreeing since changes nothing it changed."""
    return club.changes.exclude(action__in=history.TABLE_KINDS).order_by("-pk").first()


@transaction.atomic
def undo_last_change(*, club: Club, change_id: int, by: Actor) -> Member:
    """The club's last change put back as it was, if it is still its last and of a kind
    UNDOABLE (NotUndoable else): a member renamed gets his name back, in every game; a role
    changed, his role; retired, he is back; back, he is retired again. LastAdmin if that
    leaves the club no admin with an account. Its line names what is undone. Returns the
    member."""
    change = ClubChange.objects.get(club=club, pk=change_id)
    if change.action not in UNDOABLE:
        raise NotUndoable(change.action)
    was: dict[str, str] = change.before or {}
    renamed = change.action == "member_renamed"
    if change.member_id is not None:
        member = Member.objects.get(club=club, pk=change.member_id)
    else:  # a line no member was found for (docs/league.md)
        name = (change.after or {})["name"] if renamed else change.subject
        member = Member.objects.get(club=club, key=name_key(name))
    if renamed:
        _lock_seated({member.key, name_key(was["name"])})
    club = lock_club(club)
    if last_change(club) != change:
        raise NotUndoable(change.action)
    member = Member.objects.select_for_update().get(pk=member.pk)
    before, after = _put_back(club, member, change.action, was)
    history.log(
        club,
        by,
        "change_undone",
        member,
        before=before,
        after={"undone": change.action, **after},
    )
    return member


def _put_back(
    club: Club, member: Member, action: str, was: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """The member as he ``was`` before a change of kind ``action``; what that changed,
    before and after."""
    if action == "member_renamed":
        now = member.name
        _rename(club, member, was["name"])
        return {"name": now}, {"name": was["name"]}
    if action == "role_changed":
        now = member.role
        if now == Member.Role.ADMIN and was["role"] != Member.Role.ADMIN:
            _one_admin_left(club, member)
        member.role = was["role"]
        member.save(update_fields=["role"])
        return {"role": now}, {"role": was["role"]}
    if action == "member_retired":
        member.retired_at = None
    else:
        _one_admin_left(club, member)
        member.retired_at = timezone.now()
    member.save(update_fields=["retired_at"])
    return {}, {}
