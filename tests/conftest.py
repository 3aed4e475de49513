"""What every test shares: the games a test makes, which its own phone may score."""

import fcntl

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db.models.signals import post_save
from django.test import Client
from django.utils import translation

from scoring.common.rights import COOKIE, PhoneRights, cookie_value
from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Game
from tests.factories import NAMES

REDIS_URL = "redis://127.0.0.1:6379/5"
"""The tests' Redis (a database of its own), for production settings and the throttles."""


def scorer_cookie(public_ids):
    """The cookie of a phone that started these games."""
    return cookie_value(PhoneRights(dict.fromkeys(public_ids, 0)))


@pytest.fixture
def made_games():
    """The public ids of the games made during the test, in order."""
    made = []

    def keep(sender, instance, created, **kwargs):
        if created:
            made.append(instance.public_id)

    post_save.connect(keep, sender=Game, dispatch_uid="tests.made_games")
    yield made
    post_save.disconnect(sender=Game, dispatch_uid="tests.made_games")


class ScorerClient(Client):
    """The test's own phone: it may score every game the test makes (as the phone that
    started them would), and nothing else; ``watcher`` is another phone, with no rights."""

    def __init__(self, games, **defaults):
        super().__init__(**defaults)
        self.games = games

    def request(self, **request):
        self.cookies[COOKIE] = scorer_cookie(self.games)
        return super().request(**request)


@pytest.fixture
def client(made_games):
    return ScorerClient(made_games)


@pytest.fixture
def watcher():
    """A phone that never saw the game: it may watch, not change."""
    return Client()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Each test starts with no failed login and no form counted: the suite logs in and
    posts from 127.0.0.1 far more often than the throttles allow one address."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _language_back_to_english():
    """A request in French or Arabic leaves its language active in the thread (Django's
    LocaleMiddleware activates, nothing deactivates): the next test starts in English."""
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def _collected_static():
    """Pages link hashed static files, as in production: collect them once per session.
    Under pytest-xdist every worker is a session: a lock keeps two from writing at once."""
    lock = settings.BASE_DIR / ".collectstatic.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        call_command("collectstatic", "--no-input", verbosity=0)


@pytest.fixture
def game(db):
    """A new game at 21 with no money; Amina deals first."""
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
