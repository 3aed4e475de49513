"""The night's money figures (``make bench``): the time to settle a club night's balances
with the fewest transfers (scoring/engine/settlement.py), for 200 players (the draw's
MAX_PLAYERS: aim well under a second, here 0.2 s for the slowest night), and the exact
split at its limit (EXACT_LIMIT balances left once opposites are paired off). Each night's
balances come from random games of four at a 0.50 stake, in cents, over 6 rounds; the
figure is the slowest of the nights drawn. Exits 1 on a missed aim.

Pure Python, no database. A figure, not a test.
"""

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.engine import EXACT_LIMIT, fewest_transfers, settles_exactly  # noqa: E402

AIM_S = 0.2
NIGHTS = 50
STAKE_CENTS = 50


def night(players: int, rounds: int, rng: random.Random) -> list[int]:
    """Each player's balance in cents: per table, a winner collecting 3 stakes and a few
    boîtes and boulmous, the way a game's money goes."""
    balances = [0] * players
    for _ in range(rounds):
        seats = list(range(players))
        rng.shuffle(seats)
        for table in range(players // 4):
            four = seats[4 * table : 4 * table + 4]
            units = [0] * 4
            winner = rng.randrange(4)
            for seat in range(4):
                if seat != winner:
                    paid = 1 + rng.choice((0, 0, 0, 1, 2))
                    units[seat] -= paid
                    units[winner] += paid
            for seat, unit in zip(four, units, strict=True):
                balances[seat] += unit * STAKE_CENTS
    return balances


def timed(balances: list[int]) -> tuple[float, int]:
    start = time.perf_counter()
    transfers = fewest_transfers(balances)
    return time.perf_counter() - start, len(transfers)


def main() -> int:
    rng = random.Random(0)
    missed = False
    for players, rounds in ((200, 6), (40, 6), (16, 4)):
        runs = []
        for _ in range(NIGHTS):
            balances = night(players, rounds, rng)
            seconds, count = timed(balances)
            owing = sum(1 for balance in balances if balance)
            runs.append((seconds, count, owing, settles_exactly(balances)))
        slowest = max(run[0] for run in runs)
        exact = sum(run[3] for run in runs)
        print(
            f"{players} players x {rounds} rounds, {NIGHTS} nights: slowest {slowest * 1000:.1f} ms"
            f" (aim < {AIM_S * 1000:.0f} ms), payments {min(r[1] for r in runs)}-"
            f"{max(r[1] for r in runs)} for {min(r[2] for r in runs)}-{max(r[2] for r in runs)}"
            f" players owing or owed; exact minimum on {exact} of {NIGHTS}"
        )
        missed |= slowest >= AIM_S
    # The exact split at its limit: EXACT_LIMIT balances, none cancelling out with another.
    limit = [*range(1, EXACT_LIMIT), -sum(range(1, EXACT_LIMIT))]
    seconds, count = timed(limit)
    print(
        f"exact split of {EXACT_LIMIT} balances: {seconds * 1000:.1f} ms, {count} payments"
        f" (aim < {AIM_S * 1000:.0f} ms)"
    )
    missed |= seconds >= AIM_S
    if missed:
        print("aim missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
