"""``manage.py seed_games --games N --hands M [--seed S]``: N games of M random hands each,
for load tests and for trying the site with a full database.

Deals come from a seeded ``random.Random``: the same seed gives the same games, hand for
hand. Every hand is checked by the engine as the site reads it back: the rows made are
read into a record as ``scoring.state`` reads stored rows, that record must give the
hands dealt, and its score gives the game's summary row (``summary_of``). Targets are
out of reach (so a game takes its M hands), except for about a third of the games, which
are won at their last hand where the deal allows it. Rows are written in bulk, a batch of
games in one transaction.
"""

import random
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from scoring.engine import (
    BOULMOUS,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    Call,
    Contract,
    FailedTaker,
    GameResult,
    Hand,
    Rules,
    Trump,
    score_game,
    speaking_order,
)
from scoring.forms import MAX_HANDS
from scoring.models import Change, Game, Player, Seat, Summary, name_key
from scoring.models import Hand as HandRow
from scoring.state import GameState, columns, record_of, snapshot, summary_of

BATCH = 500
"""Games written per transaction."""
OPEN_TARGET = 1000
"""The target of a game not meant to be won, unless more hands could reach it."""
WON_SHARE = 1 / 3
"""The share of games ended at their last hand, where the deal allows it."""
MAX_WON_TARGET = 999
"""The highest target the new-game form takes."""
ROWS_PER_INSERT = 2000
HAND_TIME = timedelta(minutes=3)
YEAR = timedelta(days=365)

_FIRST_NAMES = """
Amina Bilal Chafik Dalila Elyes Farah Ghassen Hela Imed Jihene Karim Leila Mehdi Nadia
Omar Rania Sami Tarek Wafa Yassine Zied Anis Bochra Hamza Ines Khalil Lina Marwen Nour
Oussama Rim Salma Walid Yosra Aziz Emna Fares Hiba Malek Skander Ahmed Fatma Hedi
Mariem Slim Sonia Chokri Dorra Mourad Olfa
"""
FIRST_NAMES = _FIRST_NAMES.split()
INITIALS = ("B.", "K.", "M.", "T.")
NAME_POOL = tuple(f"{first} {initial}" for first in FIRST_NAMES for initial in INITIALS)
"""Two hundred names, four of them at each table."""

TRUMPS = tuple(Trump)
VOID_SHARE = 0.08
"""Deals where everyone passed."""
AUCTION_SHARE = 0.15
"""Contracts recorded with their auction, call by call."""


def deal_hand(rng: random.Random, dealer: int) -> Hand:
    """A random hand: a void deal, or a contract (with its auction, at times) and its tricks."""
    if rng.random() < VOID_SHARE:
        return Hand()
    taker = rng.randrange(SEATS)
    bid = rng.choices(range(LOWEST_BID, BOULMOUS + 1), weights=(5, 4, 2, 1))[0]
    contract = Contract(taker=taker, bid=bid, trump=rng.choice(TRUMPS))
    # The taker makes his bid more often than not; the others share what he leaves.
    won = max(0, min(TRICKS_PER_HAND, bid + rng.choice((-2, -1, -1, 0, 0, 0, 0, 1, 1, 2))))
    tricks = [0] * SEATS
    tricks[taker] = won
    others = [seat for seat in range(SEATS) if seat != taker]
    for _ in range(TRICKS_PER_HAND - won):
        tricks[rng.choice(others)] += 1
    calls = auction(rng, dealer, taker, bid) if rng.random() < AUCTION_SHARE else None
    return Hand(contract, tricks=tuple(tricks), calls=calls)


def auction(rng: random.Random, dealer: int, taker: int, bid: int) -> tuple[Call, ...]:
    """Calls in speaking order that give ``taker`` the contract at ``bid``: lower bids
    before his, at times, and passes after."""
    calls: list[Call] = []
    highest = LOWEST_BID - 1
    seen_taker = False
    for seat in speaking_order(dealer):
        if seat == taker:
            calls.append(bid)
            seen_taker = True
        elif not seen_taker and highest + 1 < bid and rng.random() < 0.3:
            highest = rng.randint(highest + 1, bid - 1)
            calls.append(highest)
        else:
            calls.append(None)
    return tuple(calls)


def winning_target(result: GameResult) -> int | None:
    """A target at which this game is won at its last hand, and not before: the last
    hand's top total, when one player alone holds it and no earlier hand reached it."""
    if not result.hands:
        return None
    last = result.hands[-1].totals
    top = max(last)
    if not 1 <= top <= MAX_WON_TARGET or last.count(top) > 1:
        return None
    for earlier in result.hands[:-1]:
        if max(earlier.totals) >= top and earlier.totals.count(max(earlier.totals)) == 1:
            return None
    return top


class Seeded:
    """One game's rows, made and checked, not yet written."""

    def __init__(
        self,
        rng: random.Random,
        players: Sequence[Player],
        hands: int,
        started: datetime,
    ) -> None:
        first_dealer = rng.randrange(SEATS)
        failed_taker = rng.choice((FailedTaker.TRICKS_MINUS_BID, FailedTaker.MINUS_BID))
        stake = rng.choice((Decimal(0), Decimal(0), Decimal("0.5"), Decimal(1)))
        dealt = tuple(deal_hand(rng, (first_dealer + index) % SEATS) for index in range(hands))
        # A player scores at most six points a hand: this target is out of reach.
        out_of_reach = max(OPEN_TARGET, TRICKS_PER_HAND * hands + 1)
        open_rules = Rules(target=out_of_reach, failed_taker=failed_taker, stake=stake)
        target = out_of_reach
        if rng.random() < WON_SHARE:
            won_at = winning_target(score_game(dealt, first_dealer=first_dealer, rules=open_rules))
            target = won_at or out_of_reach
        names = tuple(player.name for player in players)
        self.game = Game(
            first_dealer=first_dealer,
            target=target,
            failed_taker=failed_taker.value,
            stake=stake,
            currency="EUR",
            created_at=started,
        )
        self.seats = [
            Seat(game=self.game, position=position, player=player)
            for position, player in enumerate(players)
        ]
        moments = [started + HAND_TIME * number for number in range(1, hands + 1)]
        self.hands = [
            HandRow(game=self.game, number=number, recorded_at=moment, **columns(hand))
            for number, (hand, moment) in enumerate(zip(dealt, moments, strict=True), start=1)
        ]
        # The rows as the site reads them back must be the hands dealt, and their score
        # (which refuses any hand the rules do not allow) gives the summary.
        record = record_of(self.game, names, self.hands)
        if record.hands != dealt:
            raise CommandError("a hand does not read back as it was dealt")
        result = record.score()
        if (target != out_of_reach) != (result.winner is not None):
            raise CommandError(f"a game with target {target} did not end as meant")
        state = GameState(self.game, names, tuple(self.hands), record, result)
        changed = moments[-1] if moments else started
        self.summary = Summary(game=self.game, changed_at=changed, **summary_of(state))
        self.changes = [Change(game=self.game, action=Change.Action.CREATED, at=started)] + [
            Change(
                game=self.game,
                action=Change.Action.RECORDED,
                hand_number=number,
                after=snapshot(hand),
                at=moment,
            )
            for number, (hand, moment) in enumerate(zip(dealt, moments, strict=True), start=1)
        ]


def pool_players() -> list[Player]:
    """The players of the name pool, created where new."""
    keys = {name_key(name): name for name in NAME_POOL}
    Player.objects.bulk_create(
        [Player(name=name, key=key) for key, name in keys.items()], ignore_conflicts=True
    )
    found = {player.key: player for player in Player.objects.filter(key__in=keys)}
    return [found[name_key(name)] for name in NAME_POOL]


def write(batch: Sequence[Seeded]) -> None:
    """A batch of games and all their rows, in one transaction."""
    with transaction.atomic():
        Game.objects.bulk_create([seeded.game for seeded in batch], batch_size=ROWS_PER_INSERT)
        Seat.objects.bulk_create(
            [seat for seeded in batch for seat in seeded.seats], batch_size=ROWS_PER_INSERT
        )
        HandRow.objects.bulk_create(
            [hand for seeded in batch for hand in seeded.hands], batch_size=ROWS_PER_INSERT
        )
        Change.objects.bulk_create(
            [change for seeded in batch for change in seeded.changes],
            batch_size=ROWS_PER_INSERT,
        )
        Summary.objects.bulk_create(
            [seeded.summary for seeded in batch], batch_size=ROWS_PER_INSERT
        )


class Command(BaseCommand):
    help = (
        "Fill the database with GAMES games of HANDS random hands each (a seeded random "
        "deal, every hand checked by the engine), written in bulk. Prints games, hands, seconds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True, help="how many games")
        parser.add_argument("--hands", type=int, required=True, help="hands in each game")
        parser.add_argument(
            "--seed", type=int, default=0, help="the random deal's seed (0 unless given)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games: int = options["games"]
        hands: int = options["hands"]
        if games < 1:
            raise CommandError(f"--games {games}: give 1 or more")
        if not 0 <= hands <= MAX_HANDS:
            raise CommandError(f"--hands {hands}: give 0 to {MAX_HANDS}")
        started = time.perf_counter()
        rng = random.Random(options["seed"])
        players = pool_players()
        # Games started over the last year, oldest first, each hand three minutes after the
        # one before: the last one is recorded before now.
        end = timezone.now() - HAND_TIME * (hands + 1)
        batch: list[Seeded] = []
        for index in range(games):
            begun = end - YEAR + YEAR * index / games
            batch.append(Seeded(rng, rng.sample(players, SEATS), hands, begun))
            if len(batch) == BATCH:
                write(batch)
                batch = []
        if batch:
            write(batch)
        seconds = time.perf_counter() - started
        self.stdout.write(f"seeded {games} games, {games * hands} hands in {seconds:.1f} s")
