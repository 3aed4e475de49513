"""One clock (issue 19): the phone says its time zone (static/js/table.js, the ``tz``
cookie), and the next page shows a game outside a club in it."""

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Change
from tests.factories import NAMES

pytestmark = pytest.mark.browser


@pytest.fixture
def game(transactional_db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    Change.objects.filter(game=game).update(at=datetime(2020, 12, 31, 23, 30, tzinfo=UTC))
    return game


def test_phone_in_tokyo_sees_a_plain_game_in_tokyo_time_from_its_second_page(phone, game):
    page = phone(zone="Asia/Tokyo")
    page.goto(f"/games/{game.public_id}/")
    first = page.locator(".history time").first.text_content()

    page.reload()

    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert (first, cookies["tz"]) == ("Dec 31, 2020, 11:30\u202fPM", "Asia/Tokyo")
    expect(page.locator(".history time").first).to_have_text("Jan 1, 2021, 8:30\u202fAM")
    expect(page.locator(".history time").first).to_have_attribute(
        "datetime", "2021-01-01T08:30:00+09:00"
    )
