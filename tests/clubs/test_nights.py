"""Club nights (issue 12), the web side: a night, check-in, rounds drawn to tables and their
games, the organiser's live view, the table sheet and cards, closing rounds, and the night's
ranking. Rights are the server's: a member watches, a scorer or admin organises, and a table
card's link hands the scoring of its one game to the phone that opens it."""

import csv
import io
import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from scoring.clubs import services as club_services
from scoring.clubs.league.standings import season_standings
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Attendance, Club, Member, Night, Round
from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Trump
from scoring.engine.draw import MAX_PLAYERS
from scoring.engine.league import CSV_HEADER
from scoring.table import services
from scoring.table.confirming import agreement_of
from scoring.table.models import Game, ScorerLink, Summary
from scoring.table.state import load_game
from tests.clubs.factories import account, make_club, signed_in, with_role
from tests.clubs.nights import PLAYERS, ids, night_url, nine_present, present, win
from tests.conftest import SMALL_LIMIT

pytestmark = pytest.mark.django_db

ZONE = "Africa/Tunis"


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    """The club Sfax, whose league points for ranks 1 to 4 are 5, 3, 1, 0; Amina is its admin,
    and eight more players are its members."""
    return make_club(amina, time_zone=ZONE, points=(5, 3, 1, 0), target=21, players=PLAYERS)


@pytest.fixture
def organiser(amina):
    return signed_in(amina)


@pytest.fixture
def night(club):
    return night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=None)


def names_of(club, member_ids):
    names = dict(club.members.values_list("pk", "name"))
    return [names[pk] for pk in member_ids]


def seated(game):
    return [seat.player.name for seat in game.seats.select_related("player").order_by("position")]


def hand_post(game, number=1):
    """The hand form's POST data for the game's hand ``number``: seat 1 makes 4 at hearts."""
    return {
        "number": number,
        "dealer": (game.first_dealer + number - 1) % 4,
        "taker": 1,
        "bid": 4,
        "trump": "H",
        "tricks_0": 1,
        "tricks_1": 4,
        "tricks_2": 0,
    }


def page(response):
    return response.content.decode()


# --- A night ------------------------------------------------------------------------------


@pytest.mark.smoke
def test_new_night_scorer_creates_it_and_lands_on_its_page(club):
    scorer = signed_in(with_role(club, "Sami", Member.Role.SCORER))

    response = scorer.post(
        "/clubs/sfax/nights/new", {"date": "2025-03-07", "place": "Café Sfax", "rounds": "3"}
    )

    night = Night.objects.get()
    assert (response.status_code, response.headers["Location"]) == (302, night_url(night))
    assert (night.club, night.date, night.place, night.rounds) == (
        club,
        date(2025, 3, 7),
        "Café Sfax",
        3,
    )


def test_new_night_without_rounds_plays_until_we_stop(club, organiser):
    organiser.post("/clubs/sfax/nights/new", {"date": "2025-03-07", "place": "", "rounds": ""})

    assert Night.objects.get().rounds is None


def test_new_night_form_proposes_today_in_the_club_time_zone(club, organiser):
    response = organiser.get("/clubs/sfax/nights/new")

    assert response.status_code == 200
    assert response.context["form"]["date"].value() == timezone.localdate(timezone=ZoneInfo(ZONE))


def test_new_night_zero_rounds_is_refused(club, organiser):
    response = organiser.post("/clubs/sfax/nights/new", {"date": "2025-03-07", "rounds": "0"})

    assert (response.status_code, Night.objects.count()) == (422, 0)


def test_new_night_past_the_clubs_figure_is_refused_from_anywhere(club, small_limits):
    """Nights are counted per club (issue 39 finding 5): a scorer making them by the dozen,
    from one address or many, meets the club's figure; another club does not."""
    scorer = signed_in(with_role(club, "Sami", Member.Role.SCORER))
    answers = [
        scorer.post(
            "/clubs/sfax/nights/new",
            {"date": "2025-03-07", "place": "", "rounds": ""},
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        ).status_code
        for n in range(SMALL_LIMIT + 1)
    ]

    assert (answers, Night.objects.count()) == ([302] * SMALL_LIMIT + [429], SMALL_LIMIT)
    assert (
        "This club has made too many nights"
        in scorer.post(
            "/clubs/sfax/nights/new", {"date": "2025-03-08", "place": "", "rounds": ""}
        ).content.decode()
    )


def test_new_night_refused_post_of_a_stranger_counts_nothing(club, organiser, small_limits):
    stranger = signed_in(account("zied"))
    for _ in range(SMALL_LIMIT + 1):
        stranger.post("/clubs/sfax/nights/new", {"date": "2025-03-07", "place": "", "rounds": ""})

    response = organiser.post(
        "/clubs/sfax/nights/new", {"date": "2025-03-07", "place": "", "rounds": ""}
    )

    assert (response.status_code, Night.objects.count()) == (302, 1)


def test_new_night_plain_member_is_forbidden(club):
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    responses = [member.get("/clubs/sfax/nights/new"), member.post("/clubs/sfax/nights/new", {})]

    assert [response.status_code for response in responses] == [403, 403]
    assert Night.objects.count() == 0


def test_new_night_signed_out_is_sent_to_log_in(club):
    response = Client().get("/clubs/sfax/nights/new")

    assert (response.status_code, response.headers["Location"]) == (
        302,
        "/accounts/login/?next=/clubs/sfax/nights/new",
    )


def test_club_page_lists_its_nights_and_offers_a_new_one(club, night, organiser):
    html = page(organiser.get("/clubs/sfax/"))

    assert f'href="{night_url(night)}"' in html
    assert 'href="/clubs/sfax/nights/new"' in html


def test_night_page_member_watches_without_the_organiser_forms(club, night):
    nine_present(club, night)
    night_services.draw_round(night_id=night.pk, owner_id=None)
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.get(night_url(night))

    html = page(response)
    assert response.status_code == 200
    assert ("Table 2" in html, 'action="' in html.split("<main>")[1]) == (True, False)


def test_night_page_other_account_is_forbidden(club, night):
    response = signed_in(account("stranger")).get(night_url(night))

    assert response.status_code == 403


# --- Check-in -----------------------------------------------------------------------------


@pytest.mark.smoke
def test_check_in_marks_members_present_and_adds_a_new_guest(club, night, organiser):
    response = organiser.post(
        night_url(night, "checkin"),
        {"present": ids(club, "Amina", "Bilal", "Chafik"), "guests": "Zoé, Yanis\nzoé"},
    )

    zoe = club.members.get(name="Zoé")
    assert response.status_code == 302
    assert zoe.role == Member.Role.GUEST
    assert sorted(
        Attendance.objects.filter(night=night, present=True).values_list("member__name", flat=True)
    ) == ["Amina", "Bilal", "Chafik", "Yanis", "Zoé"]


def test_check_in_unticked_player_has_left(club, night, organiser):
    present(club, night, ["Amina", "Bilal", "Chafik"])

    organiser.post(night_url(night, "checkin"), {"present": ids(club, "Amina", "Chafik")})

    assert dict(Attendance.objects.filter(night=night).values_list("member__name", "present")) == {
        "Amina": True,
        "Bilal": False,
        "Chafik": True,
    }


def test_check_in_page_ticks_those_present(club, night, organiser):
    present(club, night, ["Bilal"])

    html = page(organiser.get(night_url(night)))

    ticked = re.findall(r'<input type="checkbox" name="present" value="(\d+)"[^>]*checked', html)
    assert ticked == [str(pk) for pk in ids(club, "Bilal")]


def test_check_in_invisible_character_in_a_guest_name_is_refused(club, night, organiser):
    response = organiser.post(night_url(night, "checkin"), {"guests": "Zo\u200be"})

    assert (response.status_code, Attendance.objects.count()) == (422, 0)


def test_check_in_over_the_draws_limit_is_refused_where_typed_and_changes_nothing(
    club, night, organiser
):
    guests = ", ".join(f"Guest {number}" for number in range(MAX_PLAYERS))

    response = organiser.post(
        night_url(night, "checkin"), {"present": ids(club, "Amina", "Bilal"), "guests": guests}
    )

    assert response.status_code == 422
    assert response.context["form"].errors == {
        "guests": [
            f"A draw seats at most {MAX_PLAYERS} players: {MAX_PLAYERS + 2} would be present. "
            "Check fewer in."
        ]
    }
    assert (Attendance.objects.count(), club.members.count()) == (0, 1 + len(PLAYERS))


def test_check_in_up_to_the_draws_limit_is_taken(club, night, organiser):
    guests = ", ".join(f"Guest {number}" for number in range(MAX_PLAYERS - 2))

    response = organiser.post(
        night_url(night, "checkin"), {"present": ids(club, "Amina", "Bilal"), "guests": guests}
    )

    assert (response.status_code, Attendance.objects.count()) == (302, MAX_PLAYERS)


# --- Rounds -------------------------------------------------------------------------------


@pytest.mark.smoke
def test_draw_nine_present_seats_two_tables_and_one_sits_out(club, night, organiser):
    nine_present(club, night)

    response = organiser.post(night_url(night, "draw"))

    drawn = Round.objects.get(night=night)
    games = list(Game.objects.filter(club_game__round=drawn).order_by("club_game__table"))
    assert response.status_code == 302
    assert (drawn.number, [len(table) for table in drawn.tables], len(drawn.sitting_out)) == (
        1,
        [4, 4],
        1,
    )
    assert sorted(sum(drawn.tables, drawn.sitting_out)) == sorted(ids(club, "Amina", *PLAYERS))
    assert [game.club_game.table for game in games] == [1, 2]
    assert [seated(game) for game in games] == [names_of(club, table) for table in drawn.tables]
    assert [game.club_game.club_id for game in games] == [club.pk, club.pk]
    assert [ScorerLink.objects.filter(game=game, revoked_at=None).count() for game in games] == [
        1,
        1,
    ]


def test_draw_page_shows_each_table_live(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    game = Game.objects.get(club_game__table=1)
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(2, 4, Trump.SPADES), tricks=(1, 0, 4, 1)),
        token=None,
    )

    html = page(organiser.get(night_url(night)))

    table = next(
        part for part in html.split('<li class="night-table table-') if game.public_id in part
    )
    assert table.startswith('playing">')
    assert "hand 2" in table
    assert f"Leader: {seated(game)[2]}" in table
    assert "Close the round: record the tables still playing as abandoned" in html
    assert "Draw round 2" not in html


def test_draw_while_tables_play_is_refused_with_a_notice(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))

    response = organiser.post(night_url(night, "draw"))

    assert response.status_code == 409
    assert "Round 1 is still playing at 2 tables" in page(response)
    assert Round.objects.count() == 1


def test_draw_once_every_table_finished_closes_the_round_and_draws_the_next(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    for game in Game.objects.filter(club_game__round__number=1):
        win(game)
    offered = page(organiser.get(night_url(night)))

    response = organiser.post(night_url(night, "draw"))

    first, second = Round.objects.order_by("number")
    assert "Draw round 2" in offered
    assert response.status_code == 302
    assert (first.closed_at is not None, second.number, second.closed_at) == (True, 2, None)


def test_close_round_abandons_the_tables_playing_and_allows_the_next_draw(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    finished = Game.objects.get(club_game__table=1)
    win(finished)

    closed = organiser.post(night_url(night, "close"), {"confirm": "1"})
    drawn = organiser.post(night_url(night, "draw"))

    statuses = dict(
        Summary.objects.filter(game__club_game__round__number=1).values_list(
            "game__club_game__table", "status"
        )
    )
    assert (closed.status_code, drawn.status_code) == (302, 302)
    assert statuses == {1: Summary.Status.WON, 2: Summary.Status.ABANDONED}
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]


def test_players_leaving_and_arriving_between_rounds_change_who_is_drawn(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    organiser.post(night_url(night, "close"), {"confirm": "1"})
    staying = [name for name in ("Amina", *PLAYERS) if name != "Bilal"]

    organiser.post(
        night_url(night, "checkin"), {"present": ids(club, *staying), "guests": "Zoé\nYanis"}
    )
    organiser.post(night_url(night, "draw"))

    second = Round.objects.get(number=2)
    drawn = names_of(club, sum(second.tables, second.sitting_out))
    assert sorted(drawn) == sorted([*staying, "Zoé", "Yanis"])
    assert ([len(table) for table in second.tables], len(second.sitting_out)) == ([4, 4], 2)


def test_draw_fewer_than_four_present_is_refused(club, night, organiser):
    present(club, night, ["Amina", "Bilal", "Chafik"])

    response = organiser.post(night_url(night, "draw"))

    assert response.status_code == 409
    assert "3 players are present: a table needs four." in page(response)
    assert Round.objects.count() == 0


def test_draw_over_the_limit_answers_409_with_a_notice(club, night, organiser):
    # Checked in before check-in had a cap.
    members = Member.objects.bulk_create(
        Member(club=club, name=f"Guest {number}", key=f"guest {number}", role=Member.Role.GUEST)
        for number in range(MAX_PLAYERS)
    )
    Attendance.objects.bulk_create(
        Attendance(night=night, member=member)
        for member in [*club.members.all()][: MAX_PLAYERS + 1]
    )

    response = organiser.post(night_url(night, "draw"))

    assert (response.status_code, response.context["notice"]) == (
        409,
        f"A draw seats at most {MAX_PLAYERS} players: {MAX_PLAYERS + 1} are present. "
        "Check some out first.",
    )
    assert (len(members), Round.objects.count(), Game.objects.count()) == (MAX_PLAYERS, 0, 0)


def test_draw_past_the_rounds_planned_is_refused(club, organiser):
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=1)
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    for game in Game.objects.all():
        win(game)
    offered = page(organiser.get(night_url(night)))

    response = organiser.post(night_url(night, "draw"))

    assert "Draw round 2" not in offered
    assert (response.status_code, Round.objects.count()) == (409, 1)
    assert "The night is over: no more rounds." in page(response)


def test_draw_plain_member_is_forbidden(club, night):
    nine_present(club, night)
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.post(night_url(night, "draw"))

    assert (response.status_code, Round.objects.count()) == (403, 0)


@pytest.mark.parametrize(
    ("tail", "question"), [("close", "Close the round?"), ("end", "End the night?")]
)
def test_close_or_end_with_tables_playing_first_names_them_and_changes_nothing(
    club, night, organiser, tail, question
):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    win(Game.objects.get(club_game__table=1))
    playing = Game.objects.get(club_game__table=2)

    asked = organiser.post(night_url(night, tail))
    shown = organiser.get(night_url(night, tail))

    night.refresh_from_db()
    html = page(asked)
    assert (asked.status_code, shown.status_code, question in page(shown)) == (200, 200, True)
    assert (question in html, "Table 2" in html, "Table 1" in html) == (True, True, False)
    assert all(name in html for name in seated(playing))
    assert "This table is still playing: it will be recorded as abandoned" in html
    assert (night.ended_at, Round.objects.get().closed_at) == (None, None)
    assert sorted(Summary.objects.values_list("status", flat=True)) == [
        Summary.Status.PLAYING,
        Summary.Status.WON,
    ]


def test_end_night_with_every_table_finished_asks_nothing(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    for game in Game.objects.all():
        win(game)

    response = organiser.post(night_url(night, "end"))

    night.refresh_from_db()
    assert (response.status_code, night.ended_at is not None) == (302, True)


def test_night_page_buttons_post_without_confirming_so_the_server_asks(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))

    html = page(organiser.get(night_url(night)))

    close_form = f'<form method="post" action="{night_url(night, "close")}">'
    end_form = f'<form method="post" action="{night_url(night, "end")}">'
    assert (close_form in html, end_form in html, 'name="confirm"' in html) == (True, True, False)


def test_draw_is_not_offered_before_four_are_present(club, night, organiser):
    organiser.post(night_url(night, "checkin"), {"guests": "Zoé\nYanis\nNour"})

    html = page(organiser.get(night_url(night)))

    assert "Draw round 1" not in html
    assert "3 players present: round 1 can be drawn once four are checked in." in html


def test_close_plain_member_is_forbidden(club, night):
    nine_present(club, night)
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.get(night_url(night, "close"))

    assert response.status_code == 403


def test_end_night_abandons_the_tables_playing_and_stops_the_live_view(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))

    response = organiser.post(night_url(night, "end"), {"confirm": "1"})

    night.refresh_from_db()
    html = page(organiser.get(night_url(night)))
    assert (response.status_code, response.headers["Location"]) == (
        302,
        night_url(night, "ranking"),
    )
    assert night.ended_at is not None
    assert set(Summary.objects.values_list("status", flat=True)) == {Summary.Status.ABANDONED}
    assert ("hx-trigger" in html, "Draw round" in html, "The night is over." in html) == (
        False,
        False,
        True,
    )


# --- A closed night is closed (issue 37.2) --------------------------------------------------


def test_end_night_with_tables_playing_offers_to_wait_or_settle(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))

    html = page(organiser.post(night_url(night, "end")))

    assert ('name="choice" value="wait"' in html, 'name="choice" value="settle"' in html) == (
        True,
        True,
    )
    assert "Once the night has ended, its tables no longer score." in html


def test_end_night_wait_keeps_it_going_and_names_the_tables_still_playing(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    win(Game.objects.get(club_game__table=1))

    response = organiser.post(night_url(night, "end"), {"confirm": "1", "choice": "wait"})

    night.refresh_from_db()
    assert response.status_code == 200
    assert "The night goes on: table 2 still plays." in page(response)
    assert (night.ended_at, Round.objects.get().closed_at) == (None, None)
    assert sorted(Summary.objects.values_list("status", flat=True)) == [
        Summary.Status.PLAYING,
        Summary.Status.WON,
    ]


def ended_with_table_card_phone(club, night, organiser):
    """A round drawn, table 1 won, table 2 settled as it stands at the night's end at 23:10
    (Tunis); then a fresh phone opens table 2's card link. Returns it and the two games."""
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    first, second = Game.objects.order_by("club_game__table")
    win(first)
    services.record_hand(
        public_id=second.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
    )
    organiser.post(night_url(night, "end"), {"confirm": "1", "choice": "settle"})
    ended = timezone.make_aware(timezone.datetime(2025, 3, 7, 23, 10), ZoneInfo(ZONE))
    Night.objects.filter(pk=night.pk).update(ended_at=ended)
    phone = Client()
    phone.post(
        f"/games/{second.public_id}/score/{second.scorer_links.get().secret}", {"label": "T2"}
    )
    return phone, first, second


CLOSED_WORDS = "This night ended at 11:10\u202fPM; its tables no longer score."


def test_ended_night_table_card_can_neither_resume_nor_score_and_says_why(club, night, organiser):
    phone, _first, second = ended_with_table_card_phone(club, night, organiser)
    ranking = organiser.get(night_url(night, "ranking.csv")).content

    resumed = phone.post(f"/games/{second.public_id}/resume")
    scored = phone.post(f"/games/{second.public_id}/hands", hand_post(second, 2))
    shown = page(phone.get(f"/games/{second.public_id}/"))

    second.refresh_from_db()
    assert (resumed.status_code, resumed.headers["X-Boulmous-Refused"]) == (403, "closed")
    assert CLOSED_WORDS in page(resumed)
    assert (scored.status_code, scored.headers["X-Boulmous-Refused"]) == (403, "closed")
    assert CLOSED_WORDS in shown
    assert f"/games/{second.public_id}/resume" not in shown
    assert (second.abandoned_at is not None, second.summary.status, second.summary.hands) == (
        True,
        Summary.Status.ABANDONED,
        1,
    )
    assert organiser.get(night_url(night, "ranking.csv")).content == ranking


def test_ended_night_won_game_refuses_an_undo_even_to_the_clubs_admin(club, night, organiser):
    _phone, first, _second = ended_with_table_card_phone(club, night, organiser)

    asked = organiser.post(f"/games/{first.public_id}/hands/4/undo", HTTP_ACCEPT="application/json")

    assert (asked.status_code, asked.json()["reason"], asked.json()["message"]) == (
        403,
        "closed",
        CLOSED_WORDS,
    )
    assert Game.objects.get(pk=first.pk).summary.hands == 4


def test_ended_night_refused_by_the_service_whoever_calls_it(club, night, organiser):
    _phone, _first, second = ended_with_table_card_phone(club, night, organiser)

    with pytest.raises(services.Closed) as refused:
        services.resume_game(public_id=second.public_id)

    assert (refused.value.why.reason, refused.value.why.message) == ("closed", CLOSED_WORDS)


def test_reopen_night_by_an_admin_lets_its_tables_score_again_with_a_history_line(
    club, night, organiser
):
    phone, _first, second = ended_with_table_card_phone(club, night, organiser)

    response = organiser.post(night_url(night, "reopen"))
    resumed = phone.post(f"/games/{second.public_id}/resume")

    night.refresh_from_db()
    change = club.changes.get(action="night_reopened")
    assert (response.status_code, night.ended_at, night.reopened_at is not None) == (
        302,
        None,
        True,
    )
    assert (change.subject, change.by_user_id) == (
        "2025-03-07",
        club.members.get(name="Amina").user_id,
    )
    assert change.before["ended_at"].startswith("2025-03-07T22:10:00")
    assert resumed.status_code == 302
    assert "night reopened" in page(organiser.get("/clubs/sfax/history"))
    # Ended again with the game resumed: it is settled as it stands, as at the first end.
    organiser.post(night_url(night, "end"), {"confirm": "1", "choice": "settle"})
    assert Game.objects.get(pk=second.pk).summary.status == Summary.Status.ABANDONED


def test_reopen_night_refused_to_a_scorer_and_offered_to_an_admin(club, night, organiser):
    ended_with_table_card_phone(club, night, organiser)
    scorer = signed_in(with_role(club, "Sami", Member.Role.SCORER))

    refused = scorer.post(night_url(night, "reopen"))

    night.refresh_from_db()
    assert (refused.status_code, night.ended_at is not None) == (403, True)
    assert night_url(night, "reopen") in page(organiser.get(night_url(night)))
    assert night_url(night, "reopen") not in page(scorer.get(night_url(night)))


# --- The live view ------------------------------------------------------------------------


def test_night_page_under_htmx_returns_only_the_tables_part(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))

    response = organiser.get(night_url(night), HTTP_HX_REQUEST="true")

    html = page(response).strip()
    assert response.status_code == 200
    assert html.startswith('<section id="tables"')
    assert html.endswith("</section>")
    assert ("<html" in html, "check-in" in html, "Table 2" in html) == (False, False, True)
    assert 'hx-trigger="every 2s"' in html
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("players", [4, 12])
def test_night_page_queries_do_not_grow_with_its_tables(
    club, night, organiser, players, django_assert_max_num_queries
):
    for name in ("Jalel", "Karim", "Lina"):
        member_services.add_member(club=club, name=name)
    present(club, night, list(club.members.values_list("name", flat=True))[:players])
    organiser.post(night_url(night, "draw"))

    with django_assert_max_num_queries(9):
        response = organiser.get(night_url(night))

    assert len(response.context["state"].current.tables) == players // 4


# --- The table sheet and cards ------------------------------------------------------------


def test_table_sheet_lists_each_table_by_seat_and_who_sits_out(club, night):
    nine_present(club, night)
    drawn = night_services.draw_round(night_id=night.pk, owner_id=None)
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.get(night_url(night, "rounds/1/sheet"))

    html = page(response)
    rows = re.findall(r'<tr><td class="num">(\d)</td><th scope="row">([^< ]+)', html)
    assert response.status_code == 200
    assert rows == [
        (str(seat), name)
        for table in drawn.tables
        for seat, name in enumerate(names_of(club, table), start=1)
    ]
    assert f"Sits out: {names_of(club, drawn.sitting_out)[0]}" in html
    assert html.count("deals first") == 2


def test_table_cards_plain_member_is_forbidden(club, night):
    nine_present(club, night)
    night_services.draw_round(night_id=night.pk, owner_id=None)
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.get(night_url(night, "rounds/1/cards"))

    assert response.status_code == 403


def test_table_card_link_grants_scoring_of_that_game_only(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    first, second = Game.objects.order_by("club_game__table")
    cards = organiser.get(night_url(night, "rounds/1/cards"))
    urls = re.findall(r'<p class="card-url" dir="ltr">([^<]+)</p>', page(cards))
    phone = Client()

    opened = phone.get(urls[0])
    joined = phone.post(urls[0], {"label": "Table 1"})
    scored = phone.post(f"/games/{first.public_id}/hands", hand_post(first))
    refused = phone.post(f"/games/{second.public_id}/hands", hand_post(second))

    assert cards.status_code == 200
    assert urls == [
        f"http://testserver/games/{game.public_id}/score/{game.scorer_links.get().secret}"
        for game in (first, second)
    ]
    assert page(cards).count("<svg") >= 2
    assert (opened.status_code, joined.status_code) == (200, 302)
    assert (scored.status_code, refused.status_code) == (302, 403)
    assert [game.summary.hands for game in Game.objects.order_by("club_game__table")] == [1, 0]


def test_table_card_link_scores_but_neither_shares_nor_starts_a_club_game(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    first = Game.objects.order_by("club_game__table").first()
    link = first.scorer_links.get()
    phone = Client()
    phone.post(f"/games/{first.public_id}/score/{link.secret}", {"label": "Table 1"})
    win(first)

    won = page(phone.get(f"/games/{first.public_id}/"))
    rematch = phone.post(f"/games/{first.public_id}/rematch")
    shared = phone.get(f"/games/{first.public_id}/share")
    organisers = page(organiser.get(f"/games/{first.public_id}/"))

    assert (rematch.status_code, shared.status_code, Game.objects.count()) == (403, 403, 2)
    assert f"/games/{first.public_id}/rematch" not in won
    assert f"/games/{first.public_id}/rematch" in organisers
    assert phone.post(f"/games/{first.public_id}/hands/4/undo").status_code == 302


# --- The night's ranking ------------------------------------------------------------------


@pytest.mark.smoke
def test_ranking_after_the_games_finish_gives_league_points_by_the_club_scheme(club, organiser):
    today = timezone.localdate(timezone=ZoneInfo(ZONE))
    season = club_services.create_season(
        club=club,
        name="Spring",
        slug="spring",
        first_day=today - timedelta(days=1),
        last_day=today + timedelta(days=1),
        points=(5, 3, 1, 0),
    )
    night = night_services.create_night(club=club, date=today, place="", rounds=2)
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    games = list(Game.objects.order_by("club_game__table"))
    for game in games:
        win(game)
    winners = sorted(seated(game)[0] for game in games)
    others = sorted(name for game in games for name in seated(game)[1:])

    response = organiser.get(night_url(night, "ranking"))

    rows = [
        (row.rank, row.player, row.games, row.wins, row.league_points, row.points)
        for row in response.context["rows"]
    ]
    assert response.status_code == 200
    assert rows == [(1, name, 1, 1, 5, 24) for name in winners] + [
        (3, name, 1, 0, 3, 0) for name in others
    ]
    assert [
        (line.standing.player, line.standing.league_points)
        for line in season_standings(club, season)
    ] == [(row[1], row[4]) for row in rows]
    assert "These games count in the season Spring like any other club game." in page(response)


def test_check_in_after_the_night_ended_is_refused(club, night, organiser):
    night_services.end_night(night_id=night.pk)

    response = organiser.post(night_url(night, "checkin"), {"present": ids(club, "Amina")})

    assert (response.status_code, Attendance.objects.count()) == (409, 0)
    assert "The night is over." in page(response)


def test_ranking_member_sees_it_before_any_game_finished(club, night):
    member = signed_in(with_role(club, "Mona", Member.Role.MEMBER))

    response = member.get(night_url(night, "ranking"))

    assert (response.status_code, response.context["rows"]) == (200, [])
    assert "No game of the night has finished yet." in page(response)


def test_ranking_csv_and_pdf_give_the_ranking_of_the_page(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    for game in Game.objects.all():
        win(game)
    shown = [
        (str(row.rank), row.player, str(row.games), str(row.league_points))
        for row in organiser.get(night_url(night, "ranking")).context["rows"]
    ]

    sheet = organiser.get(night_url(night, "ranking.csv"))
    printed = organiser.get(night_url(night, "ranking.pdf"))

    rows = list(csv.reader(io.StringIO(sheet.content.decode())))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed.content)).pages)
    assert (rows[0], sheet["Content-Type"]) == (list(CSV_HEADER), "text/csv; charset=utf-8")
    assert [(row[0], row[1], row[2], row[4]) for row in rows[1:]] == shown
    assert (printed["Content-Type"], "2 games" in text) == ("application/pdf", True)
    assert all(player in text for _, player, _, _ in shown)


def test_ranking_csv_of_a_private_club_refuses_a_stranger(club, night):
    response = signed_in(account("stranger")).get(night_url(night, "ranking.csv"))

    assert response.status_code in (403, 404)


def test_ranking_pdf_in_arabic_answers(club, night, organiser):
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    win(Game.objects.first())

    response = organiser.get(night_url(night, "ranking.pdf"), HTTP_ACCEPT_LANGUAGE="ar")

    assert (response.status_code, response.content[:5]) == (200, b"%PDF-")


# --- Confirmation at the night's end (issue 40.2) -------------------------------------------


def test_end_night_confirms_by_itself_every_hand_still_waiting(club, night, organiser):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    games = list(Game.objects.all())
    for game in games:
        win(game)

    organiser.post(night_url(night, "end"))

    states = [agreement_of(load_game(game)) for game in games]
    assert (
        [game.confirmation for game in games],
        [state.final for state in states],
        [[hand.by_itself for hand in state.hands] for state in states],
        [game.changes.first().action for game in games],
    ) == (
        ["each_hand"] * 2,
        [True] * 2,
        [[True] * 4] * 2,
        ["night_end"] * 2,
    )


def test_night_page_marks_each_table_won_provisional_then_final_at_the_nights_end(
    club, night, organiser
):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    for game in Game.objects.all():
        win(game)

    before = page(organiser.get(night_url(night)))
    organiser.post(night_url(night, "end"))
    after = page(organiser.get(night_url(night)))

    assert (before.count("provisional result"), before.count("final result")) == (2, 0)
    assert (after.count("provisional result"), after.count("final result")) == (0, 2)


# --- Disputes (issue 40.3): the next draw waits for the referee ----------------------------


def test_draw_waits_while_a_hand_of_the_night_is_disputed(club, night, organiser):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    nine_present(club, night)
    organiser.post(night_url(night, "draw"))
    games = list(Game.objects.all())
    for game in games:
        win(game)
    first = games[0]
    services.dispute_hand(public_id=first.public_id, number=1, version=1, seat=2, reason="no")

    refused = organiser.post(night_url(night, "draw"))
    services.decide_dispute(public_id=first.public_id, number=1, reason="Counted again")
    drawn = organiser.post(night_url(night, "draw"))

    assert (
        refused.status_code,
        "1 hand of this night is disputed" in refused.content.decode(),
        Round.objects.filter(night=night).count(),
        drawn.status_code,
    ) == (409, True, 2, 302)
