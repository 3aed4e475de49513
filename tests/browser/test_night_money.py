"""The night's money on a 360x640 phone and on paper: a night of nine players over two
rounds at 0.50 EUR a stake, played through the services; the organiser reads each
player's balance and who pays whom on the night's ranking, without sideways scroll, and
prints it (the print media keeps the money, drops the buttons)."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.nights import services as night_services
from scoring.engine import Rules
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.clubs.night_money import PLAYERS, play_two_rounds

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"


class Poster:
    """What play_two_rounds asks of a client: drawing the rounds, through the services."""

    def __init__(self, night):
        self.night = night

    def post(self, url):
        night_services.draw_round(night_id=self.night.pk, owner_id=None)


@pytest.fixture
def night(transactional_db):
    user = User.objects.create_user("amina", password=PASSWORD)
    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(target=21, stake=Decimal("0.50"), currency="EUR"),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=user.pk,
        admin_name="Amina",
    )
    for name in PLAYERS:
        member_services.add_member(club=club, name=name)
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=2)
    member_ids = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=member_ids, guests=[])
    play_two_rounds(club, Poster(night), night)
    return night


def test_the_nights_money_reads_on_a_phone_and_prints(phone, night):
    page = phone("en")
    page.goto("/accounts/login/")
    page.fill("#id_username", "amina")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()

    page.goto(f"/clubs/sfax/nights/{night.pk}/ranking")

    money = page.locator(".night-money")
    expect(money.get_by_role("heading", name="The night's money")).to_be_visible()
    expect(money.locator(".night-balances tbody tr")).to_have_count(9)
    payments = money.locator(".night-payments tbody tr")
    assert 1 <= payments.count() <= 8
    expect(payments.first).to_contain_text("€")
    assert scroll_width(page) <= PHONE_WIDTH

    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    expect(money).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    balances = money.locator(".night-balances").bounding_box()
    paid = money.locator(".night-payments").bounding_box()
    assert balances is not None
    assert paid is not None
    assert paid["x"] > balances["x"] + balances["width"] - 1  # side by side on paper
