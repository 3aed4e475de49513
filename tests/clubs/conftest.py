"""The clubs' tests' shared fixtures. ``amina``, ``club`` and ``organiser`` are the club night
played for stakes of tests/clubs/night_money.py; a test module that needs another club
defines its own ``club`` (and ``amina``), which pytest prefers to these."""

import pytest
from django.contrib.auth import get_user_model

from tests.clubs.factories import account, make_club, signed_in
from tests.clubs.night_money import PLAYERS, STAKE


@pytest.fixture
def admin(db):
    """Amina's account, without a password: the club's first admin where a test makes one."""
    return get_user_model().objects.create_user("amina")


@pytest.fixture
def amina():
    """Amina's account, signed in without a password (tests/clubs/factories.py)."""
    return account("amina")


@pytest.fixture
def club(amina):
    """Sfax plays for 0.50 EUR a stake; nine players with Amina, its admin."""
    return make_club(amina, target=21, stake=STAKE, currency="EUR", players=PLAYERS)


@pytest.fixture
def organiser(amina):
    """Amina, the club's admin, signed in: she draws the rounds and ends the night."""
    return signed_in(amina)
