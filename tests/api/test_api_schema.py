"""The OpenAPI document says what the API does (issue 39): Schemathesis, driven by the
document alone, sends each operation valid and invalid requests (its path parameters,
queries, bodies, with and without a token) to the site in process, and finds no server
error and no answer the document does not describe (status, headers, body). Its seed is
fixed and its examples bounded, for ``make test``."""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from hypothesis import HealthCheck, settings

from scoring.api.api import api
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from tests.api.factories import make_club

schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
schema.app = WSGIHandler()

BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))


@pytest.fixture
def demo(db):
    """A public club ``sfax`` with a game: the addresses examples may happen on."""
    from scoring.clubs import services as club_services
    from tests.factories import NAMES

    club, admin = make_club(public=True)
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
    case.call_and_validate(headers={"Accept-Encoding": "identity"})
