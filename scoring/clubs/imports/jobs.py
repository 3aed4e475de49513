"""A club's import as a job (scoring/infra/jobs.py): the upload kept on disk, queued, then
read by the worker a line at a time and written a batch at a time, all in one transaction.

All or nothing: the club's row is held (``select_for_update``) and every batch written in
the one transaction of :func:`import_file`, which commits once the last line is read and
every one was good. A line refused, a cancel, a fault or the worker killed (``kill -9``)
leaves the club as it was: the transaction rolls back, or dies with its connection. The
worker's memory holds one batch (:data:`BATCH` records), and each record's id and
fingerprint with its line, whatever the file's size.

On SQLite (``make run``) the transaction holds the database's only writer from its first
batch to its commit: another write waits meanwhile (docs/league.md, "Importing records")."""

import gc
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from ...common.rights import Actor
from ...engine import GameResult, Record
from ...infra import jobs
from ...infra.bulk import KeysCheck, collector_paused, keys_checked_later, statistics_taken
from .. import history
from ..forms import look_alike_message
from ..models import Club, ClubResult, Member
from ..services import NameLooksLike
from .forms import ClubImportForm, LineProblems, NotText, already_messages, file_lines
from .services import AlreadyInClub, Known, write_batch

BATCH = 2000
"""Records written at once: the worker holds one batch of records and results."""
STATISTICS_FROM = 32_000
"""Games imported before the league's statistics are first taken again within the import's
transaction (:func:`~scoring.infra.bulk.statistics_taken`): below, a query planned as for
a small table reads a few thousand rows at worst."""
STEP = 500
"""Lines read between two writes of the progress (and two looks for a cancel): a few tenths
of a second."""


class Refused(Exception):
    """Lines of the file refused: what is said of them."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__(messages)
        self.messages = messages


def import_work(job: jobs.Job, progress: jobs.Progress) -> dict[str, Any]:
    """The job's work: the file imported in the asker's language (its refusals said so)."""
    arguments = job.arguments
    club = Club.objects.get(pk=arguments["club"])
    by = Actor(user_id=arguments.get("user"), device=arguments.get("device") or "")
    with translation.override(arguments.get("language") or None):
        try:
            return import_file(
                club=club,
                path=job.input_path(),
                progress=progress,
                owner_id=arguments.get("owner"),
                by=by,
            )
        except Refused as refused:
            raise jobs.Failed("refused", problems=refused.messages) from None


@transaction.atomic
def import_file(
    *, club: Club, path: Path, progress: jobs.Progress, owner_id: int | None, by: Actor
) -> dict[str, Any]:
    """Every record of the file at ``path``, all or none (:class:`Refused`, with what is
    said of the lines refused: each line's problems, else the games the club has already or
    the names too like a member's). Returns the games imported and the new members."""
    Club.objects.select_for_update().get(pk=club.pk)
    known = Known.of(club)
    members_before = Member.objects.filter(club=club).count()
    problems = LineProblems(most=ClubImportForm.MAX_PROBLEMS, ids=known.seen)
    refusals: list[str] = []
    refused_games = 0
    records: list[Record] = []
    results: list[GameResult] = []
    numbers: list[int] = []
    read = imported = 0
    # The keys of each batch written are checked by the database while the next is read.
    checking: KeysCheck | None = None
    # The statistics the league's queries are planned by, taken again each time the import
    # has doubled from STATISTICS_FROM games on (a few tenths of a second each).
    statistics_at = STATISTICS_FROM

    def write() -> None:
        nonlocal imported, refused_games, checking, statistics_at
        if checking is not None:
            checking.wait()
            checking = None
        if records and not problems.lines and not refusals:
            try:
                with keys_checked_later():
                    write_batch(club, records, owner_id, by, results, numbers, known)
                imported += len(records)
                if imported >= statistics_at:
                    statistics_taken(ClubResult)
                    statistics_at = 2 * imported
                checking = KeysCheck()
            except AlreadyInClub as already:
                refusals.extend(already_messages(already.duplicates, problems.most))
                refused_games += len(already.duplicates)
            except NameLooksLike as alike:
                refusals.append(
                    gettext("line %(number)s: %(problem)s")
                    % {"number": alike.line, "problem": look_alike_message(alike.name, alike.like)}
                )
                refused_games += 1
        records.clear()
        results.clear()
        numbers.clear()
        # The batch let go, what it left in a cycle is freed (few objects: a young pass).
        gc.collect(1)

    def step() -> None:
        progress.step(read, imported=imported, refused=len(problems.lines) + refused_games)

    try:
        with collector_paused(), path.open("rb") as raw:
            for number, line in file_lines(raw):
                read += 1
                found = problems.read(number, line)
                if found is not None and not problems.lines and not refusals:
                    records.append(found[0])
                    results.append(found[1])
                    numbers.append(number)
                if len(records) >= BATCH:
                    write()
                if read % STEP == 0:
                    step()
        with collector_paused():
            write()
        if checking is not None:
            checking.wait()
    except NotText:
        raise Refused([gettext("The file is not UTF-8 text.")]) from None
    finally:
        if checking is not None:  # a cancel or a refusal: the connection free to roll back
            checking.join()
    step()
    if problems.lines:
        raise Refused(problems.messages())
    if refusals:
        raise Refused(refusals)
    if not read:
        raise Refused([gettext("Paste the records or choose a file.")])
    added = Member.objects.filter(club=club).count() - members_before
    history.log(club, by, "records_imported", "", after={"games": imported, "players": added})
    return {"imported": imported, "players": added}
