"""An organiser's care of the club's players (issue 19): a member renamed, two merged into
one, one without games deleted, one with games retired and brought back. The stored
league equals a full rebuild and an independent computation after each."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.clubs import services as club_services
from scoring.clubs.imports import services as import_services
from scoring.clubs.members import care as member_care
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubChange, ClubResult, Member, Round
from scoring.clubs.nights import services as night_services
from scoring.common.rights import NOBODY
from scoring.table.models import Player, Summary
from tests.clubs.league_check import check_league
from tests.clubs.league_games import new_club, won_by

User = get_user_model()
JUNE = datetime(2025, 6, 15, 20, 0, tzinfo=UTC)


@pytest.fixture
def admin(db):
    return User.objects.create(username="amina")


@pytest.fixture
def club(admin):
    return new_club(admin)


@pytest.fixture
def browser(client, admin):
    client.force_login(admin)
    return client


def games(club, *tables, first="g"):
    """Won club games, one a day from JUNE, each seat 0 winning: ``tables`` of four names."""
    records = [
        won_by(0, players, JUNE + timedelta(days=day), f"{first}{day}")
        for day, players in enumerate(tables)
    ]
    import_services.import_club_records(club=club, records=records, owner_id=None)


def member(club, name):
    return Member.objects.get(club=club, name=name)


def seated(club):
    """Every club game's names as its summary and its seats say them."""
    return sorted(
        (tuple(summary.names), tuple(summary.game.seats.values_list("player__name", flat=True)))
        for summary in Summary.objects.filter(game__club_game__club=club)
    )


CARE = ("member_renamed", "members_merged", "member_removed", "member_retired", "member_returned")
"""The kinds of history line this file's actions write (the games and seasons set up for
them write theirs)."""


def history(club):
    lines = ClubChange.objects.filter(club=club, action__in=CARE)
    return list(lines.values_list("action", "subject", "after"))


# Renaming.


def test_rename_member_renames_his_games_results_and_standings(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"), ("Bilal", "Amina", "Dalila", "Chafik"))
    bilal = member(club, "Bilal")
    mu = list(ClubResult.objects.filter(key="bilal").values_list("mu", "sigma"))

    response = browser.post(f"/clubs/cafe/members/{bilal.pk}/rename", {"name": "Bilel"})

    assert response.status_code == 302
    browser.get("/clubs/cafe/members")  # the message said
    assert member(club, "Bilel").pk == bilal.pk
    assert [names for names, _ in seated(club)] == [
        ("Amina", "Bilel", "Chafik", "Dalila"),
        ("Bilel", "Amina", "Dalila", "Chafik"),
    ]
    assert all(summary == seats for summary, seats in seated(club))
    assert list(ClubResult.objects.filter(key="bilel").values_list("mu", "sigma")) == mu
    assert ClubResult.objects.filter(name="Bilal").count() == 0
    assert Player.objects.filter(key="bilal").count() == 0
    check_league(club)
    page = browser.get(f"/clubs/cafe/players/{bilal.pk}/").content.decode()
    assert ("Bilel" in page, "Bilal" in page) == (True, False)
    assert "Bilel" in browser.get("/clubs/cafe/standings/").content.decode()
    assert history(club) == [("member_renamed", "Bilal", {"name": "Bilel", "games": 2})]


def test_rename_member_says_so_on_the_members_page(club, browser):
    bilal = member_services.add_member(club=club, name="Bilal")

    response = browser.post(
        f"/clubs/cafe/members/{bilal.pk}/rename", {"name": "Bilel"}, follow=True
    )

    assert "Bilal is now Bilel, in every game of the club." in response.content.decode()


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("amina", "The club already has a player of this name."),
        ("\u0410mina", "looks like “Amina”, another player of the club"),  # a Cyrillic A
        ("", "This field is required."),
        ("B\u202eilal", ""),  # a bidi control: refused by the name field
    ],
)
def test_rename_member_refused_changes_nothing(club, browser, name, said):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    bilal = member(club, "Bilal")
    before = (seated(club), list(ClubResult.objects.values_list("key", "name")))

    response = browser.post(f"/clubs/cafe/members/{bilal.pk}/rename", {"name": name})

    assert (response.status_code, said in response.content.decode()) == (422, True)
    assert member(club, "Bilal").pk == bilal.pk
    assert (seated(club), list(ClubResult.objects.values_list("key", "name"))) == before
    assert history(club) == []


def test_rename_member_in_another_case_renames_his_seats(club, browser):
    games(club, ("Amina", "bilal", "Chafik", "Dalila"))
    bilal = member(club, "bilal")

    browser.post(f"/clubs/cafe/members/{bilal.pk}/rename", {"name": "Bilal"})

    assert seated(club) == [(("Amina", "Bilal", "Chafik", "Dalila"),) * 2]
    assert list(ClubResult.objects.filter(key="bilal").values_list("name", flat=True)) == ["Bilal"]
    check_league(club)


def test_rename_member_of_another_club_is_a_404(club, browser, admin):
    other = club_services.create_club(
        name="Other",
        slug="other",
        time_zone="UTC",
        rules=club.rules,
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=User.objects.create(username="zied").pk,
        admin_name="Zied",
    )
    zied = member(other, "Zied")

    assert browser.post(f"/clubs/cafe/members/{zied.pk}/rename", {"name": "Z"}).status_code == 404


# Merging.


def test_merge_members_moves_games_and_ratings_as_a_rebuild(club, browser):
    games(
        club,
        ("Omar", "Amina", "Chafik", "Dalila"),
        ("Amina", "Omarr", "Chafik", "Dalila"),
        ("Chafik", "Amina", "Omar", "Dalila"),
        ("Omarr", "Dalila", "Amina", "Chafik"),
    )
    omarr, omar = member(club, "Omarr"), member(club, "Omar")

    response = browser.post(f"/clubs/cafe/members/{omarr.pk}/merge", {"into": omar.pk})

    assert response.status_code == 302
    browser.get("/clubs/cafe/members")  # the message said
    assert list(Member.objects.filter(club=club, name__startswith="Omar")) == [omar]
    assert ClubResult.objects.filter(key="omar").count() == 4
    assert ClubResult.objects.filter(key="omarr").count() == 0
    assert all(summary == seats for summary, seats in seated(club))
    check_league(club)
    page = browser.get(f"/clubs/cafe/players/{omar.pk}/").content.decode()
    assert "Omarr" not in page
    assert history(club) == [("members_merged", "Omarr", {"into": "Omar"})]
    said = browser.get("/clubs/cafe/history").content.decode()
    assert "players merged</strong>: <bdi>Omarr</bdi> into <bdi>Omar</bdi>" in said


def test_merge_page_names_what_follows(club, browser):
    games(club, ("Amina", "Omarr", "Chafik", "Dalila"), ("Omarr", "Amina", "Chafik", "Dalila"))
    omar = member_services.add_member(club=club, name="Omar")
    omarr = member(club, "Omarr")

    page = browser.get(f"/clubs/cafe/members/{omarr.pk}/merge?into={omar.pk}")

    assert page.status_code == 200
    assert "<bdi>Omarr</bdi>'s 2 games go to <bdi>Omar</bdi>" in page.content.decode()
    assert member(club, "Omarr").pk == omarr.pk  # a GET only shows


def test_merge_says_so_on_the_members_page(club, browser):
    games(club, ("Amina", "Omarr", "Chafik", "Dalila"))
    omar = member_services.add_member(club=club, name="Omar")

    response = browser.post(
        f"/clubs/cafe/members/{member(club, 'Omarr').pk}/merge", {"into": omar.pk}, follow=True
    )

    assert "Omarr is merged into Omar: his 1 game is Omar&#x27;s." in response.content.decode()


def test_merge_members_who_sat_together_is_refused(club, browser):
    games(club, ("Amina", "Omarr", "Omar", "Dalila"), ("Amina", "Omar", "Chafik", "Dalila"))
    omarr, omar = member(club, "Omarr"), member(club, "Omar")
    before = (seated(club), list(ClubResult.objects.values_list("key", "mu")))

    response = browser.post(f"/clubs/cafe/members/{omarr.pk}/merge", {"into": omar.pk})

    assert response.status_code == 409
    assert "Omarr and Omar sat in 1 game together" in response.content.decode()
    assert (seated(club), list(ClubResult.objects.values_list("key", "mu"))) == before
    assert Member.objects.filter(pk=omarr.pk).exists()
    assert history(club) == []


def test_merge_members_both_with_accounts_is_refused(club, browser):
    omar = member_services.add_member(club=club, name="Omar")
    omarr = member_services.add_member(club=club, name="Omarr")
    Member.objects.filter(pk=omar.pk).update(user=User.objects.create(username="omar"))
    Member.objects.filter(pk=omarr.pk).update(user=User.objects.create(username="omarr"))

    response = browser.post(f"/clubs/cafe/members/{omarr.pk}/merge", {"into": omar.pk})

    assert response.status_code == 409
    assert "each have an account" in response.content.decode()
    assert Member.objects.filter(pk=omarr.pk).exists()


def test_merge_members_drawn_in_one_round_is_refused(club):
    for name in ("Bilal", "Chafik", "Omar", "Omarr"):
        member_services.add_member(club=club, name=name)
    night = night_services.create_night(club=club, date=date(2025, 6, 1), place="", rounds=1)
    omarr, omar = member(club, "Omarr"), member(club, "Omar")
    table = [member(club, name).pk for name in ("Amina", "Bilal", "Chafik", "Omar")]
    # Omar at a table while Omarr sat out: two players.
    Round.objects.create(night=night, number=1, tables=[table], sitting_out=[omarr.pk])

    with pytest.raises(member_care.DrawnTogether):
        member_care.merge_members(club=club, gone_id=omarr.pk, kept_id=omar.pk, by=NOBODY)
    assert Member.objects.filter(pk=omarr.pk).exists()


def test_merge_moves_the_account_nights_and_the_higher_role(club):
    omar = member_services.add_member(club=club, name="Omar")
    omarr = member_services.add_member(club=club, name="Omarr", role=Member.Role.SCORER)
    user = User.objects.create(username="omar")
    Member.objects.filter(pk=omarr.pk).update(user=user)
    night = night_services.create_night(club=club, date=date(2025, 6, 1), place="", rounds=None)
    night_services.check_in(night_id=night.pk, member_ids=[omarr.pk], guests=[])

    merged = member_care.merge_members(club=club, gone_id=omarr.pk, kept_id=omar.pk, by=NOBODY)

    kept = Member.objects.get(pk=omar.pk)
    assert (merged.kept.pk, kept.user_id, kept.role) == (omar.pk, user.pk, Member.Role.SCORER)
    assert list(night.attendances.values_list("member_id", "present")) == [(omar.pk, True)]


def test_merge_rewrites_the_rounds_drawn(club):
    for name in ("Bilal", "Chafik", "Omarr"):
        member_services.add_member(club=club, name=name)
    omar = member_services.add_member(club=club, name="Omar")
    night = night_services.create_night(club=club, date=date(2025, 6, 1), place="", rounds=2)
    drawn = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    drawn.remove(omar.pk)
    night_services.check_in(night_id=night.pk, member_ids=drawn, guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=None)
    omarr = member(club, "Omarr")

    member_care.merge_members(club=club, gone_id=omarr.pk, kept_id=omar.pk, by=NOBODY)

    row = Round.objects.get(night=night)
    assert (omar.pk in row.tables[0], omarr.pk in row.tables[0]) == (True, False)
    assert all(summary == seats for summary, seats in seated(club))


@pytest.mark.parametrize("into", ["", "nonsense", "999999"])
def test_merge_into_nobody_is_a_form_error(club, browser, into):
    omarr = member_services.add_member(club=club, name="Omarr")

    response = browser.post(f"/clubs/cafe/members/{omarr.pk}/merge", {"into": into})

    assert response.status_code == 422
    assert Member.objects.filter(pk=omarr.pk).exists()


def test_merge_into_himself_is_a_form_error(club, browser):
    omarr = member_services.add_member(club=club, name="Omarr")

    response = browser.post(f"/clubs/cafe/members/{omarr.pk}/merge", {"into": omarr.pk})

    assert response.status_code == 422


# Deleting and retiring.


def test_delete_member_without_games(club, browser):
    emna = member_services.add_member(club=club, name="Emna")

    response = browser.post(f"/clubs/cafe/members/{emna.pk}/delete", follow=True)

    assert "Emna is deleted from the club." in response.content.decode()
    assert not Member.objects.filter(pk=emna.pk).exists()
    assert history(club) == [("member_removed", "Emna", None)]


def test_delete_member_with_games_is_refused(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    bilal = member(club, "Bilal")

    page = browser.get(f"/clubs/cafe/members/{bilal.pk}/delete").content.decode()
    response = browser.post(f"/clubs/cafe/members/{bilal.pk}/delete")

    assert "<bdi>Bilal</bdi> sat in 1 of the club's games: he cannot be deleted" in page
    assert response.status_code == 409
    assert Member.objects.filter(pk=bilal.pk).exists()
    assert history(club) == []


def test_delete_the_only_admin_is_refused(club, browser):
    amina = member(club, "Amina")

    response = browser.post(f"/clubs/cafe/members/{amina.pk}/delete")

    assert response.status_code == 409
    assert Member.objects.filter(pk=amina.pk).exists()


def test_retired_member_leaves_the_lists_and_stays_in_standings(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    bilal = member(club, "Bilal")
    night = night_services.create_night(club=club, date=date(2025, 6, 1), place="", rounds=None)

    response = browser.post(f"/clubs/cafe/members/{bilal.pk}/retire", follow=True)

    assert "Bilal is retired: his games and results stay his." in response.content.decode()
    listed = browser.get("/clubs/cafe/").context
    assert [player.name for player, _ in listed["members"]] == ["Amina", "Chafik", "Dalila"]
    assert "Bilal" not in browser.get("/clubs/cafe/games/new").context["known_names"]
    night_page = browser.get(f"/clubs/cafe/nights/{night.pk}/")
    assert bilal.pk not in [one.member_id for one in night_page.context["state"].players]
    assert "Bilal" in browser.get("/clubs/cafe/standings/").content.decode()
    assert browser.get(f"/clubs/cafe/players/{bilal.pk}/").status_code == 200
    check_league(club)

    browser.post(f"/clubs/cafe/members/{bilal.pk}/return")

    assert Member.objects.get(pk=bilal.pk).retired_at is None
    assert "Bilal" in browser.get("/clubs/cafe/games/new").context["known_names"]
    assert [action for action, _, _ in history(club)] == ["member_returned", "member_retired"]


def test_retire_page_names_what_follows(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"), ("Bilal", "Amina", "Chafik", "Dalila"))

    page = browser.get(f"/clubs/cafe/members/{member(club, 'Bilal').pk}/retire").content.decode()

    assert "<bdi>Bilal</bdi>'s 2 games stay his" in page


def test_retire_the_only_admin_is_refused(club, browser):
    amina = member(club, "Amina")

    response = browser.post(f"/clubs/cafe/members/{amina.pk}/retire")

    assert response.status_code == 409
    assert Member.objects.get(pk=amina.pk).retired_at is None


def test_members_page_lists_the_retired_apart_with_a_way_back(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    bilal = member(club, "Bilal")
    member_care.retire_member(club=club, member_id=bilal.pk, by=NOBODY)

    page = browser.get("/clubs/cafe/members").content.decode()

    retired = page.split('id="retired"')[1]
    assert f'action="/clubs/cafe/members/{bilal.pk}/return"' in retired
    assert f'action="/clubs/cafe/members/{bilal.pk}/role"' not in page


# Rights and the members page.


@pytest.mark.parametrize("action", ["rename", "merge", "retire", "return", "delete"])
def test_member_actions_refused_to_a_scorer(club, client, action):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    scorer = User.objects.create(username="bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=scorer, role=Member.Role.SCORER)
    client.force_login(scorer)
    chafik = member(club, "Chafik")
    omar = member_services.add_member(club=club, name="Omar")

    response = client.post(
        f"/clubs/cafe/members/{chafik.pk}/{action}", {"name": "Chafiq", "into": omar.pk}
    )

    assert response.status_code == 403
    assert (member(club, "Chafik").retired_at, history(club)) == (None, [])


def test_members_page_queries_do_not_grow_with_players(club, browser):
    games(club, ("Amina", "Bilal", "Chafik", "Dalila"))
    with CaptureQueriesContext(connection) as few:
        browser.get("/clubs/cafe/members")
    games(club, *[(f"P{n}a", f"P{n}b", f"P{n}c", f"P{n}d") for n in range(5)], first="more")
    member_care.retire_member(club=club, member_id=member(club, "P0a").pk, by=NOBODY)
    with CaptureQueriesContext(connection) as more:
        browser.get("/clubs/cafe/members")

    assert len(more) == len(few)
