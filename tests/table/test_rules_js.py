"""static/js/rules.js: on the pages whose scripts follow the rules (a hand to save), before
them, not on a watcher's; kept by the service worker; and given the words it is checked in
(tests/data/js-vectors.json) by the card-by-card page, in English. Which scripts each page
loads, and when: tests/table/test_page_scripts.py."""

import json
import re

import pytest
from django.templatetags.static import static

from tests.factories import game_url, hand_data
from tests.js.make_vectors import PATH
from tests.table.service_worker import preamble

pytestmark = pytest.mark.django_db


def scripts(html):
    """The scripts a page runs, in order: its own, then those it loads once loaded."""
    return re.findall(
        r'<script src="([^"]+)" defer></script>|<meta name="later-script" content="([^"]+)">',
        html,
    )


def loaded(html):
    return [own or later for own, later in scripts(html)]


def test_a_scorers_pages_load_the_rules_before_the_scripts_that_use_them(client, game):
    client.post(game_url(game, "hands"), hand_data(1))
    rules, table, offline = static("js/rules.js"), static("js/table.js"), static("js/offline.js")

    for address in [
        game_url(game),
        game_url(game, "hands/1/edit"),
        game_url(game, "hands/2/play?taker=0&bid=3&trump=H"),
    ]:
        order = loaded(client.get(address).content.decode())
        assert order.count(rules) == 1, address
        assert order.index(rules) < order.index(offline), address
        assert table in order, address


def test_a_watcher_loads_no_rules(watcher, game):
    order = loaded(watcher.get(game_url(game)).content.decode())

    assert static("js/rules.js") not in order
    assert static("js/live.js") in order


def test_the_service_worker_keeps_the_rules(client):
    shell = preamble(client.get("/sw.js").content.decode(), "SHELL")

    assert static("js/rules.js") in shell


def test_the_card_by_card_page_says_the_phrases_in_the_words_of_the_vectors(client, game):
    html = client.get(game_url(game, "hands/1/play?taker=0&bid=3&trump=H")).content.decode()
    data = json.loads(
        re.search(r'<script id="play-data" type="application/json">(.*?)</script>', html)[1]
    )
    words = json.loads(PATH.read_text(encoding="utf-8"))["words"]

    assert data["reasons"] == words["reasons"]
    assert data["suits"] == words["suits"]
    assert {code: name for code, _label, name in data["deck"]} == words["cards"]
    assert {code: label for code, label, _name in data["deck"]} == words["labels"]
    assert data["names"] == words["names"]
