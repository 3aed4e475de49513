"""All input goes through these forms: they turn it into engine values, asking the engine
whether each value is legal, and never re-implement a rule. Here the club's own: its
settings, its seasons, its games, its members' choices; and what the forms of its members,
nights and imports share."""

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..common.forms import (
    MACHINE_TEXT,
    MAX_NAME,
    DateField,
    NameField,
    RulesFields,
    SeatsFields,
    TextField,
    rules_error,
)
from ..common.once import OnceFields
from ..common.words import isolate
from ..engine import SEATS, RulesError
from ..engine.league import DEFAULT_POINTS, check_points
from ..engine.trust import RATING_SETTINGS, RatingRules, RatingSetting, SettingKind
from .embed import clean_origins


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every time zone this server knows (``zoneinfo``), by name."""
    return [(zone, zone) for zone in sorted(available_timezones())]


def look_alike_message(name: str, like: str) -> str:
    """What is said of a new name that looks like another player's of the club."""
    return gettext(
        "“%(name)s” looks like “%(like)s”, another player of the club: give a name that "
        "reads apart."
    ) % {"name": isolate(name), "like": isolate(like)}


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


def rating_field(setting: RatingSetting) -> forms.Field:
    """The form field of a rating setting (engine/trust.py ``RATING_SETTINGS``). Left out of
    what is sent (a form from before it, a script), the club keeps its value."""
    label, help_text = _(setting.label), _(setting.help)
    match setting.kind:
        case SettingKind.YES_NO:
            return forms.TypedChoiceField(
                label=label,
                help_text=help_text,
                choices=[("1", _("yes")), ("0", _("no"))],
                coerce=lambda value: value == "1",
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
        case SettingKind.WHOLE:
            return forms.IntegerField(
                label=label,
                help_text=help_text,
                min_value=int(setting.least),
                max_value=int(setting.most),
                required=False,
            )
        case SettingKind.DECIMAL:
            return forms.FloatField(
                label=label,
                help_text=help_text,
                min_value=setting.least,
                max_value=round(setting.most, 2),
                localize=True,
                required=False,
            )


class RatingFields(forms.Form):
    """A club's rating settings: one field per setting of ``RATING_SETTINGS`` (added below),
    read into the engine's ``RatingRules`` (``rating_rules``)."""

    @staticmethod
    def rating_initial(rules: RatingRules) -> dict[str, Any]:
        values: dict[str, Any] = rules.to_data()
        values["idle_growth"] = "1" if rules.idle_growth else "0"
        return values

    @property
    def rating_fields(self) -> list[forms.BoundField]:
        return [self[setting.name] for setting in RATING_SETTINGS]

    def clean_rating_rules(self, data: dict[str, Any]) -> None:
        if any(setting.name in self.errors for setting in RATING_SETTINGS):
            return
        kept = RatingRules(**{**RatingRules().to_data(), **self._kept_ratings()})
        values = {
            setting.name: getattr(kept, setting.name)
            if data.get(setting.name) is None
            else data[setting.name]
            for setting in RATING_SETTINGS
        }
        try:
            data["rating_rules"] = RatingRules(**values)
        except RulesError as error:
            self.add_error(error.places[-1][0], rules_error(error))

    def _kept_ratings(self) -> dict[str, Any]:
        kept = {name: self.initial.get(name) for name in RatingRules().to_data()}
        if kept["idle_growth"] is not None:
            kept["idle_growth"] = kept["idle_growth"] == "1"
        return {name: value for name, value in kept.items() if value is not None}


for _setting in RATING_SETTINGS:
    RatingFields.base_fields[_setting.name] = RatingFields.declared_fields[_setting.name] = (
        rating_field(_setting)
    )


class ClubSettingsForm(RatingFields, PointsFields, RulesFields):
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
            **cls.rating_initial(club.rating_rules),
        }

    def clean_colour(self) -> str | None:
        colour: str = self.cleaned_data["colour"]
        return colour.lower() or None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_points_scale(data)
        self.clean_rating_rules(data)
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
        for setting in RATING_SETTINGS:  # set once the club is made: a new one has the defaults
            del self.fields[setting.name]
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
    handicap_cup = forms.BooleanField(
        label=_("A handicap cup"),
        help_text=_(
            "A second table, by league points less each player's handicap: his mean over"
            " the 12 months before each month, against the season's mean, once he has 5 games."
        ),
        required=False,
    )

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
    return gettext("These days overlap those of the season %(name)s.") % {
        "name": isolate(other.name)
    }


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
            "handicap_cup": season.handicap_cup,
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
    since = DateField(label=_("From"), required=False, bounded=False)
    until = DateField(label=_("To"), required=False, bounded=False)

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
    disputes = forms.BooleanField(
        label=_("When a hand of the club's games is disputed: who, why, and the page to decide it"),
        required=False,
    )
    """An admin's alone (he is the referee of the club's games): not offered to others."""

    def __init__(
        self, *args: Any, address: str | None = None, admin: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.address = address
        if not admin:
            del self.fields["disputes"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        asked = data.get("nights") or data.get("seasons") or data.get("disputes")
        if asked and self.address is None:
            raise forms.ValidationError(
                _("Mail goes to a verified address only: verify yours on your account page first.")
            )
        return data
