"""``manage.py seed_games --games N --hands M [--seed S]``: N games of M random hands each,
for load tests and for trying the site with a full database.

Deals come from seeded ``random.Random`` generators (one per batch of games): the same
seed gives the same games, hand for hand. Every game's record is scored by the engine,
which refuses any hand the rules do not allow, and its summary row is ``summary_of`` that
result; hands are stored as ``scoring.state.columns`` gives them. Targets are out of
reach (so a game takes its M hands), except for about a third of the games, which are won
at their last hand where the deal allows it. Rows are written with ``bulk_create``, a
batch of games in one transaction; on PostgreSQL, one process per CPU core deals and
writes batches at once. The tables are analysed at the end, for the query planner.
"""

import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections, transaction
from django.utils import timezone

from ...common.forms import MAX_HANDS
from ...common.names import name_key
from ...engine import (
    BOULMOUS,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    Call,
    Contract,
    FailedTaker,
    GameResult,
    Hand,
    Record,
    Rules,
    Trump,
    score_game,
    speaking_order,
)
from ...table.face import (
    Change,
    Game,
    GameState,
    Player,
    Seat,
    Summary,
    columns,
    rules_columns,
    snapshot,
    summary_of,
)
from ...table.face import Hand as HandRow

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


@dataclass(frozen=True)
class Dealt:
    """One game as dealt and scored by the engine, not yet written."""

    names: tuple[str, ...]
    player_ids: tuple[int, ...]
    record: Record
    result: GameResult
    started: datetime

    @property
    def moments(self) -> list[datetime]:
        """When each hand was recorded: three minutes after the one before."""
        return [
            self.started + HAND_TIME * number for number in range(1, len(self.record.hands) + 1)
        ]


def deal_game(
    rng: random.Random, players: Sequence[Player], hands: int, started: datetime
) -> Dealt:
    """A random game of ``hands`` hands, scored by the engine, which refuses any hand the
    rules do not allow. About a third of the games are won at their last hand, where the
    deal allows it; the others have a target out of reach."""
    first_dealer = rng.randrange(SEATS)
    failed_taker = rng.choice((FailedTaker.TRICKS_MINUS_BID, FailedTaker.MINUS_BID))
    stake = rng.choice((Decimal(0), Decimal(0), Decimal("0.50"), Decimal("1.00")))
    dealt = tuple(deal_hand(rng, (first_dealer + index) % SEATS) for index in range(hands))
    # A player scores at most six points a hand.
    out_of_reach = max(OPEN_TARGET, TRICKS_PER_HAND * hands + 1)
    rules = Rules(target=out_of_reach, failed_taker=failed_taker, stake=stake)
    if rng.random() < WON_SHARE:
        target = winning_target(score_game(dealt, first_dealer=first_dealer, rules=rules))
        if target is not None:
            rules = replace(rules, target=target)
    names = tuple(player.name for player in players)
    record = Record(players=names, first_dealer=first_dealer, rules=rules, hands=dealt)
    result = record.score()
    if (rules.target != out_of_reach) != (result.winner is not None):
        raise CommandError(f"a game with target {rules.target} did not end as meant")
    return Dealt(names, tuple(player.pk for player in players), record, result, started)


def write(batch: Sequence[Dealt]) -> None:
    """A batch of games and all their rows, in one transaction: the hands as
    ``columns`` gives them, the history as the services write it, and each summary as
    ``summary_of`` makes it from the engine's result."""
    with transaction.atomic():
        games = Game.objects.bulk_create(
            [
                Game(
                    first_dealer=dealt.record.first_dealer,
                    **rules_columns(dealt.record.rules),
                    created_at=dealt.started,
                    # When it was won: its last hand's moment, kept through corrections.
                    finished_at=dealt.moments[-1]
                    if dealt.result.finished and dealt.moments
                    else None,
                )
                for dealt in batch
            ],
            batch_size=ROWS_PER_INSERT,
        )
        seats: list[Seat] = []
        hands: list[HandRow] = []
        changes: list[Change] = []
        summaries: list[Summary] = []
        for game, dealt in zip(games, batch, strict=True):
            seats += (
                Seat(game_id=game.pk, position=position, player_id=player_id)
                for position, player_id in enumerate(dealt.player_ids)
            )
            moments = dealt.moments
            rows = tuple(
                HandRow(game_id=game.pk, number=number, recorded_at=moment, **columns(hand))
                for number, (hand, moment) in enumerate(
                    zip(dealt.record.hands, moments, strict=True), start=1
                )
            )
            hands += rows
            changes.append(Change(game_id=game.pk, action=Change.Action.CREATED, at=dealt.started))
            changes += (
                Change(
                    game_id=game.pk,
                    action=Change.Action.RECORDED,
                    hand_number=number,
                    after=snapshot(hand),
                    at=moment,
                )
                for number, (hand, moment) in enumerate(
                    zip(dealt.record.hands, moments, strict=True), start=1
                )
            )
            state = GameState(game, dealt.names, rows, dealt.record, dealt.result)
            summaries.append(
                Summary(
                    game_id=game.pk,
                    changed_at=moments[-1] if moments else dealt.started,
                    **summary_of(state),
                )
            )
        Seat.objects.bulk_create(seats, batch_size=ROWS_PER_INSERT)
        HandRow.objects.bulk_create(hands, batch_size=ROWS_PER_INSERT)
        Change.objects.bulk_create(changes, batch_size=ROWS_PER_INSERT)
        Summary.objects.bulk_create(summaries, batch_size=ROWS_PER_INSERT)


def pool_players() -> list[Player]:
    """The players of the name pool, created where new."""
    keys = {name_key(name): name for name in NAME_POOL}
    Player.objects.bulk_create(
        [Player(name=name, key=key) for key, name in keys.items()], ignore_conflicts=True
    )
    found = {player.key: player for player in Player.objects.filter(key__in=keys)}
    return [found[name_key(name)] for name in NAME_POOL]


@dataclass(frozen=True)
class Plan:
    """What to seed, shared by every batch."""

    games: int
    hands: int
    seed: int
    players: list[Player]
    end: datetime
    """When the last game started: games start over the year before, oldest first."""


def seed_batch(plan: Plan, index: int) -> None:
    """Batch ``index``: its games dealt from their own seeded generator, so that the same
    seed gives the same games however many processes share the work."""
    rng = random.Random(f"{plan.seed}/{index}")
    first = index * BATCH
    batch = [
        deal_game(
            rng,
            rng.sample(plan.players, SEATS),
            plan.hands,
            plan.end - YEAR + YEAR * number / plan.games,
        )
        for number in range(first, min(first + BATCH, plan.games))
    ]
    write(batch)


def seed_batches(plan: Plan, indexes: Sequence[int]) -> None:
    """Some of the batches, in a process of their own, on a connection of its own."""
    try:
        for index in indexes:
            seed_batch(plan, index)
    finally:
        connections.close_all()


def analyze() -> None:
    """Fresh planner statistics for the tables just filled: until autovacuum comes by, the
    planner would take them for as small as they were (and PostgreSQL then walks a whole
    index for the home page's list)."""
    with connection.cursor() as cursor:
        for model in (Player, Game, Seat, HandRow, Change, Summary):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def default_jobs() -> int:
    """A process per CPU core this one may use, on PostgreSQL; one elsewhere (SQLite
    takes one writer at a time)."""
    if connection.vendor != "postgresql":
        return 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


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
        parser.add_argument(
            "--jobs",
            type=int,
            help="processes dealing and writing batches at once (PostgreSQL only): "
            "the CPU cores usable, unless given; 1 on other databases",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games: int = options["games"]
        hands: int = options["hands"]
        jobs: int | None = options["jobs"]
        if games < 1:
            raise CommandError(f"--games {games}: give 1 or more")
        if not 0 <= hands <= MAX_HANDS:
            raise CommandError(f"--hands {hands}: give 0 to {MAX_HANDS}")
        if jobs is not None and jobs < 1:
            raise CommandError(f"--jobs {jobs}: give 1 or more")
        started = time.perf_counter()
        plan = Plan(
            games=games,
            hands=hands,
            seed=options["seed"],
            players=pool_players(),
            # The last hand of the last game is recorded a few minutes ago.
            end=timezone.now() - HAND_TIME * (hands + 1),
        )
        batches = range((games + BATCH - 1) // BATCH)
        jobs = min(jobs or default_jobs(), len(batches))
        if jobs > 1 and connection.vendor != "postgresql":
            raise CommandError(f"--jobs {jobs}: only PostgreSQL takes writes from many processes")
        if jobs == 1:
            for index in batches:
                seed_batch(plan, index)
        else:
            # Each process opens its own connection: none is shared across the fork.
            connections.close_all()
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                shares = [batches[job::jobs] for job in range(jobs)]
                for done in [pool.submit(seed_batches, plan, share) for share in shares]:
                    done.result()
        analyze()
        seconds = time.perf_counter() - started
        self.stdout.write(f"seeded {games} games, {games * hands} hands in {seconds:.1f} s")
