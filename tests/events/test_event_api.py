"""An event in the read API (issue 41, item 7): the club's events, an event with its rounds,
tables, ranking and tie-break values, its finals and prizes; who may read it; its cost."""

from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.clubs.events import services
from scoring.clubs.models import EventFinal
from tests.clubs.factories import account, signed_in
from tests.events.factories import PLAYERS, make_event, names_of, next_round, settle_all, win

FOUR = ("Amina", "Bilal", "Chafik", "Dalila")
THIRTEEN = ("Amina", *PLAYERS)


def api(event=None):
    base = "/api/v1/clubs/sfax/events"
    return base if event is None else f"{base}/{event.pk}"


def test_events_list_shows_strangers_the_public_ones_only(club, by, organiser):
    make_event(club, by, players=FOUR, name="Private")
    shown = make_event(club, by, players=FOUR, name="Open", public=True)

    theirs = Client().get(api()).json()
    ours = organiser.get(api()).json()

    assert [one["name"] for one in theirs["events"]] == ["Open"]
    assert theirs["events"][0]["url"] == f"/api/v1/clubs/sfax/events/{shown.pk}"
    assert sorted(one["name"] for one in ours["events"]) == ["Open", "Private"]


def test_private_event_refused_to_strangers_public_one_answered(club, by):
    private = make_event(club, by, players=FOUR)
    public = make_event(club, by, players=FOUR, name="Open", public=True)
    stranger = signed_in(account("zied"))

    answers = [
        Client().get(api(private)).status_code,
        stranger.get(api(private)).status_code,
        Client().get(api(public)).status_code,
        Client().get("/api/v1/clubs/sfax/events/999999").status_code,
        Client().get("/api/v1/clubs/nowhere/events/1").status_code,
    ]

    assert answers == [401, 403, 200, 404, 404]


def test_event_gives_its_rounds_tables_and_ranking_with_tie_break_values(club, by, organiser):
    event = make_event(club, by, players=FOUR, entry_fee=10, prizes=["50", "30", "20"])
    row = next_round(event, by)
    settle_all(event, 1, by, totals=(30, 20, 10, 0))
    services.draw_round(event_id=event.pk, number=2, method="swiss", by=by)

    data = organiser.get(api(event)).json()

    seated = names_of(club, row.tables[0])
    assert [one["number"] for one in data["rounds"]] == [1]
    assert data["rounds"][0]["tables"][0] == {
        "number": 1,
        "game": data["rounds"][0]["tables"][0]["game"],
        "players": seated,
        "status": "settled",
        "hands": 0,
        "totals": [30, 20, 10, 0],
        "settled_reason": "time",
    }
    first = data["ranking"][0]
    assert {key: first[key] for key in ("rank", "player", "league_points", "points", "firsts")} == {
        "rank": 1,
        "player": seated[0],
        "league_points": "3",
        "points": 30,
        "firsts": 1,
    }
    assert (first["opponents"], first["decided_by"], first["eligible"]) == ("1.000", None, True)
    assert data["money"]["pool"] == "40.00"
    assert [one["amount"] for one in data["money"]["prizes"]] == ["20.00", "12.00", "8.00", None]


def test_event_hides_its_last_rounds_from_players_not_organisers(club, by, organiser):
    event = make_event(club, by, players=FOUR, hide_last_rounds=1, public=True)
    next_round(event, by)
    settle_all(event, 1, by)
    next_round(event, by)
    settle_all(event, 2, by)
    next_round(event, by)
    settle_all(event, 3, by)

    theirs = Client().get(api(event)).json()
    ours = organiser.get(api(event)).json()

    assert (len(theirs["rounds"]), theirs["hidden_from"]) == (2, 3)
    assert (len(ours["rounds"]), ours["hidden_from"]) == (3, None)


def test_event_s_final_decides_the_prizes(club, by, organiser):
    event = make_event(
        club,
        by,
        nights=((date(2026, 3, 6), 1),),
        players=FOUR,
        final="final",
        carry_over="0",
        entry_fee=10,
        prizes=["100"],
    )
    next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    final = EventFinal.objects.get(event=event)
    win(final.game, seat=3)

    data = organiser.get(api(event)).json()

    winner = names_of(club, [final.players[3]])[0]
    assert data["finals"][0]["standing"][0]["player"] == winner
    assert data["money"]["prizes"][0] == {"place": 1, "player": winner, "amount": "40.00"}


@pytest.mark.parametrize("path", ["list", "event"])
def test_event_api_costs_the_same_queries_for_4_players_and_13(club, by, organiser, path):
    counts = []
    for number, players in enumerate((FOUR, THIRTEEN)):
        event = make_event(club, by, players=players, name=f"E{number}")
        next_round(event, by)
        settle_all(event, 1, by)
        next_round(event, by, method="swiss")
        address = api() if path == "list" else api(event)
        organiser.get(address)
        with CaptureQueriesContext(connection) as queries:
            assert organiser.get(address).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]
