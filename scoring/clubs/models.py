"""A club: its members, seasons and nights, the games it counts, and its league's results.

Clubs know the table's games; the table knows nothing of clubs.
"""

import secrets
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..engine.league import COUNTED, DEFAULT_POINTS, Statistic
from ..engine.trust import RATING_SETTINGS, RatingRules, RatingSetting, SettingKind
from ..table.face import Dispute, Game, GameRules, new_public_id


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


class Club(GameRules):
    """A club: its players, its rules, its seasons and its league."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Paris")
    """Which day a game finished on, and so which season it counts in."""
    points = models.JSONField(_("league points"), default=default_points)
    """League points for ranks 1 to 4 at a table, given to each new season."""
    public = models.BooleanField(_("public standings"), default=False)
    invite_secret = models.CharField(max_length=32, unique=True, default=new_public_id)
    invite_admits = models.BooleanField(_("the invite link admits at once"), default=False)
    """Else an admin confirms each player who comes through the link."""
    embed_origins = models.JSONField(_("websites that may show the standings"), default=list)
    colour = models.CharField(_("colour"), max_length=7, default="#0f5132")
    """The club's colour (``#rrggbb``): its standings framed on its website are drawn in it."""
    """The origins (``https://example.org``) whose pages may frame the club's standings and
    read its standings.csv and API across sites (scoring/clubs/embed.py); none by default."""
    created_at = models.DateTimeField(default=timezone.now)
    # Then a column for each rating setting (engine/trust.py RATING_SETTINGS), below.
    if TYPE_CHECKING:
        idle_growth: bool
        idle_rate: float

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def rating_rules(self) -> RatingRules:
        """The club's rating settings (league.md, "Ratings people trust")."""
        return RatingRules(
            **{setting.name: getattr(self, setting.name) for setting in RATING_SETTINGS}
        )


def rating_field(setting: RatingSetting) -> "models.Field[Any, Any]":
    """The club's column that keeps a rating setting, at the contract's default."""
    words = setting.name.replace("_", " ")
    match setting.kind:
        case SettingKind.YES_NO:
            return models.BooleanField(words, default=setting.default)
        case SettingKind.WHOLE:
            return models.PositiveIntegerField(words, default=setting.default)
        case SettingKind.DECIMAL:
            return models.FloatField(words, default=setting.default)


for _setting in RATING_SETTINGS:
    Club.add_to_class(_setting.name, rating_field(_setting))


class Member(models.Model):
    """A name in a club: a member, who may have an account, or a guest who sat in a game."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("admin")
        SCORER = "scorer", _("scorer")
        MEMBER = "member", _("member")
        GUEST = "guest", _("guest")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(_("name"), max_length=40)
    key = models.CharField(max_length=160)
    """The name as compared (:func:`name_key`): one per name in a club, whatever its case."""
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    """The account that is this player, if he has one."""
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="claims",
    )
    """An account that says it is this player, until an admin confirms it."""
    joined_at = models.DateTimeField(default=timezone.now)
    short_in_public = models.BooleanField(_("shown by first name and initial"), default=False)
    """Shown to whoever is not of the club (public pages and exports) as ``Amina B.``, at his
    request (scoring/clubs/names.py); the club's members still see his full name."""
    retired_at = models.DateTimeField(_("retired"), null=True, blank=True)
    """When an admin retired him: he stays in his games and past standings, and leaves the
    club's lists of players, the names offered for a new game and a night's check-in,
    until he is brought back (scoring/clubs/members/care.py)."""
    feed_version = models.PositiveIntegerField(default=0)
    """The version of his calendar key (scoring/clubs/nights/calendar.py): changed, every
    feed address he gave out before stops reading."""

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="member_name_unique"),
            models.UniqueConstraint(fields=["club", "user"], name="member_user_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A season of a club: the games that finished from its first day to its last."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=40)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    points = models.JSONField(_("league points"), default=default_points)
    handicap_cup = models.BooleanField(_("a handicap cup"), default=False)
    """A second table beside the standings, by league points less each player's handicap
    (scoring/engine/handicap.py; docs/league.md, "The handicap cup")."""

    class Meta:
        ordering = ["-first_day", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique"),
            models.CheckConstraint(
                condition=models.Q(last_day__gte=models.F("first_day")),
                name="season_days_in_order",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Night(models.Model):
    """A club night: the players present are drawn to tables of four, round after round."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=80, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    """How many rounds are planned; none: until the organiser stops."""
    seed = models.PositiveIntegerField(default=new_seed)
    """The draw's seed: the same players and rounds give the same draw."""
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    """When the organiser ended it: its games then take no more changes (clubs/access.py
    ``night_closed``), until an admin reopens it."""
    reopened_at = models.DateTimeField(null=True, blank=True)
    """When an admin last reopened it after its end: its mail, when it ends again, goes out
    once more, as a correction (scoring/clubs/mail.py)."""
    event = models.ForeignKey(
        "Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="nights"
    )
    """The event (issue 41) this night is one of, if any: its rounds are then the event's,
    drawn and published by its organisers (scoring/clubs/events/). A night without one works
    as it always did. An event deleted leaves its nights, as plain nights."""

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rounds__isnull=True) | models.Q(rounds__gte=1),
                name="night_rounds_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.date}"


class Attendance(models.Model):
    """A player checked in at a night; ``present`` is false once he has left."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="attendances")
    present = models.BooleanField(default=True)
    checked_in_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["checked_in_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "member"], name="attendance_unique"),
        ]


class Round(models.Model):
    """A round of a night, as drawn: its tables (members by seat) and who sat out."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    tables = models.JSONField()
    """Member ids by table, each in seat order: the draw as it was made."""
    sitting_out = models.JSONField()
    drawn_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="round_number_unique"),
        ]


class ClubGame(models.Model):
    """A game of the club's: it counts in the club's league once won. Kept beside the
    table's game, which knows nothing of clubs; a night's games also say their round and
    table."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="club_game"
    )
    # Found by club through club_game_club (club, game): no index of its own.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="club_games", db_index=False
    )
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="club_games"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    """The table number in its night's round, from 1."""
    source_id = models.CharField(max_length=64, blank=True, default="")
    """The ``id`` its record came in with, when the game could not keep it as its own record
    id (another club holds a game of that id): so that the same record imported again
    into this club is known."""
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    """For an imported game, its record's :func:`~scoring.engine.fingerprint` (players, hands,
    finish): so that the same game without an ``id`` is known too."""

    class Meta:
        indexes = [
            models.Index(fields=["club", "game"], name="club_game_club"),
            models.Index(fields=["club", "source_id"], name="club_game_source"),
            models.Index(fields=["club", "fingerprint"], name="club_game_fingerprint"),
        ]


class ClubResult(models.Model):
    """One player's part in a counted (won) club game, with his rating after it.

    Like :class:`Summary`, derived and kept beside the facts: written in the same
    transaction as every change of the game, recomputed from a corrected game on, rebuilt
    by ``manage.py rebuild_league``, and tested equal to a full recomputation. Standings
    add these rows up in the database; nothing is scored per request.
    """

    # Found by club through club_result_position (club, position) and by game through
    # club_result_seat_unique (game, seat): no index of their own, one less to write a row.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="results", db_index=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", db_index=False)
    seat = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    """The game's place among the club's counted games, in the order they finished."""
    finished_at = models.DateTimeField()
    key = models.CharField(max_length=160)
    """The player, as the club knows him (:func:`name_key` of his name)."""
    name = models.CharField(max_length=40)
    rank = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    won = models.BooleanField()
    # Then a column for each statistic counted from the game (engine/league.py), below.
    contracts = models.JSONField(default=list)
    """The contracts he took, each ``[bid, trump, made]``: his statistics by bid and trump."""
    amount = models.DecimalField(max_digits=18, decimal_places=4, null=True)
    """``units`` times the game's stake, when the game was played in the club's currency."""
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["position", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="club_result_seat_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "finished_at"], name="club_result_finished"),
            models.Index(fields=["club", "position"], name="club_result_position"),
            models.Index(fields=["club", "key", "position"], name="club_result_player"),
        ]


class PlayerTotals(models.Model):
    """One player's sums over his club's counted games: what his page shows of them all
    (every statistic, his contracts, whom he met), read as one row, not added up from his
    thousands of :class:`ClubResult` rows at each visit.

    Derived like them: changed by every write of the league in its transaction, each by
    the rows it adds and removes (scoring/clubs/league/totals.py), counted again by
    ``manage.py rebuild_league``, and tested equal to his rows added up."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="totals", db_index=False)
    key = models.CharField(max_length=160)
    """The player, as :attr:`ClubResult.key`."""
    figures = models.JSONField(default=dict)
    """Sums by name: ``games``, ``wins``, ``total``, ``rank1``… (games at each rank),
    ``amounts`` (games with an amount), and each statistic counted from a game's facts;
    a figure of 0 is left out."""
    amount = models.DecimalField(max_digits=18, decimal_places=4, null=True)
    """The sum of his rows' amounts; None when none has one."""
    contracts = models.JSONField(default=dict)
    """How many contracts he took of each ``"bid:trump:made"`` (made ``1`` or ``0``)."""
    meetings = models.JSONField(default=dict)
    """By the other player's key: ``[games, ahead, behind, level]`` at a table together."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="player_totals_unique"),
        ]


class ClubChange(models.Model):
    """The club's history: every change an admin makes to the club itself, its members,
    seasons, nights and games, with who made it; what a change removes is kept here in
    ``before`` (a deleted game as its ``boulmous/1`` record), so nothing is lost.

    ``action`` is one of :data:`CLUB_ACTIONS` (scoring/clubs/history.py), kept free of
    ``choices`` so that a new action needs no migration."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(default=timezone.now)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=20)
    subject = models.CharField(max_length=120, blank=True)
    """What the change is about, as it was named when it was made: a member's name, a
    season's, a night's date. A line about a member is shown with his name now (``member``);
    this one is said only when it has none (deleted since, or a line no member was found
    for), or to say what changed: a merged player's name, a game's players and totals."""
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    """The member the line is about (a merge's: the player kept), if any; the history says
    his name now. None for a line about no member, or about one deleted since."""
    members = models.JSONField(null=True, blank=True)
    """The members a line names besides ``member``, by id: a deleted or moved game's, in
    its seats' order (None for a seat no member held); a deleted night's, each once."""
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["club", "-at"], name="club_change_at")]


def _statistic_field(statistic: Statistic) -> "models.Field[int, int]":
    if statistic.signed:
        return models.IntegerField(default=0)
    return models.PositiveSmallIntegerField(default=0)


# A column for each statistic the league counts from a game's facts: declared once, in the
# engine's registry (STATISTICS), and added up by the standings from these columns.
for _statistic in COUNTED:
    ClubResult.add_to_class(_statistic.name, _statistic_field(_statistic))


class MailChoice(models.Model):
    """What a member with an account asked his club to mail him (scoring/clubs/mail.py): the
    night's ranking and money after each night, the standings at a season's end. Kept with
    the language he chose it in, which the mails are written in, and the site's address he
    chose it at, which their links lead to."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="mail_choice")
    nights = models.BooleanField(_("a mail after each night"), default=False)
    seasons = models.BooleanField(_("a mail at each season's end"), default=False)
    disputes = models.BooleanField(_("a mail when a hand is disputed"), default=False)
    """An admin's: a mail when a hand of a club game is disputed (issue 40.3), to decide it."""
    language = models.CharField(max_length=10)
    origin = models.CharField(max_length=200)
    """The site's address, ``https://example.org``, that the mails' links begin with."""
    chosen_at = models.DateTimeField(default=timezone.now)
    """Since when: a night that ended, or a season whose last day was, before it is not mailed."""


class MailSent(models.Model):
    """A mail sent to a member, once for each end of a night and each season."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="mails_sent")
    night = models.ForeignKey(Night, null=True, blank=True, on_delete=models.CASCADE)
    night_ended_at = models.DateTimeField(null=True, blank=True)
    """The end of the night it was mailed for: a night reopened and ended again is mailed
    again, as a correction, and the row of the first mail is kept."""
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE)
    dispute = models.ForeignKey(
        Dispute, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    """A hand disputed, mailed to an admin who asked (issue 40.3)."""
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["member", "night", "night_ended_at"], name="mail_sent_night_end_once"
            ),
            models.UniqueConstraint(fields=["member", "season"], name="mail_sent_season_once"),
            models.UniqueConstraint(fields=["member", "dispute"], name="mail_sent_dispute_once"),
            models.CheckConstraint(
                condition=models.Q(night__isnull=True, night_ended_at__isnull=True)
                & models.Q(season__isnull=False, dispute__isnull=True)
                | models.Q(night__isnull=False, night_ended_at__isnull=False)
                & models.Q(season__isnull=True, dispute__isnull=True)
                | models.Q(night__isnull=True, night_ended_at__isnull=True)
                & models.Q(season__isnull=True, dispute__isnull=False),
                name="mail_sent_night_season_or_dispute",
            ),
        ]


class MailTry(models.Model):
    """A club mail the mail server refused or could not be reached for (issue 43.4): tried
    again later (``retry_at``), or given up after the last try (``retry_at`` empty); listed
    to the club's admins on the club's mail page. Deleted once the mail goes out (its
    ``MailSent`` row is the proof)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="mail_tries")
    night = models.ForeignKey(Night, null=True, blank=True, on_delete=models.CASCADE)
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE)
    dispute = models.ForeignKey(
        Dispute, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    attempts = models.PositiveSmallIntegerField(default=1)
    reason = models.TextField()
    """What the mail server said, or why it could not be reached (its own words)."""
    failed_at = models.DateTimeField(default=timezone.now)
    retry_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "night"], name="mail_try_night_once"),
            models.UniqueConstraint(fields=["member", "season"], name="mail_try_season_once"),
            models.UniqueConstraint(fields=["member", "dispute"], name="mail_try_dispute_once"),
        ]


def new_event_seed() -> str:
    return secrets.token_hex(8)


class Event(GameRules):
    """A club's event (issue 41; docs/events.md, the contract ../shared/specs/events.md): a
    championship, tournament or cup over rounds and nights, with its entries, its ranking
    and its final. Its rules are the club's when it is made (the columns of
    :class:`GameRules`), its own after; its games are club games played with them."""

    class SitOut(models.TextChoices):
        ZERO = "0", _("no points")
        AVERAGE = "average", _("the mean of the scheme’s four values")

    class Final(models.TextChoices):
        NONE = "none", _("no final")
        FINAL = "final", _("a final table")
        CONSOLATION = "consolation", _("a final and a consolation table")

    class Carry(models.TextChoices):
        FULL = "1", _("in full")
        HALF = "0.5", _("halved")
        NONE = "0", _("not at all")

    class PrizeKind(models.TextChoices):
        SHARE = "share", _("shares of the pool, in %")
        AMOUNT = "amount", _("fixed amounts")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(_("name"), max_length=80)
    seed = models.CharField(max_length=64, default=new_event_seed)
    """The lot's seed (``"<seed>:<entrant id>"``, the ranking's last step) and the draws'."""
    points = models.JSONField(_("league points"), default=default_points)
    """Points for ranks 1 to 4 at a table in a round: the club's scheme when it was made."""
    sit_out_points = models.CharField(
        _("points for sitting out"), max_length=10, choices=SitOut.choices, default=SitOut.ZERO
    )
    best_nights = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    """Only the best N nights count in the league points; None: all of them."""
    min_attendance = models.DecimalField(
        _("least share of nights to take the title"),
        max_digits=3,
        decimal_places=2,
        null=True,
        blank=True,
    )
    """E.g. 0.75: an entrant present on fewer nights is ranked apart; None: no minimum."""
    hide_last_rounds = models.PositiveSmallIntegerField(_("last rounds hidden"), default=0)
    """The ranking shown to players counts only the rounds before the last K, until the event
    ends (its organisers see it all)."""
    counts_in_season = models.BooleanField(_("its games count in the season"), default=True)
    final = models.CharField(_("final"), max_length=12, choices=Final.choices, default=Final.NONE)
    carry_over = models.CharField(
        _("points carried into the final"), max_length=3, choices=Carry.choices, default=Carry.FULL
    )
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=18, decimal_places=4, default=Decimal(0)
    )
    fee_currency = models.CharField(_("currency of the fee"), max_length=3, default="EUR")
    prize_kind = models.CharField(
        _("prizes"), max_length=10, choices=PrizeKind.choices, default=PrizeKind.SHARE
    )
    prizes = models.JSONField(_("prize list"), default=list)
    """By place from the first: percentages of the pool or amounts, as decimal strings."""
    public = models.BooleanField(_("public"), default=False)
    """Anyone may see its page and ranking (the room's screen needs no signed link)."""
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    """When its organiser ended it: its hidden rounds are shown to all."""

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(best_nights__isnull=True) | models.Q(best_nights__gte=1),
                name="event_best_nights_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(min_attendance__isnull=True)
                | models.Q(min_attendance__gt=0, min_attendance__lte=1),
                name="event_min_attendance_share",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Federation(models.Model):
    """Clubs that rank their players together (docs/league.md, "A federation of clubs"): one
    ranking of the accounts that play in its member clubs, whatever the club."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    public = models.BooleanField(_("public ranking"), default=False)
    """Else only its admins and the members of its clubs see it."""
    admins = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="federations_run")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class EventEntry(models.Model):
    """A member (or a guest: a member of the club without an account) entered in an event.
    Entered late, he is seated from ``entered_round`` on; withdrawn, never from
    ``withdrawn_round`` on, and keeps what he scored."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="event_entries")
    entered_round = models.PositiveSmallIntegerField(default=1)
    """The first round he may be seated in: the rounds drawn when he entered, plus one."""
    entered_at = models.DateTimeField(default=timezone.now)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_round = models.PositiveSmallIntegerField(null=True, blank=True)
    """The first round he is no longer seated in; None while he plays on."""
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["entered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "member"], name="event_entry_unique"),
        ]


class ForbiddenPair(models.Model):
    """Two members who must never sit at one table: for every event of the club (kept
    across events, ``event`` None) or for one event. ``first`` is the lower id."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="forbidden_pairs")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="forbidden_pair_ordered"
            ),
            models.UniqueConstraint(
                fields=["club", "first", "second"],
                condition=models.Q(event__isnull=True),
                name="forbidden_pair_club_unique",
            ),
            models.UniqueConstraint(
                fields=["event", "first", "second"],
                condition=models.Q(event__isnull=False),
                name="forbidden_pair_event_unique",
            ),
        ]


class EventRound(models.Model):
    """A round of an event, numbered across its nights: drawn (a draft only its organisers
    see, whose players they may swap), then published, when its tables' games start as the
    night's :class:`Round` (``round``), played and scored as a night's are."""

    class Method(models.TextChoices):
        RANDOM = "random", _("random")
        INTERVAL = "interval", _("by interval (1-3-5-7, 2-4-6-8)")
        NO_REPEAT = "no-repeat", _("no repeats")
        SWISS = "swiss", _("Swiss")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
    seed = models.PositiveIntegerField(default=new_seed)
    version = models.CharField(max_length=20, blank=True)
    """The engine's seating version that drew it: the same inputs give the same tables."""
    tables = models.JSONField()
    """Member ids by table, each table best-ranked first (the first deals first)."""
    sitting_out = models.JSONField()
    drawn_at = models.DateTimeField(default=timezone.now)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    swapped_at = models.DateTimeField(null=True, blank=True)
    swapped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    """The last swap (each is in the club's history)."""
    published_at = models.DateTimeField(null=True, blank=True)
    """None: a draft. Published, its seats show and its games start."""
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    round = models.OneToOneField(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_round"
    )
    """The night's round its games were started in (club games by table), once published."""

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_unique"),
        ]


class TableSettled(models.Model):
    """A table of an event's round that did not finish in time, settled by an organiser: with
    the totals as they stand (``totals`` None) or with the totals he entered, and his reason.
    Its game is abandoned; it counts in the event with these totals."""

    event_round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="settled")
    table = models.PositiveSmallIntegerField()
    """The table's number in the round, from 1."""
    totals = models.JSONField(null=True, blank=True)
    """Four totals by seat, as entered; None: as they stand."""
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event_round", "table"], name="table_settled_once"),
        ]


class EventFinal(models.Model):
    """An event's final table (or its consolation table), drawn after its last round: its
    four players (best-ranked first) and their game, a club game played with the event's
    rules."""

    class Kind(models.TextChoices):
        FINAL = "final", _("final")
        CONSOLATION = "consolation", _("consolation final")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="finals")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    players = models.JSONField()
    """Member ids, best-ranked first."""
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_final"
    )
    drawn_at = models.DateTimeField(default=timezone.now)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)
    """Its game did not finish in time and an organiser settled it (as a round's table is,
    :class:`TableSettled`): it counts with ``settled_totals``. None: not settled."""
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled_totals = models.JSONField(null=True, blank=True)
    """Four totals by seat, as entered; None: as they stood."""
    settled_reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "kind"], name="event_final_once"),
        ]


class FederationClub(models.Model):
    """A club invited to a federation, member of it once its admin accepts, until it leaves:
    one row a pair, whose last state holds (each change is a line of the club's history)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federations")
    invited_at = models.DateTimeField(default=timezone.now)
    joined_at = models.DateTimeField(null=True, blank=True)
    """When the club's admin accepted: a member from then on; None while invited."""
    left_at = models.DateTimeField(null=True, blank=True)
    """When the club left (or declined the invitation): neither invited nor member."""

    class Meta:
        ordering = ["club__name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "club"], name="federation_club_unique"),
        ]
