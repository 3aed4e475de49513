"""Every date and time field of the site renders in the one format the browser's control
takes, in every language: an ``<input type="date">`` given 04/12/2026 (French) shows
nothing and sends the field empty, so that a form the organiser did not touch is refused.
The pages are found in the URL conf (tests/form_pages.py)."""

import re
from html.parser import HTMLParser

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


class Forms(HTMLParser):
    """Each ``<form>`` of a page: its method, its action and its fields as rendered (an
    input's value, a select's chosen or first option, a textarea's text)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(
                {
                    "method": named.get("method", "get").lower(),
                    "action": named.get("action", ""),
                    "fields": [],
                    "dated": [],
                }
            )
        elif not self.forms:
            return
        elif tag == "input" and named.get("name"):
            kind = named.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in named:
                return
            if kind in ISO:
                self.forms[-1]["dated"].append((named["name"], kind))
            self.forms[-1]["fields"].append((named["name"], named.get("value", "")))
        elif tag == "select" and named.get("name"):
            self.select = named["name"]
        elif tag == "option" and self.select is not None:
            fields = self.forms[-1]["fields"]
            if "selected" in named or not any(name == self.select for name, _ in fields):
                fields[:] = [field for field in fields if field[0] != self.select]
                fields.append((self.select, named.get("value", "")))
        elif tag == "textarea" and named.get("name"):
            self.textarea = named["name"]
            self.forms[-1]["fields"].append((self.textarea, ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


EDGES = {
    "date": ["0001-01-01", "9999-12-31"],
    "datetime-local": ["0001-01-01T00:00", "9999-12-31T23:59"],
    "time": ["00:00", "23:59"],
    "month": ["0001-01", "9999-12"],
    "week": ["0001-W01", "9999-W52"],
}
"""The first and last values each control takes: Python's dates stop there, and a day
moved by a time zone, or a day after, falls outside."""


def test_date_fields_at_the_calendars_edges_are_answered_never_a_server_error():
    admin = user("amina")
    club = club_with_a_night(admin)
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    sent = []
    for address in page_addresses(club):
        response = client.get(address)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = Forms()
        parser.feed(response.content.decode())
        for form in parser.forms:
            for name, kind in form["dated"]:
                for edge in EDGES[kind]:
                    data = [(key, edge if key == name else value) for key, value in form["fields"]]
                    target = form["action"] or address
                    if form["method"] == "post":
                        answer = client.post(target, dict(data))
                    else:
                        answer = client.get(target, dict(data))
                    sent.append((target, name, edge, answer.status_code))
    failed = [each for each in sent if each[3] >= 500]
    assert (len(sent) > 0, failed) == (True, [])


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Give a day between Jan 1, 1900 and Dec 31, 2999."),
        ("fr", "Donnez un jour entre le 1 janv. 1900 et le 31 déc. 2999."),
        ("ar", "اختر يومًا بين 1 جانفي 1900 و31 ديسمبر 2999."),
    ],
)
def test_season_edit_with_a_day_past_the_last_is_refused_beside_its_field(lang, said):
    admin = user("amina")
    club = club_with_a_night(admin)
    season = club.seasons.get()
    before = season.last_day
    client = Client()
    client.force_login(admin)
    data = {
        "name": season.name,
        "slug": season.slug,
        "first_day": "2026-01-01",
        "last_day": "9999-12-31",
    }

    response = client.post(f"/clubs/{club.slug}/seasons/now/edit", data, HTTP_ACCEPT_LANGUAGE=lang)

    season.refresh_from_db()
    assert (
        response.status_code,
        response.context["form"].errors.get("last_day"),
        season.last_day,
    ) == (422, [said], before)
