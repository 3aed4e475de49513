"""What a club night's pages show: who is present, each round's tables as they play, the
table sheet and cards, and the night's ranking. Laid out from the rows the services keep
(rounds as drawn, each table's game summary); nothing here draws or scores.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.utils.translation import gettext, ngettext

from ...common.words import format_money
from ...engine import (
    BOULMOUS,
    SEATS,
    amount,
    fewest_transfers,
    from_minor,
    settles_exactly,
    to_minor,
)
from ...engine.names import collation_key, name_key, sorted_by_name
from ...engine.settlement import breakdown_of
from ...table.face import Game, ScorerLink, Summary, load_games
from ..models import Attendance, Club, ClubResult, Member, Night, Round, Season
from ..names import NAMED_COLUMNS, Named, shown_names


@dataclass(frozen=True)
class Table:
    """A table of a round, as its game stands."""

    number: int
    public_id: str
    players: Sequence[str]
    """The names by seat, seat 1 first."""
    first_dealer: int
    """The seat (from 0) that deals the first hand."""
    status: str
    """``playing``, ``won`` or ``abandoned``, as the game's summary says."""
    hand: int
    """The hand being played: one more than those recorded."""
    leaders: Sequence[str]
    winner: str | None
    link: ScorerLink | None = None
    """The scorer link its card carries, where asked for (the cards)."""
    final: bool | None = None
    """A won game's result: final (the league counts it), else provisional (issue 40.4);
    None for a game not won."""

    @property
    def playing(self) -> bool:
        return self.status == Summary.Status.PLAYING

    @property
    def seats(self) -> list[tuple[int, str, bool]]:
        """Each seat's number from 1, its player, and whether he deals first."""
        return [
            (seat + 1, name, seat == self.first_dealer) for seat, name in enumerate(self.players)
        ]


@dataclass(frozen=True)
class RoundState:
    """A round: its tables, who sits it out, and how many tables still play."""

    round: Round
    tables: Sequence[Table]
    sitting_out: Sequence[str]

    @property
    def playing(self) -> int:
        return sum(table.playing for table in self.tables)

    @property
    def open(self) -> bool:
        return self.round.closed_at is None


@dataclass(frozen=True)
class Player:
    """A club player in the check-in list."""

    member_id: int
    name: str
    guest: bool
    present: bool


@dataclass(frozen=True)
class NightState:
    """The night as its organiser sees it: its rounds, the last one's tables, what comes next."""

    night: Night
    rounds: Sequence[Round]
    current: RoundState | None
    players: Sequence[Player]

    @property
    def played(self) -> int:
        return len(self.rounds)

    @property
    def ended(self) -> bool:
        return self.night.ended_at is not None

    @property
    def all_played(self) -> bool:
        """The planned rounds are all drawn (never, for a night until we stop)."""
        return self.night.rounds is not None and self.played >= self.night.rounds

    @property
    def next_number(self) -> int:
        return self.played + 1

    @property
    def can_draw(self) -> bool:
        """The next round is offered: no round open, or every table of the last one over."""
        if self.ended or self.all_played:
            return False
        return self.current is None or not self.current.open or not self.current.playing

    @property
    def can_close(self) -> bool:
        """Tables of the last round still play: the organiser may close it without them."""
        return self.current is not None and self.current.open and self.current.playing > 0

    @property
    def present(self) -> int:
        return sum(player.present for player in self.players)

    @property
    def enough_present(self) -> bool:
        """Enough players are present for a table (services.draw_round refuses fewer)."""
        return self.present >= SEATS


def _table(
    game: Game, link: ScorerLink | None = None, shown: Mapping[str, str] | None = None
) -> Table:
    summary: Summary = game.summary
    names = [
        shown.get(name_key(name), name) if shown is not None else name for name in summary.names
    ]
    table = game.club_game.table
    assert table is not None  # a round's games are numbered
    return Table(
        number=table,
        public_id=game.public_id,
        players=names,
        first_dealer=game.first_dealer,
        status=summary.status,
        hand=summary.hands + 1,
        leaders=[names[seat] for seat in summary.leaders],
        winner=names[summary.winner] if summary.winner is not None else None,
        link=link,
        final=game.counted if summary.status == "won" else None,  # type: ignore[attr-defined]
    )


def _with_counted(games: QuerySet[Game]) -> QuerySet[Game]:
    """``counted`` on each game: the league counts its result, which it does once final
    (scoring/table/confirming.py), in the games' own query."""
    return games.annotate(counted=Exists(ClubResult.objects.filter(game=OuterRef("pk"))))


def round_state(
    round: Round,
    names: dict[int, str],
    *,
    with_links: bool = False,
    shown: Mapping[str, str] | None = None,
) -> RoundState:
    """A round's tables from their games and summaries (one query; two with the links); the
    players by id in ``names``, and at the tables by key in ``shown`` (None: as seated)."""
    games = _with_counted(
        Game.objects.filter(club_game__round=round)
        .select_related("summary", "club_game")
        .order_by("club_game__table")
    )
    if with_links:
        links = ScorerLink.objects.filter(revoked_at=None).order_by("created_at", "id")
        games = games.prefetch_related(Prefetch("scorer_links", queryset=links))
    tables = [
        _table(game, next(iter(game.scorer_links.all()), None) if with_links else None, shown)
        for game in games
    ]
    return RoundState(round, tables, _sitting_out(round, names))


def _shown(members: Iterable[Member], public: bool) -> dict[str, str]:
    """The members' names by key, as the public or the club's members see them."""
    named = (Named(one.pk, one.key, one.name, one.short_in_public) for one in members)
    return shown_names(named, public=public)


def night_state(night: Night, *, public: bool = False) -> NightState:
    """The night page's facts in four queries: its rounds, the last round's games with their
    summaries, the club's players, and who is present; the players named as the public sees
    them if ``public``."""
    rounds = list(night.round_set.all())
    members = list(Member.objects.filter(club=night.club_id))
    shown = _shown(members, public)
    names = {member.pk: shown[member.key] for member in members}
    checked_in = dict(Attendance.objects.filter(night=night).values_list("member_id", "present"))
    present = {member_id for member_id, here in checked_in.items() if here}
    # A retired player is no tap target, unless he was checked in at this night.
    players = sorted(
        sorted_by_name(
            (
                Player(
                    member.pk,
                    names[member.pk],
                    member.role == Member.Role.GUEST,
                    member.pk in present,
                )
                for member in members
                if member.retired_at is None or member.pk in checked_in
            ),
            lambda player: player.name,
        ),
        key=lambda player: player.guest,
    )
    current = round_state(rounds[-1], names, shown=shown) if rounds else None
    return NightState(night, rounds, current, players)


def night_rounds(night: Night, *, public: bool = False) -> list[RoundState]:
    """Every round of the night with its tables, in three queries whatever their number:
    the rounds, the club's players (named as the public sees them if ``public``), and the
    night's games with their summaries."""
    rounds = list(night.round_set.all())
    names, shown = club_names(night, public=public)
    games: dict[int, list[Table]] = defaultdict(list)
    for game in _with_counted(
        Game.objects.filter(club_game__round__night=night)
        .select_related("summary", "club_game")
        .order_by("club_game__table")
    ):
        round_id = game.club_game.round_id
        assert round_id is not None  # a night's games are a round's
        games[round_id].append(_table(game, shown=shown))
    return [RoundState(one, games[one.pk], _sitting_out(one, names)) for one in rounds]


def _sitting_out(round: Round, names: Mapping[int, str]) -> list[str]:
    """Who sat the round out, by name."""
    return sorted_by_name((names.get(pk, "?") for pk in round.sitting_out), str)


def club_names(night: Night, *, public: bool = False) -> tuple[dict[int, str], dict[str, str]]:
    """The club's players by id, and by key, as the public sees them if ``public``: one
    query."""
    members = list(Member.objects.filter(club=night.club_id))
    shown = _shown(members, public)
    return {member.pk: shown[member.key] for member in members}, shown


def season_of_night(night: Night) -> Season | None:
    """The season whose days hold the night's: where its games count."""
    return Season.objects.filter(
        club=night.club_id, first_day__lte=night.date, last_day__gte=night.date
    ).first()


# The night's money.


@dataclass(frozen=True)
class Balance:
    """A player's money over all his tables of the night."""

    player: str
    member_id: int | None
    value: Decimal
    amount: str
    """``value`` in the club's currency, as the language writes it."""


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    value: Decimal
    amount: str


@dataclass(frozen=True)
class NightMoney:
    """One settlement for the whole night: each player's balance (won games' money, and the
    boulmous paid in games not won), and the payments that settle them all."""

    currency: str
    balances: Sequence[Balance]
    """Largest winner first."""
    payments: Sequence[Payment]
    """By payer, then payee, as the sheet is read."""
    fewest: bool
    """The payments are the fewest possible (always, but for a very large night)."""
    unfinished: int
    """Games of the night not won in which a boulmous was paid: those payments count."""
    elsewhere: int
    """Games played in another currency than the club's, left out."""

    @property
    def about(self) -> str:
        """What the payments are, as the page and the PDF say it."""
        what = gettext(
            "Each player's balance over all his tables of the night, and the payments that"
            " settle them all."
        )
        if self.fewest:
            how = gettext("They are the fewest payments that do.")
        else:
            how = gettext(
                "For a night this large they may not be the fewest, but they are always fewer"
                " than the players who owe or are owed."
            )
        return f"{what} {how}"

    @property
    def notes(self) -> list[str]:
        """The games whose money counts otherwise: not won, or in another currency."""
        notes = []
        if self.unfinished:
            notes.append(
                ngettext(
                    "%(counter)s game of the night not won had a boulmous: as for any game"
                    " not won, only its boulmous payments count.",
                    "%(counter)s games of the night not won had a boulmous: as for any game"
                    " not won, only their boulmous payments count.",
                    self.unfinished,
                )
                % {"counter": self.unfinished}
            )
        if self.elsewhere:
            notes.append(
                ngettext(
                    "%(counter)s game played in another currency is left out.",
                    "%(counter)s games played in another currency are left out.",
                    self.elsewhere,
                )
                % {"counter": self.elsewhere}
            )
        return notes


def night_money(club: Club, night: Night, *, public: bool = False) -> NightMoney | None:
    """The night's money, for a club that plays for stakes (else None), in three queries,
    whatever the number of games: the night's results (ClubResult: each won game's money)
    and the club's players; and, when some game of the night is not won but had a
    boulmous, those games (three more queries, scored by the engine): as a single game's
    settlement does, a game not won settles its boulmous payments alone. Balances are added
    up in the currency's smallest unit and settled by the engine's fewest transfers."""
    if not club.stake:
        return None
    currency = club.currency
    minor: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    elsewhere: set[int] = set()
    rows = ClubResult.objects.filter(club=club, game__club_game__round__night=night)
    for game_id, key, name, value in rows.values_list("game_id", "key", "name", "amount"):
        names.setdefault(key, name)
        if value is None:
            elsewhere.add(game_id)
        else:
            minor[key] += to_minor(value, currency)
    unfinished = 0
    not_won = (
        Game.objects.filter(club_game__round__night=night, hands__bid=BOULMOUS)
        .exclude(summary__status=Summary.Status.WON)
        .distinct()
        .order_by("pk")
    )
    for state in load_games(not_won):
        rules = state.result.rules
        if rules.currency != currency:
            elsewhere.add(state.game.pk)
            continue
        unfinished += 1
        for name, part in zip(state.names, breakdown_of(state.result), strict=True):
            key = name_key(name)
            names.setdefault(key, name)
            # A game not won: the engine's breakdown holds its boulmous payments alone.
            minor[key] += to_minor(amount(part.total, rules.stake, currency), currency)
    members = [Named(*row) for row in Member.objects.filter(club=club).values_list(*NAMED_COLUMNS)]
    shown = shown_names(members, public=public)
    ids = {member.key: member.pk for member in members}
    keys = sorted(minor)
    transfers = fewest_transfers([minor[key] for key in keys])

    def shown_name(key: str) -> str:
        return shown.get(key, names[key])

    def money(units: int) -> tuple[Decimal, str]:
        value = from_minor(units, currency)
        return value, format_money(value, currency)

    by_name = sorted_by_name(keys, shown_name)
    balances = [
        Balance(shown_name(key), ids.get(key), *money(minor[key]))
        for key in sorted(by_name, key=lambda key: -minor[key])
    ]
    payments = sorted(
        (
            Payment(shown_name(keys[one.payer]), shown_name(keys[one.payee]), *money(one.units))
            for one in transfers
        ),
        key=lambda payment: (collation_key(payment.payer), collation_key(payment.payee)),
    )
    return NightMoney(
        currency,
        balances,
        payments,
        settles_exactly([minor[key] for key in keys]),
        unfinished,
        len(elsewhere),
    )
