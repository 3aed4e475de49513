"""The events' tests' shared fixtures: the club Sfax with thirteen players (tests/events/
factories.py), its admin Amina, who organises its events."""

import pytest

from scoring.common.rights import Actor
from tests.clubs.factories import account, make_club, signed_in
from tests.events.factories import PLAYERS


@pytest.fixture
def amina(db):
    return account("amina")


@pytest.fixture
def club(amina):
    """Sfax, playing to 21, with thirteen players: Amina, its admin, and PLAYERS."""
    return make_club(amina, target=21, players=PLAYERS)


@pytest.fixture
def organiser(amina):
    """Amina, the club's admin, signed in: she organises the club's events."""
    return signed_in(amina)


@pytest.fixture
def by(amina):
    """Amina, as the history names her."""
    return Actor(user_id=amina.pk)
