"""A federation's ranking (``make bench``): 20 clubs, 100,000 counted games in their nights
over three and a half years, 400 accounts playing in one to three clubs each; the ranking
read as its page reads it (``federation_ranking``), its seconds over 3 runs (aim: under
10 s on a machine whose 10 million additions take 0.30 s, scaled by this machine's figure,
tests/bench/machine.py). Exit 1 when missed.

The rows the ranking reads (nights, rounds, club games and the league's ClubResult rows)
are written in bulk, as a club's import would leave them, without scoring each game: the
ranking reads those rows only, and a bench is a figure, not a test (tests/clubs/
test_federation.py holds the ranking to an independent computation).

On the database ``DATABASE_URL`` names (migrated first), else on a throwaway SQLite
database.
"""

import os
import random
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import machine  # noqa: E402 (the project's root on the path first)

CLUBS = 20
GAMES = 100_000
ACCOUNTS = 400
MEMBERS = 60
"""Players of each club, some of them accounts."""
ROUNDS, TABLES = 4, 4
"""A night's rounds and tables: 16 games a night."""
DAYS = 1_300
"""Nights from this many days ago to today: some beyond the 1,095 days that count."""
AIM_S = 10.0
AIM_MACHINE_S = 0.30
RUNS = 3
SEED = 1


def setup_django(folder: Path) -> str:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'bench.sqlite3'}")
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.pop("DEBUG", None)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    return str(connection.vendor)


def build(today: date):
    """The federation and its clubs' rows; its seconds."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring.clubs.federation import services as federation_services
    from scoring.clubs.models import Club, ClubGame, ClubResult, Member, Night, Round
    from scoring.engine.names import name_key
    from scoring.table.face import Game

    rng = random.Random(SEED)
    users = get_user_model().objects
    users.filter(username__startswith="fed-bench-").delete()
    Club.objects.filter(slug__startswith="fed-bench-").delete()
    accounts = users.bulk_create(
        [get_user_model()(username=f"fed-bench-{number}") for number in range(ACCOUNTS)]
    )
    federation = federation_services.create_federation(
        name="Bench", slug="fed-bench", public=True, admin_user_id=accounts[0].pk
    )
    per_club = GAMES // CLUBS
    nights_per_club = per_club // (ROUNDS * TABLES)
    with transaction.atomic():
        for number in range(CLUBS):
            club = Club.objects.create(name=f"Club {number:02}", slug=f"fed-bench-{number}")
            federation_services.invite_club(federation=federation, club=club)
            federation_services.answer_invitation(club=club, federation=federation, accept=True)
            users_here = rng.sample(accounts, MEMBERS // 2)
            names = [f"Player {number}-{index}" for index in range(MEMBERS)]
            Member.objects.bulk_create(
                Member(
                    club=club,
                    name=name,
                    key=name_key(name),
                    user=users_here[index] if index < len(users_here) else None,
                )
                for index, name in enumerate(names)
            )
            nights = Night.objects.bulk_create(
                Night(club=club, date=today - timedelta(days=rng.randrange(DAYS)))
                for _ in range(nights_per_club)
            )
            rounds = Round.objects.bulk_create(
                Round(night=night, number=one, tables=[], sitting_out=[])
                for night in nights
                for one in range(1, ROUNDS + 1)
            )
            games = Game.objects.bulk_create(
                Game(first_dealer=0, finished_at=datetime.now(UTC))
                for _ in range(len(rounds) * TABLES)
            )
            ClubGame.objects.bulk_create(
                ClubGame(game=game, club=club, round=rounds[index // TABLES], table=index % 4 + 1)
                for index, game in enumerate(games)
            )
            results = []
            for index, game in enumerate(games):
                night = rounds[index // TABLES].night
                finished = datetime(
                    night.date.year, night.date.month, night.date.day, 20, tzinfo=UTC
                )
                seated = rng.sample(names, 4)
                totals = [rng.randrange(-5, 30) for _ in range(4)]
                for seat, name in enumerate(seated):
                    rank = 1 + sum(other > totals[seat] for other in totals)
                    results.append(
                        ClubResult(
                            club=club,
                            game=game,
                            seat=seat,
                            position=index + 1,
                            finished_at=finished,
                            key=name_key(name),
                            name=name,
                            rank=rank,
                            total=totals[seat],
                            won=rank == 1 and seat == totals.index(max(totals)),
                            mu=25.0,
                            sigma=25 / 3,
                        )
                    )
            ClubResult.objects.bulk_create(results, batch_size=5_000)
    return federation


def main() -> None:
    started = time.perf_counter()
    figure = machine.additions_seconds()
    aim = AIM_S * figure / AIM_MACHINE_S
    with tempfile.TemporaryDirectory(prefix="boulmous-bench-") as folder:
        vendor = setup_django(Path(folder))
        from django.utils import timezone

        from scoring.clubs.federation.ranking import federation_ranking

        today = timezone.now().date()
        print(
            f"Federation, {vendor}, {CLUBS} clubs, {GAMES} games "
            f"(10 million additions in {figure:.2f} s)"
        )
        building = time.perf_counter()
        federation = build(today)
        print(f"  rows written in bulk: {time.perf_counter() - building:.1f} s")
        timings = []
        for _ in range(RUNS):
            begun = time.perf_counter()
            ranking = federation_ranking(federation, today)
            timings.append(time.perf_counter() - begun)
        best = min(timings)
        print(
            f"  ranking: {best:.2f} s best of {RUNS} ({', '.join(f'{t:.2f}' for t in timings)});"
            f" {len(ranking.entries)} players ranked, {ranking.nights} nights counted"
        )
        print(
            f"  (aim: < {AIM_S:.0f} s at {AIM_MACHINE_S:.2f} s, so < {aim:.1f} s on this machine"
            f" at {figure:.2f} s)"
        )
    print(f"\n({time.perf_counter() - started:.1f} s)")
    if best >= aim:
        sys.exit(1)


if __name__ == "__main__":
    main()
