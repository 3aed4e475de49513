"""A season's standings on a 360 px phone, in English, French and Arabic: rank, player,
games, league points and rating in view with no sideways scroll; the other columns one tap
away; every column at once on a tablet."""

import pytest

from scoring.engine.league import STATISTICS
from tests.browser.phone import PHONE_WIDTH, TAP
from tests.clubs.league_games import GAME_A, GAME_B, new_club, play

pytestmark = pytest.mark.browser

COLUMNS = 3 + len(STATISTICS)  # rank, player, the statistics, rating
ON_PHONE = 3 + sum(statistic.on_phone for statistic in STATISTICS)


@pytest.fixture
def season(transactional_db):
    """A public club's season of two games (tests/clubs/test_league_pages.py's)."""
    from django.contrib.auth.models import User

    club = new_club(User.objects.create_user("amina"), public=True)
    play(club, GAME_A)
    play(club, GAME_B)
    return "/clubs/cafe/seasons/now/"


def shown_headings(page):
    return page.locator(".league-wrap .league-table thead th").evaluate_all(
        "cells => cells.filter(cell => cell.offsetParent !== null).map(cell => cell.innerText)"
    )


def widths(page):
    return page.evaluate(
        "() => [document.documentElement.scrollWidth,"
        " document.querySelector('.league-wrap').scrollWidth,"
        " document.querySelector('.league-wrap').clientWidth]"
    )


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_standings_on_a_phone_keep_five_columns_in_view_the_rest_a_tap_away(phone, season, lang):
    page = phone(lang, scorer=False)
    page.goto(season)
    before = shown_headings(page)
    page_width, table_width, wrap_width = widths(page)
    toggle = page.locator(".all-columns")
    toggle_height = toggle.bounding_box()["height"]

    toggle.click()

    after = shown_headings(page)
    assert (len(before), before[0]) == (ON_PHONE, "#")
    assert (page_width, table_width <= wrap_width) == (PHONE_WIDTH, True)
    assert toggle_height >= TAP
    assert len(after) == COLUMNS


def test_standings_on_a_tablet_show_every_column_without_the_box(browser, live_server, season):
    context = browser.new_context(viewport={"width": 900, "height": 800}, base_url=live_server.url)
    page = context.new_page()
    page.goto(season)

    shown, box = shown_headings(page), page.locator(".all-columns").is_visible()

    context.close()
    assert (len(shown), box) == (COLUMNS, False)
