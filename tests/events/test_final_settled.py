"""A final's table that did not finish in time, settled by an organiser as a round's table
is (issue 41, events.md "Entries, rounds and what counts"): as it stands, or with four
totals and a reason; its standing and the prizes then follow."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from scoring.clubs.events import services
from scoring.clubs.events.prizes import event_prizes
from scoring.clubs.models import ClubChange, EventFinal
from scoring.engine import Contract, Hand, Trump
from scoring.table import services as table_services
from tests.events.factories import make_event, next_round, settle_all, win

FOUR = ("Amina", "Bilal", "Chafik", "Dalila")
TOTALS = {"total_0": 10, "total_1": 20, "total_2": 30, "total_3": 40}


def url(event, tail=""):
    return f"/clubs/sfax/events/{event.pk}/{tail}"


def final_drawn(club, by):
    """An event of one round for four, its final (league points carried halved) drawn: a
    prize pool of 40 shared 50/30/20. The finalists, best-ranked first, are 40, 30, 20, 10."""
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
    return event, EventFinal.objects.get(event=event)


def play(game, seat, hands):
    """``hands`` hands, in each of which ``seat`` bids 6 and takes the six tricks."""
    tricks = tuple(6 * (one == seat) for one in range(4))
    for number in range(1, hands + 1):
        table_services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(seat, 6, Trump.HEARTS), tricks=tricks),
            token=None,
        )


def standing(event):
    """The final's standing: each finalist and his place."""
    facts = services.event_facts(event)
    ((kind, lines),) = event_prizes(facts, facts.ranking()).finals
    return kind, [(line.entrant, line.place) for line in lines]


def prizes(event):
    facts = services.event_facts(event)
    money = event_prizes(facts, facts.ranking())
    return money.final_played, [(one.member_id, one.amount) for one in money.places]


def test_final_settled_as_it_stands_stops_its_game_and_counts_its_totals(
    club, by, organiser, amina
):
    event, final = final_drawn(club, by)
    play(final.game, seat=3, hands=2)

    response = organiser.post(url(event, "settle"), {"final": "final", "how": "stands"})

    assert (response.status_code, response["Location"]) == (302, url(event, "#final"))
    final.refresh_from_db()
    summary = final.game.summary
    assert (summary.status, final.settled_totals, final.settled_by_id) == (
        "abandoned",
        None,
        amina.pk,
    )
    played = services.event_facts(event).final_played(final)
    assert played.totals == tuple(summary.totals)
    # The fourth leads (3 round points), the others tie at rank 2 (2 each): with the league
    # points 3, 2, 1, 0 carried halved, 3.5 for the first, 3 for the fourth and the second
    # (the final table's rank puts the fourth first), 2.5 for the third.
    first, second, third, fourth = final.players
    assert standing(event) == ("final", [(first, 1), (fourth, 2), (second, 3), (third, 4)])


def test_final_settled_with_totals_makes_its_standing_and_the_prizes(club, by, organiser):
    event, final = final_drawn(club, by)
    first, second, third, fourth = final.players

    response = organiser.post(
        url(event, "settle"),
        {"final": "final", "how": "entered", **TOTALS, "reason": "The hall closed"},
    )

    assert response.status_code == 302
    final.refresh_from_db()
    assert (final.settled_totals, final.settled_reason, final.game.summary.status) == (
        [10, 20, 30, 40],
        "The hall closed",
        "abandoned",
    )
    # Carried 1.5, 1, 0.5, 0 plus the final's 0, 1, 2, 3: 1.5, 2, 2.5, 3.
    assert standing(event) == ("final", [(fourth, 1), (third, 2), (second, 3), (first, 4)])
    assert prizes(event) == (
        True,
        [
            (fourth, Decimal("20.00")),
            (third, Decimal("12.00")),
            (second, Decimal("8.00")),
            (first, None),
        ],
    )


def test_final_settled_shows_on_the_event_page_with_its_totals_and_reason(club, by, organiser):
    event, _ = final_drawn(club, by)
    services.settle_final(
        event_id=event.pk, kind="final", totals=[10, 20, 30, 40], reason="The hall closed", by=by
    )

    page = organiser.get(url(event)).content.decode()

    section = page.split('id="final"')[1].split("</section>")[0]
    assert (
        "settled" in section,
        "Reason: The hall closed" in section,
        '<small class="muted">40</small>' in section,
        "final-standing" in section,
        'name="final"' in section,
    ) == (True, True, True, True, False)


def test_final_playing_offers_its_organiser_the_settle_form(club, by, organiser):
    event, _ = final_drawn(club, by)

    section = organiser.get(url(event)).content.decode().split('id="final"')[1]

    assert '<input type="hidden" name="final" value="final">' in section.split("</section>")[0]


def test_final_settled_with_totals_without_a_reason_refused_and_nothing_changed(
    club, by, organiser
):
    event, final = final_drawn(club, by)

    response = organiser.post(url(event, "settle"), {"final": "final", "how": "entered", **TOTALS})

    assert response.status_code == 422
    section = response.content.decode().split('id="final"')[1].split("</section>")[0]
    assert "Say why these totals." in section
    final.refresh_from_db()
    assert (final.settled_at, final.game.summary.status) == (None, "playing")
    assert ClubChange.objects.filter(action="final_settled").count() == 0


def test_final_won_is_not_settled(club, by, organiser):
    event, final = final_drawn(club, by)
    win(final.game)

    response = organiser.post(url(event, "settle"), {"final": "final", "how": "stands"})

    assert response.status_code == 409
    assert "The final has finished: it counts as won." in response.content.decode()
    final.refresh_from_db()
    assert (final.settled_at, final.game.summary.status) == (None, "won")


def test_consolation_final_not_drawn_is_not_settled(club, by, organiser):
    event, _ = final_drawn(club, by)

    response = organiser.post(url(event, "settle"), {"final": "consolation", "how": "stands"})

    assert response.status_code == 409
    assert "No such final table." in response.content.decode()


def test_final_settled_twice_stays_as_first_settled_with_one_history_line(club, by, organiser):
    event, final = final_drawn(club, by)
    data = {"final": "final", "how": "entered", **TOTALS, "reason": "The hall closed"}

    first = organiser.post(url(event, "settle"), data)
    second = organiser.post(
        url(event, "settle"), {**data, "total_0": 99, "reason": "Another reason"}
    )

    assert (first.status_code, second.status_code) == (302, 302)
    final.refresh_from_db()
    assert (final.settled_totals, final.settled_reason) == ([10, 20, 30, 40], "The hall closed")
    assert ClubChange.objects.filter(action="final_settled").count() == 1


def test_final_settled_written_in_the_club_s_history_naming_who_made_it(club, by, organiser, amina):
    event, final = final_drawn(club, by)

    organiser.post(
        url(event, "settle"),
        {"final": "final", "how": "entered", **TOTALS, "reason": "The hall closed"},
    )

    line = ClubChange.objects.get(action="final_settled")
    assert (line.by_user_id, line.subject, line.members, line.after) == (
        amina.pk,
        event.name,
        final.players,
        {
            "event": event.pk,
            "final": "final",
            "totals": [10, 20, 30, 40],
            "reason": "The hall closed",
        },
    )
    page = organiser.get("/clubs/sfax/history").content.decode()
    assert "unfinished final settled" in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "La finale est finie\u00a0: elle compte comme gagnée."),
        ("ar", "انتهى النهائي: يُحتسب كما رُبح."),
    ],
)
def test_final_won_refusal_said_in_the_page_s_language(club, by, organiser, language, said):
    event, final = final_drawn(club, by)
    win(final.game)

    with translation.override(language):
        response = organiser.post(
            url(event, "settle"), {"final": "final", "how": "stands"}, HTTP_ACCEPT_LANGUAGE=language
        )

    assert (response.status_code, said in response.content.decode()) == (409, True)
