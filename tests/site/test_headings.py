"""Every page of the game and the club (tests/checked_pages.py) has exactly one h1, in
English, French and Arabic: the heading a screen reader jumps to. axe checks the same pages
in a browser (tests/browser/test_accessibility.py)."""

import re

from django.test import Client

from tests.checked_pages import WATCH, club_pages, game_pages

LANGUAGES = ["en", "fr", "ar"]
H1 = re.compile(r"<h1[\s>]")


def h1_count(client, address, lang):
    response = client.get(address, headers={"accept-language": lang}, follow=True)
    assert response.status_code in (200, 404), address  # a replaced invite link: 404
    return len(H1.findall(response.content.decode()))


def test_every_game_page_has_one_h1(db, client, watcher):
    pages = game_pages()

    found = {
        f"{lang} {name}": h1_count(watcher if first == WATCH else client, address, lang)
        for lang in LANGUAGES
        for name, address, first in pages
    }

    assert found == dict.fromkeys(found, 1)
    assert len(found) == 3 * 19


def test_every_club_page_has_one_h1(db):
    admin, pages = club_pages()
    client = Client()
    client.force_login(admin)

    found = {
        f"{lang} {name}": h1_count(client, address, lang)
        for lang in LANGUAGES
        for name, address in pages
    }

    assert found == dict.fromkeys(found, 1)
    assert len(found) == 3 * 48
