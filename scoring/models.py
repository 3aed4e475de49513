"""What happened at the table, and nothing derived from it.

Totals, the winner, the dealer and the money are computed by the engine from
these facts on every read, so an edit to a past hand recomputes everything.
"""

import secrets
import unicodedata

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import SEATS, FailedTaker, Trump
from .engine.league import DEFAULT_POINTS


def name_key(name: str) -> str:
    """A name as compared: NFC, then case-folded, in Python for every database alike
    (``lower()`` in SQL treats ``i`` and ``İ`` otherwise)."""
    return unicodedata.normalize("NFC", name).casefold()


class Player(models.Model):
    name = models.CharField(_("name"), max_length=40)
    key = models.CharField(max_length=160, unique=True)
    """The name as compared (:func:`name_key`): one player per name, whatever its case."""

    def __str__(self) -> str:
        return self.name


def new_record_id() -> str:
    """A game's name in its exported record: random, so that ids from two sites never meet."""
    return secrets.token_urlsafe(12)


def new_public_id() -> str:
    """The game's name in every address: random, so that nobody finds a game by counting."""
    return secrets.token_urlsafe(16)


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


class Club(models.Model):
    """A club: its players, its rules, its seasons and its league."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Paris")
    """Which day a game finished on, and so which season it counts in."""
    target = models.PositiveSmallIntegerField(_("target"), default=21)
    failed_taker = models.CharField(
        _("failed taker"),
        max_length=20,
        choices=[(option.value, option.value) for option in FailedTaker],
        default=FailedTaker.TRICKS_MINUS_BID.value,
    )
    stake = models.DecimalField(_("stake"), max_digits=16, decimal_places=4, default=0)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    points = models.JSONField(_("league points"), default=default_points)
    """League points for ranks 1 to 4 at a table, given to each new season."""
    public = models.BooleanField(_("public standings"), default=False)
    invite_secret = models.CharField(max_length=32, unique=True, default=new_public_id)
    invite_admits = models.BooleanField(_("the invite link admits at once"), default=False)
    """Else an admin confirms each player who comes through the link."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


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


class Game(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id)
    record_id = models.CharField(_("record id"), max_length=64, unique=True, default=new_record_id)
    """The record's ``id``: kept from an imported record, else drawn at random."""
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
    )
    """The account that started the game, which may score it from any device."""
    creation_token = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    """The new-game form's one-time token: a double tap starts one game."""
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    target = models.PositiveSmallIntegerField(_("target"), default=21)
    failed_taker = models.CharField(
        _("failed taker"),
        max_length=20,
        choices=[(option.value, option.value) for option in FailedTaker],
        default=FailedTaker.TRICKS_MINUS_BID.value,
    )
    stake = models.DecimalField(_("stake"), max_digits=16, decimal_places=4, default=0)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    place = models.CharField(_("club or place"), max_length=80, blank=True)
    abandoned_at = models.DateTimeField(_("abandoned"), null=True, blank=True)
    """Set when the table stops before anyone has won: the game is then settled as it stands."""
    club_label = models.CharField(_("club name"), max_length=80, blank=True)
    season_label = models.CharField(_("season name"), max_length=80, blank=True)
    """The club and season an imported record names, kept for its export."""
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    """The club whose league it counts in, once won."""
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    """The table number in its night's round, from 1."""

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first_dealer__lt=SEATS), name="game_first_dealer_is_a_seat"
            ),
            models.CheckConstraint(condition=models.Q(target__gte=1), name="game_target_positive"),
            models.CheckConstraint(
                condition=models.Q(stake__gte=0), name="game_stake_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.public_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.CheckConstraint(condition=models.Q(position__lt=SEATS), name="seat_is_0_to_3"),
        ]


class Hand(models.Model):
    """One deal, as it happened: void (no trump), or a contract and its result.

    The contract is its taker and bid, or the auction's calls that give them; the
    result is the tricks won by seat, or the cards played that give them.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    taker = models.PositiveSmallIntegerField(_("taker"), null=True, blank=True)
    bid = models.PositiveSmallIntegerField(_("bid"), null=True, blank=True)
    trump = models.CharField(
        _("trump"),
        max_length=2,
        blank=True,
        choices=[(trump.value, trump.value) for trump in Trump],
    )
    tricks = models.JSONField(_("tricks"), null=True, blank=True)
    """Tricks won by seat, four numbers; null for a void deal or a hand played card by card."""
    calls = models.JSONField(_("calls"), null=True, blank=True)
    """The auction in speaking order, when the table recorded it."""
    plays = models.JSONField(_("plays"), null=True, blank=True)
    """The six tricks as played, when recorded card by card."""
    token = models.UUIDField(null=True, blank=True, editable=False)
    """The one-time token of the form that recorded it: a repeated submission is ignored."""
    recorded_at = models.DateTimeField(_("recorded"), default=timezone.now)

    class Meta:
        ordering = ["number"]
        constraints = [
            # Two phones saving the same hand: the database lets exactly one in.
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique"),
            models.UniqueConstraint(fields=["game", "token"], name="hand_token_unique"),
        ]


class Change(models.Model):
    """The game's history: every hand recorded, edited, undone or discarded."""

    class Action(models.TextChoices):
        CREATED = "created", _("game started")
        IMPORTED = "imported", _("game imported")
        RECORDED = "recorded", _("hand recorded")
        EDITED = "edited", _("hand edited")
        UNDONE = "undone", _("hand undone")
        REDONE = "redone", _("hand redone")
        DISCARDED = "discarded", _("hand discarded")
        ABANDONED = "abandoned", _("game abandoned")
        RESUMED = "resumed", _("game resumed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(default=timezone.now)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    """The phone that made the change, as it calls itself; empty for the one that started
    the game, or where the change came from elsewhere (an import, a command)."""
    action = models.CharField(max_length=10, choices=Action.choices)
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    """The hand as it was, in the game record's form."""
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]


class ScorerLink(models.Model):
    """A link that hands the scoring of a game to another phone, until it is revoked."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scorer_links")
    secret = models.CharField(max_length=32, unique=True, default=new_public_id)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]


class Summary(models.Model):
    """What lists show of a game, kept beside its facts: written in the same transaction as
    every change of the game, rebuilt by ``manage.py rebuild_summaries``, and tested equal
    to the engine's result. The one derived table, so that lists never score a game."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        WON = "won", _("won")
        ABANDONED = "abandoned", _("abandoned")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    names = models.JSONField()
    totals = models.JSONField()
    leaders = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices)
    hands = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    changed_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["-changed_at"], name="summary_changed_at")]


class ClubResult(models.Model):
    """One player's part in a counted (won) club game, with his rating after it.

    Like :class:`Summary`, derived and kept beside the facts: written in the same
    transaction as every change of the game, recomputed from a corrected game on, rebuilt
    by ``manage.py rebuild_league``, and tested equal to a full recomputation. Standings
    add these rows up in the database; nothing is scored per request.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="results")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
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
    taken = models.PositiveSmallIntegerField()
    made = models.PositiveSmallIntegerField()
    boites = models.PositiveSmallIntegerField()
    boulmous_made = models.PositiveSmallIntegerField()
    boulmous_missed = models.PositiveSmallIntegerField()
    units = models.IntegerField()
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
