"""A club's records imported, all or none, in one transaction: ``records.jsonl``'s games in
bulk, or one game from a record; refused when the club has them already."""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db import transaction
from django.db.models import Max

from ...common.names import name_key
from ...common.rights import NOBODY, Actor
from ...engine import GameResult, Record, fingerprints
from ...infra.bulk import collector_paused, insert_rows, keys_checked_meanwhile, values_found
from ...table.face import Game, GameState, import_many, import_record, record_ids, score
from .. import history
from ..league.import_rating import LeagueEnd, league_before, rated_import, write_import
from ..league.ratings import follow
from ..models import Club, ClubGame, Member
from ..services import NameLooksLike, names_as_club_writes


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


@dataclass
class Known:
    """What an import already knows, from one batch of its records to the next: the
    club's last game before it (a game after it is one the import wrote), each record
    read so far, by ``id:<id>`` and by fingerprint, with its line, and the league's end."""

    last_before: int = 0
    seen: dict[str | bytes, int] = field(default_factory=dict)
    """By ``id:<id>``, and by the first 16 bytes of the fingerprint (a few dozen bytes a
    game: 200,000 games' keep under 40 MB)."""
    league: LeagueEnd | None = None
    """The league's end, once a batch is written, as the batches move it."""

    @classmethod
    def of(cls, club: Club) -> "Known":
        last = ClubGame.objects.filter(club=club).aggregate(last=Max("game_id"))["last"]
        return cls(last_before=last or 0)


@transaction.atomic
def import_club_records(
    *,
    club: Club,
    records: Sequence[Record],
    owner_id: int | None,
    by: Actor = NOBODY,
    results: Sequence[GameResult] | None = None,
    lines: Sequence[int] | None = None,
) -> int:
    """Games from a club's ``records.jsonl``, all or none; their players become members.

    Written in bulk, so that twenty thousand games take seconds: every record is scored by
    the engine first (which refuses any hand the rules do not allow; ``results``, when the
    caller has them from reading the records, are the engine's already), then the games,
    their seats, hands, history and summaries are inserted in bulk, each row as
    :func:`import_record` writes it, and the league follows once, from those results
    (:func:`league_before` and the steps it names). ``lines`` are the records' line
    numbers in their file, for the refusals (1, 2, 3… unless given). Returns the number of
    games imported. A file of records is imported by a job, a batch at a time, into one
    transaction (:func:`import_file`)."""
    Club.objects.select_for_update().get(pk=club.pk)
    members_before = Member.objects.filter(club=club).count()
    with collector_paused():
        write_batch(club, records, owner_id, by, results, lines, Known.of(club))
    added = Member.objects.filter(club=club).count() - members_before
    history.log(club, by, "records_imported", "", after={"games": len(records), "players": added})
    return len(records)


def write_batch(
    club: Club,
    records: Sequence[Record],
    owner_id: int | None,
    by: Actor,
    results: Sequence[GameResult] | None,
    lines: Sequence[int] | None,
    known: Known,
) -> None:
    """Records' games written, and the league following them, in the caller's transaction,
    which holds the club's row; refused (:class:`AlreadyInClub`, :class:`NameLooksLike`)
    when the club has one already, or the records give one twice (``known``)."""
    numbers = list(lines) if lines is not None else list(range(1, len(records) + 1))
    prints = _refuse_known(club, records, numbers, known)
    if results is None:
        results = [score(record) for record in records]
    # The names as the club writes them, each new one a member, in the order they come.
    first: dict[str, str] = {}
    for record in records:
        for name in record.players:
            first.setdefault(name_key(name), name)
    try:
        clubbed = names_as_club_writes(club, list(first.values()), Member.Role.MEMBER)
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
    insert_rows(
        ClubGame,
        ("game_id", "club_id", "source_id", "fingerprint"),
        (
            (one.game.pk, club.pk, _source_id(one.game, one.record), print_)
            for one, print_ in zip(imported, prints, strict=True)
        ),
    )
    if known.league is None:
        known.league = LeagueEnd.of(club)
    before = league_before(club, imported, known.league)
    # The database checks the keys of every row written so far while the league's rows are
    # made and rated, which asks it nothing: the commit is left the league's own.
    with keys_checked_meanwhile():
        rated = rated_import(club, imported, before)
    write_import(club, rated)
    known.league.after(imported)


def _source_id(game: Game, record: Record) -> str:
    """The record's ``id``, when the game could not keep it as its own record id."""
    return record.about.id if record.about.id and record.about.id != game.record_id else ""


def _refuse_known(
    club: Club, records: Sequence[Record], numbers: Sequence[int], known: Known
) -> list[str]:
    """Refuses the records of games the club has already (:class:`AlreadyInClub`, naming
    every such line): by its ``id``, which one of the club's games holds as its record id
    or came in with, or, for a record without one, by its
    :func:`~scoring.engine.fingerprint`; and a game given twice in the records. Returns the
    records' fingerprints. The records before them, of the same import, are ``known``'s:
    its games are those written before the import, and its ``seen`` the lines read."""
    ids = [record.about.id for record in records if record.about.id]
    games = ClubGame.objects.filter(club=club, game_id__lte=known.last_before)
    prints = fingerprints(records)
    taken: set[str] = set()
    printed: set[str] = set()
    # A club's first import, into a club without games, asks for none of them one by one.
    if games.exists():
        taken = record_ids(
            Game.objects.filter(club_game__club=club, pk__lte=known.last_before), ids
        )
        taken |= values_found(games, "source_id", ids)
        unnamed = [
            print_ for print_, record in zip(prints, records, strict=True) if not record.about.id
        ]
        printed = values_found(games, "fingerprint", unnamed)
    # The lines seen so far, by id and by fingerprint: a record with an id is the same
    # game as an earlier one of that id; one without, as any earlier one of its facts.
    seen = known.seen
    duplicates: list[Duplicate] = []
    for line, record, print_ in zip(numbers, records, prints, strict=True):
        record_id = record.about.id or ""
        short = bytes.fromhex(print_[:32])
        first = seen.get(f"id:{record_id}" if record_id else short)
        if record_id in taken or (not record_id and print_ in printed):
            duplicates.append(Duplicate(line, record_id))
        elif first is not None and first != line:  # a reader may have kept its id already
            duplicates.append(Duplicate(line, record_id, same_as=first))
        seen.setdefault(short, line)
        if record_id:
            seen.setdefault(f"id:{record_id}", line)
    if duplicates:
        raise AlreadyInClub(duplicates)
    return prints


@transaction.atomic
def import_club_game(
    *, club: Club, record: Record, owner_id: int | None = None, by: Actor = NOBODY
) -> GameState:
    """One game from a record, into the club: it counts in the league once won, its
    results and ratings following at once. Refused (:class:`AlreadyInClub`) when the club
    has it already."""
    Club.objects.select_for_update().get(pk=club.pk)
    (print_,) = _refuse_known(club, [record], [1], Known.of(club))
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
