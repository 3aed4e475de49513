"""The site's pages that may hold a form, found in the URL conf rather than listed by hand,
so that a new page is covered: each address with its parts filled in from a club made by
:func:`club_with_a_night`. Used by tests/site/test_form_dates.py and
tests/browser/test_forms_round_trip.py."""

import re
from collections.abc import Iterator, Sequence
from datetime import timedelta
from html.parser import HTMLParser

from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from scoring.clubs.models import Club, Member, Night
from scoring.clubs.nights import services as night_services
from scoring.table.models import Game
from tests.clubs.cafe import PLAYERS, WON_BY_BILAL, new_club, play

NOT_PAGES = re.compile(r"\.(png|pdf|csv|json|jsonl|ics|svg|txt|xml|js|webmanifest)$")
"""Addresses that answer a file, not a page with forms."""
PART = re.compile(r"<(?:\w+:)?(\w+)>")


def routes(
    patterns: Sequence[URLPattern | URLResolver] | None = None, prefix: str = ""
) -> Iterator[str]:
    """Every route of the URL conf, as written (``clubs/<slug:club>/nights/<int:night>/``)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def club_with_a_night(admin) -> Club:
    """The café club of tests/clubs/cafe.py (``admin`` its admin, a season, a game
    played), with a night planned in its season: a place and 3 rounds."""
    club = new_club(admin)
    play(club, WON_BY_BILAL, owner=admin)
    night_services.create_night(
        club=club,
        date=timezone.localdate() + timedelta(days=3),
        place="Salle Ibn Khaldoun",
        rounds=3,
    )
    return club


def page_addresses(club: Club) -> list[str]:
    """Every page address of the URL conf, its parts those of ``club`` (its season, night,
    the member Bilal, its game, hand 1); a route with a part it has no value for is left out."""
    values = {
        "club": club.slug,
        "season": club.seasons.get().slug,
        "night": str(Night.objects.get(club=club).pk),
        "member_id": str(Member.objects.get(club=club, name=PLAYERS[1]).pk),
        "gid": Game.objects.filter(club_game__club=club).get().public_id,
        "number": "1",
        "secret": club.invite_secret,
    }
    addresses = []
    for route in routes():
        parts = PART.findall(route)
        if not all(part in values for part in parts) or NOT_PAGES.search(route):
            continue
        addresses.append("/" + PART.sub(lambda match: values[match.group(1)], route))
    return addresses


class Inputs(HTMLParser):
    """The ``<input>`` elements of a page, each as its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.inputs.append({name: value or "" for name, value in attrs})


def inputs_of(html: str) -> list[dict[str, str]]:
    parser = Inputs()
    parser.feed(html)
    return parser.inputs
