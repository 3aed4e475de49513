"""An admin edits or deletes a season, a night or a club game, and the club's settings are
written to its history (issue 19): refusals on the field with a 422 and nothing changed;
games follow a season's new days; a deleted game leaves the standings and ratings, which
equal a full rebuild (and the independent computation of test_league); the club's history
keeps what went."""

import json
from collections import Counter
from datetime import UTC, date, datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.league.standings import all_time_standings, season_games
from scoring.clubs.models import (
    Attendance,
    ClubChange,
    ClubGame,
    ClubResult,
    Member,
    Night,
    Round,
    Season,
)
from scoring.clubs.nights import services as night_services
from scoring.engine import Rules
from scoring.table.models import Game, ScorerLink
from tests.clubs.factories import settings_form, signed_in, with_role
from tests.clubs.league_check import (
    MEMBERS,
    check_league,
    imported,
    make_club,
    play,
    start,
    stored_league,
    wins_for,
)
from tests.clubs.races import ROUNDS, at_once, racing, report

pytestmark = pytest.mark.django_db

FOUR = MEMBERS[:4]
OTHERS = (MEMBERS[4], MEMBERS[5], MEMBERS[0], MEMBERS[1])


def moment(month, day):
    return datetime(2025, month, day, 12, 0, tzinfo=UTC)


@pytest.fixture
def club():
    """Sfax with two seasons, Winter (January) and Spring (February and March), and four
    games won: on 10 January, 10 and 20 February and 10 March."""
    club = make_club()
    for name, slug, first, last in (
        ("Winter", "winter", date(2025, 1, 1), date(2025, 1, 31)),
        ("Spring", "spring", date(2025, 2, 1), date(2025, 3, 31)),
    ):
        club_services.create_season(
            club=club, name=name, slug=slug, first_day=first, last_day=last, points=(3, 2, 1, 0)
        )
    for number, (when, names, seat) in enumerate(
        [
            (moment(1, 10), FOUR, 0),
            (moment(2, 10), OTHERS, 1),
            (moment(2, 20), FOUR, 2),
            (moment(3, 10), OTHERS, 3),
        ],
        start=1,
    ):
        imported(club, names, wins_for(seat), when, f"game-{number}")
    return club


@pytest.fixture
def admin(club):
    return signed_in(get_user_model().objects.get(username="admin-sfax"))


@pytest.fixture
def scorer(club):
    return signed_in(with_role(club, "Hedi", Member.Role.SCORER))


def said(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


def season(slug):
    return Season.objects.get(slug=slug)


def season_form(**changes):
    values = {
        "name": "Winter",
        "slug": "winter",
        "first_day": "2025-01-01",
        "last_day": "2025-01-31",
        "points_0": 3,
        "points_1": 2,
        "points_2": 1,
        "points_3": 0,
    }
    return values | changes


def game(record_id):
    return Game.objects.get(record_id=record_id)


def changes(club, action):
    return list(ClubChange.objects.filter(club=club, action=action).values("before", "after"))


# --- seasons ---------------------------------------------------------------------------


def test_season_edit_new_days_move_games_between_seasons(club, admin):
    winter_before = season_games(club, season("winter"))

    response = admin.post(
        "/clubs/sfax/seasons/spring/edit",
        season_form(name="Spring", slug="spring", first_day="2025-02-15", last_day="2025-03-31"),
    )
    admin.post(
        "/clubs/sfax/seasons/winter/edit",
        season_form(last_day="2025-02-14", points_0=5),
    )

    assert (response.status_code, response["Location"]) == (302, "/clubs/sfax/seasons/spring/")
    assert said(response) == ["The season Spring is saved: 2 games count in it."]
    assert (winter_before, season_games(club, season("winter"))) == (1, 2)
    assert check_league(club, [season("winter"), season("spring")])
    assert changes(club, "season_edited") == [
        {
            "before": {"id": season("winter").pk, "last_day": "2025-01-31", "points": [3, 2, 1, 0]},
            "after": {"id": season("winter").pk, "last_day": "2025-02-14", "points": [5, 2, 1, 0]},
        },
        {
            "before": {"id": season("spring").pk, "first_day": "2025-02-01"},
            "after": {"id": season("spring").pk, "first_day": "2025-02-15"},
        },
    ]


def test_season_edit_overlapping_days_refused_on_the_field_nothing_changed(club, admin):
    response = admin.post("/clubs/sfax/seasons/winter/edit", season_form(last_day="2025-02-05"))

    html = response.content.decode()
    assert response.status_code == 422
    assert html.count("These days overlap those of the season Spring.") == 1
    assert html.index('id="id_last_day"') < html.index("These days overlap")
    assert season("winter").last_day == date(2025, 1, 31)
    assert changes(club, "season_edited") == []


def test_season_edit_taken_address_refused_on_the_field_nothing_changed(club, admin):
    response = admin.post("/clubs/sfax/seasons/winter/edit", season_form(slug="spring"))

    assert response.status_code == 422
    assert "Another season of the club has this address." in response.content.decode()
    assert sorted(Season.objects.values_list("slug", flat=True)) == ["spring", "winter"]


def test_season_edit_refusal_found_by_the_service_under_the_lock(club):
    """What the form could not see (a season made meanwhile) the service refuses."""
    winter = season("winter")
    with pytest.raises(club_services.SeasonOverlaps):
        edits.edit_season(
            club=club,
            season_id=winter.pk,
            name="Winter",
            slug="winter",
            first_day=date(2025, 1, 1),
            last_day=date(2025, 2, 1),
            points=[3, 2, 1, 0],
        )
    assert season("winter").last_day == date(2025, 1, 31)


def test_season_old_address_redirects_to_the_new_one(club, admin):
    admin.post("/clubs/sfax/seasons/winter/edit", season_form(name="Hiver", slug="hiver"))

    page = admin.get("/clubs/sfax/seasons/winter/")
    csv = admin.get("/clubs/sfax/seasons/winter/standings.csv")
    new = admin.get("/clubs/sfax/seasons/hiver/")

    assert (page.status_code, page["Location"]) == (302, "/clubs/sfax/seasons/hiver/")
    assert csv["Location"] == "/clubs/sfax/seasons/hiver/standings.csv"
    assert new.status_code == 200
    assert admin.get("/clubs/sfax/seasons/never/").status_code == 404


def test_season_delete_page_says_what_goes_and_what_stays(club, admin):
    html = admin.get("/clubs/sfax/seasons/spring/delete").content.decode()

    assert "Its standings page, from Feb 1, 2025 to Mar 31, 2025, goes with it" in html
    assert "Its 3 games stay: in the club's games, in the all-time standings" in html


def test_season_delete_keeps_games_and_all_time_standings(club, admin):
    all_time = all_time_standings(club)
    spring = season("spring")

    response = admin.post("/clubs/sfax/seasons/spring/delete")

    assert (response.status_code, response["Location"]) == (302, "/clubs/sfax/")
    assert said(response) == [
        "The season Spring is deleted. Its games stay in the club and in the all-time standings."
    ]
    assert all_time_standings(club) == all_time
    assert ClubGame.objects.filter(club=club).count() == 4
    assert admin.get("/clubs/sfax/seasons/spring/").status_code == 404
    assert changes(club, "season_deleted") == [
        {
            "before": {
                "id": spring.pk,
                "name": "Spring",
                "slug": "spring",
                "first_day": "2025-02-01",
                "last_day": "2025-03-31",
                "points": [3, 2, 1, 0],
                "handicap_cup": False,
            },
            "after": None,
        }
    ]
    check_league(club, [season("winter")])


def test_season_renamed_then_deleted_old_address_is_404(club, admin):
    admin.post("/clubs/sfax/seasons/winter/edit", season_form(slug="hiver"))
    admin.post("/clubs/sfax/seasons/hiver/delete")

    assert admin.get("/clubs/sfax/seasons/winter/").status_code == 404


# --- nights ----------------------------------------------------------------------------


@pytest.fixture
def night(club):
    """A night of eight, its first round drawn: two tables."""
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=3)
    members = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members, guests=["Ines", "Jamel"])
    night_services.draw_round(night_id=night.pk, owner_id=None)
    return night


def night_form(**changes):
    return {"date": "2025-03-08", "place": "Le Club", "rounds": "2"} | changes


def test_night_edit_saves_date_place_rounds_and_logs_them(club, admin, night):
    response = admin.post(f"/clubs/sfax/nights/{night.pk}/edit", night_form())

    night.refresh_from_db()
    assert (response.status_code, response["Location"]) == (302, f"/clubs/sfax/nights/{night.pk}/")
    assert said(response) == ["The night of March 8, 2025 is saved."]
    assert (night.date, night.place, night.rounds) == (date(2025, 3, 8), "Le Club", 2)
    assert changes(club, "night_edited") == [
        {
            "before": {"id": night.pk, "date": "2025-03-07", "place": "Café", "rounds": 3},
            "after": {"id": night.pk, "date": "2025-03-08", "place": "Le Club", "rounds": 2},
        }
    ]


def test_night_edit_fewer_rounds_than_drawn_refused(club, admin, night):
    night_services.close_round(night_id=night.pk)
    night_services.draw_round(night_id=night.pk, owner_id=None)

    response = admin.post(f"/clubs/sfax/nights/{night.pk}/edit", night_form(rounds="1"))

    night.refresh_from_db()
    assert response.status_code == 422
    assert (
        "2 rounds are drawn already: plan at least 2, or leave empty to play until we stop."
        in response.content.decode()
    )
    assert (night.date, night.rounds) == (date(2025, 3, 7), 3)
    assert changes(club, "night_edited") == []


def test_night_edit_no_rounds_plays_until_we_stop(admin, night):
    admin.post(f"/clubs/sfax/nights/{night.pk}/edit", night_form(rounds=""))

    night.refresh_from_db()
    assert night.rounds is None


def test_night_delete_page_says_its_rounds_in_french_as_the_glossary_does(admin, night):
    page = admin.get(f"/clubs/sfax/nights/{night.pk}/delete", HTTP_ACCEPT_LANGUAGE="fr")

    assert "1 tour tiré, avec sa feuille de tables\u202f;" in page.content.decode()


def test_night_delete_page_of_a_night_not_drawn_lists_no_round_and_no_check_in(club, admin):
    empty = night_services.create_night(club=club, date=date(2025, 3, 14), place="", rounds=3)

    page = admin.get(f"/clubs/sfax/nights/{empty.pk}/delete", HTTP_ACCEPT_LANGUAGE="fr")

    text = page.content.decode()
    assert ("0 tour" in text, "manche" in text, "0 joueur" in text) == (False, False, False)


def test_night_delete_keeps_its_games_and_revokes_its_cards(club, admin, night):
    games = set(ClubGame.objects.filter(round__night=night).values_list("game_id", flat=True))
    page = admin.get(f"/clubs/sfax/nights/{night.pk}/delete").content.decode()

    response = admin.post(f"/clubs/sfax/nights/{night.pk}/delete")

    assert "its check-in (8 players);" in page
    assert "Its 2 games stay in the club, as club games of no night" in page
    assert (response.status_code, said(response)) == (
        302,
        ["The night of March 7, 2025 is deleted. Its games stay in the club."],
    )
    assert Night.objects.count() + Round.objects.count() + Attendance.objects.count() == 0
    assert (
        set(
            ClubGame.objects.filter(game_id__in=games, round=None, table=None).values_list(
                "game_id", flat=True
            )
        )
        == games
    )
    assert ScorerLink.objects.filter(game_id__in=games, revoked_at=None).count() == 0
    [line] = changes(club, "night_deleted")
    assert [len(table) for table in line["before"]["rounds_drawn"][0]["tables"]] == [4, 4]
    assert sorted(line["before"]["present"]) == sorted([*MEMBERS, "Ines", "Jamel"])
    assert len(line["before"]["games"]) == 2


# --- club games ------------------------------------------------------------------------


def test_game_delete_page_names_players_score_and_what_follows(club, admin):
    public_id = game("game-2").public_id

    html = admin.get(f"/clubs/sfax/games/{public_id}/delete").content.decode()

    assert "<bdi>Emna</bdi> <b>0</b>" in html
    assert "<bdi>Farid</bdi> <b>12</b>" in html
    assert "the 2 games counted after it are re-rated" in html


def test_game_delete_rerates_the_league_as_a_full_rebuild(club, admin):
    public_id = game("game-2").public_id
    lines = admin.get("/clubs/sfax/records.jsonl").getvalue().decode().splitlines()
    record = json.loads(lines[1])

    response = admin.post(f"/clubs/sfax/games/{public_id}/delete")

    assert (response.status_code, response["Location"]) == (302, "/clubs/sfax/games/")
    assert said(response) == [
        "The game of Emna, Farid, Amina, Bilal is deleted: the standings and ratings are "
        "re-computed without it. The club's history keeps its record."
    ]
    assert Game.objects.filter(public_id=public_id).exists() is False
    stored = stored_league(club)
    rebuild(club)
    assert stored == stored_league(club)
    assert [row["position"] for row in stored if row["seat"] == 0] == [0, 1, 2]
    check_league(club, [season("winter"), season("spring")])
    assert changes(club, "game_deleted") == [{"before": record, "after": None}]
    assert record["season"] == "spring"


def test_game_delete_says_in_french_whose_game_it_was_eliding_before_a_vowel(club, admin):
    public_id = game("game-2").public_id

    response = admin.post(f"/clubs/sfax/games/{public_id}/delete", HTTP_ACCEPT_LANGUAGE="fr")

    assert said(response) == [
        "La partie d’Emna, Farid, Amina, Bilal est supprimée\u00a0: les classements et les "
        "cotes sont recalculés sans elle. L’historique du club garde son relevé."
    ]


def test_game_delete_the_last_counted_game_leaves_earlier_ratings(club, admin):
    earlier = [row for row in stored_league(club) if row["position"] < 3]

    admin.post(f"/clubs/sfax/games/{game('game-4').public_id}/delete")

    assert stored_league(club) == earlier


def test_game_delete_a_game_still_playing_counts_nowhere(club, admin):
    playing = start(club, FOUR)
    before = stored_league(club)

    admin.post(f"/clubs/sfax/games/{playing.public_id}/delete")

    assert (stored_league(club), Game.objects.filter(pk=playing.pk).exists()) == (before, False)
    [line] = changes(club, "game_deleted")
    assert line["before"]["players"] == list(FOUR)


def test_game_delete_of_another_clubs_game_is_404(club, admin):
    other = make_club(slug="tunis")
    theirs = imported(other, FOUR, wins_for(0), moment(1, 5), "theirs")

    assert admin.get(f"/clubs/sfax/games/{theirs.public_id}/delete").status_code == 404
    assert admin.post(f"/clubs/sfax/games/{theirs.public_id}/delete").status_code == 404
    assert Game.objects.filter(pk=theirs.pk).exists()


def test_game_delete_confirmation_page_queries(club, admin):
    public_id = game("game-2").public_id
    with CaptureQueriesContext(connection) as queries:
        admin.get(f"/clubs/sfax/games/{public_id}/delete")

    # Session, account, club, member, the game with its summary, counted?, later.
    assert len(queries) <= 8


# --- rights, links ----------------------------------------------------------------------


def test_edits_and_deletions_refused_to_a_scorer(club, scorer, night):
    public_id = game("game-1").public_id
    addresses = [
        "/clubs/sfax/seasons/winter/edit",
        "/clubs/sfax/seasons/winter/delete",
        f"/clubs/sfax/nights/{night.pk}/edit",
        f"/clubs/sfax/nights/{night.pk}/delete",
        f"/clubs/sfax/games/{public_id}/delete",
    ]

    statuses = [scorer.post(address, season_form()).status_code for address in addresses]

    assert statuses == [403] * 5
    assert (Season.objects.count(), Night.objects.count(), Game.objects.count()) == (2, 1, 6)


def test_admin_links_on_the_season_night_and_games_pages(club, admin, scorer, night):
    public_id = game("game-1").public_id
    pages = {
        "/clubs/sfax/seasons/winter/": "/clubs/sfax/seasons/winter/delete",
        f"/clubs/sfax/nights/{night.pk}/": f"/clubs/sfax/nights/{night.pk}/edit",
        "/clubs/sfax/games/": f"/clubs/sfax/games/{public_id}/delete",
    }

    seen = [
        (link in admin.get(page).content.decode(), link in scorer.get(page).content.decode())
        for page, link in pages.items()
    ]

    assert seen == [(True, False)] * 3


# --- a game's date (issue 37.3) ----------------------------------------------------------


def date_url(record_id):
    return f"/clubs/sfax/games/{game(record_id).public_id}/date"


def test_game_date_page_says_the_season_it_moves_to_before_saving(club, admin):
    shown = admin.get(date_url("game-2")).content.decode()

    response = admin.post(date_url("game-2"), {"finished_at": "2025-01-05T21:30"})

    html = response.content.decode()
    assert 'value="2025-02-10T13:00"' in shown  # 12:00 UTC, in Paris
    assert "It counts now in Spring." in shown
    assert response.status_code == 200
    assert "At this date it moves from Spring to Winter." in html
    assert 'name="previewed" value="2025-01-05T21:30"' in html
    assert game("game-2").finished_at == moment(2, 10)
    assert changes(club, "game_moved") == []


def test_game_date_saved_once_confirmed_moves_it_and_rerates_as_a_rebuild(club, admin):
    public_id = game("game-2").public_id
    new = {"finished_at": "2025-01-05T21:30", "previewed": "2025-01-05T21:30", "confirm": "1"}

    response = admin.post(date_url("game-2"), new)

    assert (response.status_code, response["Location"]) == (302, "/clubs/sfax/games/")
    assert said(response) == [
        "The game of Emna, Farid, Amina, Bilal is dated Jan 5, 2025, 9:30\u202fPM, in Winter."
    ]
    assert game("game-2").finished_at == datetime(2025, 1, 5, 20, 30, tzinfo=UTC)
    assert [row["game_id"] for row in stored_league(club) if row["seat"] == 0] == [
        game(record_id).pk for record_id in ("game-2", "game-1", "game-3", "game-4")
    ]
    check_league(club, [season("winter"), season("spring")])
    assert changes(club, "game_moved") == [
        {
            "before": {"game": public_id, "finished_at": "2025-02-10T12:00:00+00:00"},
            "after": {"game": public_id, "finished_at": "2025-01-05T20:30:00+00:00"},
        }
    ]
    assert game("game-2").changes.first().action == "moved"


def test_game_date_changed_after_its_preview_is_previewed_again_not_saved(club, admin):
    changed = {"finished_at": "2025-03-15T10:00", "previewed": "2025-01-05T21:30", "confirm": "1"}

    response = admin.post(date_url("game-2"), changed)

    assert response.status_code == 200
    assert "At this date it stays in Spring." in response.content.decode()
    assert game("game-2").finished_at == moment(2, 10)


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("2999-01-01T10:00", "A game cannot finish in the future."),
        ("10/01/2025", "Enter a valid date/time."),
    ],
)
def test_game_date_refused_beside_the_field_nothing_changed(club, admin, typed, error):
    new = {"finished_at": typed, "previewed": typed, "confirm": "1"}

    response = admin.post(date_url("game-2"), new)

    assert (response.status_code, error in response.content.decode()) == (422, True)
    assert game("game-2").finished_at == moment(2, 10)


def test_game_date_refused_to_a_scorer_and_offered_to_admins_for_won_games(club, admin, scorer):
    playing = start(club, FOUR)

    refused = scorer.post(date_url("game-2"), {"finished_at": "2025-01-05T21:30"})
    not_won = admin.get(f"/clubs/sfax/games/{playing.public_id}/date")
    listed = admin.get("/clubs/sfax/games/").content.decode()

    assert (refused.status_code, not_won.status_code) == (403, 404)
    assert date_url("game-2") in listed
    assert f"/clubs/sfax/games/{playing.public_id}/date" not in listed
    assert date_url("game-2") not in scorer.get("/clubs/sfax/games/").content.decode()


# --- the club's settings -----------------------------------------------------------------


def test_club_settings_each_change_logged_before_and_after(club, admin):
    unchanged = admin.post("/clubs/sfax/settings", settings_form())
    response = admin.post("/clubs/sfax/settings", settings_form(name="Sfax Club", stake="1"))

    assert (unchanged.status_code, response.status_code) == (302, 302)
    assert said(response)[-1:] == ["The club's settings are saved."]
    assert changes(club, "club_edited") == [
        {"before": {"name": "Sfax", "stake": "0.5"}, "after": {"name": "Sfax Club", "stake": "1"}}
    ]


def test_club_settings_new_league_points_and_rules_leave_standings_right(club, admin):
    admin.post(
        "/clubs/sfax/settings",
        settings_form(points_0=10, points_1=5, target=21, time_zone="Pacific/Kiritimati"),
    )
    club.refresh_from_db()

    points = {
        line.standing.player: line.standing.league_points for line in all_time_standings(club)
    }
    expected = {}
    for row in ClubResult.objects.filter(club=club):
        expected[row.name] = expected.get(row.name, 0) + (10, 5, 1, 0)[row.rank - 1]
    assert points == expected
    # The games keep the rules they were played with: the league is what a rebuild gives.
    assert club.rules == Rules(target=21, stake=club.rules.stake, currency="EUR")
    check_league(club, [season("winter"), season("spring")])
    assert changes(club, "club_edited")[0]["after"] == {
        "time_zone": "Pacific/Kiritimati",
        "target": 21,
        "points": [10, 5, 1, 0],
    }


# --- races (PostgreSQL) -------------------------------------------------------------------


def winning_hand(game):
    """The hand form's POST data of the hand that wins the game for its first seat, after
    two of :func:`wins_for`."""
    return {
        "number": 3,
        "dealer": (game.first_dealer + 2) % 4,
        "taker": 0,
        "bid": 4,
        "trump": "H",
        "tricks_0": 4,
        "tricks_1": 1,
        "tricks_2": 1,
    }


@racing
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("deleted", ["game-1", "playing"])
def test_game_deleted_while_another_or_itself_is_won_leaves_the_league_as_a_rebuild(deleted):
    outcomes = Counter()
    for round_ in range(ROUNDS // 2):
        club = make_club(slug=f"sfax-{round_}")
        for number, when in enumerate([moment(1, 10), moment(2, 10), moment(2, 20)], start=1):
            imported(club, FOUR, wins_for(number % 4), when, f"{round_}-game-{number}")
        playing = start(club, OTHERS)
        play(playing, wins_for(0)[:2])
        admin = signed_in(get_user_model().objects.get(username=f"admin-sfax-{round_}"))
        scorer = signed_in(get_user_model().objects.get(username=f"admin-sfax-{round_}"))
        gone = playing if deleted == "playing" else game(f"{round_}-game-1")

        deletion = f"/clubs/{club.slug}/games/{gone.public_id}/delete"
        hand = (f"/games/{playing.public_id}/hands", winning_hand(playing))

        responses = at_once(
            lambda admin=admin, deletion=deletion: admin.post(deletion),
            lambda scorer=scorer, hand=hand: scorer.post(*hand),
        )

        statuses = tuple(response.status_code for response in responses)
        outcomes[statuses] += 1
        stored = stored_league(club)
        rebuild(club)
        assert (statuses[0], stored) == (302, stored_league(club))
        assert Game.objects.filter(pk=gone.pk).exists() is False
    report(outcomes)
