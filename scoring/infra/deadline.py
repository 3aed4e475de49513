"""A request's time budget: work that would outlast the server's worker timeout is refused
with a message the user can act on, as early as that can be told, rather than killed with
a 500.

gunicorn kills a worker whose request takes more than 30 s (boulmous_site/gunicorn.py),
and the client then gets a 500 (or nginx's 502) with nothing said. The one request that
can take that long is a club's import at its limit on a slow machine (issue 18: 20,000
games took 31 s on a 2-core machine in December 2026, and were answered 500).

The work says how far it has got, as the share of its whole time that is done (the import
knows its phases' shares from tests/bench/bench_import.py). From that share and the time
spent, :meth:`Deadline.check` projects the whole: the time spent, and the rest at the more
hopeful of two paces, that of all the work done and that of its latest half. Past
``settings.IMPORT_SECONDS`` (25 unless the environment says otherwise), the work stops
there, before it has spent the rest. A 20,000-game import on that machine is refused a
second or two into its reading.

Two paces, because each is wrong in its own way. Work starts slower than it goes on (a
worker's first import reads every hand afresh, then meets most of them again): from the
start alone, 20,000 games were refused a second into their reading on a machine that
imports them in 17 s (stop 33). And a step may take more than its share of the time (on
SQLite, writing the games): its pace alone, taken for the rest, refuses what fits. Work
that both paces say will not end in time is refused; work they disagree on goes on, and
is checked again at its next step.
"""

import bisect
import math
import time

FIRST_PROJECTION = 0.05
"""The share done before the whole is projected from it: before, a pause of the machine
weighs too much. Until then, only the time itself counts."""


MARGIN = 0.8
"""The share of what would just fit that a refusal suggests doing at once."""


class DeadlinePassed(Exception):
    """Work stopped because it would not end in time: ``fits`` is the share of it that
    would (0 to 1). Raised inside the work's transaction, which rolls back."""

    def __init__(self, seconds: float, fits: float) -> None:
        super().__init__(f"{fits:.0%} of the work fits in {seconds} s")
        self.seconds, self.fits = seconds, fits

    def part(self, total: int, step: int = 500) -> int:
        """How many of ``total`` items to do at once so that they end in time: four fifths
        of what would just fit (a projection is no promise), rounded down to ``step``, and
        ``step`` at least."""
        return max(step, math.floor(total * self.fits * MARGIN / step) * step)


class Deadline:
    """The seconds a piece of work may take in all, on a monotonic clock."""

    def __init__(self, seconds: float) -> None:
        self.started = self.paced_from = time.monotonic()
        self.seconds = seconds
        self.marks: list[tuple[float, float]] = [(0.0, 0.0)]
        """Each check's share done and seconds since :meth:`begin`, in order."""

    def begin(self) -> None:
        """The work whose shares :meth:`check` is told starts now: the time before (a
        request's upload read, say) is counted once, not projected."""
        self.paced_from = time.monotonic()
        self.marks = [(0.0, 0.0)]

    def check(self, share: float) -> None:
        """Raise :class:`DeadlinePassed` when the time is up, or when the work, ``share`` of
        it done (0 to 1), will take longer in all at the pace it goes."""
        if self.seconds == math.inf:  # NO_DEADLINE, shared: nothing to keep or project
            return
        now = time.monotonic()
        before, paced = self.paced_from - self.started, now - self.paced_from
        pace = self._pace(share, paced)
        self.marks.append((share, paced))
        if share < FIRST_PROJECTION:
            # Too early to tell: the time so far, less than all of it; what was done in it
            # is what fits.
            if before + paced >= self.seconds:
                raise DeadlinePassed(self.seconds, share)
            return
        projected = before + paced + (1 - share) * min(pace, paced / share)
        if projected >= self.seconds:
            raise DeadlinePassed(
                self.seconds, min(1.0, self.seconds / projected) if projected else 0.0
            )

    def _pace(self, share: float, paced: float) -> float:
        """Seconds per share of the work over the latest half of what is done: from the
        first mark at half ``share`` or past it."""
        half = bisect.bisect_left(self.marks, (share / 2, -math.inf))
        since, then = self.marks[min(half, len(self.marks) - 1)]
        if since >= share:  # nothing done since that mark: the pace of all of it
            since, then = 0.0, 0.0
        return (paced - then) / (share - since) if share > since else 0.0


NO_DEADLINE = Deadline(math.inf)
"""Work outside a request (a command, a test) takes the time it needs."""
