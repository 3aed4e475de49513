"""The club's games list: every game newest first, as the league dates them (a won game by
its finish, any other by its start), filtered by season, player, night, status, days and a
part of a name, a page at a time, in a bounded number of queries."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.clubs import services as club_services
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.clubs.pages.games import PER_PAGE
from scoring.table import services
from tests.clubs.league_games import GAME_A, imported, new_club, play, won_by

PLAYERS = ("Amina", "Bilal", "Chafik", "Dalila")
JUNE = datetime(2020, 6, 15, 20, 0, tzinfo=UTC)
# 23:30 on 31 December in UTC is already 1 January 2021 in Paris.
NEW_YEAR_IN_PARIS = datetime(2020, 12, 31, 23, 30, tzinfo=UTC)


def listed(response):
    """The games listed, as the first name and total of each row's first seat and the
    moment shown (its ``datetime`` attribute)."""
    html = response.content.decode()
    rows = html.split('<ul class="games club-game-list">')[1].split("</ul>")[0]
    return [
        (re.search(r'<a href="/games/([^/]+)/"', row)[1], re.search(r'datetime="([^"]+)"', row)[1])
        for row in rows.split("<li>")[1:]
    ]


@pytest.fixture
def club(db, client):
    admin = get_user_model().objects.get_or_create(username="amina")[0]
    club = new_club(admin)
    club_services.create_season(
        club=club,
        name="2020",
        slug="2020",
        first_day=date(2020, 1, 1),
        last_day=date(2020, 12, 31),
        points=(3, 2, 1, 0),
    )
    imported(
        club,
        admin,
        [
            won_by(0, PLAYERS, JUNE, "june"),
            won_by(1, PLAYERS, NEW_YEAR_IN_PARIS, "new-year"),
            won_by(2, ("Amina", "Bilal", "Chafik", "Omar"), JUNE + timedelta(days=1), "omar"),
        ],
    )
    client.force_login(admin)
    return club


def ids_of(*record_ids):
    from scoring.table.models import Game

    found = dict(Game.objects.values_list("record_id", "public_id"))
    return [found[record_id] for record_id in record_ids]


def test_club_games_lists_every_game_newest_first_by_its_finish(club, client):
    playing = club_services.start_club_game(
        club=club, names=PLAYERS, first_dealer=0, owner_id=None
    ).game

    response = client.get("/clubs/cafe/games/")

    games = listed(response)
    assert response.status_code == 200
    assert [public_id for public_id, _ in games] == [
        playing.public_id,
        *ids_of("new-year", "omar", "june"),
    ]
    assert games[1][1] == "2021-01-01T00:30:00+01:00"  # in the club's zone, Paris


def test_club_games_season_filter_follows_the_league_day_in_the_club_zone(club, client):
    response = client.get("/clubs/cafe/games/", {"season": "2020"})

    assert [public_id for public_id, _ in listed(response)] == ids_of("omar", "june")


def test_club_games_player_filter_and_name_search(club, client):
    omar = Member.objects.get(club=club, name="Omar")

    by_player = client.get("/clubs/cafe/games/", {"player": omar.pk})
    by_name = client.get("/clubs/cafe/games/", {"q": "OMA"})
    by_nobody = client.get("/clubs/cafe/games/", {"q": "Zoé"})

    assert [public_id for public_id, _ in listed(by_player)] == ids_of("omar")
    assert [public_id for public_id, _ in listed(by_name)] == ids_of("omar")
    assert (listed(by_nobody), "No game matches." in by_nobody.content.decode()) == ([], True)


def test_club_games_status_and_days_filters(club, client):
    playing = club_services.start_club_game(
        club=club, names=PLAYERS, first_dealer=0, owner_id=None
    ).game
    services.abandon_game(
        public_id=club_services.start_club_game(
            club=club, names=PLAYERS, first_dealer=0, owner_id=None
        ).game.public_id
    )

    only_playing = client.get("/clubs/cafe/games/", {"status": "playing"})
    june_days = client.get("/clubs/cafe/games/", {"since": "2020-06-15", "until": "2020-06-16"})
    first_of_january = client.get(
        "/clubs/cafe/games/", {"since": "2021-01-01", "until": "2021-01-01"}
    )

    assert [public_id for public_id, _ in listed(only_playing)] == [playing.public_id]
    assert [public_id for public_id, _ in listed(june_days)] == ids_of("omar", "june")
    assert [public_id for public_id, _ in listed(first_of_january)] == ids_of("new-year")


def test_club_games_night_filter(club, client):
    night = night_services.create_night(club=club, date=timezone.localdate(), place="", rounds=1)
    members = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members[:4], guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=None)

    response = client.get("/clubs/cafe/games/", {"night": night.pk})

    html = response.content.decode()
    assert (len(listed(response)), "Table 1" in html) == (1, True)


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"since": "2021-02-01", "until": "2021-01-01"}, "until", "The last day comes before"),
        ({"status": "lost"}, "status", "Select a valid choice."),
        ({"player": "12x"}, "player", "Select a valid choice."),
        ({"since": "31/31/2020"}, "since", "Enter a valid date."),
        ({"q": "A\u202eB"}, "q", ""),
    ],
)
def test_club_games_bad_filter_is_said_where_typed(club, client, query, field, message):
    response = client.get("/clubs/cafe/games/", query)

    errors = response.context["form"].errors
    assert (response.status_code, list(errors)) == (422, [field])
    assert message in " ".join(errors[field])


def test_club_games_pages_of_fifty_keep_the_filters(club, client):
    admin = get_user_model().objects.get(username="amina")
    start = datetime(2022, 3, 1, 20, 0, tzinfo=UTC)
    imported(
        club,
        admin,
        [won_by(0, PLAYERS, start + timedelta(hours=n), f"g{n}") for n in range(PER_PAGE + 5)],
    )

    first = client.get("/clubs/cafe/games/", {"q": "dal"})
    second = client.get("/clubs/cafe/games/", {"q": "dal", "page": 2})

    assert (len(listed(first)), len(listed(second))) == (PER_PAGE, 7)
    assert '<a rel="next" href="?q=dal&amp;page=2">' in first.content.decode()
    assert listed(first)[0][0] == ids_of(f"g{PER_PAGE + 4}")[0]


def test_club_games_query_count_does_not_grow_with_the_games(club, client):
    with CaptureQueriesContext(connection) as few:
        client.get("/clubs/cafe/games/", {"q": "a"})
    play(club, GAME_A)
    play(club, GAME_A)

    with CaptureQueriesContext(connection) as more:
        client.get("/clubs/cafe/games/", {"q": "a"})

    assert len(few) == len(more)


def test_club_games_scorer_sees_the_correction_link_member_does_not(club, client):
    member_user = get_user_model().objects.create_user("bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=member_user)

    as_admin = client.get("/clubs/cafe/games/").content.decode()
    client.force_login(member_user)
    as_member = client.get("/clubs/cafe/games/").content.decode()

    assert ('class="correct"' in as_admin, 'class="correct"' in as_member) == (True, False)


def test_club_games_of_a_private_club_refuse_a_stranger(club, client):
    client.logout()
    client.force_login(get_user_model().objects.create_user("stranger"))

    response = client.get("/clubs/cafe/games/")

    assert response.status_code in (403, 404)


def test_club_and_player_pages_link_to_the_games(club, client):
    omar = Member.objects.get(club=club, name="Omar")

    club_page = client.get("/clubs/cafe/").content.decode()
    player_page = client.get(f"/clubs/cafe/players/{omar.pk}/").content.decode()

    assert 'href="/clubs/cafe/games/"' in club_page
    assert f'href="/clubs/cafe/games/?player={omar.pk}"' in player_page


def test_club_games_show_the_public_a_short_name_and_find_it_by_that_name_only(club, client):
    admin = get_user_model().objects.get(username="amina")
    players = ("Nour Haddad", "Bilal", "Chafik", "Dalila")
    imported(club, admin, [won_by(0, players, JUNE + timedelta(days=2), "nour")])
    Member.objects.filter(club=club, name="Nour Haddad").update(short_in_public=True)
    type(club).objects.filter(pk=club.pk).update(public=True)
    stranger = Client()

    public = stranger.get("/clubs/cafe/games/").content.decode()
    by_surname = stranger.get("/clubs/cafe/games/", {"q": "haddad"})
    by_short_name = stranger.get("/clubs/cafe/games/", {"q": "nour h"})
    as_member = client.get("/clubs/cafe/games/", {"q": "haddad"})

    assert ("Nour H. <b>24</b>" in public, "Haddad" in public) == (True, False)
    assert (listed(by_surname), [i for i, _ in listed(by_short_name)]) == ([], ids_of("nour"))
    assert [public_id for public_id, _ in listed(as_member)] == ids_of("nour")
    assert "Nour Haddad <b>24</b>" in as_member.content.decode()


def test_club_games_more_filters_open_only_when_one_is_given(club, client):
    by_name = client.get("/clubs/cafe/games/", {"q": "om"}).content.decode()
    by_status = client.get("/clubs/cafe/games/", {"q": "", "status": "won"}).content.decode()

    opened = '<details class="more-filters" open>'
    assert (opened in by_name, opened in by_status) == (False, True)
