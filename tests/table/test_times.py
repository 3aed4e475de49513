"""One clock (issue 19): a game outside a club in the time zone of the phone that views it
(its ``tz`` cookie, else settings.TIME_ZONE), the live view's ETag following that zone,
and the home page's games showing the change they are ordered by."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from scoring.common.clock import ZONE_COOKIE, zone_named
from scoring.engine import Rules
from scoring.table import services
from scoring.table.models import Change, Summary
from tests.factories import NAMES, game_url, hand_data

pytestmark = pytest.mark.django_db

LAST_OF_THE_YEAR = datetime(2020, 12, 31, 23, 30, tzinfo=UTC)


def times(html):
    """Every moment of a page: its machine-readable value and what it says."""
    return re.findall(r'<time datetime="([^"]+T[^"]+)">([^<]*)</time>', html)


def board_version(html):
    return re.search(r'id="board" data-version="([^"]*)"', html).group(1)


@pytest.fixture
def dated(game):
    """The game created, changed and listed at 23:30 UTC on 31 December 2020."""
    Change.objects.filter(game=game).update(at=LAST_OF_THE_YEAR)
    Summary.objects.filter(game=game).update(changed_at=LAST_OF_THE_YEAR)
    return game


def test_plain_game_with_a_tokyo_cookie_shows_tokyo_time(client, dated):
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"
    tokyo = [("2021-01-01T08:30:00+09:00", "Jan 1, 2021, 8:30\u202fAM")]

    shown = (times(client.get(game_url(dated)).text), times(client.get("/").text))

    assert shown == (tokyo, tokyo)


def test_plain_game_without_a_zone_cookie_is_in_the_sites_zone(client, dated):
    shown = times(client.get(game_url(dated)).text)

    assert shown == [("2020-12-31T23:30:00+00:00", "Dec 31, 2020, 11:30\u202fPM")]


@pytest.mark.parametrize("cookie", ["Mars/Olympus_Mons", "../../etc/passwd", "", "UTC" * 30])
def test_plain_game_with_an_invalid_zone_cookie_falls_back_to_the_sites_zone(client, dated, cookie):
    client.cookies[ZONE_COOKIE] = cookie

    shown = times(client.get(game_url(dated)).text)

    assert shown == [("2020-12-31T23:30:00+00:00", "Dec 31, 2020, 11:30\u202fPM")]


def test_zone_named_knows_zoneinfos_names_only():
    named = [zone_named(name) for name in ("Europe/Paris", "europe/paris", "/etc/localtime")]

    assert [zone and zone.key for zone in named] == ["Europe/Paris", None, None]


def test_game_page_version_carries_the_phones_zone(client, game):
    plain = board_version(client.get(game_url(game)).text)
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"

    in_tokyo = board_version(client.get(game_url(game)).text)

    assert in_tokyo == f"{plain}@Asia/Tokyo"


def test_live_view_answers_304_to_the_version_drawn_in_the_phones_zone(client, game):
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"
    version = board_version(client.get(game_url(game)).text)

    response = client.get(game_url(game, "live"), HTTP_IF_NONE_MATCH=f'"{version}"')

    assert (response.status_code, response["ETag"]) == (304, f'"{version}"')


def test_live_view_answers_304_to_a_page_drawn_before_the_phone_said_it_is_in_utc(client, game):
    # The first page is drawn in the site's zone (UTC) before table.js sets the cookie: a
    # phone in UTC then has the very page it would have been drawn, so the same version.
    version = board_version(client.get(game_url(game)).text)
    client.cookies[ZONE_COOKIE] = "UTC"

    response = client.get(game_url(game, "live"), HTTP_IF_NONE_MATCH=f'"{version}"')

    assert (response.status_code, response["ETag"]) == (304, f'"{version}"')


def test_live_view_draws_again_for_a_phone_whose_zone_changed(client, dated):
    version = board_version(client.get(game_url(dated)).text)
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"

    response = client.get(game_url(dated, "live"), HTTP_IF_NONE_MATCH=f'"{version}"')

    assert (response.status_code, response["ETag"], times(response.text)) == (
        200,
        f'"{version}@Asia/Tokyo"',
        [("2021-01-01T08:30:00+09:00", "Jan 1, 2021, 8:30\u202fAM")],
    )


def test_hand_answered_in_json_gives_the_version_the_page_shows(client, game):
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"

    answer = client.post(
        game_url(game, "hands"), hand_data(1), HTTP_ACCEPT="application/json"
    ).json()

    assert answer["version"] == board_version(client.get(game_url(game)).text)


def test_home_lists_each_game_at_the_change_it_is_ordered_by(client, game):
    later = services.create_game(names=NAMES, rules=Rules(), first_dealer=0)
    Summary.objects.filter(game=later.game).update(changed_at=LAST_OF_THE_YEAR)
    Summary.objects.filter(game=game).update(changed_at=LAST_OF_THE_YEAR + timedelta(hours=1))

    shown = [when for when, _ in times(client.get("/").text)]

    assert shown == ["2021-01-01T00:30:00+00:00", "2020-12-31T23:30:00+00:00"]


def test_a_watcher_in_another_zone_sees_the_game_in_its_own(dated):
    watcher = Client()
    watcher.cookies[ZONE_COOKIE] = "America/New_York"

    shown = times(watcher.get(game_url(dated)).text)

    assert shown == [("2020-12-31T18:30:00-05:00", "Dec 31, 2020, 6:30\u202fPM")]
