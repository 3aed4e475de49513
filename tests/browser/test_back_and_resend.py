"""A form that makes something, reached again by Back and sent again, makes nothing more
(scoring/common/once.py): Chromium draws the form anew on Back, with a new token, and
static/js/table.js puts back the token the form was sent with, kept for its address."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs import services
from scoring.clubs.models import Night
from scoring.engine import Rules

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"


@pytest.fixture
def club(transactional_db):
    user = User.objects.create_user("amina", password=PASSWORD)
    return services.create_club(
        name="Café du Port",
        slug="port",
        time_zone="Europe/Paris",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=user.pk,
        admin_name="Amina",
    )


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_new_night_sent_again_after_back_leads_to_the_first_night(phone, club, lang):
    page = phone(lang)
    page.goto("/accounts/login/")
    page.fill("#id_username", "amina")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    page.goto("/clubs/port/nights/new")
    with page.expect_navigation():
        page.locator("main form button.save").click()
    night = page.url

    page.go_back()
    with page.expect_navigation():
        page.locator("main form button.save").click()

    expect(page.locator(".messages")).to_be_visible()
    assert (page.url, Night.objects.count()) == (night, 1)


def test_new_night_form_opened_anew_after_one_was_sent_makes_another(phone, club):
    page = phone("fr")
    page.goto("/accounts/login/")
    page.fill("#id_username", "amina")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    for _ in range(2):
        page.goto("/clubs/port/nights/new")
        with page.expect_navigation():
            page.locator("main form button.save").click()

    assert Night.objects.count() == 2
