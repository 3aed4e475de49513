"""A club's ``records.jsonl``: the upload, checked to be records before its job is queued;
its lines read and checked one at a time by the job (scoring/clubs/imports/jobs.py); and
what is said of the records an import refuses."""

import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import MACHINE_TEXT, form_megabytes
from ...common.once import OnceFields
from ...engine import GameResult, Record
from ...table.face import ImportForm
from .services import Duplicate


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


class NotText(Exception):
    """A line of the file is not UTF-8 text."""


def file_lines(raw: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    """The lines that are not blank, with their numbers, one at a time, as text (a byte
    order mark before the first left out); :class:`NotText` at the first that is not
    UTF-8. Split at "\n" only: a "\r" before it is taken off with the spaces around the
    record."""
    for index, line in enumerate(raw):
        try:
            text = line.decode("utf-8-sig" if index == 0 else "utf-8")
        except UnicodeDecodeError:
            raise NotText from None
        if text.strip():
            yield index + 1, text


def read_line(line: str) -> tuple[Record, GameResult] | list[str]:
    """The record on this line and its result, or its problems, as a single record's
    import says them (its text field first: spaces around it taken off, and no NUL)."""
    text = line.strip()
    if "\x00" in text:
        return [f"text: {ProhibitNullCharactersValidator.message}"]
    try:
        return ImportForm.read(text)
    except forms.ValidationError as error:
        return [str(message) for message in error.messages]


@dataclass
class LineProblems:
    """The lines an import refuses, as it reads them: the first :data:`MAX_PROBLEMS`
    lines' problems said, the others counted; and each record's id with its line, for a
    record whose id an earlier line gave."""

    most: int = 20
    said: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    shown: set[int] = field(default_factory=set)
    ids: dict[Any, int] = field(default_factory=dict)
    """Each record's line by ``id:<id>``: the import's own ``Known.seen`` (services), so
    that a large file keeps each id once."""

    def read(self, number: int, line: str) -> tuple[Record, GameResult] | None:
        """The record on line ``number`` and its result; None if it is refused (said)."""
        found = read_line(line)
        key = f"id:{found[0].about.id}" if isinstance(found, tuple) else ""
        if isinstance(found, tuple) and found[0].about.id and key in self.ids:
            found = [
                gettext("the id %(id)s is on line %(other)s too")
                % {"id": found[0].about.id, "other": self.ids[key]}
            ]
        if isinstance(found, tuple):
            if found[0].about.id:
                self.ids[key] = number
            return found
        self.lines.append(number)
        for problem in found:
            if len(self.said) < self.most:
                self.shown.add(number)
                self.said.append(
                    gettext("line %(number)s: %(problem)s") % {"number": number, "problem": problem}
                )
        return None

    def messages(self) -> list[str]:
        """Every problem said, and the count of the lines with problems left unsaid."""
        more = len(self.lines) - len(self.shown)
        if not more:
            return list(self.said)
        return [
            *self.said,
            ngettext(
                "… and %(count)s more line with problems",
                "… and %(count)s more lines with problems",
                more,
            )
            % {"count": more},
        ]


class ClubImportForm(OnceFields):
    """A club's ``records.jsonl`` (pasted or a file): checked to be records before its job
    is queued, without reading it whole into memory. Its lines are counted (a file over the
    limit is refused without reading past the line over it), each is UTF-8 text, and the
    first is a ``boulmous/1`` record's JSON; every line is read and checked by the job
    (:class:`LineProblems`), whose page says each line's problems with its number.

    ``cleaned_data["source"]`` is what to import: the uploaded file (on disk past Django's
    FILE_UPLOAD_MAX_MEMORY_SIZE), or the text pasted, as bytes; ``["lines"]`` its count of
    lines that are not blank."""

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

    MAX_BYTES = 200 * 2**20
    """200 MB as nginx counts them (``client_max_body_size 200m``): 200,000 of the demo
    club's games (about 1,035 bytes each) fit."""
    MAX_LINES = 200_000
    MAX_PROBLEMS = 20

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        text = self.fields["text"]
        # What Django takes of a form's fields, as the site is set up: more is refused
        # before the form sees it (a 400 that says so: boulmous_site/urls.py).
        text.help_text = str(text.help_text) % {
            "paste": form_megabytes(),
            "file": number_format(self.MAX_BYTES // 2**20),
            "lines": number_format(self.MAX_LINES, force_grouping=True),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(
                    gettext("The file is larger than %(max)s MB.")
                    % {"max": number_format(self.MAX_BYTES // 2**20)}
                )
            upload.seek(0)
            # The file object itself: Django's File splits lines at "\r" too.
            source: IO[bytes] = upload.file
            data["source"] = upload
        else:
            # Pasted: at most DATA_UPLOAD_MAX_MEMORY_SIZE, held by the request already.
            pasted = str(data.get("text") or "").encode("utf-8", "surrogatepass")
            source = io.BytesIO(pasted)
            data["source"] = pasted
        data["lines"] = self._checked(source)
        if upload is not None:
            upload.seek(0)
        return data

    def _checked(self, source: IO[bytes]) -> int:
        """The number of lines that are not blank, once the file is found to be records."""
        count = 0
        try:
            for _number, line in file_lines(source):
                count += 1
                if count == 1 and not _looks_like_a_record(line):
                    raise forms.ValidationError(
                        gettext(
                            "This is not a file of game records: its first line is not a "
                            "boulmous/1 record. Choose a records.jsonl file, one record a line."
                        )
                    )
                if count > self.MAX_LINES:  # the lines after it are not read
                    raise forms.ValidationError(
                        gettext("This site imports up to %(max)s games at once.")
                        % {"max": number_format(self.MAX_LINES, force_grouping=True)}
                    )
        except NotText:
            raise forms.ValidationError(gettext("The file is not UTF-8 text.")) from None
        if not count:
            raise forms.ValidationError(gettext("Paste the records or choose a file."))
        return count


def _looks_like_a_record(line: str) -> bool:
    """Whether a line is a JSON object that says it is a ``boulmous/1`` record (whether it
    is a good one is the job's to say, line by line)."""
    try:
        data = json.loads(line)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == "boulmous/1"
