"""A club night's check-in on a 360x640 phone: the count of those present follows the ticks
before they are saved. A whole night on three phones (nine players checked in, two rounds
drawn, each table scored from its card, the organiser's page following them live, the
ranking at the end) is tests/browser/test_organiser_month.py's step 4, in French and
Arabic.
"""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs import services
from scoring.clubs.members import services as member_services
from scoring.clubs.nights import services as night_services
from scoring.engine import Rules

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
NAMES = ("Amina", "Bilal", "Chafik", "Dalila", "Élodie", "Farid", "Hugo", "Inès", "Julien")


@pytest.fixture
def club(transactional_db):
    """A club of nine members; Amina, its admin, organises the night."""
    user = User.objects.create_user("amina", password=PASSWORD)
    club = services.create_club(
        name="Café du Port",
        slug="port",
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=user.pk,
        admin_name="Amina",
    )
    for name in NAMES[1:]:
        member_services.add_member(club=club, name=name)
    return club


def test_check_in_count_follows_the_ticks_before_saving(phone, club):
    night = night_services.create_night(club=club, date=date(2026, 12, 4), place="", rounds=None)
    organiser = phone("fr")
    organiser.goto("/accounts/login/")
    organiser.fill("#id_username", "amina")
    organiser.fill("#id_password", PASSWORD)
    with organiser.expect_navigation():
        organiser.locator("main form button[type=submit]").click()
    organiser.goto(f"/clubs/port/nights/{night.pk}/")
    counter = organiser.locator("#check-in-title small")
    expect(counter).to_have_text("0 présent")

    for name in NAMES[:3]:
        organiser.locator("label.check", has_text=name).click()
    ticked = counter.inner_text()
    organiser.locator("label.check", has_text=NAMES[0]).click()

    assert (ticked, counter.inner_text()) == ("3 présents", "2 présents")
