"""SQLite's one writer, busy (`make run`'s database): a club's import holds it for the whole
of its one transaction, so that a cancel or a killed worker keeps nothing. Another write
waits its turn (the connection's ``timeout``, boulmous_site/settings.py); one that waits
longer gets this 503 page, which says that nothing changed and when to try again, rather
than the 500 page. PostgreSQL never answers so: its writers lock rows, not the database."""

from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

RETRY_SECONDS = 10
"""What ``Retry-After`` says: about the time a 20,000-game import holds the writer."""


def is_busy(error: BaseException) -> bool:
    """SQLite's "database is locked": the writer was taken for longer than the wait."""
    return isinstance(error, OperationalError) and "database is locked" in str(error)


class DatabaseBusy:
    """The 503 page for a request that could not write because SQLite's writer was busy."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_busy(exception):
            return None
        response = render(request, "503.html", {"seconds": RETRY_SECONDS}, status=503)
        response["Retry-After"] = str(RETRY_SECONDS)
        return response
