import pytest
from django.core.management import call_command

from scoring import services
from scoring.engine import Rules
from tests.site.factories import NAMES


@pytest.fixture(scope="session", autouse=True)
def _collected_static():
    """Pages link hashed static files, as in production: collect them once."""
    call_command("collectstatic", "--no-input", verbosity=0)


@pytest.fixture
def game(db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
