"""How fast this machine runs Python now, printed beside a bench's figures.

The machines the benches run on differ, and one machine's speed moves with its host's
load, and every figure of a bench with it. Printed beside them, it says which machine a
figure came from, so that figures of two sessions are not compared as if the code alone
had changed. The loop runs in a function, on local names: 0.36-0.61 s on stop 31's
machine. The notes of stops 29 and 30 timed the same loop at a module's top level, about
2.7 times slower (1.37-1.43 s there when this one took 0.48-0.56 s): 0.64-0.70 s on stop
29's machine, 0.94-1.17 s on stop 30's.
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
