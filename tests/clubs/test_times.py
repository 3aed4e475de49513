"""One clock (issue 19): a club's games, nights and history in the club's time zone, on
the club's pages and the table's alike, and every moment said the same way on each page,
in English, French and Arabic."""

import re
from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from scoring.clubs.history import log
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.common.clock import ZONE_COOKIE
from scoring.common.rights import NOBODY
from scoring.table.models import Change, Game
from tests.clubs.league_games import imported, new_club, won_by

PLAYERS = ("Amina", "Bilal", "Chafik", "Dalila")
# 23:30 on 31 December in UTC is already 00:30 on 1 January 2021 in Paris.
NEW_YEAR_IN_PARIS = datetime(2020, 12, 31, 23, 30, tzinfo=UTC)
IN_PARIS = "2021-01-01T00:30:00+01:00"
SAID = {
    "en": "Jan 1, 2021, 12:30\u202fAM",
    "fr": "1 janv. 2021, 00:30",
    "ar": "1 جانفي 2021، 12:30 ص",
}
DAY = {"en": "Jan 1, 2021", "fr": "1 janv. 2021", "ar": "1 جانفي 2021"}


@pytest.fixture
def club(db, client):
    """The Café's game won at 23:30 UTC on 31 December, its history then too."""
    admin = get_user_model().objects.get_or_create(username="amina")[0]
    club = new_club(admin)
    imported(club, admin, [won_by(1, PLAYERS, NEW_YEAR_IN_PARIS, "new-year")])
    Change.objects.update(at=NEW_YEAR_IN_PARIS)
    client.force_login(admin)
    return club


def pages(club):
    game = Game.objects.get(record_id="new-year")
    bilal = Member.objects.get(club=club, name="Bilal")
    return {
        "game": f"/games/{game.public_id}/",
        "club": "/clubs/cafe/",
        "player": f"/clubs/cafe/players/{bilal.pk}/",
        "games": "/clubs/cafe/games/",
    }


def times(html):
    """Every moment (a ``<time>`` with a time of day) of a page: its machine-readable
    value and what it says."""
    return re.findall(r'<time datetime="([^"]+T[^"]+)">([^<]*)</time>', html)


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_club_game_finished_before_midnight_utc_is_new_year_in_paris_on_every_page(
    club, client, language
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    shown = {name: times(client.get(path).text) for name, path in pages(club).items()}

    assert shown == {name: [(IN_PARIS, SAID[language])] for name in shown}


def test_club_game_is_in_the_clubs_zone_whatever_the_phones(club, client):
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"

    shown = {name: times(client.get(path).text) for name, path in pages(club).items()}

    assert shown == {name: [(IN_PARIS, SAID["en"])] for name in shown}


def test_club_game_live_answer_is_in_the_clubs_zone(club, client):
    client.cookies[ZONE_COOKIE] = "Asia/Tokyo"
    game = Game.objects.get(record_id="new-year")

    live = client.get(f"/games/{game.public_id}/live")

    assert times(live.text) == [(IN_PARIS, SAID["en"])]


def test_club_history_is_in_the_clubs_zone(club, client):
    club.changes.all().delete()  # the lines of the club's making: this test reads one
    log(club, NOBODY, "club_edited", "Café des Sports")
    club.changes.update(at=NEW_YEAR_IN_PARIS)

    shown = times(client.get("/clubs/cafe/history").text)

    assert shown == [(IN_PARIS, SAID["en"])]


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_night_day_is_said_alike_on_the_club_and_night_pages(club, client, language):
    night = night_services.create_night(club=club, date=date(2021, 1, 1), place="", rounds=None)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    words = {"en": "Night of {}", "fr": "Soirée du {}", "ar": "أمسية {}"}

    club_page = client.get("/clubs/cafe/").text
    night_page = client.get(f"/clubs/cafe/nights/{night.pk}/").text

    said = words[language].format(DAY[language])
    assert (said in club_page, said in night_page) == (True, True)


def test_arabic_moments_are_in_western_digits(club, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"

    [(_, said)] = times(client.get("/clubs/cafe/games/").text)

    assert "".join(character for character in said if character.isdigit()) == "120211230"
