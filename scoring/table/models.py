"""What happened at the table, and nothing derived from it.

Totals, the winner, the dealer and the money are computed by the engine from
these facts on every read, so an edit to a past hand recomputes everything.
"""

import secrets
from decimal import Decimal
from enum import Enum
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..engine import OPTION_NAMES, OPTIONS, SEATS, Kind, Option, Rules, Trump
from ..engine.money import decimals


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


def rules_field(option: Option) -> "models.Field[Any, Any]":
    """The column that keeps ``option`` (:data:`~scoring.engine.OPTIONS`)."""
    words = option.name.replace("_", " ")
    default = option.to_data(option.default)
    match option.kind:
        case Kind.NUMBER:
            return models.PositiveSmallIntegerField(words, default=default)
        case Kind.CHOICE:
            values = [(choice.value, choice.value) for choice in option.choices]
            return models.CharField(words, max_length=20, choices=values, default=default)
        case Kind.MONEY:
            return models.DecimalField(words, max_digits=16, decimal_places=4, default=0)
        case Kind.CURRENCY:
            return models.CharField(words, max_length=3, default=default)
        case Kind.YES_NO:
            return models.BooleanField(words, default=default)


class GameRules(models.Model):
    """A game's rules (the engine's :class:`~scoring.engine.Rules`), declared once: a game
    is played with them, a club gives its own to its games. One column per option of
    :data:`~scoring.engine.OPTIONS`, made below (a new option is one migration). Read with
    :attr:`rules`, written with :func:`rules_columns`."""

    if TYPE_CHECKING:  # the columns other code reads by name; made from the options below
        target: int
        stake: Decimal
        currency: str
        confirmation: str

    class Meta:
        abstract = True

    @property
    def rules(self) -> Rules:
        data = {name: getattr(self, name) for name in OPTION_NAMES}
        # The column keeps four decimals; the rules want the currency's own.
        data["stake"] = Decimal(self.stake).quantize(Decimal(1).scaleb(-decimals(self.currency)))
        return Rules.from_data(data)


for _option in OPTIONS:
    GameRules.add_to_class(_option.name, rules_field(_option))


def rules_columns(rules: Rules) -> dict[str, Any]:
    """The columns of :class:`GameRules` for ``rules``."""
    columns = {}
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        columns[name] = value.value if isinstance(value, Enum) else value
    return columns


class Game(GameRules):
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
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    place = models.CharField(_("club or place"), max_length=80, blank=True)
    abandoned_at = models.DateTimeField(_("abandoned"), null=True, blank=True)
    """Set when the table stops before anyone has won: the game is then settled as it stands."""
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    """When the game was first won (its winning hand recorded, or the finish its record
    says), kept through every undo, redo and correction after: the moment a club's league
    orders it by and dates it by (league.md). Only an admin's edit of the game's date moves
    it (scoring/clubs/edits.py ``move_game``). None for a game never won."""
    club_label = models.CharField(_("club name"), max_length=80, blank=True)
    season_label = models.CharField(_("season name"), max_length=80, blank=True)
    """The club and season an imported record names, kept for its export."""
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta(GameRules.Meta):
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
    # Found by game through seat_position_unique (game, position): no index of its own.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
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

    # Found by game through hand_number_unique (game, number): no index of its own.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
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
    entered_seat = models.PositiveSmallIntegerField(_("entered by seat"), null=True, blank=True)
    """The seat held by the phone that entered the hand as it now stands (recorded it, or
    corrected it last); None for a phone that holds none. Under confirmation of each hand,
    a player of another seat confirms it (scoring/engine/confirmation.py)."""
    version = models.PositiveIntegerField(default=1)
    """One more at each correction: a confirmation of an older version counts for nothing."""
    entered_at = models.DateTimeField(_("entered"), default=timezone.now)
    """When the hand as it now stands was entered: recorded, or corrected last. Its minutes
    to be confirmed run from then."""

    class Meta:
        ordering = ["number"]
        constraints = [
            # Two phones saving the same hand: the database lets exactly one in.
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique"),
            # A form's token, once in a game; hands without one (imported) are not indexed.
            models.UniqueConstraint(
                fields=["game", "token"],
                condition=models.Q(token__isnull=False),
                name="hand_token_unique",
            ),
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
        MOVED = "moved", _("date of the game changed")
        SEATED = "seated", _("seat taken")
        UNSEATED = "unseated", _("seat code revoked")
        CONFIRMED = "confirmed", _("hand confirmed")
        SIGNED = "signed", _("result signed")
        NIGHT_CONFIRMED = "night_end", _("confirmed by itself at the night’s end")
        DISPUTED = "disputed", _("hand disputed")
        DECIDED = "decided", _("referee’s decision")
        PROPOSED = "proposed", _("correction proposed")
        ACCEPTED = "accepted", _("correction confirmed")
        AGREED = "agreed", _("settlement agreed")

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
    handed_on_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="handed_on"
    )
    """The link of the game before, for the rematch a phone holding it started: revoked
    with it."""

    class Meta:
        ordering = ["created_at", "id"]


SEAT_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A seat's code is typed by hand: no 0 and O, no 1, I and L."""
SEAT_CODE_LENGTH = 6


def new_seat_code() -> str:
    return "".join(secrets.choice(SEAT_CODE_ALPHABET) for _ in range(SEAT_CODE_LENGTH))


class SeatLink(models.Model):
    """A seat of a game handed to a player's phone, by a QR code or a short code typed, until
    it is revoked: the phone then watches the game as that seat's player. One live link per
    seat; a code is unique among the live ones."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_links")
    seat = models.PositiveSmallIntegerField(_("seat"))
    code = models.CharField(max_length=SEAT_CODE_LENGTH, default=new_seat_code)
    created_at = models.DateTimeField(default=timezone.now)
    taken_at = models.DateTimeField(null=True, blank=True)
    """When a phone last took the seat; None while none has."""
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seat", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=models.Q(revoked_at=None),
                name="seat_link_one_live_per_seat",
            ),
            models.UniqueConstraint(
                fields=["code"],
                condition=models.Q(revoked_at=None),
                name="seat_link_live_code_unique",
            ),
            models.CheckConstraint(condition=models.Q(seat__lt=SEATS), name="seat_link_is_0_to_3"),
        ]


class Confirmation(models.Model):
    """A player's word that a hand as it now stands, or the whole game's result, is right
    (issue 40.2): by his seat, from a phone holding it. With no seat: confirmed by itself at
    the night's end. A confirmation by itself when the minutes run out is not written: it
    follows from the time (scoring/engine/confirmation.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="confirmations")
    hand = models.ForeignKey(
        Hand,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="confirmations",
    )
    """The hand confirmed; None: the whole game's result signed. Kept when the hand is
    undone (a fact of the game's history, which then confirms no hand of the game: an undo
    costs no query more); gone with the game."""
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(null=True, blank=True)
    """The hand's version confirmed: a correction since leaves it counting for nothing."""
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(default=timezone.now)
    token = models.UUIDField(null=True, blank=True, editable=False)
    """The one-time token of the form that sent it (a page's, or a phone's queue replaying
    it once back online: static/js/agree.js): sent again, it is found and nothing more is
    written, whatever changed since."""

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "token"],
                condition=models.Q(token__isnull=False),
                name="confirmation_token_unique",
            ),
            models.UniqueConstraint(
                fields=["hand", "version", "seat"],
                condition=models.Q(hand__isnull=False, seat__isnull=False),
                name="confirmation_once_per_seat",
            ),
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=models.Q(hand__isnull=True, seat__isnull=False),
                name="signature_once_per_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(seat__lt=SEATS), name="confirmation_seat_is_0_to_3"
            ),
        ]


REASON_LENGTH = 300
"""How long a dispute's or a decision's reason may be."""


class Dispute(models.Model):
    """A player's word that a hand, as it stood (``version``), is wrong, and why (issue
    40.3): by his seat, from a phone holding it, before the hand was confirmed. The hand
    then waits for the referee (:class:`Decision`)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    hand = models.ForeignKey(
        Hand, on_delete=models.DO_NOTHING, db_constraint=False, related_name="disputes"
    )
    """The hand disputed. Kept when the hand is undone (as a confirmation is): it then
    disputes nothing, and an undo costs no query more."""
    hand_number = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=REASON_LENGTH)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(default=timezone.now)
    token = models.UUIDField(null=True, blank=True, editable=False)
    """The one-time token of the form that sent it (a page's, or a phone's queue replaying
    it once back online: static/js/agree.js): sent again, it is found and nothing more is
    written, whatever changed since."""

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "token"],
                condition=models.Q(token__isnull=False),
                name="dispute_token_unique",
            ),
            models.UniqueConstraint(fields=["hand", "version"], name="dispute_once_per_version"),
            models.CheckConstraint(
                condition=models.Q(seat__lt=SEATS), name="dispute_seat_is_0_to_3"
            ),
        ]


class Decision(models.Model):
    """The referee's decision on a dispute, always with a reason: the hand confirmed as it
    stands, or corrected (the correction written just before, through the one hand-edit
    path, in his name)."""

    class Outcome(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed as it stands")
        CORRECTED = "corrected", _("corrected")

    dispute = models.OneToOneField(Dispute, on_delete=models.CASCADE, related_name="decision")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decisions")
    hand_number = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    reason = models.CharField(max_length=REASON_LENGTH)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]


class Proposal(models.Model):
    """A correction of a hand already confirmed (issue 40.3), which only the referee may
    change at once: proposed by a scorer's phone (``seat``: the one it holds, if any), the
    hand stays as confirmed until a player of another seat confirms the proposal; it then
    replaces the hand, confirmed by him (scoring/table/services.py ``confirm_proposal``).
    Open while not confirmed and its hand is still at ``version``; a later proposal of the
    same hand takes its place."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="proposals")
    hand = models.ForeignKey(
        Hand, on_delete=models.DO_NOTHING, db_constraint=False, related_name="proposals"
    )
    """The hand it would correct. Kept when the hand is undone (it then corrects nothing)."""
    hand_number = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    """The hand's version it would replace: corrected meanwhile, it is no longer open."""
    facts = models.JSONField()
    """The hand proposed, as its row's columns (scoring/table/state.py ``columns``)."""
    discard_after_end = models.BooleanField(default=False)
    """Whether the hands after the game's new end are discarded (the correction ends it)."""
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat__lt=SEATS), name="proposal_seat_is_0_to_3"
            ),
        ]


class SettlementAgreement(models.Model):
    """A player's word that the game's settlement, as it stood (``content``), is right
    (issue 40.4): by his seat, on his own phone holding it or on the scorer's phone passed
    round with his seat's short code (``passed``). With no seat: agreed by itself at the
    club night's end. A change of the game's hands since leaves it counting for nothing
    (its ``content`` is no longer the settlement's, scoring/table/confirming.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="settlement_agreements")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    content = models.CharField(max_length=64)
    """The digest of what was agreed: the hands as written, how the game ended, its stake
    (``confirming.settlement_key``)."""
    hands = models.PositiveSmallIntegerField()
    """How many hands the settlement agreed counted (the history says it)."""
    passed = models.BooleanField(default=False)
    """Agreed on the scorer's phone with the seat's short code, not on the seat's own."""
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_device = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "content", "seat"],
                condition=models.Q(seat__isnull=False),
                name="settlement_agreed_once_per_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(seat__lt=SEATS), name="settlement_agreement_seat_is_0_to_3"
            ),
        ]


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
