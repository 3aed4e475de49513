"""Table draw figures (``make bench``): the time of a draw for 40 players over 6 rounds
(aim: under 2 s) and for 16 players over 5 rounds (aim: no pair meeting twice, under 5 s),
then for 8 to 40 players over 1 to 6 rounds (seed 0) the largest number of meetings of any
pair and the number of pairs meeting more than once, with the total time.

Pure Python, no database. A figure, not a test.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.engine.draw import Round, draw, spread  # noqa: E402

AIM_40X6_S = 2
AIM_16X5_S = 5
SEEDS = 10


def timed(players: int, rounds: int, seed: int = 0) -> tuple[float, tuple[Round, ...]]:
    start = time.perf_counter()
    planned = draw(range(1, players + 1), rounds, seed=seed)
    return time.perf_counter() - start, planned


def main() -> None:
    for players, rounds, aim in ((40, 6, AIM_40X6_S), (16, 5, AIM_16X5_S)):
        runs = [timed(players, rounds, seed) for seed in range(SEEDS)]
        slowest = max(seconds for seconds, _ in runs)
        spreads = sorted({spread(planned) for _, planned in runs})
        print(
            f"draw {players} x {rounds}: seed 0 {runs[0][0] * 1000:.0f} ms, slowest of "
            f"{SEEDS} seeds {slowest * 1000:.0f} ms (aim < {aim} s); spread {spreads}"
            + (", no pair meets twice" if spreads == [(1, 0)] else "")
        )

    print("\nlargest meetings of a pair / pairs meeting more than once (seed 0)")
    print("players " + "".join(f"{rounds:>7}" for rounds in range(1, 7)) + "   time")
    total = 0.0
    for players in range(8, 41):
        cells, row = [], 0.0
        for rounds in range(1, 7):
            seconds, planned = timed(players, rounds)
            row += seconds
            most, repeated = spread(planned)
            cells.append(f"{most}/{repeated}")
        total += row
        print(f"{players:>7} " + "".join(f"{cell:>7}" for cell in cells) + f" {row:6.2f}s")
    print(f"total {total:.1f} s for {33 * 6} draws")


if __name__ == "__main__":
    main()
