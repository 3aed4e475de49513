"""A request's time budget: work that could outlast the server's worker timeout stops
before it, with a refusal the user can act on, rather than a killed worker and a 500.

gunicorn kills a worker whose request takes more than 30 s (boulmous_site/gunicorn.py),
and the client then gets a 500 (or nginx's 502) with nothing said. The one request that
can take that long is a club's import at its limit on a slow machine (issue 18: 20,000
games took 31 s on a 2-core machine in December 2026). ``settings.IMPORT_SECONDS`` (20
unless the environment says otherwise) leaves room for the commit and the answer."""

import math
import time


class DeadlinePassed(Exception):
    """Work stopped at its deadline, ``share`` of it done (0 to 1); raised inside the
    work's transaction, which rolls back."""

    def __init__(self, seconds: float, share: float) -> None:
        super().__init__(f"{share:.0%} done when {seconds} s had passed")
        self.seconds, self.share = seconds, share

    def part(self, total: int, step: int = 500) -> int:
        """How many of ``total`` items fit in the time, by what was done of them: rounded
        down to ``step``, and ``step`` at least."""
        return max(step, math.floor(total * self.share / step) * step)


class Deadline:
    """The moment by which a piece of work must have stopped, on a monotonic clock."""

    def __init__(self, seconds: float) -> None:
        self.started = time.monotonic()
        self.seconds = seconds

    def check(self, share: float) -> None:
        """Raise :class:`DeadlinePassed` once the time is up, ``share`` of the work done."""
        if time.monotonic() - self.started >= self.seconds:
            raise DeadlinePassed(self.seconds, share)


NO_DEADLINE = Deadline(math.inf)
"""Work outside a request (a command, a test) takes the time it needs."""
