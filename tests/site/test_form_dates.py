"""Every date and time field of the site renders in the one format the browser's control
takes, in every language: an ``<input type="date">`` given 04/12/2026 (French) shows
nothing and sends the field empty, so that a form the organiser did not touch is refused.
The pages are found in the URL conf (tests/form_pages.py)."""

import re

import pytest
from django.test import Client

from tests.clubs.cafe import user
from tests.form_pages import club_with_a_night, inputs_of, page_addresses

pytestmark = pytest.mark.django_db

ISO = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "time": re.compile(r"\d{2}:\d{2}(:\d{2})?"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?"),
    "month": re.compile(r"\d{4}-\d{2}"),
    "week": re.compile(r"\d{4}-W\d{2}"),
}
"""What each of the browser's date and time controls takes as its value (HTML's own)."""


def dated_values(client: Client, lang: str, addresses: list[str]) -> list[tuple[str, str, str]]:
    """Each date or time field that a page shows with a value: (address, type, value)."""
    found = []
    for address in addresses:
        response = client.get(address, HTTP_ACCEPT_LANGUAGE=lang)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for attrs in inputs_of(response.content.decode()):
            kind = attrs.get("type", "")
            if kind in ISO and attrs.get("value"):
                found.append((address, kind, attrs["value"]))
    return found


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
def test_date_and_time_fields_every_page_renders_them_in_iso(lang):
    admin = user("amina")
    club = club_with_a_night(admin)
    client = Client()
    client.force_login(admin)
    addresses = page_addresses(club)
    # A filter given days shows them again, as the person typed them.
    addresses.append(f"/clubs/{club.slug}/games/?since=2026-01-01&until=2026-12-31")
    found = dated_values(client, lang, addresses)
    pages = {address for address, _, _ in found}
    assert {
        f"/clubs/{club.slug}/nights/new",
        f"/clubs/{club.slug}/seasons/now/edit",
        f"/clubs/{club.slug}/nights/{club.nights.get().pk}/edit",
        f"/clubs/{club.slug}/games/?since=2026-01-01&until=2026-12-31",
    } <= pages
    not_iso = [each for each in found if not ISO[each[1]].fullmatch(each[2])]
    assert not_iso == []
