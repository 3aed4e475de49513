"""The nights in the calendar (issue 22.5): the club's feed, nights.ics, and each night's
file, night.ics, read back by the icalendar parser; their text as RFC 5545 writes it; the
rights of the club's pages; the links on the club and night pages."""

from datetime import date

import pytest
from django.test import Client
from icalendar import Calendar

from scoring.accounts.services import delete_account
from scoring.clubs.members import care
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.common.rights import Actor
from tests.clubs.factories import account, make_club, signed_in, with_role

pytestmark = pytest.mark.django_db

PLACE = 'Café; bar, "du port"\nfirst floor'
FEED = "/clubs/sfax/nights.ics"


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def public_club(amina):
    return make_club(amina, public=True)


@pytest.fixture
def private_club(amina):
    return make_club(amina)


def add_nights(club):
    first = night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=2)
    second = night_services.create_night(club=club, date=date(2025, 4, 4), place=PLACE, rounds=None)
    return first, second


def events(response):
    return Calendar.from_ical(response.content).walk("VEVENT")


def test_feed_public_club_has_one_event_per_night(public_club):
    first, second = add_nights(public_club)
    response = Client().get(FEED)
    found = [
        (
            str(event["UID"]),
            event.decoded("DTSTART"),
            event.decoded("DTEND"),
            str(event["LOCATION"]),
            str(event["URL"]),
            str(event["DESCRIPTION"]),
            str(event["SUMMARY"]),
        )
        for event in events(response)
    ]
    url = f"http://testserver/clubs/sfax/nights/{first.pk}/"
    other = f"http://testserver/clubs/sfax/nights/{second.pk}/"
    assert (response.status_code, response["Content-Type"], found) == (
        200,
        "text/calendar; charset=utf-8",
        [
            (
                f"night-{first.pk}@testserver",
                date(2025, 3, 7),
                date(2025, 3, 8),
                "Café",
                url,
                f"The night's page: {url}",
                "Sfax — club night",
            ),
            (
                f"night-{second.pk}@testserver",
                date(2025, 4, 4),
                date(2025, 4, 5),
                PLACE,
                other,
                f"The night's page: {other}",
                "Sfax — club night",
            ),
        ],
    )


def test_feed_calendar_is_named_and_stamped(public_club):
    add_nights(public_club)
    calendar = Calendar.from_ical(Client().get(FEED).content)
    stamped = all(event.get("DTSTAMP") is not None for event in calendar.walk("VEVENT"))
    assert (str(calendar["VERSION"]), str(calendar["X-WR-CALNAME"]), stamped) == (
        "2.0",
        "Sfax — club nights",
        True,
    )


def test_feed_text_escaped_folded_with_crlf(public_club):
    long_place = "Salle des fêtes de la Médina, au bout de la rue des Forgerons; entrée"
    night_services.create_night(club=public_club, date=date(2025, 3, 7), place=PLACE, rounds=2)
    night_services.create_night(club=public_club, date=date(2025, 5, 2), place=long_place, rounds=2)
    raw = Client().get(FEED).content
    lines = raw.split(b"\r\n")
    assert (
        raw.endswith(b"\r\n"),
        b"\n" in raw.replace(b"\r\n", b""),
        max(len(line) for line in lines) <= 75,
        'LOCATION:Café\\; bar\\, "du port"\\nfirst floor'.encode() in lines,
        b"DTSTART;VALUE=DATE:20250307" in lines,
        sorted(str(event["LOCATION"]) for event in Calendar.from_ical(raw).walk("VEVENT")),
    ) == (True, False, True, True, True, sorted([PLACE, long_place]))


def test_feed_public_club_readable_by_anyone(public_club):
    add_nights(public_club)
    stranger = signed_in(account("zied"))
    assert (Client().get(FEED).status_code, stranger.get(FEED).status_code) == (200, 200)


def test_feed_private_club_needs_a_member(private_club, amina):
    add_nights(private_club)
    member = signed_in(with_role(private_club, "Bilal", Member.Role.MEMBER))
    signed_out = Client().get(FEED)
    answers = (
        signed_out.status_code,
        signed_out["Location"].startswith("/accounts/login/"),
        signed_in(account("zied")).get(FEED).status_code,
    )
    got = member.get(FEED)
    assert (answers, got.status_code, got["Cache-Control"], len(events(got))) == (
        (302, True, 403),
        200,
        "private",
        2,
    )


def test_feed_unchanged_answers_304_until_a_night_changes(public_club):
    first, _ = add_nights(public_club)
    browser = Client()
    tag = browser.get(FEED)["ETag"]
    again = browser.get(FEED, HTTP_IF_NONE_MATCH=tag)
    first.place = "Le port"
    first.save()
    moved = browser.get(FEED, HTTP_IF_NONE_MATCH=tag)
    assert (again.status_code, again.content, again["ETag"], moved.status_code) == (
        304,
        b"",
        tag,
        200,
    )


def test_night_file_has_the_night_alone(public_club):
    first, _ = add_nights(public_club)
    response = Client().get(f"/clubs/sfax/nights/{first.pk}/night.ics")
    calendar = Calendar.from_ical(response.content)
    found = [(str(event["UID"]), event.decoded("DTSTART")) for event in calendar.walk("VEVENT")]
    assert (
        response.status_code,
        response["Content-Type"],
        response["Content-Disposition"],
        found,
    ) == (
        200,
        "text/calendar; charset=utf-8",
        'attachment; filename="sfax-night-2025-03-07.ics"',
        [(f"night-{first.pk}@testserver", date(2025, 3, 7))],
    )


def test_night_file_private_club_needs_a_member(private_club, amina):
    first, _ = add_nights(private_club)
    url = f"/clubs/sfax/nights/{first.pk}/night.ics"
    assert (
        signed_in(account("zied")).get(url).status_code,
        signed_in(amina).get(url).status_code,
    ) == (403, 200)


def test_night_file_of_another_club_not_found(public_club, amina):
    other = make_club(amina, slug="gabes")
    night = night_services.create_night(club=other, date=date(2025, 3, 7), place="", rounds=1)
    assert Client().get(f"/clubs/sfax/nights/{night.pk}/night.ics").status_code == 404


def test_club_page_public_club_offers_the_feed(public_club):
    first, _ = add_nights(public_club)
    page = Client().get("/clubs/sfax/").content.decode()
    assert (
        'href="webcal://testserver/clubs/sfax/nights.ics?lang=en"' in page,
        "http://testserver/clubs/sfax/nights.ics?lang=en" in page,
        f'href="/clubs/sfax/nights/{first.pk}/night.ics"' in page,
        "key=" in page,
    ) == (True, True, True, False)


def feed_of(page):
    """The feed's address a club page gives, as a calendar app would be given it."""
    feed = page.content.decode().split('class="links nights-feed"', 1)[1]
    return feed.split("<bdi>", 1)[1].split("</bdi>", 1)[0].replace("&amp;", "&")


def test_club_page_private_club_gives_each_member_his_own_feed(private_club, amina):
    add_nights(private_club)
    bilal = with_role(private_club, "Bilal", Member.Role.MEMBER)
    amina_feed = feed_of(signed_in(amina).get("/clubs/sfax/"))
    bilal_feed = feed_of(signed_in(bilal).get("/clubs/sfax/"))

    read = Client().get(bilal_feed.removeprefix("http://testserver"))

    assert (amina_feed != bilal_feed, "key=" in bilal_feed) == (True, True)
    assert (read.status_code, read["Cache-Control"], len(events(read))) == (200, "private", 2)


def test_feed_key_refused_when_tampered_of_another_club_or_its_member_gone(private_club, amina):
    add_nights(private_club)
    bilal = with_role(private_club, "Bilal", Member.Role.MEMBER)
    feed = feed_of(signed_in(bilal).get("/clubs/sfax/")).removeprefix("http://testserver")
    other = make_club(account("zied"), slug="tunis")
    key = feed.split("key=", 1)[1]

    tampered = Client().get(feed[:-2] + ("AA" if not feed.endswith("AA") else "BB"))
    elsewhere = Client().get(f"/clubs/{other.slug}/nights.ics?key={key}")
    Member.objects.filter(pk=Member.objects.get(club=private_club, name="Bilal").pk).delete()
    gone = Client().get(feed)

    assert (tampered.status_code, elsewhere.status_code, gone.status_code) == (403, 403, 403)


def bilal_feed(club):
    """Bilal, a member of the private club, and the feed address his club page gives him."""
    bilal = with_role(club, "Bilal", Member.Role.MEMBER)
    return bilal, feed_of(signed_in(bilal).get("/clubs/sfax/")).removeprefix("http://testserver")


def test_feed_key_refused_once_its_member_deleted_his_account_keeping_his_name(private_club):
    add_nights(private_club)
    bilal, feed = bilal_feed(private_club)

    delete_account(user_id=bilal.pk, anonymous=False)
    read = Client().get(feed)

    assert (Member.objects.filter(name="Bilal").exists(), read.status_code) == (True, 403)


def test_feed_key_refused_once_its_member_retired(private_club, amina):
    add_nights(private_club)
    feed = bilal_feed(private_club)[1]

    care.retire_member(
        club=private_club,
        member_id=Member.objects.get(name="Bilal").pk,
        by=Actor(user_id=amina.pk),
    )

    assert Client().get(feed).status_code == 403


CHANGE = "/clubs/sfax/nights.ics/new-key"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Your calendar link was changed"),
        ("fr", "Votre lien d’agenda a été changé"),
        ("ar", "تم تغيير رابط التقويم الخاص بك"),
    ],
)
def test_feed_key_changed_by_its_member_refuses_the_old_one(private_club, language, said):
    add_nights(private_club)
    bilal, old = bilal_feed(private_club)
    browser = signed_in(bilal)

    asked = browser.get(CHANGE, HTTP_ACCEPT_LANGUAGE=language)
    changed = browser.post(CHANGE, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    new = feed_of(changed).removeprefix("http://testserver")

    assert (asked.status_code, changed.status_code, said in changed.content.decode()) == (
        200,
        200,
        True,
    )
    assert (old != new, Client().get(old).status_code, Client().get(new).status_code) == (
        True,
        403,
        200,
    )


def test_feed_key_change_asked_on_the_club_page_of_a_private_club_only(private_club, amina):
    private = signed_in(amina).get("/clubs/sfax/").content.decode()
    make_club(amina, public=True, slug="tunis")
    public = signed_in(amina).get("/clubs/tunis/").content.decode()

    assert (f'href="{CHANGE}"' in private, 'new-key"' in public) == (True, False)


def test_feed_key_change_refused_in_a_public_club(amina):
    make_club(amina, public=True)
    browser = signed_in(amina)

    assert (browser.get(CHANGE).status_code, browser.post(CHANGE).status_code) == (404, 404)


def test_feed_key_change_refused_to_someone_of_no_club(private_club):
    stranger = signed_in(account("zied"))

    assert (stranger.post(CHANGE).status_code, Client().post(CHANGE).status_code) == (403, 302)


def test_feed_key_changed_by_an_admin_for_a_member_refuses_the_old_one(private_club, amina):
    add_nights(private_club)
    _bilal, old = bilal_feed(private_club)
    bilal = Member.objects.get(name="Bilal")
    admin = signed_in(amina)
    members = admin.get("/clubs/sfax/members").content.decode()

    asked = admin.get(f"/clubs/sfax/members/{bilal.pk}/calendar-key")
    done = admin.post(f"/clubs/sfax/members/{bilal.pk}/calendar-key", follow=True)

    assert f'href="/clubs/sfax/members/{bilal.pk}/calendar-key"' in members
    assert (asked.status_code, done.status_code, Client().get(old).status_code) == (200, 200, 403)
    assert "Bilal&#x27;s calendar link is changed" in done.content.decode()
    assert list(
        private_club.changes.filter(action="feed_key_changed").values_list("subject", "by_user")
    ) == [("Bilal", amina.pk)]


def test_feed_key_change_by_an_admin_refused_for_a_member_without_account(private_club, amina):
    guest = Member.objects.create(club=private_club, name="Omar", key="omar")
    admin = signed_in(amina)

    asked = admin.get(f"/clubs/sfax/members/{guest.pk}/calendar-key")
    refused = admin.post(f"/clubs/sfax/members/{guest.pk}/calendar-key")

    assert (asked.status_code, refused.status_code) == (200, 409)
    assert "has no calendar link" in refused.content.decode()
    assert Member.objects.get(pk=guest.pk).feed_version == 0


def test_feed_in_the_language_of_the_page_it_was_taken_from(public_club):
    add_nights(public_club)
    feed = feed_of(Client().get("/clubs/sfax/", HTTP_ACCEPT_LANGUAGE="fr"))

    read = Client().get(feed.removeprefix("http://testserver"), HTTP_ACCEPT_LANGUAGE="en")

    assert (feed.endswith("?lang=fr"), {str(e["SUMMARY"]) for e in events(read)}) == (
        True,
        {"Sfax — soirée du club"},
    )


def test_night_page_links_its_file(private_club, amina):
    first, _ = add_nights(private_club)
    page = signed_in(amina).get(f"/clubs/sfax/nights/{first.pk}/").content.decode()
    assert f'href="/clubs/sfax/nights/{first.pk}/night.ics"' in page


@pytest.mark.parametrize(
    ("language", "summary"),
    [
        ("en", "Sfax — club night"),
        ("fr", "Sfax — soirée du club"),
        ("ar", "\u2068Sfax\u2069 — أمسية النادي"),
    ],
)
def test_feed_summary_in_the_request_language(public_club, language, summary):
    add_nights(public_club)
    response = Client().get(FEED, HTTP_ACCEPT_LANGUAGE=language)
    assert {str(event["SUMMARY"]) for event in events(response)} == {summary}


def test_feed_key_change_asked_in_french_elides_before_a_vowel(private_club, amina):
    member = Member.objects.get(club=private_club, user=amina)
    admin = signed_in(amina)

    asked = admin.get(
        f"/clubs/sfax/members/{member.pk}/calendar-key", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()

    assert "Changer le lien d’agenda d’<bdi>Amina</bdi>\u00a0?" in asked
