"""Which scripts each page loads, and when (issue 20: a first visit's weight). A page runs
its own scripts (deferred) and, once loaded, the background ones that static/js/table.js
loads from its <meta name="later-script">, in order. htmx comes from the django-htmx
package, never another site, and only to the pages with hx- attributes, not a scorer's game
page (static/js/table.js sends its forms in place: htmx was 14.6 KB of its first visit's
38.9 KB); offline code only
for a phone that may score; the live view only on a game that may still change."""

import re

import pytest
from django.templatetags.static import static

from tests.factories import BILAL_FIVE, game_url, hand_data, play

pytestmark = pytest.mark.django_db

NAMES = {
    "django_htmx/htmx-2.min.js": "htmx",
    "js/rules.js": "rules",
    "js/table.js": "table",
    "js/offline.js": "offline",
    "js/live.js": "live",
}
HTMX, RULES, TABLE, OFFLINE, LIVE = NAMES.values()


def scripts(response):
    """The page's own scripts, and those it loads once loaded, each in order, by name."""
    names = {static(path): name for path, name in NAMES.items()}
    html = response.content.decode()
    own = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", html)
    later = re.findall(r'<meta name="later-script" content="([^"]+)">', html)
    return [names.get(src, src) for src in own], [names.get(src, src) for src in later]


def test_a_scorers_game_page_loads_the_table_then_the_rules_live_view_and_queue(client, game):
    response = client.get(game_url(game))
    own, later = scripts(response)

    assert own == [TABLE]
    assert later == [RULES, LIVE, OFFLINE]
    html = response.content.decode()
    # <body>'s hx-headers alone: the CSRF token that static/js/offline.js reads there.
    assert ("htmx-config" in html, re.findall(r" hx-[\w-]+", html)) == (False, [" hx-headers"])


def test_a_watchers_game_page_loads_the_table_then_the_live_view_alone(watcher, game):
    response = watcher.get(game_url(game))
    own, later = scripts(response)

    assert own == [TABLE]
    assert later == [LIVE]
    html = response.content.decode()
    assert "htmx-config" not in html
    assert 'id="offline-strings"' not in html


def test_a_game_over_loads_no_live_view_for_a_watcher_and_keeps_it_for_its_scorer(
    client, watcher, game
):
    play(client, game, [BILAL_FIVE] * 5)  # Bilal reaches 21: the game is won
    assert "data-over" in client.get(game_url(game)).content.decode()

    assert scripts(watcher.get(game_url(game))) == ([TABLE], [])
    # Its scorer may undo the winning hand in place: the game would be in play again.
    assert scripts(client.get(game_url(game)))[1] == [RULES, LIVE, OFFLINE]


def test_a_phone_with_no_right_loads_no_offline_code_nor_htmx_on_the_home_page(watcher):
    assert scripts(watcher.get("/")) == ([TABLE], [])


def test_a_phone_that_scores_a_game_loads_the_queue_on_every_page(client, game):
    client.post(game_url(game, "hands"), hand_data(1))

    for address in ["/", "/rules", game_url(game, "hands/1/edit")]:
        assert scripts(client.get(address))[1][-1:] == [OFFLINE], address


def test_pages_with_htmx_attributes_load_htmx_from_the_package(client, game):
    for address in ["/referee/trick", game_url(game, "hands/1/play?taker=0&bid=3&trump=H")]:
        own, _ = scripts(client.get(address))
        assert own[0] == HTMX, address  # the package's, collected with the static files
