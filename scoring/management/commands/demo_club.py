"""``manage.py demo_club [--games N] [--seed S]``: a public club to try the league with.

Creates, or rebuilds (the old Demo club and its games deleted first), the public club
"Demo" (address ``demo``) with 12 members and two seasons, last season and this one,
then plays N random games through the web's import path (``import_club_records``): the
engine scores every record, refusing any hand the rules do not allow, the rows are
written in bulk and the league is rebuilt once. Hands are random but legal: a taker, a
bid of 3 to 6 (boulmous rare), a trump and six tricks, at times a void deal or an
auction; each game is played until someone wins. Games finish in the evenings, spread
over the days of both seasons up to yesterday, in the club's time zone.

The same seed gives the same club (the same games, hand for hand, and so the same
standings); the seasons' days follow today's date. Its first member, Amina, is its admin,
with the account ``demo-admin`` and a password drawn at each run: the line before the last
says how to log in. The last line printed is the club page's path.
"""

import random
import secrets
import time
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from scoring.management.commands.seed_games import auction

from ...clubs.face import (
    Club,
    ClubResult,
    Member,
    Season,
    add_member,
    create_club,
    create_season,
    import_club_records,
)
from ...engine import (
    BOULMOUS,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    About,
    Contract,
    FailedTaker,
    Hand,
    Record,
    Rules,
    Trump,
    score_hand,
    winner_of,
)
from ...engine.league import DEFAULT_POINTS
from ...table.face import Change, Game, Player, Seat, Summary
from ...table.face import Hand as HandRow

SLUG = "demo"
NAME = "Demo"
TIME_ZONE = "Europe/Paris"
MEMBERS = (
    "Amina",
    "Karim",
    "Yasmine",
    "Mehdi",
    "Leïla",
    "Sofiane",
    "Camille",
    "Julien",
    "Élodie",
    "Thomas",
    "Fatima-Zahra",
    "Hugo",
)
ADMIN = "demo-admin"
"""The account of the club's admin (its first member), made or given a new password by
every run: someone trying the demo can run the club."""
RULES = Rules(
    target=21,
    failed_taker=FailedTaker.TRICKS_MINUS_BID,
    stake=Decimal("0.50"),
    currency="EUR",
)
SEASON_DAYS = 91
"""Thirteen weeks a season."""
INTO_SEASON = 62
"""Today is this many days into this season: its first day is that long ago."""

TRUMPS = tuple(Trump)
VOID_SHARE = 0.07
"""Deals where everyone passed."""
AUCTION_SHARE = 0.2
"""Contracts recorded with their auction, call by call."""
BIDS = range(LOWEST_BID, BOULMOUS + 1)
BID_WEIGHTS = (10, 7, 3, 1)
"""Bids 3, 4, 5 and boulmous (6), the last rare."""
MADE_SHARE = {3: 0.75, 4: 0.65, 5: 0.5, 6: 0.35}
"""How often a contract is made, by bid."""
MAX_HANDS = 200
"""A game not won by then is dealt again (a target of 21 is reached long before)."""
HAND_MINUTES = 4
EVENING = 19
"""Club nights start at 19:00; games finish from 19:30 to 23:30."""


def deal_hand(rng: random.Random, dealer: int) -> Hand:
    """A random legal hand: a void deal, or a contract (with its auction, at times) and
    the tricks each seat won, six in all."""
    if rng.random() < VOID_SHARE:
        return Hand()
    taker = rng.randrange(SEATS)
    bid = rng.choices(BIDS, weights=BID_WEIGHTS)[0]
    if rng.random() < MADE_SHARE[bid]:
        won = rng.choice([bid] * 3 + list(range(bid, TRICKS_PER_HAND + 1)))
    else:
        won = rng.randint(max(0, bid - 3), bid - 1)
    tricks = [0] * SEATS
    tricks[taker] = won
    others = [seat for seat in range(SEATS) if seat != taker]
    for _ in range(TRICKS_PER_HAND - won):
        tricks[rng.choice(others)] += 1
    calls = auction(rng, dealer, taker, bid) if rng.random() < AUCTION_SHARE else None
    contract = Contract(taker=taker, bid=bid, trump=rng.choice(TRUMPS))
    return Hand(contract, tricks=tuple(tricks), calls=calls)


def play_game(rng: random.Random, first_dealer: int, rules: Rules) -> tuple[Hand, ...]:
    """Hands dealt until someone wins, the totals kept by the engine's hand scoring (the
    import scores the whole record again)."""
    while True:
        hands: list[Hand] = []
        totals = [0] * SEATS
        while len(hands) < MAX_HANDS:
            hand = deal_hand(rng, (first_dealer + len(hands)) % SEATS)
            hands.append(hand)
            if hand.contract is not None:
                assert hand.tricks is not None  # a contract has its tricks
                points = score_hand(hand.contract, hand.tricks, rules).points
                totals = [total + point for total, point in zip(totals, points, strict=True)]
                if winner_of(totals, rules.target) is not None:
                    return tuple(hands)


def season_days(today: date) -> list[tuple[date, date]]:
    """Last season's days and this season's, which holds today: thirteen weeks each."""
    this_first = today - timedelta(days=INTO_SEASON)
    last_first = this_first - timedelta(days=SEASON_DAYS)
    return [
        (last_first, this_first - timedelta(days=1)),
        (this_first, this_first + timedelta(days=SEASON_DAYS - 1)),
    ]


def season_name(first: date, last: date) -> str:
    """The season's months, as ``March - May 2025`` writes them (with an en dash), and a
    year on each side when the season straddles two."""
    if first.year == last.year:
        return f"{first:%B} – {last:%B %Y}"
    return f"{first:%B %Y} – {last:%B %Y}"


def demo_records(
    games: int, seed: int, first_day: date, days: int, zone: ZoneInfo, seasons: Sequence[Season]
) -> list[Record]:
    """``games`` random games, finishing in the evenings of the ``days`` days from
    ``first_day``, in order; players drawn from the members."""
    rng = random.Random(seed)
    records = []
    for number in range(games):
        day = first_day + timedelta(days=number * days // games)
        finished = datetime(day.year, day.month, day.day, EVENING, tzinfo=zone) + timedelta(
            minutes=30 + rng.randrange(240)
        )
        first_dealer = rng.randrange(SEATS)
        hands = play_game(rng, first_dealer, RULES)
        started = finished - timedelta(minutes=HAND_MINUTES * len(hands) + rng.randrange(10))
        season = next(
            (season.slug for season in seasons if season.first_day <= day <= season.last_day),
            None,
        )
        records.append(
            Record(
                players=tuple(rng.sample(MEMBERS, SEATS)),
                first_dealer=first_dealer,
                rules=RULES,
                hands=hands,
                about=About(
                    id=f"demo-{seed}-{number + 1:05d}",
                    place=NAME,
                    started_at=started,
                    finished_at=finished,
                    club=NAME,
                    season=season,
                ),
            )
        )
    return records


def analyze() -> None:
    """Fresh planner statistics for the tables just filled, so that the standings' queries
    use their indexes at once rather than when autovacuum comes by. On PostgreSQL, outside
    a transaction, the tables are vacuumed too, as autovacuum would leave them once settled:
    the rows of a demo club replaced are gone, and its new rows are known visible, so an
    index answers alone."""
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        for model in (Player, Game, Seat, HandRow, Change, Summary, Member, ClubResult):
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"VACUUM ANALYZE {table}" if vacuum else f"ANALYZE {table}")


def admin_account() -> tuple[AbstractBaseUser, str]:
    """The demo's admin account and a new password for it, drawn for this run."""
    user, _ = get_user_model().objects.get_or_create(username=ADMIN)
    password = secrets.token_urlsafe(12)
    user.set_password(password)
    user.save(update_fields=["password"])
    return user, password


class Command(BaseCommand):
    help = (
        'Create, or rebuild, the public club "Demo" (/clubs/demo/): 12 members, two seasons '
        "and GAMES random games played until won, every hand checked by the engine, written "
        "through the club import. The same seed gives the same club. Prints the club page's "
        "path last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200, help="how many games (200)")
        parser.add_argument(
            "--seed", type=int, default=0, help="the random deal's seed (0 unless given)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games: int = options["games"]
        seed: int = options["seed"]
        if games < 0:
            raise CommandError(f"--games {games}: give 0 or more")
        started = time.perf_counter()
        zone = ZoneInfo(TIME_ZONE)
        today = timezone.localdate(timezone=zone)
        with transaction.atomic():
            old = Club.objects.filter(slug=SLUG).first()
            if old is not None:
                # The games first, in batches: the club's cascade would collect them all.
                ids = list(old.club_games.values_list("game_id", flat=True))
                for first in range(0, len(ids), 2000):
                    Game.objects.filter(pk__in=ids[first : first + 2000]).delete()
                old.delete()
                self.stdout.write(f"deleted the old {NAME} club and its {len(ids)} games")
            admin, password = admin_account()
            club = create_club(
                name=NAME,
                slug=SLUG,
                time_zone=TIME_ZONE,
                rules=RULES,
                points=DEFAULT_POINTS,
                public=True,
                invite_admits=False,
                admin_user_id=admin.pk,
                admin_name=MEMBERS[0],
            )
            for name in MEMBERS[1:]:
                add_member(club=club, name=name)
            seasons = [
                create_season(
                    club=club,
                    name=season_name(first, last),
                    slug=slugify(season_name(first, last)),
                    first_day=first,
                    last_day=last,
                    points=DEFAULT_POINTS,
                )
                for first, last in season_days(today)
            ]
            first_day = seasons[0].first_day
            records = demo_records(games, seed, first_day, (today - first_day).days, zone, seasons)
            dealt = time.perf_counter()
            import_club_records(club=club, records=records, owner_id=None)
        if games:
            analyze()
        done = time.perf_counter()
        hands = sum(len(record.hands) for record in records)
        self.stdout.write(
            f"created the public club {NAME}: {len(MEMBERS)} members, seasons "
            + " and ".join(season.name for season in seasons)
        )
        self.stdout.write(
            f"played {games} games, {hands} hands in {done - started:.1f} s "
            f"(dealt in {dealt - started:.1f} s, written and rated in {done - dealt:.1f} s)"
        )
        self.stdout.write(
            f"its admin, {MEMBERS[0]}: log in at {reverse('login')} as {ADMIN} "
            f"with the password {password}"
        )
        self.stdout.write(reverse("club", args=[SLUG]))
