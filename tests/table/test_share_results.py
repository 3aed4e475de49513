"""Results that travel (issue 22.3), a game's: the Share button's text, the page's Open Graph
and Twitter card tags, and the preview image (1200x630 PNG, drawn from the summary, cached by
version), in English, French and Arabic."""

import io
import re
from datetime import UTC, datetime
from html import unescape

import pytest
from PIL import Image, ImageChops

from scoring.engine import Contract, Hand, Trump
from scoring.infra.preview import BACKGROUND, Preview, cached_bytes, draw_preview
from scoring.table import services
from scoring.table.models import Game

pytestmark = pytest.mark.django_db

DAY = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
SIX = Hand(Contract(0, 6, Trump.HEARTS), (6, 0, 0, 0))
FOUR = Hand(Contract(1, 4, Trump.SPADES), (1, 4, 1, 0))


def played(game, hands):
    Game.objects.filter(pk=game.pk).update(created_at=DAY)
    for number, hand in enumerate(hands, start=1):
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return Game.objects.get(pk=game.pk)


def meta(html):
    """The page's Open Graph and Twitter tags, by property or name."""
    found = re.findall(
        r'<meta (?:property|name)="((?:og|twitter):[a-z:]+)" content="([^"]*)">', html
    )
    return {key: unescape(value) for key, value in found}


def share_button(html):
    """The Share button's text, or None where the page has none."""
    found = re.search(
        r'<button type="button" class="button small share-result[^>]* data-share="([^"]*)"', html
    )
    return unescape(found[1]) if found else None


TEXTS = {
    "en": "Game of Dec 4, 2026 — Amina wins: Amina 25, Bilal 4, Chafik 1, Dalila 0",
    "fr": "Partie du 4 déc. 2026 — Amina gagne\u00a0: Amina 25, Bilal 4, Chafik 1, Dalila 0",
    "ar": (
        "مباراة 4 ديسمبر 2026 — فاز \u2068Amina\u2069: \u2068Amina\u2069 "
        "25، \u2068Bilal\u2069 4، \u2068Chafik\u2069 1، \u2068Dalila\u2069 0"
    ),
}


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_game_page_won_shares_the_winner_and_totals_in_its_language(watcher, game, language):
    won = played(game, [FOUR, SIX, SIX, SIX, SIX])
    address = f"http://testserver/games/{won.public_id}/"

    html = watcher.get(f"/games/{won.public_id}/", HTTP_ACCEPT_LANGUAGE=language).text

    tags = meta(html)
    version = re.search(r'data-version="(\d+)', html)[1]
    assert (tags["og:description"], tags["og:url"], tags["twitter:card"]) == (
        TEXTS[language],
        address,
        "summary_large_image",
    )
    assert tags["og:image"] == f"{address}preview.png?v={version}"
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert share_button(html) == TEXTS[language]


def test_game_page_in_play_shares_the_totals_without_a_winner(watcher, game):
    playing = played(game, [FOUR])

    html = watcher.get(f"/games/{playing.public_id}/", HTTP_ACCEPT_LANGUAGE="en").text

    assert meta(html)["og:description"] == (
        "Game of Dec 4, 2026 — Bilal 4, Amina 1, Chafik 1, Dalila 0"
    )
    assert meta(html)["og:title"] == "Game of Dec 4, 2026"
    assert share_button(html) == "Game of Dec 4, 2026 — Bilal 4, Amina 1, Chafik 1, Dalila 0"


def test_game_page_of_its_scorer_has_the_button_but_no_card_tags(client, game):
    playing = played(game, [FOUR])

    html = client.get(f"/games/{playing.public_id}/").text

    assert (meta(html), share_button(html)) == (
        {},
        "Game of Dec 4, 2026 — Bilal 4, Amina 1, Chafik 1, Dalila 0",
    )


def test_game_page_cached_keeps_each_host_its_own_addresses(watcher, game, settings):
    settings.ALLOWED_HOSTS = ["one.example", "two.example"]
    playing = played(game, [FOUR])
    path = f"/games/{playing.public_id}/"

    first = meta(watcher.get(path, HTTP_HOST="one.example").text)["og:url"]
    second = meta(watcher.get(path, HTTP_HOST="two.example").text)["og:url"]

    assert (first, second) == (f"http://one.example{path}", f"http://two.example{path}")


def png(response):
    image = Image.open(io.BytesIO(b"".join(response)))
    return image.format, image.size


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_game_preview_is_a_1200_by_630_png_cached_by_version(watcher, game, language):
    won = played(game, [FOUR, SIX, SIX, SIX, SIX])
    path = f"/games/{won.public_id}/preview.png"

    response = watcher.get(path, HTTP_ACCEPT_LANGUAGE=language)
    again = watcher.get(path, HTTP_ACCEPT_LANGUAGE=language, HTTP_IF_NONE_MATCH=response["ETag"])

    assert (response.status_code, response["Content-Type"]) == (200, "image/png")
    assert png(response) == ("PNG", (1200, 630))
    assert response["Cache-Control"] == "private, no-cache"
    assert (again.status_code, again["ETag"]) == (304, response["ETag"])


def test_game_preview_a_new_hand_changes_its_tag(watcher, game):
    playing = played(game, [FOUR])
    path = f"/games/{playing.public_id}/preview.png"
    before = watcher.get(path)["ETag"]
    services.record_hand(public_id=playing.public_id, number=2, hand=SIX, token=None)

    after = watcher.get(path, HTTP_IF_NONE_MATCH=before)

    assert (after.status_code, after["ETag"] != before) == (200, True)


def test_preview_drawn_once_then_read_from_the_cache(db):
    drawn = []

    def draw():
        drawn.append(1)
        return b"png"

    first = cached_bytes("page:test-preview", draw)
    second = cached_bytes("page:test-preview", draw)

    assert (first, second, len(drawn)) == (b"png", b"png", 1)


PREVIEWS = {
    "en": Preview(
        "Amina wins!",
        "Game of Dec 4, 2026",
        (("Amina", "25"), ("Bilal", "4"), ("Chafik", "1"), ("Dalila", "0")),
    ),
    "fr": Preview(
        "Amina gagne\u202f!",
        "Partie du 4 déc. 2026",
        (("Amina", "25"), ("Bilal", "4"), ("Chafik", "1"), ("Dalila", "0")),
    ),
    "ar": Preview(
        "فاز Amina!",
        "مباراة 4 ديسمبر 2026",
        (("Amina", "25"), ("Bilal", "4"), ("Chafik", "1"), ("Dalila", "0")),
    ),
}


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_game_preview_draws_the_winner_day_and_totals_in_its_language(watcher, game, language):
    won = played(game, [FOUR, SIX, SIX, SIX, SIX])

    response = watcher.get(f"/games/{won.public_id}/preview.png", HTTP_ACCEPT_LANGUAGE=language)

    assert b"".join(response) == draw_preview(PREVIEWS[language], rtl=language == "ar")


def test_preview_arabic_is_laid_from_the_right_and_english_from_the_left():
    english, arabic = draw_preview(PREVIEWS["en"]), draw_preview(PREVIEWS["ar"], rtl=True)
    title = (0, 60, 1200, 140)  # the title's band only

    english_box = ink_in(english, title)
    arabic_box = ink_in(arabic, title)

    assert (english_box[0] < 90, english_box[2] < 700) == (True, True)
    assert (arabic_box[2] > 1110, arabic_box[0] > 500) == (True, True)


def ink_in(data, band):
    image = Image.open(io.BytesIO(data)).convert("RGB").crop(band)
    background = Image.new("RGB", image.size, BACKGROUND)
    return ImageChops.difference(image, background).getbbox()


def test_preview_arabic_draws_a_negative_total_as_a_number_minus_first():
    rows = (("x", "-3"),)
    arabic = Image.open(io.BytesIO(draw_preview(Preview("", "", rows), rtl=True))).convert("RGB")
    english = Image.open(io.BytesIO(draw_preview(Preview("", "", rows)))).convert("RGB")
    band = (0, 230, 600, 290), (600, 230, 1200, 290)  # the figure's side in each

    def figure(image, box):
        part = image.crop(box)
        background = Image.new("RGB", part.size, BACKGROUND)
        return part.crop(ImageChops.difference(part, background).getbbox()).tobytes()

    assert figure(arabic, band[0]) == figure(english, band[1])
