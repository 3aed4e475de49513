"""The room's screen of an event (issue 41, item 6): who may see it (a public event, a
member, a signed key; a wrong key refused), what it shows (the round last published with
each table's progress, the ranking, the seats; never a draft), its live answer (304 while
nothing changed), its languages, and its cost."""

from datetime import date
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.clubs.events import services
from scoring.clubs.events.screen import screen_key
from scoring.clubs.models import Event, EventFinal
from scoring.engine import Contract, Hand, Trump
from scoring.table import services as table_services
from tests.clubs.factories import account, signed_in
from tests.events.factories import PLAYERS, games_of, make_event, next_round, settle_all, win

FOUR = ("Amina", "Bilal", "Chafik", "Dalila")
EIGHT = (*FOUR, "Emna", "Farid", "Ghada", "Hedi")
THIRTEEN = ("Amina", *PLAYERS)


def screen_url(event, tail="", **query):
    address = f"/clubs/sfax/events/{event.pk}/screen{tail}"
    if query:
        address += "?" + "&".join(f"{name}={value}" for name, value in query.items())
    return address


def test_public_event_screen_shown_to_anyone(club, by):
    event = make_event(club, by, players=FOUR, public=True)
    next_round(event, by)

    response = Client().get(screen_url(event))

    page = response.content.decode()
    assert (response.status_code, "Round 1: the tables" in page, "hand 1" in page) == (
        200,
        True,
        True,
    )


def test_private_event_screen_refused_without_its_key(club, by):
    event = make_event(club, by, players=FOUR)

    assert Client().get(screen_url(event)).status_code == 403


def test_private_event_screen_refused_with_a_wrong_key(club, by):
    event = make_event(club, by, players=FOUR)
    other = make_event(club, by, players=FOUR, name="Other")
    stranger = signed_in(account("zied"))

    answers = [
        Client().get(screen_url(event, key="made-up")).status_code,
        Client().get(screen_url(event, key=screen_key(other))).status_code,
        stranger.get(screen_url(event, key=screen_key(other))).status_code,
        Client().get(screen_url(event, "/live", key="made-up")).status_code,
    ]

    assert answers == [403, 403, 403, 403]


def test_private_event_screen_shown_with_its_key_and_to_members(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    key = screen_key(event)

    answers = [
        Client().get(screen_url(event, key=key)).status_code,
        Client().get(screen_url(event, "/live", key=key)).status_code,
        organiser.get(screen_url(event)).status_code,
    ]

    assert answers == [200, 200, 200]


def test_screen_key_reads_no_more_once_the_event_s_seed_changes(club, by):
    event = make_event(club, by, players=FOUR)
    key = screen_key(event)
    Event.objects.filter(pk=event.pk).update(seed="another")

    assert Client().get(screen_url(event, key=key)).status_code == 403


def test_event_page_gives_its_organisers_the_signed_screen_link(club, by, organiser):
    event = make_event(club, by, players=FOUR)

    page = organiser.get(f"/clubs/sfax/events/{event.pk}/").content.decode()

    assert "screen?" + urlencode({"key": screen_key(event)}) in page


def test_screen_shows_no_draft(club, by):
    event = make_event(club, by, players=EIGHT, public=True)
    next_round(event, by)
    settle_all(event, 1, by)
    before = Client().get(screen_url(event))

    services.draw_round(event_id=event.pk, number=2, method="swiss", by=by)
    after = Client().get(screen_url(event))

    page = after.content.decode()
    assert ("Round 1: your seat" in page, "Round 2" in page, after["ETag"]) == (
        True,
        False,
        before["ETag"],
    )


def test_screen_shows_the_round_once_published(club, by):
    event = make_event(club, by, players=EIGHT, public=True)
    next_round(event, by)
    settle_all(event, 1, by)
    next_round(event, by, method="swiss")

    page = Client().get(screen_url(event)).content.decode()

    assert ("Round 2: your seat" in page, "Round 2: the tables" in page) == (True, True)


def test_screen_live_answers_304_until_the_event_changes(club, by):
    event = make_event(club, by, players=FOUR, public=True)
    next_round(event, by)
    browser = Client()
    first = browser.get(screen_url(event, "/live"))

    again = browser.get(screen_url(event, "/live"), HTTP_IF_NONE_MATCH=first["ETag"])
    win(games_of(event).get().game)
    changed = browser.get(screen_url(event, "/live"), HTTP_IF_NONE_MATCH=first["ETag"])

    assert (first.status_code, again.status_code, again.content, changed.status_code) == (
        200,
        304,
        b"",
        200,
    )
    assert ("finished" in changed.content.decode(), changed["ETag"] != first["ETag"]) == (
        True,
        True,
    )


def test_screen_shows_each_table_s_progress(club, by):
    event = make_event(club, by, players=EIGHT, public=True)
    next_round(event, by)
    first, _ = games_of(event)
    win(first.game)

    page = Client().get(screen_url(event)).content.decode()

    assert (page.count("table-won"), page.count("table-playing"), "hand 1" in page) == (1, 1, True)


@pytest.mark.parametrize(
    ("language", "direction", "said"),
    [
        ("en", "ltr", "your seat"),
        ("fr", "ltr", "votre place"),
        ("ar", "rtl", "مكانك"),
    ],
)
def test_screen_is_said_in_the_link_s_language(club, by, language, direction, said):
    event = make_event(club, by, players=FOUR, public=True)
    next_round(event, by)

    page = Client().get(screen_url(event, lang=language, theme="dark")).content.decode()

    assert (f'dir="{direction}"' in page, said in page, "screen-dark" in page) == (
        True,
        True,
        True,
    )


@pytest.mark.parametrize("tail", ["", "/live"])
def test_screen_costs_the_same_queries_for_4_players_and_13(club, by, tail):
    counts = []
    for number, players in enumerate((FOUR, THIRTEEN)):
        event = make_event(club, by, players=players, name=f"E{number}", public=True)
        next_round(event, by)
        settle_all(event, 1, by)
        next_round(event, by, method="swiss")
        browser = Client()
        browser.get(screen_url(event, tail))
        with CaptureQueriesContext(connection) as queries:
            assert browser.get(screen_url(event, tail)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_screen_unchanged_costs_two_queries(club, by):
    event = make_event(club, by, players=THIRTEEN, public=True)
    next_round(event, by)
    browser = Client()
    tag = browser.get(screen_url(event, "/live"))["ETag"]

    with CaptureQueriesContext(connection) as queries:
        response = browser.get(screen_url(event, "/live"), HTTP_IF_NONE_MATCH=tag)

    assert (response.status_code, len(queries)) == (304, 2)


def test_screen_lists_prizes_beside_the_ranking(club, by):
    event = make_event(
        club,
        by,
        nights=((date(2026, 3, 6), 1),),
        players=FOUR,
        public=True,
        entry_fee=10,
        prizes=["50", "30", "20"],
    )
    next_round(event, by)
    settle_all(event, 1, by)

    page = Client().get(screen_url(event)).content.decode()

    assert ("€20.00" in page, "€12.00" in page, "€8.00" in page) == (True, True, True)


def play_hand(game, number=1):
    """Hand ``number`` of ``game``: its first seat bids 6 and takes the six tricks."""
    table_services.record_hand(
        public_id=game.public_id,
        number=number,
        hand=Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0)),
        token=None,
    )


def finals_drawn(club, by):
    """A public event of one round for eight, its final and consolation drawn."""
    event = make_event(
        club, by, nights=((date(2026, 3, 6), 1),), players=EIGHT, public=True, final="consolation"
    )
    next_round(event, by)
    settle_all(event, 1, by)
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    return event, {final.kind: final for final in EventFinal.objects.filter(event=event)}


def test_screen_shows_the_finals_tables_with_their_progress_once_drawn(club, by):
    event, finals = finals_drawn(club, by)
    play_hand(finals["final"].game)
    win(finals["consolation"].game)

    page = Client().get(screen_url(event)).content.decode()

    tables = page.split('data-kind="finals"')[1].split("</section>")[0]
    final, consolation = tables.split('<li class="screen-table ')[1:]
    assert (
        final.startswith('table-playing final-final"'),
        "Final table" in final,
        "hand 2" in final,
        consolation.startswith('table-won final-consolation"'),
        "Consolation table" in consolation,
        "finished" in consolation,
    ) == (True, True, True, True, True, True)
    # The round is over: its seats no longer show, the finals first.
    assert ("Round 1: your seat" in page, page.index("finals") < page.index("standings")) == (
        False,
        True,
    )


def test_screen_live_follows_a_hand_of_the_final(club, by):
    event, finals = finals_drawn(club, by)
    browser = Client()
    first = browser.get(screen_url(event, "/live"))

    play_hand(finals["final"].game)
    changed = browser.get(screen_url(event, "/live"), HTTP_IF_NONE_MATCH=first["ETag"])

    assert (changed.status_code, "hand 2" in changed.content.decode()) == (200, True)
