"""How fast this machine runs Python now, printed beside a bench's figures.

The machines the benches run on differ, and one machine's speed moves with its host's
load: a loop of 10 million additions took 0.64-0.70 s on one session's machine and
0.94-1.51 s on later ones, and every figure of a bench moved with it. Printed beside
them, it says which machine a figure came from, so that figures of two sessions are not
compared as if the code alone had changed.
"""

import time

ADDITIONS = 10_000_000


def additions_seconds(runs: int = 3) -> float:
    """The fastest of ``runs`` loops of ADDITIONS additions in this interpreter, in seconds."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        total = 0
        for number in range(ADDITIONS):
            total += number
        best = min(best, time.perf_counter() - started)
    return best


def described() -> str:
    return f"10 million additions in {additions_seconds():.2f} s"
