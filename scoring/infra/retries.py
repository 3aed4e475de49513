"""When a job that a server refused is tried again (issue 43.4): 1, 5 and 30 minutes after
the first, second and third failures, then 6 hours after the fourth; after the fifth try it
is given up (the caller marks it failed and says why).

A mail server that says no (``smtplib.SMTPException``) or cannot be reached (``OSError``:
refused, timed out, no route, a name that does not resolve) is worth trying again; any other
failure is a fault of the job itself, and trying again would fail the same way."""

import smtplib
from datetime import datetime, timedelta

BACKOFF = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=6),
)
"""The wait after the 1st, 2nd, 3rd and 4th failed tries."""

TRIES = len(BACKOFF) + 1
"""Tries in all, the first included."""

REFUSED: tuple[type[BaseException], ...] = (smtplib.SMTPException, OSError)
"""The failures that a later try may not meet: the server's, not the job's."""


def retry_at(attempt: int, failed_at: datetime) -> datetime | None:
    """When the try after failed try number ``attempt`` (1 for the first) runs, or None
    when that was the last."""
    if attempt < 1:
        raise ValueError(attempt)
    if attempt > len(BACKOFF):
        return None
    return failed_at + BACKOFF[attempt - 1]


def worth_retrying(error: BaseException) -> bool:
    return isinstance(error, REFUSED)
