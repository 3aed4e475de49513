"""A first visit to a game page weighs at most 30 KB compressed for a scorer, 20 KB for a
watcher and 22 KB for a seat holder (issue 40.7), what it loads after load included (issue
20.7; htmx alone was 14.6 KB of a scorer's 38.9 KB). As tests/bench/bench_site.py counts
it, without its timings: the page's HTML as GZipMiddleware sends it, and what it links
(stylesheet, icon, scripts, manifest and the icon Chrome fetches from it) and loads once
loaded (its later-scripts), as WhiteNoise serves the collected files to a phone (Brotli,
else gzip)."""

import gzip
import json
import re
import uuid

import pytest
from django.test import Client

from scoring.engine import Confirmation as Mode
from scoring.engine import Rules
from scoring.table import services
from tests.factories import NAMES, game_url, hand_data
from tests.table.agreement import hand_of

pytestmark = pytest.mark.django_db

AIM_KB = {"scorer": 30, "watcher": 20, "seat holder": 22}
PHONE = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
LINKED = re.compile(
    r'<link rel="(?:stylesheet|icon|manifest)" href="([^"]+)"'
    r'|<script\b[^>]*\bsrc="([^"]+)"'
    r'|<meta name="later-script" content="([^"]+)">'
)


def sent(client, url):
    """What ``url`` sends a phone: its body as sent, and as read."""
    response = client.get(url, **PHONE)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    response.close()
    encoding = response.get("Content-Encoding")
    assert encoding in (None, "gzip", "br"), (url, encoding)
    return body, gzip.decompress(body) if encoding == "gzip" else body


def first_visit(client, url):
    """What a phone downloads on a first visit to ``url``, compressed, by file."""
    body, html = sent(client, url)
    weights = {"HTML": len(body)}
    for found in LINKED.findall(html.decode()):
        address = next(part for part in found if part)
        body, read = sent(client, address)
        weights[address] = len(body)
        if "manifest" in address:
            icons = [
                icon for icon in json.loads(read)["icons"] if icon.get("sizes", "any") != "any"
            ]
            maskable = [icon for icon in icons if "maskable" in icon.get("purpose", "")]
            icon = max(maskable or icons, key=lambda icon: int(icon["sizes"].split("x")[0]))
            weights[icon["src"]] = len(sent(client, icon["src"])[0])
    return weights


def seat_holder(game):
    """A phone that took Bilal's seat by its code (and nothing more)."""
    phone = Client()
    phone.post("/seat", {"code": services.make_seat_links(public_id=game.public_id)[1].code})
    return phone


@pytest.mark.parametrize("who", ["scorer", "watcher", "seat holder"])
def test_a_first_visit_in_all_is_under_its_aim(client, watcher, game, who):
    client.post(game_url(game, "hands"), hand_data(1))  # a game's start, as bench_site's
    phone = {"scorer": client, "watcher": watcher}.get(who) or seat_holder(game)
    weights = first_visit(phone, game_url(game))

    assert sum(weights.values()) <= AIM_KB[who] * 1024, weights
    assert not any("htmx" in address for address in weights)


def test_a_seat_holders_first_visit_to_a_game_that_confirms_is_under_its_aim():
    """A hand waiting for his confirmation: the page loads the queue of what he confirms
    or disputes offline too (static/js/agree.js, issue 40.5)."""
    rules = Rules(confirmation=Mode.EACH_HAND)
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    services.record_hand(
        public_id=game.public_id, number=1, hand=hand_of(1), token=uuid.uuid4(), seat=1
    )
    phone = Client()
    phone.post("/seat", {"code": services.make_seat_links(public_id=game.public_id)[2].code})

    weights = first_visit(phone, game_url(game))

    assert sum(weights.values()) <= AIM_KB["seat holder"] * 1024, weights
    assert [address for address in weights if "agree" in address] != []
