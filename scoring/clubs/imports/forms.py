"""A club's ``records.jsonl``, read and checked line by line, and what is said of the records
an import refuses."""

import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import MACHINE_TEXT, form_megabytes
from ...common.once import OnceFields
from ...engine import GameResult, Record
from ...infra.bulk import collector_paused
from ...infra.deadline import NO_DEADLINE, Deadline, DeadlinePassed
from ...table.face import ImportForm
from .services import Duplicate, import_shares


def already_messages(duplicates: Sequence[Duplicate], most: int) -> list[str]:
    """What is said of every record whose game the club has already, or which the file gives
    twice (services.AlreadyInClub): each line in its words, up to ``most``; the lines after,
    listed by number in one more message."""
    said = [already_message(one.line, one.record_id, one.same_as) for one in duplicates[:most]]
    more = [one.line for one in duplicates[most:]]
    if more:
        said.append(
            ngettext(
                "… and line %(lines)s: a game the club has already, or given twice",
                "… and lines %(lines)s: games the club has already, or given twice",
                len(more),
            )
            % {"lines": ", ".join(map(str, more))}
        )
    return said


def already_message(line: int, record_id: str, same_as: int | None) -> str:
    """What is said of a record whose game the club has already, or which the file gives
    twice (services.AlreadyInClub)."""
    if same_as is not None:
        return gettext("line %(number)s: the same game as line %(first)s") % {
            "number": line,
            "first": same_as,
        }
    if record_id:
        return gettext("line %(number)s: the game %(id)s is in the club already") % {
            "number": line,
            "id": record_id,
        }
    return gettext(
        "line %(number)s: this game (the same players, hands and finish) is in the club already"
    ) % {"number": line}


def too_long_message(passed: DeadlinePassed, games: int) -> str:
    """What is said of an import stopped at its deadline (scoring/infra/deadline.py)."""
    return gettext(
        "This file takes longer to import than the server allows for one request "
        "(%(seconds)s s), so nothing was imported. Split it into files of up to %(part)s "
        "games and import them one by one."
    ) % {
        "seconds": number_format(passed.seconds),
        "part": number_format(passed.part(games), force_grouping=True),
    }


class ClubImportForm(OnceFields):
    """A club's ``records.jsonl``: one ``boulmous/1`` record a line, each read and checked as
    a single record is (:meth:`ImportForm.read`); every line's problems are said with its
    number.

    The lines are read one at a time, from the uploaded file where there is one: first
    counted, so that a file over the limit is refused before any line is parsed and without
    reading past the line over it; then parsed, each kept with the engine's result for it
    (``records``, ``results``, and the ``lines`` they are on), so that the import scores
    none again."""

    text = forms.CharField(
        label=_("Paste the records, one a line"),
        help_text=_(
            "Up to %(paste)s MB pasted; a larger file, up to %(file)s MB and %(lines)s games, "
            "is chosen below."
        ),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, **MACHINE_TEXT}),
    )
    file = forms.FileField(label=_("or choose a records.jsonl file"), required=False)

    MAX_BYTES = 50_000_000
    MAX_LINES = 20_000
    MAX_PROBLEMS = 20

    def __init__(self, *args: Any, deadline: Deadline = NO_DEADLINE, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = deadline
        text = self.fields["text"]
        # What Django takes of a form's fields, as the site is set up: more is refused
        # before the form sees it (a 400 that says so: boulmous_site/urls.py).
        text.help_text = str(text.help_text) % {
            "paste": form_megabytes(),
            "file": number_format(self.MAX_BYTES // 1_000_000),
            "lines": number_format(self.MAX_LINES, force_grouping=True),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        with collector_paused():
            return self._clean_lines(data)

    def let_go(self) -> None:
        """The records read, and the engine's results, let go once imported or refused:
        freed at once by reference counting, not kept with the form, which holds itself in
        a cycle (its bound fields) and so waits for the collector's next full pass."""
        for name in ("records", "results", "lines"):
            getattr(self, "cleaned_data", {}).pop(name, None)

    def _clean_lines(self, data: dict[str, Any]) -> dict[str, Any]:
        count = 0
        for _line in self._lines(data):
            count += 1
            if count > self.MAX_LINES:  # the lines after it are not read
                raise forms.ValidationError(
                    gettext("This site imports up to %(max)s games at once.")
                    % {"max": self.MAX_LINES}
                )
        if not count:
            raise forms.ValidationError(gettext("Paste the records or choose a file."))
        records: list[Record] = []
        results: list[GameResult] = []
        numbers: list[int] = []
        problems: list[str] = []
        bad_lines: list[int] = []
        shown: set[int] = set()
        """The lines whose problems are said: past the limit, the others are counted."""
        seen: dict[str, int] = {}
        """Each record's id, and the line it is on."""
        self.deadline.begin()  # the upload, read and counted, is behind
        for index, (number, line) in enumerate(self._lines(data)):
            if index % 100 == 0:
                self._in_time(index, count)
            found = self._line(line)
            if isinstance(found, tuple) and found[0].about.id and found[0].about.id in seen:
                found = [
                    gettext("the id %(id)s is on line %(other)s too")
                    % {"id": found[0].about.id, "other": seen[found[0].about.id]}
                ]
            if isinstance(found, tuple):
                record, result = found
                if record.about.id:
                    seen[record.about.id] = number
                records.append(record)
                results.append(result)
                numbers.append(number)
                continue
            bad_lines.append(number)
            for problem in found:
                if len(problems) < self.MAX_PROBLEMS:
                    shown.add(number)
                    problems.append(
                        gettext("line %(number)s: %(problem)s")
                        % {"number": number, "problem": problem}
                    )
        if bad_lines:
            more = len(bad_lines) - len(shown)
            if more:
                problems.append(
                    ngettext(
                        "… and %(count)s more line with problems",
                        "… and %(count)s more lines with problems",
                        more,
                    )
                    % {"count": more}
                )
            raise forms.ValidationError(problems)
        self._in_time(count, count)
        data["records"], data["results"], data["lines"] = records, results, numbers
        return data

    def _in_time(self, read: int, count: int) -> None:
        """Refuses the file once the import will not end in time, ``read`` of its ``count``
        lines read."""
        try:
            # The pace of the reading tells the whole import's time (its share: services).
            self.deadline.check(import_shares().read * read / count)
        except DeadlinePassed as passed:
            raise forms.ValidationError(too_long_message(passed, count)) from None

    def _lines(self, data: dict[str, Any]) -> Iterator[tuple[int, str]]:
        """The lines that are not blank, with their numbers, one at a time: from the file,
        or else from the text pasted."""
        upload = data.get("file")
        if upload is None:
            # Split at "\n" only, as a file is: a "\r" before it is taken off with the
            # spaces around the record.
            lines: Iterable[str] = io.StringIO(str(data.get("text") or ""), newline="\n")
        else:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(gettext("The file is larger than 50 MB."))
            lines = self._decoded(upload)
        for number, line in enumerate(lines, 1):
            if line.strip():
                yield number, line

    @staticmethod
    def _decoded(upload: "UploadedFile[bytes]") -> Iterator[str]:
        """The file's lines as text, read from its start one at a time; a byte order mark
        before the first is left out."""
        upload.seek(0)
        # The file object itself: Django's File splits lines at "\r" too.
        for index, raw in enumerate(upload.file or ()):
            try:
                yield raw.decode("utf-8-sig" if index == 0 else "utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(gettext("The file is not UTF-8 text.")) from None

    @staticmethod
    def _line(line: str) -> tuple[Record, GameResult] | list[str]:
        """The record on this line and its result, or its problems, as a single record's
        import says them (its text field first: spaces around it taken off, and no NUL)."""
        text = line.strip()
        if "\x00" in text:
            return [f"text: {ProhibitNullCharactersValidator.message}"]
        try:
            return ImportForm.read(text)
        except forms.ValidationError as error:
            return [str(message) for message in error.messages]
