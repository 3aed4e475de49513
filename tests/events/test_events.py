"""A club's events (issue 41): entries, rounds drawn, swapped and published, tables settled,
the ranking and its exports, the final, and the edges of the issue's item 8, each answered
with a message and nothing half-done."""

import json
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scoring.clubs.events import services
from scoring.clubs.members import care as member_care
from scoring.clubs.models import (
    Attendance,
    Club,
    ClubChange,
    ClubGame,
    ClubResult,
    Event,
    EventEntry,
    EventFinal,
    EventRound,
    ForbiddenPair,
    Member,
    Night,
    TableSettled,
)
from scoring.clubs.nights.forms import NightForm
from scoring.table import services as table_services
from scoring.table.models import Summary
from tests.clubs.factories import account, signed_in
from tests.events.factories import (
    PLAYERS,
    check_in,
    event_data,
    games_of,
    ids,
    key_of,
    make_event,
    member_account,
    names_of,
    next_round,
    settle_all,
    win,
)

FOUR = ("Amina", "Bilal", "Chafik", "Dalila")
FIVE = (*FOUR, "Emna")
THIRTEEN = ("Amina", *PLAYERS)


def url(event, tail=""):
    return f"/clubs/sfax/events/{event.pk}/{tail}"


def seated(row):
    return sorted(one for table in row.tables for one in table)


# Entries, seatings, edges.


def test_event_of_4_players_seats_one_table_every_round(club, by):
    event = make_event(club, by, players=FOUR)

    rounds = []
    for number in (1, 2, 3):
        row = next_round(event, by)
        settle_all(event, number, by)
        rounds.append((len(row.tables), seated(row), row.sitting_out))

    assert rounds == [(1, sorted(ids(club, *FOUR)), [])] * 3


def test_event_of_5_players_sits_each_out_once_before_anyone_twice(club, by):
    event = make_event(club, by, nights=((date(2026, 3, 6), 5),), players=FIVE)

    out = []
    for number in range(1, 6):
        row = next_round(event, by)
        settle_all(event, number, by)
        out.extend(row.sitting_out)

    assert sorted(out) == sorted(ids(club, *FIVE))


def test_event_of_13_players_seats_3_tables_and_sits_1_out(club, by):
    event = make_event(club, by, players=THIRTEEN)

    row = next_round(event, by)

    assert (len(row.tables), len(row.sitting_out), len(set(seated(row) + row.sitting_out))) == (
        3,
        1,
        13,
    )
    assert games_of(event).count() == 3


def test_publish_starts_each_table_s_game_with_its_players_in_seat_order(club, by):
    event = make_event(club, by, players=FOUR)

    row = next_round(event, by)

    game = games_of(event).get().game
    assert (list(game.summary.names), game.first_dealer) == (names_of(club, row.tables[0]), 0)


def test_everybody_withdrawn_draw_refused_and_nothing_drawn(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    for member_id in ids(club, *FOUR):
        services.withdraw(event_id=event.pk, member_id=member_id, by=by)

    response = organiser.post(url(event, "draw"), {"number": 1, "method": "random"})

    assert response.status_code == 409
    assert "0 entrants are checked in: a table needs four." in response.content.decode()
    assert EventRound.objects.filter(event=event).count() == 0


def test_check_in_on_the_event_page_leaves_those_not_entered_as_they_were(club, by, organiser):
    event = make_event(club, by, players=FIVE)
    night = event.nights.get()
    # Mounir (not entered) is checked in at the night; Farid (not entered) had left.
    check_in(night, club, (*FIVE, "Mounir", "Farid"))
    check_in(night, club, (*FIVE, "Mounir"))
    services.withdraw(event_id=event.pk, member_id=ids(club, "Emna")[0], by=by)

    response = organiser.post(
        url(event, "checkin"), {"night": night.pk, "present": ids(club, "Amina", "Bilal")}
    )

    present = Attendance.objects.filter(night=night, present=True).values_list("member_id")
    assert (response.status_code, sorted(one for (one,) in present)) == (
        302,
        sorted(ids(club, "Amina", "Bilal", "Emna", "Mounir")),
    )
    assert Attendance.objects.filter(night=night).count() == 7


def test_check_in_on_the_event_page_past_a_draw_s_most_refused_and_nothing_changed(
    club, by, organiser
):
    event = make_event(club, by, players=FOUR)
    night = event.nights.get()
    others = Member.objects.bulk_create(
        Member(club=club, name=f"Guest {number}", key=f"guest {number}", role=Member.Role.GUEST)
        for number in range(197)
    )
    Attendance.objects.bulk_create(Attendance(night=night, member=one) for one in others)

    response = organiser.post(
        url(event, "checkin"), {"night": night.pk, "present": ids(club, *FOUR)}
    )

    assert (response.status_code, "201 would be present" in response.content.decode()) == (
        422,
        True,
    )
    assert Attendance.objects.filter(night=night, present=True).count() == 201


def test_withdrawn_player_keeps_his_points_and_is_never_seated_again(club, by):
    event = make_event(club, by, players=FIVE)
    next_round(event, by)
    settle_all(event, 1, by)
    emna = ids(club, "Emna")[0]
    services.withdraw(event_id=event.pk, member_id=emna, by=by)

    row = next_round(event, by)

    assert (emna in seated(row) + row.sitting_out, seated(row)) == (
        False,
        sorted(ids(club, *FOUR)),
    )
    ranking = {line.entrant: line for line in services.event_facts(event).ranking()}
    assert ranking[emna].rounds == 1


def test_late_entry_until_half_the_rounds_are_drawn(club, by):
    event = make_event(club, by, nights=((date(2026, 3, 6), 4),), players=FOUR)
    next_round(event, by)
    settle_all(event, 1, by)

    entered = services.enter(event_id=event.pk, member_ids=ids(club, "Emna"), guests=[], by=by)

    assert [(entry.member_id, entry.entered_round) for entry in entered] == [
        (ids(club, "Emna")[0], 2)
    ]


def test_late_entry_after_half_the_rounds_refused_and_nothing_entered(club, by, organiser):
    event = make_event(club, by, nights=((date(2026, 3, 6), 4),), players=FOUR)
    for number in (1, 2):
        next_round(event, by)
        settle_all(event, number, by)

    response = organiser.post(url(event, "entries"), {"present": ids(club, "Emna")})

    assert response.status_code == 409
    assert (
        "2 of the 4 rounds planned are drawn: entries closed once half of them were."
        in response.content.decode()
    )
    assert EventEntry.objects.filter(event=event).count() == 4


def test_entering_a_guest_makes_him_a_guest_of_the_club(club, by, organiser):
    event = make_event(club, by)

    response = organiser.post(url(event, "entries"), {"guests": "Omar"})

    assert response.status_code == 302
    entry = EventEntry.objects.select_related("member").get(event=event)
    assert (entry.member.name, entry.member.role, entry.member.user_id) == ("Omar", "guest", None)


def test_entry_sent_twice_enters_once(club, by, organiser):
    event = make_event(club, by)
    data = {"present": ids(club, *FOUR)}

    first = organiser.post(url(event, "entries"), data)
    second = organiser.post(url(event, "entries"), data)

    assert (first.status_code, second.status_code) == (302, 302)
    assert EventEntry.objects.filter(event=event).count() == 4
    assert ClubChange.objects.filter(action="entrants_added").count() == 1


def test_forbidden_pair_making_the_round_impossible_refused_naming_it(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    services.forbid_pair(
        club=club,
        event_id=None,
        first_id=ids(club, "Amina")[0],
        second_id=ids(club, "Bilal")[0],
        by=by,
    )

    response = organiser.post(url(event, "draw"), {"number": 1, "method": "random"})

    assert response.status_code == 409
    assert (
        "Round 1 cannot be seated without putting Amina and Bilal together, who are never "
        "seated together: nothing was drawn."
    ) in response.content.decode()
    assert EventRound.objects.filter(event=event).count() == 0


def test_forbidden_pair_is_never_seated_together(club, by):
    event = make_event(club, by, players=THIRTEEN)
    amina, bilal = ids(club, "Amina", "Bilal")
    services.forbid_pair(club=club, event_id=event.pk, first_id=bilal, second_id=amina, by=by)

    together = []
    for number in (1, 2, 3):
        row = next_round(event, by, method="swiss" if number > 1 else "random")
        settle_all(event, number, by)
        together += [table for table in row.tables if amina in table and bilal in table]

    assert together == []


def test_pair_declared_twice_is_one_pair(club, by, organiser):
    event = make_event(club, by)
    data = {"first": ids(club, "Amina")[0], "second": ids(club, "Bilal")[0], "scope": "club"}

    organiser.post(url(event, "pairs"), data)
    organiser.post(url(event, "pairs"), data)

    assert list(ForbiddenPair.objects.values_list("event", "first", "second")) == [
        (None, *sorted(ids(club, "Amina", "Bilal")))
    ]


def test_pair_of_one_player_with_himself_refused_where_typed(club, by, organiser):
    event = make_event(club, by)
    amina = ids(club, "Amina")[0]

    response = organiser.post(
        url(event, "pairs"), {"first": amina, "second": amina, "scope": "event"}
    )

    assert response.status_code == 422
    assert "Choose two different players." in response.content.decode()
    assert ForbiddenPair.objects.count() == 0


# Drafts: drawn twice, swapped, published.


def test_round_drawn_twice_the_second_is_shown_the_first(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    data = {"number": 1, "method": "random"}

    first = organiser.post(url(event, "draw"), data)
    second = organiser.post(url(event, "draw"), data)

    assert (first.status_code, second.status_code) == (302, 409)
    assert "Round 1 was just drawn, changed or published by another organiser" in (
        second.content.decode()
    )
    assert EventRound.objects.filter(event=event).count() == 1


def test_draft_is_seen_by_organisers_only_until_published(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    services.draw_round(event_id=event.pk, number=1, method="random", by=by)
    bilal = signed_in(member_account(club, "Bilal", "member"))

    organiser_sees = "not yet shown to the players" in organiser.get(url(event)).content.decode()
    member_page = bilal.get(url(event)).content.decode()

    assert (organiser_sees, "Table 1" in member_page) == (True, False)
    assert games_of(event).count() == 0


def test_swap_sent_twice_swaps_once(club, by, organiser):
    event = make_event(club, by, players=FIVE)
    row = services.draw_round(event_id=event.pk, number=1, method="random", by=by)
    out = row.sitting_out[0]
    seat = row.tables[0][0]
    data = {"number": 1, "key": key_of(event, 1), "first": seat, "second": out}

    first = organiser.post(url(event, "swap"), data)
    second = organiser.post(url(event, "swap"), data)

    row.refresh_from_db()
    assert (first.status_code, second.status_code) == (302, 409)
    assert (row.tables[0][0], row.sitting_out) == (out, [seat])


def test_swap_that_makes_a_repeat_is_warned_on_the_draft(club, by, organiser):
    event = make_event(club, by, players=("Amina", *PLAYERS[:7]))
    first = next_round(event, by)
    settle_all(event, 1, by)
    row = services.draw_round(event_id=event.pk, number=2, method="no-repeat", by=by)
    met = first.tables[0]
    table = next(table for table in row.tables if met[0] in table)
    joining = next(one for one in met if one not in table)
    leaving = next(one for one in table if one not in met)

    _, warned = services.swap(
        event_id=event.pk,
        number=2,
        first_id=leaving,
        second_id=joining,
        key=key_of(event, 2),
        by=by,
    )

    assert tuple(sorted((met[0], joining))) in warned.repeats
    assert "Met before:" in organiser.get(url(event)).content.decode()


def test_publish_sent_twice_starts_the_tables_once(club, by, organiser):
    event = make_event(club, by, players=THIRTEEN)
    services.draw_round(event_id=event.pk, number=1, method="random", by=by)
    data = {"number": 1, "key": key_of(event, 1)}

    first = organiser.post(url(event, "publish"), data)
    second = organiser.post(url(event, "publish"), data)

    assert (first.status_code, second.status_code) == (302, 302)
    assert games_of(event).count() == 3


def test_event_night_is_drawn_from_the_event_not_the_night(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    night = event.nights.get()

    response = organiser.post(f"/clubs/sfax/nights/{night.pk}/draw")

    assert response.status_code == 409
    assert "This night is an event’s: its rounds are drawn on the event’s page." in (
        response.content.decode()
    )


# Tables that never finish.


def test_table_still_playing_holds_the_next_round_until_settled(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)

    refused = organiser.post(url(event, "draw"), {"number": 2, "method": "swiss"})
    settled = organiser.post(url(event, "settle"), {"number": 1, "table": 1, "how": "stands"})
    drawn = organiser.post(url(event, "draw"), {"number": 2, "method": "swiss"})

    assert (refused.status_code, settled.status_code, drawn.status_code) == (409, 302, 302)
    assert "Round 1 is still playing at table 1" in refused.content.decode()
    game = games_of(event).get().game
    assert (game.summary.status, TableSettled.objects.get().totals) == ("abandoned", None)


def test_disputed_hand_holds_the_next_round_until_the_organiser_decides_it(club, by, organiser):
    """Issue 40.3: the event's organiser (an admin of its club) referees its games, and a
    hand in dispute holds the next round's draw, as a night's does."""
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    club.refresh_from_db()
    event = make_event(club, by, players=FOUR)
    next_round(event, by)
    game = games_of(event).get().game
    win(game)
    table_services.dispute_hand(
        public_id=game.public_id, number=4, version=1, seat=1, reason="Bilal made 4"
    )

    refused = organiser.post(url(event, "draw"), {"number": 2, "method": "swiss"})
    decided = organiser.post(
        f"/games/{game.public_id}/hands/4/decide", {"outcome": "confirmed", "reason": "Recounted"}
    )
    drawn = organiser.post(url(event, "draw"), {"number": 2, "method": "swiss"})

    assert (refused.status_code, decided.status_code, drawn.status_code) == (409, 302, 302)
    assert "1 hand of the event is disputed" in refused.content.decode()
    assert list(EventRound.objects.filter(event=event).values_list("number", flat=True)) == [1, 2]


def test_event_games_page_leads_back_to_its_event(club, by):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)
    game = games_of(event).get().game

    page = Client().get(f"/games/{game.public_id}/").content.decode()

    assert f'<a href="/clubs/sfax/events/{event.pk}/">Championnat 2026</a>' in page


def test_table_settled_with_totals_needs_them_all_and_a_reason(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)

    response = organiser.post(
        url(event, "settle"),
        {"number": 1, "table": 1, "how": "entered", "total_0": 12, "total_1": 3},
    )

    assert response.status_code == 422
    page = response.content.decode()
    assert ("Enter the four totals." in page, "Say why these totals." in page) == (True, True)
    assert TableSettled.objects.count() == 0
    assert games_of(event).get().game.summary.status == "playing"


def test_settled_totals_count_in_the_ranking(club, by):
    event = make_event(club, by, players=FOUR)
    row = next_round(event, by)

    settle_all(event, 1, by, totals=(5, 40, 20, 20))

    ranking = [
        (line.entrant, line.league_points, line.points)
        for line in services.event_facts(event).ranking()
    ]
    first, second, third, fourth = row.tables[0]
    # Tied at rank 2, the third and fourth each score rank 2's points; the lot orders them.
    assert (ranking[0], sorted(ranking[1:3]), ranking[3]) == (
        (second, 3, 40),
        sorted([(third, 2, 20), (fourth, 2, 20)]),
        (first, 0, 5),
    )


def test_won_table_is_not_settled(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)
    Summary.objects.filter(game__club_game__round__event_round__event=event).update(status="won")

    response = organiser.post(url(event, "settle"), {"number": 1, "table": 1, "how": "stands"})

    assert response.status_code == 409
    assert TableSettled.objects.count() == 0


# The event deleted.


def test_event_deleted_with_games_keeps_them_in_the_club(club, by, organiser):
    event = make_event(club, by, players=THIRTEEN)
    next_round(event, by)
    games = set(games_of(event).values_list("game_id", flat=True))
    night = event.nights.get()

    asked = organiser.get(url(event, "delete"))
    response = organiser.post(url(event, "delete"))

    assert (asked.status_code, response.status_code) == (200, 302)
    assert Event.objects.count() == 0
    assert set(ClubGame.objects.filter(club=club).values_list("game_id", flat=True)) == games
    assert Night.objects.get(pk=night.pk).event_id is None
    line = ClubChange.objects.get(action="event_deleted")
    assert (line.subject, sorted(line.members)) == (
        "Championnat 2026",
        sorted(ids(club, *THIRTEEN)),
    )


# The ranking: hidden rounds, exports, the final.


def test_hidden_rounds_are_left_out_for_players_not_organisers(club, by, organiser):
    event = make_event(club, by, players=FOUR, hide_last_rounds=1)
    for number in (1, 2, 3):
        next_round(event, by)
        settle_all(event, number, by)
    facts = services.event_facts(event)

    organisers = [line.rounds for line in facts.ranking(up_to_round=facts.shown_up_to(True))]
    players = [line.rounds for line in facts.ranking(up_to_round=facts.shown_up_to(False))]

    assert (organisers, players) == ([3, 3, 3, 3], [2, 2, 2, 2])
    bilal = signed_in(member_account(club, "Bilal", "member"))
    assert (
        "The ranking leaves out the rounds from round 3 on"
        in bilal.get(url(event)).content.decode()
    )


def test_ranking_csv_has_the_contract_s_columns(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    row = next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))

    response = organiser.get(url(event, "ranking.csv"))

    names = names_of(club, row.tables[0])
    assert response.content.decode().split("\r\n") == [
        "rank,player,rounds,league_points,points,opponents,firsts,nights,eligible,decided_by",
        f"1,{names[0]},1,3,40,1.000,1,1,1,",
        f"2,{names[1]},1,2,30,1.333,0,1,1,",
        f"3,{names[2]},1,1,20,1.667,0,1,1,",
        f"4,{names[3]},1,0,10,2.000,0,1,1,",
        "",
    ]


def test_event_jsonl_has_each_counted_game_with_its_event_and_round(club, by, organiser):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)
    settle_all(event, 1, by)

    lines = organiser.get(url(event, "event.jsonl")).getvalue().decode().splitlines()

    records = [json.loads(line) for line in lines]
    assert [(record["event"], record["round"], record["club"]) for record in records] == [
        ("Championnat 2026", 1, "Sfax")
    ]


def test_event_jsonl_gives_a_settled_table_as_it_stood_with_the_contracts_keys_only(
    club, by, organiser
):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)
    settle_all(event, 1, by, totals=(5, 40, 20, 20))

    lines = organiser.get(url(event, "event.jsonl")).getvalue().decode().splitlines()

    records = [json.loads(line) for line in lines]
    # Its record is the game as it stood (no hand played), abandoned; the record contract's
    # readers refuse keys it does not list, so the totals entered are not in the file.
    assert [
        (len(record["hands"]), record["abandoned"], "settled" in record) for record in records
    ] == [(0, True, False)]


EIGHT = (*FIVE, "Farid", "Ghada", "Hedi")
RECORD_KEYS = (
    *("format", "players", "first_dealer", "rules", "hands"),
    *("id", "club", "started_at", "finished_at", "place"),
    *("event", "round"),
)
"""A won event game's keys in event.jsonl: the record's, league.md's descriptive keys where
known (this club has no season), the event and the round; nothing else."""


def finals_played(club, by, **settings):
    """An event of one round for eight (its two tables settled), its final and consolation
    drawn: the finals."""
    event = make_event(
        club, by, nights=((date(2026, 3, 6), 1),), players=EIGHT, final="consolation", **settings
    )
    next_round(event, by)
    settle_all(event, 1, by)
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    return event, {final.kind: final for final in EventFinal.objects.filter(event=event)}


def test_event_jsonl_has_the_finals_games_in_the_order_they_finished(club, by, organiser):
    event, finals = finals_played(club, by)
    win(finals["consolation"].game)
    win(finals["final"].game, seat=2)

    lines = organiser.get(url(event, "event.jsonl")).getvalue().decode().splitlines()

    records = [json.loads(line) for line in lines]
    said = [(record["round"], record["players"], record.get("abandoned")) for record in records]
    assert said == [
        (1, names_of(club, table), True) for table in EventRound.objects.get(event=event).tables
    ] + [
        ("consolation", names_of(club, finals["consolation"].players), None),
        ("final", names_of(club, finals["final"].players), None),
    ]
    assert sorted(records[-1]) == sorted(RECORD_KEYS)


def test_event_jsonl_has_a_settled_final_not_one_playing_nor_one_hidden(club, by, organiser):
    event, _ = finals_played(club, by)
    services.settle_final(
        event_id=event.pk, kind="consolation", totals=[1, 2, 3, 4], reason="time", by=by
    )
    shown = organiser.get(url(event, "event.jsonl")).getvalue().decode().splitlines()
    Event.objects.filter(pk=event.pk).update(hide_last_rounds=1)
    hidden = organiser.get(url(event, "event.jsonl")).getvalue().decode().splitlines()

    assert [json.loads(line)["round"] for line in shown] == [1, 1, "consolation"]
    assert hidden == []


def test_final_seats_the_four_best_ranked_best_first(club, by, organiser):
    event = make_event(club, by, nights=((date(2026, 3, 6), 1),), players=FIVE, final="final")
    next_round(event, by)
    settle_all(event, 1, by)
    best = [line.entrant for line in services.event_facts(event).ranking()][:4]

    first = organiser.post(url(event, "final"))
    second = organiser.post(url(event, "final"))

    assert (first.status_code, second.status_code) == (302, 302)
    final = EventFinal.objects.get(event=event)
    assert (final.players, list(final.game.summary.names)) == (best, names_of(club, best))


def test_final_before_the_last_round_refused(club, by, organiser):
    event = make_event(club, by, players=FOUR, final="final")
    next_round(event, by)

    response = organiser.post(url(event, "final"))

    assert response.status_code == 409
    assert EventFinal.objects.count() == 0


# Pages: who sees what, in each language, at what cost.


def test_private_event_is_refused_to_strangers_public_one_shown(club, by):
    event = make_event(club, by, players=FOUR)
    stranger = signed_in(account("zied"))

    refused = stranger.get(url(event)).status_code
    Event.objects.filter(pk=event.pk).update(public=True)
    shown = stranger.get(url(event)).status_code

    assert (refused, shown) == (403, 200)


def test_members_may_not_organise(club, by):
    event = make_event(club, by, players=FOUR)
    bilal = signed_in(member_account(club, "Bilal", "scorer"))

    response = bilal.post(url(event, "draw"), {"number": 1, "method": "random"})

    assert response.status_code == 403
    assert EventRound.objects.count() == 0


def test_new_event_made_once_with_its_first_night(club, organiser):
    page = organiser.get("/clubs/sfax/events/new").content.decode()
    once = page.split('name="once" value="')[1].split('"')[0]
    data = event_data(
        club,
        once=once,
        date="2026-03-06",
        place="Café",
        rounds=3,
        sit_out_points="average",
        final="final",
        carry_over="0.5",
        entry_fee="10",
        prizes="50 30 20",
    )

    first = organiser.post("/clubs/sfax/events/new", data)
    second = organiser.post("/clubs/sfax/events/new", data)

    assert (first.status_code, second.status_code) == (302, 302)
    event = Event.objects.get()
    assert (event.name, event.sit_out_points, event.prizes, event.nights.get().rounds) == (
        "Coupe",
        "average",
        ["50", "30", "20"],
        3,
    )


def test_shares_over_100_refused_where_typed(club, by, organiser):
    event = make_event(club, by)

    response = organiser.post(url(event, "edit"), event_data(club, prizes="60 50"))

    assert response.status_code == 422
    assert "The shares add up to more than 100%." in response.content.decode()
    assert Event.objects.get().prizes == []


def test_prize_list_shares_the_pool_of_the_fees(club, by, organiser):
    event = make_event(club, by, players=FOUR)

    organiser.post(url(event, "edit"), event_data(club, entry_fee="10", prizes="50 30 20"))

    page = organiser.get(url(event)).content.decode()
    assert ("The pool: €40.00, from 4 entries." in page, "€20.00" in page, "€12.00" in page) == (
        True,
        True,
        True,
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Never seated together"),
        ("fr", "Jamais à la même table"),
        ("ar", "لا يجلسان معًا أبدًا"),
    ],
)
def test_event_page_is_said_in_each_language(club, by, organiser, language, said):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)

    with translation.override(language):
        page = organiser.get(url(event), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert said in page


@pytest.mark.parametrize(
    ("language", "heading", "count"),
    [
        ("en", "Rounds", "Rounds"),
        ("fr", "Tours", "Nombre de tours"),
        ("ar", "الأدوار", "عدد الأدوار"),
    ],
)
def test_event_page_s_rounds_heading_and_column_are_not_the_count_of_rounds(
    club, by, organiser, language, heading, count
):
    event = make_event(club, by, players=FOUR)
    next_round(event, by)

    with translation.override(language):
        page = organiser.get(url(event), HTTP_ACCEPT_LANGUAGE=language).content.decode()

        # The count: a night's rounds, as its form asks them (scoring/clubs/nights/forms.py).
        asked = str(NightForm().fields["rounds"].label)

    title = page.split('<h2 id="rounds-title">')[1].split("</h2>")[0]
    column = page.split('<th scope="col" class="num extra">')[3].split("</th>")[0]
    assert (title, column, asked) == (heading, heading, count)


def test_event_page_costs_the_same_queries_for_4_players_and_13(club, by, organiser):
    counts = []
    for number, players in enumerate((FOUR, THIRTEEN)):
        event = make_event(club, by, players=players, name=f"E{number}")
        next_round(event, by)
        settle_all(event, 1, by)
        services.draw_round(event_id=event.pk, number=2, method="swiss", by=by)
        organiser.get(url(event))
        with CaptureQueriesContext(connection) as queries:
            assert organiser.get(url(event)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_final_standing_adds_the_league_points_carried_to_the_final_s(club, by, organiser):
    event = make_event(
        club, by, nights=((date(2026, 3, 6), 1),), players=FOUR, final="final", carry_over="0.5"
    )
    next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    final = EventFinal.objects.get(event=event)
    win(final.game, seat=3)

    page = organiser.get(url(event)).content.decode()

    rows = page.split("final-standing")[1].split("</table>")[0].split("<tr>")[2:]
    first, second, third, fourth = final.players
    names = dict(zip(final.players, names_of(club, final.players), strict=True))
    # League points 3, 2, 1, 0 carried halved; the fourth wins the final (3 round points),
    # the others tie at rank 2 (2 each): 3.5, then 3 and 3 (the final table's rank puts the
    # fourth first), then 2.5.
    assert [
        (names[one] in row, "placed by rank at the final table" in row)
        for one, row in zip((first, fourth, second, third), rows, strict=True)
    ] == [(True, False), (True, True), (True, True), (True, False)]


def test_games_of_an_event_kept_out_of_the_season_count_nowhere_until_let_in(club, by, organiser):
    event = make_event(club, by, players=FOUR, counts_in_season=False)
    next_round(event, by)
    game = games_of(event).get().game
    win(game)

    kept_out = ClubResult.objects.filter(game=game).count()
    organiser.post(url(event, "edit"), event_data(club, name="Championnat 2026"))
    let_in = ClubResult.objects.filter(game=game).count()

    assert (kept_out, let_in) == (0, 4)
    assert services.event_facts(event).ranking()[0].points == 24


def test_merged_player_s_entry_seats_and_pairs_are_the_kept_player_s(club, by):
    event = make_event(club, by, players=FOUR)
    omarr = services.enter(event_id=event.pk, member_ids=[], guests=["Omarr"], by=by)[0].member
    check_in(event.nights.get(), club, (*FOUR, "Omarr"))
    mounir = ids(club, "Mounir")[0]  # not entered: the draw never has to keep them apart
    services.forbid_pair(club=club, event_id=None, first_id=omarr.pk, second_id=mounir, by=by)
    row = next_round(event, by)
    leila = ids(club, "Leila")[0]

    member_care.merge_members(club=club, gone_id=omarr.pk, kept_id=leila, by=by)

    row.refresh_from_db()
    assert (leila in seated(row) + row.sitting_out, omarr.pk in seated(row) + row.sitting_out) == (
        True,
        False,
    )
    assert EventEntry.objects.filter(event=event, member_id=leila).count() == 1
    assert list(ForbiddenPair.objects.values_list("first", "second")) == [
        tuple(sorted((leila, mounir)))
    ]
    assert sorted(line.entrant for line in services.event_facts(event).ranking()) == sorted(
        ids(club, *FOUR, "Leila")
    )


def test_history_page_lists_the_event_s_changes_naming_who_made_them(club, by, organiser):
    event = make_event(club, by, players=FIVE)
    next_round(event, by)
    settle_all(event, 1, by)

    page = organiser.get("/clubs/sfax/history").content.decode()

    said = ["event made", "players entered in an event", "event round drawn"]
    said += ["event round published", "unfinished table settled"]
    assert [words in page for words in said] == [True] * 5


def test_public_event_shows_strangers_its_ranking_by_public_names_with_no_player_links(club, by):
    event = make_event(club, by, players=FOUR, public=True)
    next_round(event, by)
    settle_all(event, 1, by)

    page = Client().get(url(event)).content.decode()

    assert ("Bilal" in page, "/clubs/sfax/players/" in page) == (True, False)


def test_prizes_follow_the_final_s_standing_once_it_is_played(club, by, organiser):
    event = make_event(
        club,
        by,
        nights=((date(2026, 3, 6), 1),),
        players=FOUR,
        final="final",
        carry_over="0.5",
        entry_fee=Decimal(10),
        prizes=["50", "30", "20"],
    )
    next_round(event, by)
    settle_all(event, 1, by, totals=(40, 30, 20, 10))
    services.draw_final(event_id=event.pk, owner_id=None, by=by)
    final = EventFinal.objects.get(event=event)
    first, second, third, fourth = final.players
    before = services.event_facts(event)  # the ranking: first, second, third, fourth
    win(final.game, seat=3)

    rows = organiser.get(url(event)).content.decode().split("event-ranking")[1].split("<tr")
    text = {
        one: next(row for row in rows if names_of(club, [one])[0] in row) for one in final.players
    }

    # The final's standing: first (3.5), fourth (3), second (3), third (2.5); a pool of 40.
    assert [line.entrant for line in before.ranking()] == [first, second, third, fourth]
    assert [
        "€20.00" in text[first],
        "€12.00" in text[fourth],
        "€8.00" in text[second],
        "€" in text[third],
    ] == [True, True, True, False]
