"""Event seating figures (``make bench``), pure Python, no database.

1. 200 players over 10 rounds seated by the Swiss method round by round, the standings
   moved between rounds by seeded results (each table's league points 3, 2, 1, 0 in a random
   order): each round's time (aim: under 2 s on a machine whose figure is 0.30 s, scaled by
   this machine's figure), its cost (pairs that met, weighed) and spread of ranks.
2. 40 players over 6 rounds seated round by round, by the Swiss method and by the
   no-repeat method (the same standings moved the same way): the largest number of
   meetings of a pair and the pairs meeting more than once, against the night draw's
   (engine/draw.py, the 6 rounds planned at once) for the same players (aim: no more).

Exits 1 when an aim is missed. A figure, not a test.
"""

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.engine.draw import Round, draw, spread  # noqa: E402
from scoring.engine.seating import Seating, seat_round, seating_cost  # noqa: E402
from tests.bench import machine  # noqa: E402

AIM_SWISS_S = 2.0
AIM_MACHINE_S = 0.30
"""The aims are for a machine whose figure (machine.py) is this."""
SEED = 1


def rounds_of(method: str, players: int, rounds: int, seed: int = SEED):
    """Seat ``rounds`` rounds of ``players`` by ``method``, the standings moved by seeded
    results: (each round's seconds, cost key) and the seatings."""
    rng = random.Random(seed)
    league = dict.fromkeys(range(1, players + 1), 0)
    history: list[Seating] = []
    figures = []
    for _ in range(rounds):
        ranking = sorted(league, key=lambda player: (-league[player], player))
        started = time.perf_counter()
        seating = seat_round(method, ranking, history, seed=seed)
        seconds = time.perf_counter() - started
        figures.append((seconds, seating_cost(seating, history, ranking)[:2]))
        history.append(seating)
        for table in seating.tables:
            points = [3, 2, 1, 0]
            rng.shuffle(points)
            for player, won in zip(table, points, strict=True):
                league[player] += won
    return figures, history


def meetings_spread(history) -> tuple[int, int]:
    return spread([Round(seating.tables, seating.sitting_out) for seating in history])


def main() -> None:
    figure = machine.additions_seconds()
    scale = figure / AIM_MACHINE_S
    aim = AIM_SWISS_S * scale
    missed = False
    print(
        f"Event seating (10 million additions in {figure:.2f} s; aims scaled by "
        f"{figure:.2f} / {AIM_MACHINE_S:.2f})"
    )
    figures, _ = rounds_of("swiss", 200, 10)
    slowest = max(seconds for seconds, _ in figures)
    print("  swiss, 200 players x 10 rounds, round by round:")
    for number, (seconds, (cost, spread_sum)) in enumerate(figures, start=1):
        print(f"    round {number:2}: {seconds:5.2f} s, cost {cost}, spread of ranks {spread_sum}")
    print(
        f"  slowest round {slowest:.2f} s (aim: < {AIM_SWISS_S} s at {AIM_MACHINE_S:.2f} s, "
        f"{aim:.2f} s here)" + ("" if slowest < aim else " MISSED")
    )
    missed |= slowest >= aim

    planned = draw(range(1, 41), 6, seed=SEED)
    night = spread(planned)
    print(f"  40 players x 6 rounds: night draw (all rounds at once) {night} (largest, repeated)")
    for method in ("swiss", "no-repeat"):
        figures, history = rounds_of(method, 40, 6)
        seated = meetings_spread(history)
        total = sum(seconds for seconds, _ in figures)
        worse = seated > night
        print(
            f"  {method:9} round by round {seated} in {total:.2f} s "
            f"(aim: no more than the night draw)" + (" MISSED" if worse else "")
        )
        missed |= worse
    print(f"  (10 million additions in {machine.additions_seconds():.2f} s at the end)")
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
