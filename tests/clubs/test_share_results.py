"""Results that travel (issue 22.3), a club's: a night's ranking and a season's standings
shared (the Share button's text, Open Graph and Twitter tags for a public club) and drawn as
a preview image (1200x630 PNG, cached by what it shows), in English, French and Arabic; a
private club's, to its members only."""

import io
import re
from datetime import date, timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.translation import override
from PIL import Image

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.nights import services as night_services
from scoring.common.share import Ranked, game_share, night_share, season_share
from scoring.engine import Rules
from scoring.infra.preview import Preview, draw_preview
from scoring.table.models import Game
from tests.clubs.factories import account, signed_in
from tests.clubs.league_games import GAME_A, GAME_B, play
from tests.clubs.nights import win

pytestmark = pytest.mark.django_db

URL = "https://boulmous.example/x/"
LINES = [Ranked(1, "Karim", 5), Ranked(2, "Leila", 5), Ranked(3, "Bilal", 1), Ranked(4, "Emna", 0)]

NIGHT_TEXTS = {
    "en": "Night of Dec 4, 2026 — 1. Karim 5 pts, 2. Leila 5 pts, 3. Bilal 1 pt, …",
    "fr": "Soirée du 4 déc. 2026 — 1. Karim 5 pts, 2. Leila 5 pts, 3. Bilal 1 pt, …",
    "ar": (
        "أمسية 4 ديسمبر 2026 — 1. \u2068Karim\u2069 5 نقاط، 2. "
        "\u2068Leila\u2069 5 نقاط، 3. \u2068Bilal\u2069 1 نقطة، …"
    ),
}
SEASON_TEXTS = {
    "en": "Season Autumn — 1. Karim 5 pts, 2. Leila 5 pts, 3. Bilal 1 pt, …",
    "fr": "Saison Autumn — 1. Karim 5 pts, 2. Leila 5 pts, 3. Bilal 1 pt, …",
    "ar": (
        "موسم \u2068Autumn\u2069 — 1. \u2068Karim\u2069 5 نقاط، "
        "2. \u2068Leila\u2069 5 نقاط، 3. \u2068Bilal\u2069 1 نقطة، …"
    ),
}
GAME_TEXTS = {
    "en": "Game of Dec 4, 2026 — Leila wins: Leila 23, Karim 9, Bilal 9, Emna -1",
    "fr": "Partie du 4 déc. 2026 — Leila gagne\u00a0: Leila 23, Karim 9, Bilal 9, Emna -1",
    "ar": (
        "مباراة 4 ديسمبر 2026 — فاز \u2068Leila\u2069: \u2068Leila\u2069 "
        "23، \u2068Karim\u2069 9، \u2068Bilal\u2069 9، \u2068Emna\u2069 -1"
    ),
}


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_share_texts_say_the_top_three_and_the_link_in_each_language(language):
    with override(language):
        night = night_share(date(2026, 12, 4), LINES, URL)
        season = season_share("Autumn", LINES, URL)
        game = game_share(
            date(2026, 12, 4), ("Karim", "Leila", "Bilal", "Emna"), (9, 23, 9, -1), 1, URL
        )

    assert (night.text, season.text, game.text) == (
        NIGHT_TEXTS[language],
        SEASON_TEXTS[language],
        GAME_TEXTS[language],
    )
    assert night.message == f"{NIGHT_TEXTS[language]} {URL}"


def test_share_text_of_three_lines_or_fewer_says_no_ellipsis():
    with override("en"):
        shared = night_share(date(2026, 12, 4), LINES[:2], URL)

    assert shared.text == "Night of Dec 4, 2026 — 1. Karim 5 pts, 2. Leila 5 pts"


def test_share_text_of_an_empty_ranking_is_its_title():
    with override("en"):
        shared = season_share("Autumn", [], URL)

    assert (shared.title, shared.text) == ("Season Autumn", "Season Autumn")


def new_club(admin, *, public):
    club = club_services.create_club(
        name="Café des Sports",
        slug="cafe",
        time_zone="Europe/Paris",
        rules=Rules(target=21),
        points=(3, 2, 1, 0),
        public=public,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name="Amina",
    )
    today = timezone.localdate()
    club_services.create_season(
        club=club,
        name="Autumn",
        slug="autumn",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
    )
    return club


@pytest.fixture
def admin(db):
    return account("amina")


@pytest.fixture
def public_club(admin):
    club = new_club(admin, public=True)
    play(club, GAME_A)
    play(club, GAME_B)
    return club


def meta(html):
    found = re.findall(
        r'<meta (?:property|name)="((?:og|twitter):[a-z:]+)" content="([^"]*)">', html
    )
    return {key: unescape(value) for key, value in found}


def button_text(html):
    found = re.search(
        r'<button type="button" class="button small share-result[^>]* data-share="([^"]*)"', html
    )
    return unescape(found[1]) if found else None


# Seasons A and B (tests/clubs/test_league_pages.py) by (3, 2, 1, 0): Bilal 2 + 2 = 5 (a win),
# Chafik 0 + 3 = 3, Amina 2 + 1 = 3, Dalila 1 + 0 = 1.
SEASON_PAGE = {
    "en": "Season Autumn — 1. Bilal 5 pts, 2. Chafik 3 pts, 3. Amina 3 pts, …",
    "fr": "Saison Autumn — 1. Bilal 5 pts, 2. Chafik 3 pts, 3. Amina 3 pts, …",
    "ar": (
        "موسم \u2068Autumn\u2069 — 1. \u2068Bilal\u2069 5 نقاط، "
        "2. \u2068Chafik\u2069 3 نقاط، 3. \u2068Amina\u2069 3 نقاط، …"
    ),
}


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_season_page_public_club_has_its_card_tags_and_share_button(public_club, language):
    html = Client().get("/clubs/cafe/seasons/autumn/", HTTP_ACCEPT_LANGUAGE=language).text

    tags = meta(html)
    assert (tags["og:description"], button_text(html)) == (SEASON_PAGE[language],) * 2
    assert tags["og:url"] == "http://testserver/clubs/cafe/seasons/autumn/"
    assert tags["og:image"].startswith("http://testserver/clubs/cafe/seasons/autumn/preview.png?v=")
    assert tags["twitter:card"] == "summary_large_image"


def png(response):
    image = Image.open(io.BytesIO(b"".join(response)))
    return image.format, image.size


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_season_preview_draws_the_standings_top_lines(public_club, language):
    points = {"en": ("5 pts", "3 pts", "1 pt"), "fr": ("5 pts", "3 pts", "1 pt")}
    points["ar"] = ("5 نقاط", "3 نقاط", "1 نقطة")
    five, three, one = points[language]
    subtitle = {"en": "2 games", "fr": "2 parties", "ar": "مباراتان"}[language]
    title = {"en": "Season Autumn", "fr": "Saison Autumn", "ar": "موسم Autumn"}[language]
    rows = (("1. Bilal", five), ("2. Chafik", three), ("3. Amina", three), ("4. Dalila", one))
    expected = Preview(title, f"Café des Sports · {subtitle}", rows)

    response = Client().get("/clubs/cafe/seasons/autumn/preview.png", HTTP_ACCEPT_LANGUAGE=language)

    assert (response.status_code, response["Content-Type"], png(response)) == (
        200,
        "image/png",
        ("PNG", (1200, 630)),
    )
    assert b"".join(response) == draw_preview(expected, rtl=language == "ar")


def test_season_preview_asked_again_unchanged_is_a_304_and_a_new_game_changes_it(public_club):
    path = "/clubs/cafe/seasons/autumn/preview.png"
    first = Client().get(path)
    again = Client().get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    play(public_club, GAME_A)

    after = Client().get(path, HTTP_IF_NONE_MATCH=first["ETag"])

    assert (again.status_code, again["Cache-Control"]) == (304, "private, no-cache")
    assert (after.status_code, after["ETag"] != first["ETag"]) == (200, True)


def test_private_club_preview_and_page_are_refused_to_strangers(admin):
    new_club(admin, public=False)
    stranger = signed_in(account("zied"))

    image = stranger.get("/clubs/cafe/seasons/autumn/preview.png")
    signed_out = Client().get("/clubs/cafe/seasons/autumn/preview.png")

    assert (image.status_code, signed_out.status_code) == (403, 302)
    assert image["Content-Type"] != "image/png"


def test_private_club_member_has_the_share_button_but_no_card_tags(admin):
    club = new_club(admin, public=False)
    play(club, GAME_A)

    html = signed_in(admin).get("/clubs/cafe/seasons/autumn/").text

    assert (meta(html), button_text(html)) == (
        {},
        "Season Autumn — 1. Bilal 3 pts, 2. Amina 2 pts, 3. Dalila 1 pt, …",
    )


def night_played(club):
    """A night of one table of four, its game won by its first seat (24 to 0)."""
    night = night_services.create_night(club=club, date=date(2026, 12, 4), place="", rounds=1)
    members = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members, guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=None)
    game = Game.objects.get(club_game__round__night=night)
    win(game)
    seats = [seat.player.name for seat in game.seats.select_related("player").order_by("position")]
    return night, seats[0], sorted(seats[1:])


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_night_ranking_public_club_shares_its_top_lines(admin, language):
    club = new_club(admin, public=True)
    for name in ("Bilal", "Chafik", "Dalila"):
        member_services.add_member(club=club, name=name)
    night, winner, others = night_played(club)
    with override(language):
        expected = night_share(
            date(2026, 12, 4),
            [Ranked(1, winner, 3), *(Ranked(2, name, 2) for name in others)],
            f"http://testserver/clubs/cafe/nights/{night.pk}/ranking",
        )

    html = (
        Client().get(f"/clubs/cafe/nights/{night.pk}/ranking", HTTP_ACCEPT_LANGUAGE=language).text
    )
    image = Client().get(
        f"/clubs/cafe/nights/{night.pk}/preview.png", HTTP_ACCEPT_LANGUAGE=language
    )

    assert (meta(html)["og:description"], button_text(html)) == (expected.text,) * 2
    assert meta(html)["og:title"] == expected.title
    assert (image["Content-Type"], png(image)) == ("image/png", ("PNG", (1200, 630)))
