"""The OpenAPI document says what the API does (issue 39): Schemathesis, driven by the
document alone, sends each operation valid and invalid requests (its path parameters,
queries, bodies, with and without a token) to the site in process, and finds no server
error and no answer the document does not describe (status, headers, body). Its seed is
fixed and its examples bounded, for ``make test``."""

from datetime import date

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scoring.api.api import EXAMPLES, api
from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from tests.api.factories import make_club
from tests.factories import NAMES

schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
schema.app = WSGIHandler()

BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))


@pytest.fixture
def in_process():
    """Requests to the WSGI handler, as the test client makes them: neither the start nor
    the end of one closes the database connection the test's transaction holds."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def demo(db, in_process):
    """The public club ``demo`` of the document's examples, a game of it, and its season
    once at ``march-may-2025`` (the example), now at ``spring-2025``: the example's
    standings answer the 302 of an old address."""
    club, admin = make_club(public=True, slug=EXAMPLES["club"])
    season = club_services.create_season(
        club=club,
        name="Spring",
        slug=EXAMPLES["season"],
        first_day=date(2000, 1, 1),
        last_day=date(2100, 1, 1),
        points=(3, 2, 1, 0),
    )
    edits.edit_season(
        club=club,
        season_id=season.pk,
        name="Spring",
        slug="spring-2025",
        first_day=season.first_day,
        last_day=season.last_day,
        points=[3, 2, 1, 0],
    )
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    services.record_hand(public_id=game.public_id, number=1, hand=BOULMOUS, token=None)
    return club


@schema.parametrize()
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_answers_as_its_openapi_document_says(demo, case):
    # In process, nothing undoes the site's gzip (GZipMiddleware): ask for none.
    case.call_and_validate(
        headers={"Accept-Encoding": "identity"},
        # A filter naming a season or player the club does not have is a 422 (docs/api.md):
        # well-formed, as the document can say, yet naming nothing, as it cannot.
        excluded_checks=[positive_data_acceptance],
    )
