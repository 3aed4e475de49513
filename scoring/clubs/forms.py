"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule."""

import io
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import ProhibitNullCharactersValidator
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ..common.forms import (
    MACHINE_TEXT,
    MAX_NAME,
    DateField,
    NameField,
    RulesFields,
    SeatsFields,
    TextField,
    clean_name,
    form_megabytes,
    rules_error,
)
from ..common.names import name_key
from ..common.once import OnceFields
from ..engine import (
    SEATS,
    GameResult,
    Record,
    RulesError,
)
from ..engine.league import DEFAULT_POINTS, check_points
from ..infra.bulk import collector_paused
from ..infra.deadline import NO_DEADLINE, Deadline, DeadlinePassed
from ..table.forms import ImportForm
from .embed import clean_origins
from .members import BothHaveAccounts, DrawnTogether, MergeRefused, SatTogether
from .models import Member
from .services import Duplicate, import_shares


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every time zone this server knows (``zoneinfo``), by name."""
    return [(zone, zone) for zone in sorted(available_timezones())]


def look_alike_message(name: str, like: str) -> str:
    """What is said of a new name that looks like another player's of the club."""
    return gettext(
        "“%(name)s” looks like “%(like)s”, another player of the club: give a name that "
        "reads apart."
    ) % {"name": name, "like": like}


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


def slug_of(name: str) -> str:
    """An address made of a name: Latin letters, digits and dashes (empty if none is left)."""
    return slugify(name)[:40].strip("-")


class PointsFields(forms.Form):
    """League points for ranks 1 to 4 at a table; the engine says whether they are a scale."""

    points_0 = forms.IntegerField(label=_("1st"), min_value=0, max_value=999)
    points_1 = forms.IntegerField(label=_("2nd"), min_value=0, max_value=999)
    points_2 = forms.IntegerField(label=_("3rd"), min_value=0, max_value=999)
    points_3 = forms.IntegerField(label=_("4th"), min_value=0, max_value=999)
    # Where the errors about the four together are shown. Nothing is sent under this name.
    points = forms.CharField(required=False, widget=forms.HiddenInput, max_length=0)

    POINTS_FIELDS = [f"points_{rank}" for rank in range(SEATS)]

    @staticmethod
    def points_initial(points: Sequence[int]) -> dict[str, int]:
        return {f"points_{rank}": value for rank, value in enumerate(points)}

    @property
    def points_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.POINTS_FIELDS]

    def clean_points_scale(self, data: dict[str, Any]) -> None:
        values = [data.get(name) for name in self.POINTS_FIELDS]
        if any(value is None for value in values):
            return
        try:
            data["league_points"] = check_points(values)  # type: ignore[arg-type]
        except RulesError as error:
            self.add_error("points", rules_error(error))


class OriginsField(forms.CharField):
    """Websites, one a line, as origins (``https://example.org``), each checked strictly
    (clubs/embed.py): the field says which one is wrong, and why."""

    widget = forms.Textarea(attrs={"rows": 3, **MACHINE_TEXT})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=2000, required=False, strip=True, **kwargs)

    def clean(self, value: Any) -> list[str]:
        return clean_origins(super().clean(value))

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return "\n".join(value)
        return value


class ClubSettingsForm(PointsFields, RulesFields):
    """A club's settings: its name, time zone, rules, league points, and who sees what."""

    name = TextField(label=_("Club name"), max_length=80)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("The day a game finished, and so its season, is the day in this zone."),
        choices=time_zone_choices,
        initial="Europe/Paris",
    )
    public = forms.BooleanField(
        label=_("Public standings"),
        help_text=_("Anyone with the address sees the club's page, seasons and records."),
        required=False,
    )
    invite_admits = forms.BooleanField(
        label=_("The invite link admits at once"),
        help_text=_("Else an admin confirms each player who comes through it."),
        required=False,
    )
    embed_origins = OriginsField(
        label=_("Websites that may show the standings"),
        help_text=_(
            "One a line, such as https://example.org: their pages may show the seasons' "
            "standings in a frame, and read standings.csv and the API. Public standings only."
        ),
    )
    colour = forms.RegexField(
        label=_("The club's colour"),
        help_text=_("The standings shown on the club's website are drawn in it."),
        regex=r"^#[0-9a-fA-F]{6}$",
        error_messages={"invalid": _("Choose a colour such as #0f5132.")},
        initial="#0f5132",
        widget=forms.TextInput(attrs={"type": "color"}),
        required=False,  # left out, the club keeps its colour
    )

    @classmethod
    def initial_of(cls, club: Any) -> dict[str, Any]:
        """The form's values for a club as it is."""
        return {
            "name": club.name,
            "time_zone": club.time_zone,
            **RulesFields.initial_of(club.rules),
            "public": club.public,
            "invite_admits": club.invite_admits,
            "embed_origins": club.embed_origins,
            "colour": club.colour,
            **cls.points_initial(club.points),
        }

    def clean_colour(self) -> str | None:
        colour: str = self.cleaned_data["colour"]
        return colour.lower() or None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_points_scale(data)
        return data


class NewClubForm(OnceFields, ClubSettingsForm):
    """A new club: its settings, its address, and the name its creator goes by in it."""

    slug = forms.SlugField(
        label=_("Address"),
        help_text=_("Letters, digits and dashes; made from the name if left empty."),
        required=False,
        max_length=40,
    )
    your_name = NameField(label=_("Your name in the club"), max_length=MAX_NAME)
    embed_origins = None  # type: ignore[assignment]  # listed in the settings, once made
    colour = None  # type: ignore[assignment]  # chosen in the settings, once made

    field_order = ["name", "slug", "your_name"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial = {**self.points_initial(DEFAULT_POINTS), **self.initial}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = slug_of(data["name"])
            if not data["slug"]:
                self.add_error(
                    "slug", gettext("Give the club an address in Latin letters or digits.")
                )
        return data


class MemberForm(OnceFields):
    """A player added to the club by an admin: many will never touch the app."""

    name = NameField(label=_("Name"), max_length=MAX_NAME)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(role.value, role.label) for role in Member.Role if role != Member.Role.GUEST],
        initial=Member.Role.MEMBER.value,
    )


class RenameForm(forms.Form):
    """A member's new name, given by an admin: refused as a new player's name is, when the
    club has it already or one that looks like it (the view says so, from the service)."""

    name = NameField(label=_("New name"), max_length=MAX_NAME)


class AnonymiseForm(forms.Form):
    """The name of the member an admin makes anonymous, typed again to confirm: it cannot be
    undone. Taken as the club writes it whatever its case and however its accents were
    typed (NFC, case-folded: ``name_key``)."""

    name = TextField(label=_("Type his name to confirm"), max_length=MAX_NAME)

    def __init__(self, *args: Any, expected: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expected = expected
        # data-expected: the name the page asks for, which it shows above the field.
        self.fields["name"].widget.attrs.update(
            {"autocomplete": "off", "spellcheck": "false", "data-expected": expected}
        )

    def clean_name(self) -> str:
        typed = str(self.cleaned_data["name"])
        if name_key(typed.strip()) != name_key(self.expected):
            raise forms.ValidationError(
                gettext("This is not “%(name)s”: type the name as the club writes it.")
                % {"name": self.expected}
            )
        return typed


class MergeForm(forms.Form):
    """The member another one is merged into: one of the club's other players."""

    into = forms.TypedChoiceField(label=_("Merge into"), coerce=int)

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        into = self.fields["into"]
        assert isinstance(into, forms.TypedChoiceField)
        into.choices = [("", gettext("Choose a player")), *players]


def merge_refused_message(refusal: MergeRefused, gone: str, kept: str) -> str:
    """What is said of two members who cannot be merged (scoring/clubs/members.py)."""
    names = {"gone": gone, "kept": kept}
    if isinstance(refusal, SatTogether):
        return ngettext(
            "%(gone)s and %(kept)s sat in %(count)s game together: they are two players.",
            "%(gone)s and %(kept)s sat in %(count)s games together: they are two players.",
            refusal.games,
        ) % {**names, "count": refusal.games}
    if isinstance(refusal, DrawnTogether):
        return gettext(
            "%(gone)s and %(kept)s were both drawn in round %(round)s of the night of "
            "%(date)s: they are two players."
        ) % {
            **names,
            "round": refusal.round.number,
            "date": date_format(refusal.round.night.date, "DATE_FORMAT"),
        }
    assert isinstance(refusal, BothHaveAccounts)
    return (
        gettext(
            "%(gone)s and %(kept)s each have an account: merged, one account would lose its player."
        )
        % names
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Member.Role.choices)


class ClaimForm(forms.Form):
    """An admin's answer to an account that says it is a player of the club."""

    decision = forms.ChoiceField(choices=[("accept", _("Accept")), ("refuse", _("Refuse"))])


class PublicNameForm(forms.Form):
    """How the public sees a member: by his full name, or by his first name and initial."""

    FULL, SHORT = "full", "short"
    shown = forms.ChoiceField(
        label=_("Shown to the public as"),
        choices=[(FULL, _("the full name")), (SHORT, _("first name and initial"))],
        widget=forms.RadioSelect,
    )

    @property
    def short(self) -> bool:
        return bool(self.cleaned_data["shown"] == self.SHORT)


class ClubJoinForm(forms.Form):
    """Someone who came through the invite link: one of the club's players who has no
    account yet, or a new name."""

    member = forms.TypedChoiceField(label=_("I am"), coerce=int, empty_value=None, required=False)
    name = NameField(
        label=_("or I am new here, and my name is"), max_length=MAX_NAME, required=False
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        assert isinstance(member, forms.TypedChoiceField)
        member.choices = [("", gettext("Someone new")), *players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if data.get("member") is None and not data.get("name") and not self.errors:
            self.add_error("name", gettext("Choose your name in the list, or give a new one."))
        return data


class SeasonForm(PointsFields):
    """A season: its name and address, its days, and its league points."""

    name = TextField(label=_("Name"), max_length=80)
    slug = forms.SlugField(
        label=_("Address"),
        help_text=_("Letters, digits and dashes; made from the name if left empty."),
        required=False,
        max_length=40,
    )
    first_day = DateField(label=_("First day"))
    last_day = DateField(label=_("Last day"))

    field_order = ["name", "slug", "first_day", "last_day"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = slug_of(data["name"])
            if not data["slug"]:
                self.add_error(
                    "slug", gettext("Give the season an address in Latin letters or digits.")
                )
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            self.add_error("last_day", gettext("The last day comes before the first."))
        self.clean_points_scale(data)
        return data


def overlap_message(other: Any) -> str:
    """What is said of days that overlap another season's."""
    return gettext("These days overlap those of the season %(name)s.") % {"name": other.name}


def address_taken_message() -> str:
    return gettext("Another season of the club has this address.")


class NewSeasonForm(OnceFields, SeasonForm):
    """A new season, made once however often its form is sent."""


class SeasonEditForm(SeasonForm):
    """A season changed: as a new one, its days clear of the club's other seasons and its
    address theirs by none. The refusals are said on the field they are about; the service
    checks again, under the club's lock (:meth:`refuse` says its refusal the same way)."""

    def __init__(self, *args: Any, others: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.others = list(others)

    @classmethod
    def initial_of(cls, season: Any) -> dict[str, Any]:
        return {
            "name": season.name,
            "slug": season.slug,
            "first_day": season.first_day,
            "last_day": season.last_day,
            **cls.points_initial(season.points),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, last, slug = data.get("first_day"), data.get("last_day"), data.get("slug")
        if first and last and not self.has_error("last_day"):
            overlapping = [
                other
                for other in self.others
                if other.first_day <= last and other.last_day >= first
            ]
            if overlapping:
                self.refuse_overlap(min(overlapping, key=lambda other: other.first_day))
        if slug and any(other.slug == slug for other in self.others):
            self.add_error("slug", address_taken_message())
        return data

    def refuse_overlap(self, other: Any) -> None:
        """Said on the day that falls in the other season, else (the days hold it) on the
        last."""
        first = self.cleaned_data.get("first_day")
        inside = first is not None and other.first_day <= first <= other.last_day
        self.add_error("first_day" if inside else "last_day", overlap_message(other))


class ClubGameForm(SeatsFields):
    """A club game: four players by name (members, or guests), and the first dealer; the
    rules are the club's."""


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


# Club nights (issue 12).

MAX_ROUNDS = 50
GUEST_SEPARATORS = ("\n", "،", ";")
"""Besides the comma, what separates guests' names: a new line, the Arabic comma, a semicolon."""


class NightForm(forms.Form):
    """A club night: its day, its place, and how many rounds (none: until we stop)."""

    date = DateField(label=_("Date"))
    place = TextField(label=_("Place (optional)"), max_length=80, required=False)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        help_text=_("Leave empty to play until we stop."),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )


GAME_MOMENT_FORMAT = "%Y-%m-%dT%H:%M"
"""A moment as ``<input type="datetime-local">`` takes it and sends it, in every language."""


class GameDateForm(forms.Form):
    """When a won club game finished, in the club's time zone (its views run in it): not in
    the future."""

    finished_at = forms.DateTimeField(
        label=_("Date of the game"),
        help_text=_("When it was won, in the club’s time zone."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=GAME_MOMENT_FORMAT),
        input_formats=[GAME_MOMENT_FORMAT, f"{GAME_MOMENT_FORMAT}:%S"],
    )

    def clean_finished_at(self) -> datetime:
        moment: datetime = self.cleaned_data["finished_at"]
        if moment > timezone.now():
            raise forms.ValidationError(gettext("A game cannot finish in the future."))
        return moment


class NewNightForm(OnceFields, NightForm):
    """A new night, made once however often its form is sent."""


class NightEditForm(NightForm):
    """A night changed: never fewer rounds planned than it has drawn."""

    def __init__(self, *args: Any, drawn: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drawn = drawn

    def clean_rounds(self) -> int | None:
        rounds: int | None = self.cleaned_data.get("rounds")
        if rounds is not None and rounds < self.drawn:
            raise forms.ValidationError(rounds_drawn_message(self.drawn))
        return rounds


def rounds_drawn_message(drawn: int) -> str:
    return ngettext(
        "%(count)s round is drawn already: plan at least %(count)s, or leave empty to play "
        "until we stop.",
        "%(count)s rounds are drawn already: plan at least %(count)s, or leave empty to play "
        "until we stop.",
        drawn,
    ) % {"count": drawn}


class CheckInForm(forms.Form):
    """Who is present: the club's players tapped, and guests named, new or known."""

    present = forms.TypedMultipleChoiceField(
        label=_("Present"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    guests = forms.CharField(
        label=_("Add guests"),
        help_text=_("Their names, separated by commas or one per line."),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        present = self.fields["present"]
        assert isinstance(present, forms.TypedMultipleChoiceField)
        present.choices = list(players)

    def clean_guests(self) -> list[str]:
        """Each name as the site keeps it (:func:`clean_name`), once, in the order given."""
        text = str(self.cleaned_data.get("guests") or "")
        for separator in GUEST_SEPARATORS:
            text = text.replace(separator, ",")
        names: list[str] = []
        seen: set[str] = set()
        for part in text.split(","):
            name = clean_name(part)
            if not name:
                continue
            if len(name) > MAX_NAME:
                raise forms.ValidationError(
                    gettext("A name has at most %(max)s characters: %(name)s")
                    % {"max": MAX_NAME, "name": name[:MAX_NAME] + "…"}
                )
            if name.casefold() not in seen:  # NFC already: the key the club compares
                seen.add(name.casefold())
                names.append(name)
        return names


class GamesFilterForm(forms.Form):
    """The club's games list, narrowed: by season, player, night, status, the days they
    were played on (in the club's time zone), and a part of a player's name. Every field
    may stay empty; the choices are the club's own."""

    STATUSES = (
        ("", _("Any")),
        ("playing", _("playing")),
        ("won", _("won")),
        ("abandoned", _("abandoned")),
    )

    q = TextField(label=_("Player's name contains"), max_length=MAX_NAME, required=False)
    season = forms.ChoiceField(label=_("Season"), required=False)
    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False)
    night = forms.TypedChoiceField(label=_("Night"), coerce=int, required=False)
    status = forms.ChoiceField(label=_("Status"), choices=STATUSES, required=False)
    since = DateField(label=_("From"), required=False)
    until = DateField(label=_("To"), required=False)

    def __init__(
        self,
        data: Any = None,
        *,
        seasons: Sequence[tuple[str, str]],
        players: Sequence[tuple[int, str]],
        nights: Sequence[tuple[int, str]],
    ) -> None:
        super().__init__(data)
        for name, choices in (("season", seasons), ("player", players), ("night", nights)):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", gettext("Any")), *choices]

    MORE = ("season", "player", "night", "status", "since", "until")
    """The filters behind "More filters": the name is the one in view on a phone."""

    @property
    def more_given(self) -> bool:
        """Whether one of :attr:`MORE` was given, so that they are shown open."""
        return self.is_bound and any(self.data.get(name) for name in self.MORE)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", gettext("The last day comes before the first."))
        return data


class MailChoiceForm(forms.Form):
    """What a member wants his club to mail him (scoring/clubs/mail.py)."""

    nights = forms.BooleanField(label=_("After each night: its ranking and money"), required=False)
    seasons = forms.BooleanField(
        label=_("At each season's end: its final standings"), required=False
    )

    def __init__(self, *args: Any, address: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("nights") or data.get("seasons")) and self.address is None:
            raise forms.ValidationError(
                _("Mail goes to a verified address only: verify yours on your account page first.")
            )
        return data
