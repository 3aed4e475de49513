"""An event printed and outward (issue 41, items 5 and 7): the ranking with its prizes as a
PDF (Arabic shaped), prizes.csv, the seating sheet and table cards with the event's name,
and its nights named in the club's calendar."""

from datetime import date
from io import BytesIO

import pytest
from django.test import Client
from icalendar import Calendar
from pypdf import PdfReader

from scoring.clubs.events import services
from scoring.clubs.models import EventFinal, EventRound
from tests.events.factories import make_event, names_of, next_round, settle_all, win

FOUR = ("Amina", "Bilal", "Chafik", "Dalila")
FIVE = (*FOUR, "Emna")


def url(event, tail=""):
    return f"/clubs/sfax/events/{event.pk}/{tail}"


def pdf_text(response):
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(BytesIO(response.content)).pages
    )


def paid_event(club, by, **settings):
    return make_event(
        club,
        by,
        nights=((date(2026, 3, 6), 1),),
        players=FOUR,
        entry_fee=10,
        prizes=["50", "30", "20"],
        **settings,
    )


def test_prizes_csv_gives_each_place_its_share_of_the_pool(club, by, organiser):
    event = paid_event(club, by)
    row = next_round(event, by)
    settle_all(event, 1, by, totals=(30, 20, 10, 0))

    response = organiser.get(url(event, "prizes.csv"))

    names = names_of(club, row.tables[0])
    assert response.content.decode().splitlines() == [
        "place,player,prize,currency",
        f"1,{names[0]},20.00,EUR",
        f"2,{names[1]},12.00,EUR",
        f"3,{names[2]},8.00,EUR",
        f"4,{names[3]},,",
    ]


def test_prizes_go_by_the_final_once_it_is_won(club, by, organiser):
    event = paid_event(club, by, final="final", carry_over="0")
    next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    final = EventFinal.objects.get(event=event)
    win(final.game, seat=3)

    lines = organiser.get(url(event, "prizes.csv")).content.decode().splitlines()

    assert lines[1] == f"1,{names_of(club, [final.players[3]])[0]},20.00,EUR"


def test_fixed_amounts_are_paid_as_declared(club, by, organiser):
    event = paid_event(club, by, prize_kind="amount")
    Event = type(event)
    Event.objects.filter(pk=event.pk).update(prizes=["25", "10"])
    next_round(event, by)
    settle_all(event, 1, by)

    lines = organiser.get(url(event, "prizes.csv")).content.decode().splitlines()

    assert [line.split(",")[2] for line in lines[1:]] == ["25.00", "10.00", "", ""]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Entry fee and prizes"),
        ("fr", "Droit d’inscription et prix"),
        ("ar", "رسم المشاركة والجوائز"),
    ],
)
def test_ranking_pdf_lists_the_places_and_prizes(club, by, organiser, language, said):
    event = paid_event(club, by)
    row = next_round(event, by)
    settle_all(event, 1, by, totals=(30, 20, 10, 0))

    response = organiser.get(url(event, "ranking.pdf"), HTTP_ACCEPT_LANGUAGE=language)

    text = pdf_text(response)
    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    assert (said in text, names_of(club, row.tables[0])[0] in text, "Championnat 2026" in text) == (
        True,
        True,
        True,
    )


def test_ranking_pdf_refused_to_strangers_of_a_private_event(club, by):
    event = paid_event(club, by)

    assert Client().get(url(event, "ranking.pdf")).status_code == 302


def test_seating_sheet_and_cards_carry_the_event_s_name_and_round(club, by, organiser):
    event = make_event(club, by, players=FOUR, name="Coupe de Sfax")
    next_round(event, by)
    settle_all(event, 1, by)
    next_round(event, by)
    night = EventRound.objects.get(event=event, number=2).round
    base = f"/clubs/sfax/nights/{night.night_id}/rounds/{night.number}/"

    sheet = organiser.get(base + "sheet").content.decode()
    cards = organiser.get(base + "cards").content.decode()

    assert ("Coupe de Sfax" in sheet, "Round 2" in sheet) == (True, True)
    assert ("Coupe de Sfax" in cards, "Round 2" in cards) == (True, True)


def test_event_nights_carry_its_name_in_the_calendar(club, by, organiser):
    event = make_event(club, by, players=FOUR, name="Coupe de Sfax")
    night = event.nights.get()

    feed = organiser.get(f"/clubs/sfax/nights/{night.pk}/night.ics")

    summaries = [str(one["SUMMARY"]) for one in Calendar.from_ical(feed.content).walk("VEVENT")]
    assert summaries == ["Sfax — Coupe de Sfax"]


def test_calendar_feed_changes_when_the_event_is_renamed(club, by, organiser):
    event = make_event(club, by, players=FOUR, name="Coupe de Sfax")
    before = organiser.get("/clubs/sfax/nights.ics")
    type(event).objects.filter(pk=event.pk).update(name="Coupe d'hiver")
    after = organiser.get("/clubs/sfax/nights.ics")

    summaries = [str(one["SUMMARY"]) for one in Calendar.from_ical(after.content).walk("VEVENT")]
    assert (before["ETag"] != after["ETag"], summaries) == (True, ["Sfax — Coupe d'hiver"])


def test_event_page_gives_the_first_prize_to_the_final_s_winner(club, by, organiser):
    event = paid_event(club, by, final="final", carry_over="0")
    next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    final = EventFinal.objects.get(event=event)
    win(final.game, seat=3)

    page = organiser.get(url(event)).content.decode()

    ranking = page.split('id="ranking"')[1].split("</table>")[0]
    rows = [row for row in ranking.split("<tr") if "€20.00" in row]
    assert [names_of(club, [final.players[3]])[0] in row for row in rows] == [True]
