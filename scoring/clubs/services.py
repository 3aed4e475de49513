"""Every write of a club, each one transaction, as the table's writes are: members and
their claims, seasons, club games and imports, and club nights with their draws."""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import partial
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ..common.bulk import collector_paused, insert_rows, keys_checked_meanwhile, values_found
from ..common.deadline import NO_DEADLINE, Deadline
from ..common.names import look_alike, name_key
from ..common.rights import NOBODY, Actor
from ..engine import SEATS, GameResult, Record, Rules, fingerprints
from ..engine.draw import MAX_PLAYERS, MAX_ROUNDS, draw
from ..engine.draw import Round as DrawnRound
from ..table.models import Game, Summary, rules_columns
from ..table.services import (
    abandon_game,
    create_game,
    import_many,
    import_record,
    make_scorer_link,
    record_ids,
)
from ..table.state import GameState, score
from . import history, mail
from .league.import_rating import league_before, rated_import, write_import
from .league.ratings import follow
from .models import Attendance, Club, ClubGame, MailSent, Member, Night, Round, Season

# The club: its members, its seasons, its games and its records.


class NameTaken(Exception):
    """Another player of the club already goes by this name."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)


class NameLooksLike(Exception):
    """A new player's name looks like another player's of the club (or like another new
    one): their confusable skeletons are the same (:func:`~scoring.common.names.look_alike`),
    ``Amina`` and ``Amina`` spelt with a Cyrillic A. ``line`` is the record it comes from,
    in an import."""

    def __init__(self, name: str, like: str, line: int | None = None) -> None:
        self.name, self.like, self.line = name, like, line
        super().__init__(name, like, line)


class SeasonOverlaps(Exception):
    """The days given overlap those of the season ``other``: a game would count in both."""

    def __init__(self, other: Season) -> None:
        self.other = other
        super().__init__(other.name)


@dataclass(frozen=True)
class Duplicate:
    """A record of a game the club has already: by its ``id`` (``record_id``), or, without
    one, by the same players, hands and finish (``record_id`` empty); or given twice in the
    records, the first time on line ``same_as``."""

    line: int
    record_id: str
    same_as: int | None = None


class AlreadyInClub(Exception):
    """Games of these records are in the club already, or given twice: every such line, as
    :class:`Duplicate`, in the order of the lines; the first's ``line``, ``record_id`` and
    ``same_as`` as the exception's own."""

    def __init__(self, duplicates: Sequence[Duplicate]) -> None:
        self.duplicates = list(duplicates)
        first = self.duplicates[0]
        self.line, self.record_id, self.same_as = first.line, first.record_id, first.same_as
        super().__init__(self.duplicates)


def _new_member(club: Club, name: str, **fields: Any) -> Member:
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, name=name, key=name_key(name), **fields)
    except IntegrityError:
        raise NameTaken(name) from None


def _new_members(club: Club, names: Sequence[str], **fields: Any) -> list[Member]:
    """New players of the club, none looking like a player it has or like another of them
    (:class:`NameLooksLike`); a name it has already is :class:`NameTaken`.

    The club is locked first, so that two players who look alike cannot join it at once."""
    _lock(club)
    alike = look_alike(names, Member.objects.filter(club=club).values_list("name", flat=True))
    if alike is not None:
        raise NameLooksLike(*alike)
    return [_new_member(club, name, **fields) for name in names]


@transaction.atomic
def create_club(
    *,
    name: str,
    slug: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
    admin_user_id: int,
    admin_name: str,
) -> Club:
    """A new club, whose first admin is the account that creates it, under ``admin_name``."""
    club = Club.objects.create(
        name=name,
        slug=slug,
        time_zone=time_zone,
        **rules_columns(rules),
        points=list(points),
        public=public,
        invite_admits=invite_admits,
    )
    _new_member(club, admin_name, role=Member.Role.ADMIN, user_id=admin_user_id)
    history.log(club, Actor(user_id=admin_user_id), "club_created", name)
    return club


@transaction.atomic
def update_club(
    *,
    club_id: int,
    name: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
    embed_origins: Sequence[str] | None = None,
    colour: str | None = None,
    by: Actor = NOBODY,
) -> Club:
    """The club's settings; games already played keep the rules they were played with. What
    changed goes to the club's history, before and after. The standings follow at once:
    they add up the results by the club's league points as they are, and a game counts in
    the season of its day in the club's time zone as it is."""
    club = Club.objects.select_for_update().get(pk=club_id)
    before = settings_of(club)
    club.name, club.time_zone, club.public, club.invite_admits = (
        name,
        time_zone,
        public,
        invite_admits,
    )
    for name, value in rules_columns(rules).items():
        setattr(club, name, value)
    club.points = list(points)
    if embed_origins is not None:  # the origins checked (clubs/embed.py), else as they are
        club.embed_origins = list(embed_origins)
    if colour is not None:
        club.colour = colour
    club.save()
    was, now = history.changed(before, settings_of(club))
    if was:
        history.log(club, by, "club_edited", club.name, before=was, after=now)
    return club


SETTINGS = (
    "name",
    "time_zone",
    *rules_columns(Rules()),
    "points",
    "public",
    "invite_admits",
    "embed_origins",
    "colour",
)
"""The club's settings, as its history names them."""


def settings_of(club: Club) -> dict[str, Any]:
    """The club's settings as its history keeps them."""
    values = {name: getattr(club, name) for name in SETTINGS}
    values["stake"] = Decimal(values["stake"])  # 0 until read back from the database
    return {name: history.as_json(value) for name, value in values.items()}


@transaction.atomic
def add_member(
    *, club: Club, name: str, role: str = Member.Role.MEMBER, by: Actor = NOBODY
) -> Member:
    """A player of the club who may never touch the app: a name, and a role."""
    member = _new_members(club, [name], role=role)[0]
    history.log(club, by, "member_added", member.name, after={"role": member.role})
    return member


def _lock(club: Club) -> Club:
    """The club's row, locked: its members' roles and accounts change one write at a time
    (two admins demoting each other at once leave one admin; one account joining twice at
    once joins once). Locked first, before any member, by every such write."""
    return Club.objects.select_for_update().get(pk=club.pk)


@transaction.atomic
def set_role(*, club: Club, member_id: int, role: str, by: Actor = NOBODY) -> Member:
    """A member's role. The club keeps at least one admin with an account."""
    club = _lock(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.role == Member.Role.ADMIN and role != Member.Role.ADMIN:
        admins = Member.objects.filter(club=club, role=Member.Role.ADMIN, user__isnull=False)
        if not admins.exclude(pk=member.pk).exists():
            return member
    if member.role == role:
        return member
    was, member.role = member.role, role
    member.save(update_fields=["role"])
    history.log(club, by, "role_changed", member.name, before={"role": was}, after={"role": role})
    return member


ADMITTED_AT_ONCE = frozenset({Member.Role.MEMBER, Member.Role.GUEST})
"""The players an invite link that admits at once lets an account be: one the club made a
scorer or an admin waits for an admin's word, whoever has the link."""


@transaction.atomic
def join_club(*, club: Club, user_id: int, member_id: int | None, name: str) -> Member:
    """An account comes through the invite link, as a player the club already has (a claim on
    his name and his games) or under a new name. If the link admits at once he is in, as a
    member; else, or for a player who is a scorer or an admin of the club, the claim waits
    for an admin. A guest who joins becomes a member. An account that joined, or claims a
    player, already (the form sent twice, at once or not) gets that membership or claim."""
    club = _lock(club)
    existing = Member.objects.filter(club=club, user_id=user_id).first()
    if existing is None:
        existing = Member.objects.filter(club=club, claimed_by_id=user_id).first()
    if existing is not None:
        return existing
    if member_id is not None:
        member = Member.objects.select_for_update().get(
            club=club, pk=member_id, user=None, claimed_by=None
        )
    else:
        member = _new_members(club, [name])[0]
    if club.invite_admits and member.role in ADMITTED_AT_ONCE:
        member.user_id, member.claimed_by_id = user_id, None
        member.role = Member.Role.MEMBER
        action = "member_joined"
    else:
        member.claimed_by_id = user_id
        action = "claim_made"
    member.save()
    history.log(club, Actor(user_id=user_id), action, member.name, after={"new": member_id is None})
    return member


@transaction.atomic
def confirm_claim(*, club: Club, member_id: int, accept: bool, by: Actor = NOBODY) -> Member:
    """An admin says whether the account that claims this player is him: accepted, it is
    the player, in the role the club gave him (a guest becomes a member)."""
    club = _lock(club)
    member = (
        Member.objects.select_for_update(of=("self",))
        .select_related("claimed_by")
        .get(club=club, pk=member_id)
    )
    if member.claimed_by is None:
        return member
    account = member.claimed_by.get_username()
    accepted = accept and not Member.objects.filter(club=club, user=member.claimed_by).exists()
    if accepted:
        member.user_id = member.claimed_by_id
        if member.role == Member.Role.GUEST:
            member.role = Member.Role.MEMBER
    member.claimed_by_id = None
    member.save()
    action = "claim_accepted" if accepted else "claim_refused"
    history.log(club, by, action, member.name, after={"account": account})
    return member


@transaction.atomic
def new_invite(*, club: Club, by: Actor = NOBODY) -> Club:
    """A new invite link; the old one stops working."""
    club.invite_secret = Club._meta.get_field("invite_secret").get_default()
    club.save(update_fields=["invite_secret"])
    history.log(club, by, "invite_renewed", "")
    return club


@transaction.atomic
def create_season(
    *,
    club: Club,
    name: str,
    slug: str,
    first_day: date,
    last_day: date,
    points: Sequence[int],
    by: Actor = NOBODY,
) -> Season:
    """A season; its days may not overlap another's, so that a game counts in one at most."""
    Club.objects.select_for_update().get(pk=club.pk)
    other = club.seasons.filter(first_day__lte=last_day, last_day__gte=first_day).first()
    if other is not None:
        raise SeasonOverlaps(other)
    season = Season.objects.create(
        club=club,
        name=name,
        slug=slug,
        first_day=first_day,
        last_day=last_day,
        points=list(points),
    )
    days = {"first_day": first_day.isoformat(), "last_day": last_day.isoformat()}
    history.log(club, by, "season_created", name, after={**days, "points": list(points)})
    return season


def _club_names(club: Club, names: Sequence[str], role: str) -> list[str]:
    """The names as the club writes them; the names it does not know yet join it in
    ``role``, unless one looks like another player's (:class:`NameLooksLike`)."""
    known = {
        member.key: member.name
        for member in Member.objects.filter(club=club, key__in=[name_key(n) for n in names])
    }
    new: dict[str, str] = {}
    for name in names:
        if name_key(name) not in known:
            new.setdefault(name_key(name), name)
    if new:
        for member in _new_members(club, list(new.values()), role=role):
            known[member.key] = member.name
    return [known[name_key(name)] for name in names]


@transaction.atomic
def start_club_game(
    *,
    club: Club,
    names: Sequence[str],
    first_dealer: int | None,
    owner_id: int | None,
    by: Actor = NOBODY,
) -> GameState:
    """A club game with the club's rules: members by their names, anyone else as a guest."""
    state = create_game(
        names=_club_names(club, names, Member.Role.GUEST),
        rules=club.rules,
        first_dealer=first_dealer,
        place=club.name,
        owner_id=owner_id,
        club_label=club.name,
        by=by,
    )
    ClubGame.objects.get_or_create(game=state.game, defaults={"club": club})
    return state


@transaction.atomic
def import_club_records(
    *,
    club: Club,
    records: Sequence[Record],
    owner_id: int | None,
    by: Actor = NOBODY,
    results: Sequence[GameResult] | None = None,
    lines: Sequence[int] | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> int:
    """Games from a club's ``records.jsonl``, all or none; their players become members.

    Written in bulk, so that twenty thousand games take seconds: every record is scored by
    the engine first (which refuses any hand the rules do not allow; ``results``, when the
    caller has them from reading the records, are the engine's already), then the games,
    their seats, hands, history and summaries are inserted in bulk, each row as
    :func:`import_record` writes it, and the league follows once, from those results
    (:func:`league_before` and the steps it names). ``lines`` are the records' line
    numbers in their file, for the refusals (1, 2, 3… unless given). Returns the number of
    games imported. Past ``deadline`` (a request's), it raises
    :class:`~scoring.common.deadline.DeadlinePassed` and nothing is kept."""
    with collector_paused():
        return _import_club_records(club, records, owner_id, by, results, lines, deadline)


def _import_club_records(
    club: Club,
    records: Sequence[Record],
    owner_id: int | None,
    by: Actor,
    results: Sequence[GameResult] | None,
    lines: Sequence[int] | None,
    deadline: Deadline,
) -> int:
    Club.objects.select_for_update().get(pk=club.pk)
    numbers = list(lines) if lines is not None else list(range(1, len(records) + 1))
    prints = _refuse_known(club, records, numbers)
    if results is None:
        results = [score(record) for record in records]
    # The names as the club writes them, each new one a member, in the order they come.
    first: dict[str, str] = {}
    for record in records:
        for name in record.players:
            first.setdefault(name_key(name), name)
    members_before = Member.objects.filter(club=club).count()
    try:
        clubbed = _club_names(club, list(first.values()), Member.Role.MEMBER)
    except NameLooksLike as alike:
        line = next(
            line
            for line, record in zip(numbers, records, strict=True)
            if name_key(alike.name) in map(name_key, record.players)
        )
        raise NameLooksLike(alike.name, alike.like, line) from None
    shown = dict(zip(first, clubbed, strict=True))
    imported = import_many(
        records=[
            replace(record, players=tuple(shown[name_key(name)] for name in record.players))
            for record in records
        ],
        results=results,
        owner_id=owner_id,
        club_label=club.name,
        by=by,
    )
    deadline.check(import_shares().written)
    insert_rows(
        ClubGame,
        ("game_id", "club_id", "source_id", "fingerprint"),
        (
            (one.game.pk, club.pk, _source_id(one.game, one.record), print_)
            for one, print_ in zip(imported, prints, strict=True)
        ),
    )
    # The database checks the keys of every row written so far while the league's rows are
    # made and rated, which asks it nothing: the commit is left the league's own.
    before = league_before(club, imported)
    with keys_checked_meanwhile():
        rated = rated_import(club, imported, before)
    write_import(club, rated)
    added = Member.objects.filter(club=club).count() - members_before
    history.log(club, by, "records_imported", "", after={"games": len(records), "players": added})
    # The keys are checked beside the league's work, so the commit after it takes little.
    deadline.check(LEAGUE_DONE)
    return len(records)


@dataclass(frozen=True)
class ImportShares:
    """The shares of a club import's whole time done once its lines are read (the form) and
    once its games are written (the rest is the league's, done at :data:`LEAGUE_DONE`):
    from them, a request's deadline projects the whole (scoring/common/deadline.py)."""

    read: float
    written: float


IMPORT_SHARES = {
    "postgresql": ImportShares(read=0.3, written=0.6),
    "sqlite": ImportShares(read=0.25, written=0.69),
}
"""By database, measured for 20,000 games. PostgreSQL through tests/bench/bench_import.py
(stop 30: read at 0.28-0.31, written at 0.57-0.62; stop 33: 0.36 and 0.63). SQLite in
process, stop 33 (read at 0.25 of 20.5 s, written at 0.69): its inserts take a larger
share than COPY's, its league a smaller one, and a projection with PostgreSQL's shares
refused, under ``make run``, 20,000 games that it imports in 22 s. Another database takes
PostgreSQL's."""
LEAGUE_DONE = 0.97


def import_shares() -> ImportShares:
    """The shares of a club import's time on this site's database."""
    return IMPORT_SHARES.get(connection.vendor, IMPORT_SHARES["postgresql"])


def _source_id(game: Game, record: Record) -> str:
    """The record's ``id``, when the game could not keep it as its own record id."""
    return record.about.id if record.about.id and record.about.id != game.record_id else ""


def _refuse_known(club: Club, records: Sequence[Record], numbers: Sequence[int]) -> list[str]:
    """Refuses the records of games the club has already (:class:`AlreadyInClub`, naming
    every such line): by its ``id``, which one of the club's games holds as its record id
    or came in with, or, for a record without one, by its
    :func:`~scoring.engine.fingerprint`; and a game given twice in the records. Returns the
    records' fingerprints."""
    ids = [record.about.id for record in records if record.about.id]
    games = ClubGame.objects.filter(club=club)
    prints = fingerprints(records)
    taken: set[str] = set()
    known: set[str] = set()
    # A club's first import, into a club without games, asks for none of them one by one.
    if games.exists():
        taken = record_ids(Game.objects.filter(club_game__club=club), ids)
        taken |= values_found(games, "source_id", ids)
        unnamed = [
            print_ for print_, record in zip(prints, records, strict=True) if not record.about.id
        ]
        known = values_found(games, "fingerprint", unnamed)
    # The lines seen so far, by id and by fingerprint: a record with an id is the same
    # game as an earlier one of that id; one without, as any earlier one of its facts.
    seen: dict[str, int] = {}
    duplicates: list[Duplicate] = []
    for line, record, print_ in zip(numbers, records, prints, strict=True):
        record_id = record.about.id or ""
        first = seen.get(f"id:{record_id}" if record_id else print_)
        if record_id in taken or (not record_id and print_ in known):
            duplicates.append(Duplicate(line, record_id))
        elif first is not None:
            duplicates.append(Duplicate(line, record_id, same_as=first))
        seen.setdefault(print_, line)
        if record_id:
            seen.setdefault(f"id:{record_id}", line)
    if duplicates:
        raise AlreadyInClub(duplicates)
    return prints


# Club nights: check-in, draws, rounds.


class RoundPlaying(Exception):
    """Tables of the night's last round are still playing: the round is not over."""

    def __init__(self, round: Round, playing: int) -> None:
        self.round, self.playing = round, playing
        super().__init__(round.number, playing)


class NightOver(Exception):
    """The night has played its rounds, or was ended."""


class TooFewPlayers(Exception):
    """Fewer than four players are present: no table can be drawn."""

    def __init__(self, present: int) -> None:
        self.present = present
        super().__init__(present)


class TooManyPlayers(Exception):
    """More players than a draw seats (the engine's ``MAX_PLAYERS``) would be, or are,
    present."""

    def __init__(self, present: int) -> None:
        self.present, self.most = present, MAX_PLAYERS
        super().__init__(present)


@transaction.atomic
def create_night(
    *, club: Club, date: date, place: str, rounds: int | None, by: Actor = NOBODY
) -> Night:
    """A club night: its date and place, and the rounds planned (none: until it stops)."""
    night = Night.objects.create(club=club, date=date, place=place, rounds=rounds)
    planned = {"date": date.isoformat(), "place": place, "rounds": rounds}
    history.log(club, by, "night_created", date.isoformat(), after=planned)
    return night


@transaction.atomic
def check_in(*, night_id: int, member_ids: Sequence[int], guests: Sequence[str]) -> Night:
    """Who is present now: the members tapped and the guests named; the others checked in
    before have left. Between rounds, so that arrivals and departures count at the next
    draw. No more than a draw seats (TooManyPlayers, and nothing changes)."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is not None:
        raise NightOver(night)
    if len(guests) > MAX_PLAYERS:  # refused before a name is looked for
        raise TooManyPlayers(len(guests))
    known = set(
        Member.objects.filter(club=night.club, pk__in=member_ids).values_list("pk", flat=True)
    )
    named = _club_names(night.club, guests, Member.Role.GUEST) if guests else []
    known |= set(
        Member.objects.filter(club=night.club, key__in=[name_key(n) for n in named]).values_list(
            "pk", flat=True
        )
    )
    if len(known) > MAX_PLAYERS:  # the guests just added go with the transaction
        raise TooManyPlayers(len(known))
    seen = set()
    for attendance in Attendance.objects.filter(night=night):
        seen.add(attendance.member_id)
        present = attendance.member_id in known
        if attendance.present != present:
            attendance.present = present
            attendance.save(update_fields=["present"])
    Attendance.objects.bulk_create(
        Attendance(night=night, member_id=member_id) for member_id in sorted(known - seen)
    )
    return night


def drawn_rounds(night: Night) -> list[DrawnRound]:
    """The night's rounds as drawn, for the next draw to spread meetings over the night."""
    return [
        DrawnRound(tuple(tuple(table) for table in row.tables), tuple(row.sitting_out))
        for row in night.round_set.all()
    ]


def _close_if_over(night: Night) -> Round | None:
    """The night's last round, closed if every table has finished; RoundPlaying if not."""
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last
    playing = Summary.objects.filter(
        game__club_game__round=last, status=Summary.Status.PLAYING
    ).count()
    if playing:
        raise RoundPlaying(last, playing)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last


@transaction.atomic
def draw_round(*, night_id: int, owner_id: int | None, by: Actor = NOBODY) -> Round:
    """The next round: the players present drawn to tables of four (the engine's draw, over
    the rounds played that night), and each table's game started with its players seated
    in the drawn order, the club's rules, and a scorer link for the table's card."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is not None:
        raise NightOver(night)
    last = _close_if_over(night)
    played = last.number if last else 0
    if night.rounds is not None and played >= night.rounds:
        raise NightOver(night)
    present = sorted(
        Attendance.objects.filter(night=night, present=True).values_list("member_id", flat=True)
    )
    if len(present) < SEATS:
        raise TooFewPlayers(len(present))
    if len(present) > MAX_PLAYERS:  # checked in before check-in had a cap
        raise TooManyPlayers(len(present))
    # Planning the rounds still to come spreads meetings over the whole night.
    ahead = min(night.rounds - played, MAX_ROUNDS) if night.rounds is not None else 1
    planned = draw(present, ahead, seed=night.seed, history=drawn_rounds(night))[0]
    row = Round.objects.create(
        night=night,
        number=played + 1,
        tables=[list(table) for table in planned.tables],
        sitting_out=list(planned.sitting_out),
    )
    names = dict(Member.objects.filter(pk__in=present).values_list("pk", "name"))
    for number, table in enumerate(planned.tables, start=1):
        state = start_club_game(
            club=night.club,
            names=[names[member_id] for member_id in table],
            first_dealer=0,  # the first drawn deals first, as the table sheet says
            owner_id=owner_id,
            by=by,
        )
        ClubGame.objects.filter(game=state.game).update(round=row, table=number)
        make_scorer_link(public_id=state.game.public_id)
    drawn = {"round": row.number, "tables": len(planned.tables)}
    history.log(night.club, by, "round_drawn", night.date.isoformat(), after=drawn)
    return row


@transaction.atomic
def close_round(*, night_id: int, by: Actor = NOBODY) -> Round | None:
    """The organiser closes the last round now: tables still playing are recorded as
    abandoned (settled as they stand, counting in no standings)."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    last, abandoned = _close_last_round(night, by)
    if last is not None and abandoned is not None:
        closed = {"round": last.number, "abandoned": abandoned}
        history.log(night.club, by, "round_closed", night.date.isoformat(), after=closed)
    return last


def _close_last_round(night: Night, by: Actor) -> tuple[Round | None, int | None]:
    """The night's last round closed, and how many of its tables were abandoned (None if
    there was no round to close)."""
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last, None
    playing = Game.objects.filter(club_game__round=last, summary__status=Summary.Status.PLAYING)
    abandoned = list(playing.values_list("public_id", flat=True))
    for public_id in abandoned:
        abandon_game(public_id=public_id, by=by)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last, len(abandoned)


@transaction.atomic
def end_night(*, night_id: int, by: Actor = NOBODY) -> Night:
    """The night is over: its last round closed (tables still playing abandoned)."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    _, abandoned = _close_last_round(night, by)
    if night.ended_at is None:
        night.ended_at = timezone.now()
        night.save(update_fields=["ended_at"])
        ended = {"abandoned": abandoned or 0}
        history.log(night.club, by, "night_ended", night.date.isoformat(), after=ended)
        # The members who asked have its ranking mailed once it is for good, after the
        # request's answer (scoring/clubs/mail.py; manage.py send_club_mail sends what failed).
        transaction.on_commit(partial(mail.send_night_soon, night.pk))
    return night


@transaction.atomic
def reopen_night(*, night_id: int, by: Actor = NOBODY) -> Night:
    """An admin reopens a night that ended, to correct its games: they take changes again
    (clubs/access.py ``night_closed``), and its mail, already sent, goes out again as a
    correction when it ends again. Its abandoned games stay abandoned (an admin may resume
    one); its last round is open again, so that a game still playing at its next end is
    settled as it stands, as at the first."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is None:
        return night
    history.log(
        night.club,
        by,
        "night_reopened",
        night.date.isoformat(),
        before={"id": night.pk, "ended_at": history.as_json(night.ended_at)},
    )
    night.ended_at, night.reopened_at = None, timezone.now()
    night.save(update_fields=["ended_at", "reopened_at"])
    # Its last round open again: a game resumed meanwhile is abandoned at the next end.
    last = night.round_set.order_by("number").last()
    if last is not None:
        last.closed_at = None
        last.save(update_fields=["closed_at"])
    # Due again at its next end, to every member who asked (mail.send_night).
    MailSent.objects.filter(night=night).delete()
    return night


@transaction.atomic
def import_club_game(
    *, club: Club, record: Record, owner_id: int | None = None, by: Actor = NOBODY
) -> GameState:
    """One game from a record, into the club: it counts in the league once won, its
    results and ratings following at once. Refused (:class:`AlreadyInClub`) when the club
    has it already."""
    Club.objects.select_for_update().get(pk=club.pk)
    (print_,) = _refuse_known(club, [record], [1])
    state = import_record(record=record, owner_id=owner_id, club_label=club.name, by=by)
    ClubGame.objects.create(
        game=state.game,
        club=club,
        source_id=_source_id(state.game, record),
        fingerprint=print_,
    )
    follow(state)
    history.log(club, by, "records_imported", "", after={"games": 1})
    return state
