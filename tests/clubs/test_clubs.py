"""Running a club (issue 11): creating it, its settings and members, the invite link, its
seasons, its games started by scorers and corrected by admins, and imported records. Every
right is checked by the server: a 403 (or a sign-in) for those without it."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Club, Member, Season
from scoring.common.rights import COOKIE
from scoring.common.words import format_money
from scoring.engine import Contract, FailedTaker, Hand, Trump
from scoring.table import services
from scoring.table.models import Change, Game, Seat
from tests.clubs.factories import (
    account,
    club_data,
    club_game_data,
    errors,
    import_through,
    make_club,
    record_line,
    season_data,
    signed_in,
    with_role,
)
from tests.factories import hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def amina():
    return account("amina")


@pytest.fixture
def club(amina):
    return make_club(amina)


# --- Creating a club ----------------------------------------------------------------------


@pytest.mark.smoke
def test_new_club_valid_form_creates_the_club_with_its_creator_as_admin(amina):
    response = signed_in(amina).post("/clubs/new", club_data())

    club = Club.objects.get()
    member = club.members.get()
    assert (response.status_code, response.headers["Location"]) == (302, "/clubs/club-de-sfax/")
    assert (club.name, club.time_zone, club.target, club.failed_taker) == (
        "Club de Sfax",
        "Africa/Tunis",
        31,
        "minus_bid",
    )
    assert (club.stake, club.currency, club.points, club.public) == (
        Decimal("0.5"),
        "TND",
        [4, 2, 1, 0],
        True,
    )
    assert (member.name, member.role, member.user) == ("Amina", Member.Role.ADMIN, amina)


def test_new_club_form_gives_the_default_league_points_and_time_zone(amina):
    form = signed_in(amina).get("/clubs/new").context["form"]

    assert [form[f"points_{rank}"].value() for rank in range(4)] == [3, 2, 1, 0]
    assert form["time_zone"].value() == "Europe/Paris"


def test_new_club_rising_league_points_are_refused(amina):
    response = signed_in(amina).post("/clubs/new", club_data(points_1="5"))

    assert (response.status_code, Club.objects.count()) == (422, 0)
    assert "points" in response.context["form"].errors


def test_new_club_unknown_time_zone_is_refused(amina):
    response = signed_in(amina).post("/clubs/new", club_data(time_zone="Mars/Olympus"))

    assert (response.status_code, list(response.context["form"].errors)) == (422, ["time_zone"])


def test_new_club_taken_address_is_a_form_error(amina, club):
    response = signed_in(amina).post("/clubs/new", club_data(slug="sfax"))

    assert (response.status_code, list(response.context["form"].errors)) == (422, ["slug"])
    assert Club.objects.count() == 1


def test_new_club_signed_out_is_sent_to_sign_in(watcher):
    response = watcher.get("/clubs/new")

    assert (response.status_code, response.headers["Location"]) == (
        302,
        "/accounts/login/?next=/clubs/new",
    )


def test_clubs_lists_my_clubs_and_public_ones(amina, club):
    other = make_club(account("bilal"), public=True, slug="tunis")
    make_club(account("chafik"), slug="hidden")

    response = signed_in(amina).get("/clubs/")

    assert [membership.club for membership in response.context["mine"]] == [club]
    assert list(response.context["public"]) == [other]


def test_home_links_to_the_clubs(watcher):
    assert 'href="/clubs/"' in watcher.get("/").content.decode()


# --- Settings and rights ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [(Member.Role.ADMIN, 200), (Member.Role.SCORER, 403), (Member.Role.MEMBER, 403)],
)
def test_club_settings_only_admins_may_open_them(club, role, status):
    user = with_role(club, "Bilal", role)

    assert signed_in(user).get("/clubs/sfax/settings").status_code == status


def test_club_settings_signed_out_is_sent_to_sign_in(watcher, club):
    response = watcher.get("/clubs/sfax/settings")

    assert (response.status_code, response.headers["Location"]) == (
        302,
        "/accounts/login/?next=/clubs/sfax/settings",
    )


def test_club_settings_post_by_scorer_changes_nothing(club):
    scorer = with_role(club, "Bilal", Member.Role.SCORER)

    response = signed_in(scorer).post("/clubs/sfax/settings", club_data(name="Taken over"))

    assert (response.status_code, Club.objects.get().name) == (403, "Sfax")


def test_club_settings_post_by_admin_updates_the_club(amina, club):
    response = signed_in(amina).post("/clubs/sfax/settings", club_data(target="41"))

    club.refresh_from_db()
    assert (response.status_code, response.headers["Location"]) == (302, "/clubs/sfax/")
    assert (club.name, club.slug, club.target, club.points) == (
        "Club de Sfax",
        "sfax",
        41,
        [4, 2, 1, 0],
    )


@pytest.mark.parametrize(("lang", "shown"), [("en", "0.50"), ("fr", "0,50"), ("ar", "0,50")])
def test_club_settings_stake_as_the_page_shows_it_is_kept_in_every_language(
    amina, club, lang, shown
):
    admin = signed_in(amina)
    club.stake = Decimal("0.5")
    club.save()
    page = admin.get("/clubs/sfax/settings", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    value = re.search(r'name="stake"[^>]*value="([^"]*)"', page).group(1)

    response = admin.post(
        "/clubs/sfax/settings", club_data(stake=value, target="41"), HTTP_ACCEPT_LANGUAGE=lang
    )

    club.refresh_from_db()
    assert (value, response.status_code, club.stake, club.target) == (
        shown,
        302,
        Decimal("0.5"),
        41,
    )


def test_club_settings_form_shows_the_club_as_it_is(amina, club):
    form = signed_in(amina).get("/clubs/sfax/settings").context["form"]

    assert (form["name"].value(), form["time_zone"].value(), form["points_0"].value()) == (
        "Sfax",
        "Africa/Tunis",
        3,
    )


# --- Members ------------------------------------------------------------------------------


def test_member_role_change_by_admin(amina, club):
    bilal = member_services.add_member(club=club, name="Bilal")

    response = signed_in(amina).post(f"/clubs/sfax/members/{bilal.pk}/role", {"role": "scorer"})

    assert (response.status_code, Member.objects.get(pk=bilal.pk).role) == (302, "scorer")


def test_member_role_change_by_member_is_refused(club):
    bilal = with_role(club, "Bilal", Member.Role.MEMBER)
    amina = club.members.get(name="Amina")

    response = signed_in(bilal).post(f"/clubs/sfax/members/{amina.pk}/role", {"role": "member"})

    assert (response.status_code, Member.objects.get(pk=amina.pk).role) == (403, "admin")


def test_member_role_last_admin_stays_admin(amina, club):
    me = club.members.get(name="Amina")

    response = signed_in(amina).post(f"/clubs/sfax/members/{me.pk}/role", {"role": "member"})

    assert (response.status_code, Member.objects.get(pk=me.pk).role) == (409, "admin")


def test_member_role_of_another_clubs_player_is_a_404(amina, club):
    stranger = make_club(account("zoe"), slug="tunis").members.get()

    response = signed_in(amina).post(f"/clubs/sfax/members/{stranger.pk}/role", {"role": "member"})

    assert (response.status_code, Member.objects.get(pk=stranger.pk).role) == (404, "admin")


@pytest.mark.smoke
def test_add_member_by_name(amina, club):
    response = signed_in(amina).post("/clubs/sfax/members", {"name": "Bilal", "role": "scorer"})

    assert response.status_code == 302
    assert list(club.members.values_list("name", "role", "user")) == [
        ("Amina", "admin", amina.pk),
        ("Bilal", "scorer", None),
    ]


def test_add_member_taken_name_is_a_form_error(amina, club):
    response = signed_in(amina).post("/clubs/sfax/members", {"name": "AMINA", "role": "member"})

    assert (response.status_code, list(response.context["add_form"].errors)) == (422, ["name"])
    assert club.members.count() == 1


def test_members_page_shows_the_invite_link_and_its_qr_code(amina, club):
    page = signed_in(amina).get("/clubs/sfax/members").content.decode()

    assert f"http://testserver/clubs/sfax/join/{club.invite_secret}" in page
    assert "<svg" in page


def test_invite_qr_is_an_svg_for_admins_only(amina, club):
    scorer = with_role(club, "Bilal", Member.Role.SCORER)

    response = signed_in(amina).get("/clubs/sfax/invite.svg")

    assert (response.status_code, response.headers["Content-Type"]) == (
        200,
        "image/svg+xml; charset=utf-8",
    )
    assert response.content.startswith(b"<svg")
    assert signed_in(scorer).get("/clubs/sfax/invite.svg").status_code == 403


# --- Joining through the invite link ------------------------------------------------------


def join_url(club):
    return f"/clubs/{club.slug}/join/{club.invite_secret}"


@pytest.mark.smoke
def test_join_link_that_admits_at_once_makes_a_member(amina):
    club = make_club(amina, invite_admits=True)
    bilal = account("bilal")

    response = signed_in(bilal).post(join_url(club), {"member": "", "name": "Bilal"})

    member = club.members.get(name="Bilal")
    assert (response.status_code, response.headers["Location"]) == (302, "/clubs/sfax/")
    assert (member.user, member.claimed_by, member.role) == (bilal, None, "member")


def test_join_link_waits_for_an_admin_who_confirms(amina, club):
    bilal = account("bilal")
    browser = signed_in(bilal)

    browser.post(join_url(club), {"name": "Bilal"})
    waiting = browser.get(join_url(club))
    claim = club.members.get(name="Bilal")
    before = browser.get("/clubs/sfax/").status_code
    signed_in(amina).post(f"/clubs/sfax/members/{claim.pk}/claim", {"decision": "accept"})
    after = browser.get("/clubs/sfax/").status_code

    assert (waiting.context["pending"], claim.user, claim.claimed_by) == (claim, None, bilal)
    assert (before, after) == (403, 200)
    assert Member.objects.get(pk=claim.pk).user == bilal


def test_join_claim_refused_by_an_admin_leaves_the_player_free(amina, club):
    bilal = account("bilal")
    signed_in(bilal).post(join_url(club), {"name": "Bilal"})
    claim = club.members.get(name="Bilal")

    signed_in(amina).post(f"/clubs/sfax/members/{claim.pk}/claim", {"decision": "refuse"})

    claim.refresh_from_db()
    assert (claim.user, claim.claimed_by) == (None, None)


def test_join_waiting_shows_on_the_club_page_for_admins_only_and_is_decided_there(amina, club):
    bilal, chafik = account("bilal"), account("chafik")
    signed_in(bilal).post(join_url(club), {"name": "Bilal"})
    Member.objects.filter(pk=member_services.add_member(club=club, name="Chafik").pk).update(
        user=chafik
    )
    claim = club.members.get(name="Bilal")
    admin = signed_in(amina)

    shown = admin.get("/clubs/sfax/").content.decode()
    to_a_member = signed_in(chafik).get("/clubs/sfax/").content.decode()
    decided = admin.post(
        f"/clubs/sfax/members/{claim.pk}/claim", {"decision": "accept", "back": "club"}
    )
    after = admin.get(decided.headers["Location"]).content.decode()

    says = "The account <bdi>bilal</bdi> says it is <bdi>Bilal</bdi>."
    assert (says in shown, f'action="/clubs/sfax/members/{claim.pk}/claim"' in shown) == (
        True,
        True,
    )
    assert says not in to_a_member
    assert (decided.headers["Location"], "Bilal is in, with his account." in after) == (
        "/clubs/sfax/",
        True,
    )
    assert says not in after


@pytest.mark.parametrize(
    ("address", "data", "said"),
    [
        (
            "/clubs/sfax/members",
            {"name": "Nour", "role": "scorer"},
            "Nour is a player of the club, as scorer.",
        ),
        (
            "/clubs/sfax/invite/new",
            {},
            "A new invite link replaces the old one, which no longer works.",
        ),
    ],
)
def test_admin_action_says_what_it_did_on_the_next_page(amina, club, address, data, said):
    admin = signed_in(amina)

    response = admin.post(address, data, follow=True)

    assert (response.status_code, said in response.content.decode()) == (200, True)
    assert said not in admin.get("/clubs/sfax/members").content.decode()  # said once


def test_role_change_says_the_new_role(amina, club):
    nour = member_services.add_member(club=club, name="Nour")

    response = signed_in(amina).post(
        f"/clubs/sfax/members/{nour.pk}/role", {"role": "scorer"}, follow=True
    )

    assert "Nour is now scorer." in response.content.decode()


def test_join_claims_an_existing_name(amina):
    club = make_club(amina, invite_admits=True)
    guest = member_services.add_member(club=club, name="Bilal", role=Member.Role.GUEST)
    bilal = account("bilal")
    browser = signed_in(bilal)
    choices = browser.get(join_url(club)).context["form"].fields["member"].choices

    response = browser.post(join_url(club), {"member": str(guest.pk), "name": ""})

    guest.refresh_from_db()
    assert [label for value, label in choices if value] == ["Bilal"]
    assert response.status_code == 302
    assert (guest.user, guest.role, club.members.count()) == (bilal, "member", 2)


@pytest.mark.parametrize("role", [Member.Role.ADMIN, Member.Role.SCORER])
def test_join_link_that_admits_at_once_leaves_a_claim_on_an_admin_or_scorer_waiting(amina, role):
    club = make_club(amina, invite_admits=True)
    placeholder = member_services.add_member(club=club, name="Bilal", role=role)
    browser = signed_in(account("bilal"))

    response = browser.post(join_url(club), {"member": str(placeholder.pk), "name": ""})

    placeholder.refresh_from_db()
    assert (response.status_code, response.headers["Location"]) == (302, join_url(club))
    assert (placeholder.user, placeholder.claimed_by.username, placeholder.role) == (
        None,
        "bilal",
        role,
    )
    assert browser.get(join_url(club)).context["pending"] == placeholder
    assert browser.get("/clubs/sfax/games/new").status_code == 403
    assert browser.get("/clubs/sfax/settings").status_code == 403


def test_join_claim_on_a_scorer_confirmed_by_an_admin_gives_the_role(amina):
    club = make_club(amina, invite_admits=True)
    placeholder = member_services.add_member(club=club, name="Bilal", role=Member.Role.SCORER)
    bilal = account("bilal")
    browser = signed_in(bilal)
    browser.post(join_url(club), {"member": str(placeholder.pk), "name": ""})
    admin = signed_in(amina)
    claims = admin.get("/clubs/sfax/members").content.decode()

    admin.post(f"/clubs/sfax/members/{placeholder.pk}/claim", {"decision": "accept"})

    placeholder.refresh_from_db()
    assert "This player's role in the club is scorer: accepting gives it to this account." in claims
    assert (placeholder.user, placeholder.claimed_by, placeholder.role) == (bilal, None, "scorer")
    assert browser.get("/clubs/sfax/games/new").status_code == 200


@pytest.mark.parametrize("admits", [True, False])
def test_join_club_twice_by_one_account_is_one_join(amina, admits):
    club = make_club(amina, invite_admits=admits)
    bilal = account("bilal")

    first = member_services.join_club(club=club, user_id=bilal.pk, member_id=None, name="Bilal")
    second = member_services.join_club(club=club, user_id=bilal.pk, member_id=None, name="Bilal B")

    assert second == first
    assert list(club.members.values_list("name", "user", "claimed_by")) == [
        ("Amina", amina.pk, None),
        ("Bilal", bilal.pk if admits else None, None if admits else bilal.pk),
    ]


def test_join_form_sent_twice_is_one_join(amina):
    club = make_club(amina, invite_admits=True)
    browser = signed_in(account("bilal"))

    first = browser.post(join_url(club), {"member": "", "name": "Bilal"})
    second = browser.post(join_url(club), {"member": "", "name": "Bilal"})

    assert (first.status_code, second.status_code) == (302, 302)
    assert first.headers["Location"] == second.headers["Location"] == "/clubs/sfax/"
    assert list(club.members.values_list("name", flat=True)) == ["Amina", "Bilal"]


def test_join_with_a_taken_name_is_a_form_error(amina, club):
    response = signed_in(account("bilal")).post(join_url(club), {"name": "amina"})

    assert (response.status_code, list(response.context["form"].errors)) == (422, ["name"])


def test_join_wrong_secret_is_a_404(club):
    response = signed_in(account("bilal")).get("/clubs/sfax/join/not-the-secret")

    assert response.status_code == 404


def test_join_signed_out_logs_in_on_a_page_naming_the_club_and_comes_back(watcher, club):
    bilal = account("bilal")
    bilal.set_password("a long enough secret")
    bilal.save()

    shown = watcher.get(join_url(club))
    logged = watcher.post(
        join_url(club),
        {"username": "bilal", "password": "a long enough secret", "next": join_url(club)},
    )
    back = watcher.get(join_url(club))

    html = shown.content.decode()
    assert (shown.status_code, "<h1>Log in to join Sfax</h1>" in html) == (200, True)
    assert f'<form method="post" action="{join_url(club)}"' in html
    assert f'name="next" value="{join_url(club)}"' in html
    assert (logged.status_code, logged.headers["Location"]) == (302, join_url(club))
    assert (back.status_code, back.context["club"]) == (200, club)


def test_new_invite_stops_the_old_link(amina, club):
    old = join_url(club)

    signed_in(amina).post("/clubs/sfax/invite/new")

    response = signed_in(account("bilal")).get(old)

    html = response.content.decode()
    assert response.status_code == 404
    assert "This invite link no longer works" in html
    assert "Ask one of the club's admins for the new link" in html
    assert Club.objects.get().invite_secret != club.invite_secret
    assert Member.objects.filter(club=club, user__username="bilal").count() == 0


def test_old_invite_link_signed_out_says_it_is_replaced_without_asking_to_log_in(amina, club):
    old = join_url(club)
    signed_in(amina).post("/clubs/sfax/invite/new")

    response = Client().get(old)

    assert (
        response.status_code,
        "This invite link no longer works" in response.content.decode(),
    ) == (404, True)


# --- Seasons ------------------------------------------------------------------------------


@pytest.mark.smoke
def test_new_season_is_created_with_its_days_and_points(amina, club):
    response = signed_in(amina).post("/clubs/sfax/seasons/new", season_data(points_0="5"))

    season = Season.objects.get()
    assert response.status_code == 302
    assert (season.club, season.name, season.slug, season.first_day, season.last_day) == (
        club,
        "Spring 2025",
        "spring-2025",
        date(2025, 3, 1),
        date(2025, 5, 31),
    )
    assert season.points == [5, 2, 1, 0]


def test_new_season_overlapping_another_is_refused(amina, club):
    browser = signed_in(amina)
    browser.post("/clubs/sfax/seasons/new", season_data())

    response = browser.post(
        "/clubs/sfax/seasons/new", season_data(name="Summer", first_day="2025-05-31")
    )

    assert (response.status_code, Season.objects.count()) == (422, 1)
    assert errors(response) == ["These days overlap those of the season Spring 2025."]


def test_new_season_ending_before_it_starts_is_refused(amina, club):
    response = signed_in(amina).post("/clubs/sfax/seasons/new", season_data(last_day="2025-02-01"))

    assert (response.status_code, list(response.context["form"].errors)) == (422, ["last_day"])


def test_new_season_form_takes_the_clubs_points(amina):
    club = make_club(amina)
    Club.objects.filter(pk=club.pk).update(points=[5, 3, 1, 0])

    form = signed_in(amina).get("/clubs/sfax/seasons/new").context["form"]

    assert [form[f"points_{rank}"].value() for rank in range(4)] == [5, 3, 1, 0]


# --- Club games ---------------------------------------------------------------------------


@pytest.fixture
def rules_club(amina):
    """Sfax at 31 points, a missed bid scoring minus the bid, 1 TND a point; Bilal scores
    its games and Chafik is a member."""
    club = make_club(
        amina,
        target=31,
        failed_taker=FailedTaker.MINUS_BID,
        stake=Decimal(1),
        currency="TND",
    )
    with_role(club, "Bilal", Member.Role.SCORER)
    with_role(club, "Chafik", Member.Role.MEMBER)
    return club


@pytest.mark.smoke
def test_new_club_game_by_a_scorer_uses_the_clubs_rules_and_seats_a_guest(rules_club):
    bilal = User.objects.get(username="bilal")

    response = signed_in(bilal).post("/clubs/sfax/games/new", club_game_data())

    game = Game.objects.get()
    seats = [seat.player.name for seat in Seat.objects.filter(game=game).select_related("player")]
    assert (response.status_code, response.headers["Location"]) == (
        302,
        f"/games/{game.public_id}/",
    )
    assert (game.club_game.club, game.owner, game.target, game.failed_taker) == (
        rules_club,
        bilal,
        31,
        "minus_bid",
    )
    assert (game.stake, game.currency, game.first_dealer) == (Decimal(1), "TND", 0)
    assert seats == ["Amina", "Bilal", "Chafik", "Zoé"]
    assert rules_club.members.get(name="Zoé").role == Member.Role.GUEST


def test_new_club_game_writes_members_names_as_the_club_does(rules_club):
    bilal = User.objects.get(username="bilal")

    signed_in(bilal).post("/clubs/sfax/games/new", club_game_data(player_0="AMINA"))

    assert Game.objects.get().summary.names[0] == "Amina"


def test_new_club_game_page_suggests_the_clubs_players(rules_club):
    bilal = User.objects.get(username="bilal")

    response = signed_in(bilal).get("/clubs/sfax/games/new")

    assert list(response.context["known_names"]) == ["Amina", "Bilal", "Chafik"]


def test_new_club_game_sent_twice_starts_one_game(rules_club):
    browser = signed_in(User.objects.get(username="bilal"))
    page = browser.get("/clubs/sfax/games/new").content.decode()
    token = re.search(r'name="once" value="([^"]+)"', page)
    assert token is not None
    data = club_game_data(once=token.group(1))

    first = browser.post("/clubs/sfax/games/new", data)
    second = browser.post("/clubs/sfax/games/new", data)

    assert (Game.objects.count(), first.headers["Location"]) == (1, second.headers["Location"])


def test_new_club_game_by_a_member_is_forbidden(rules_club):
    chafik = User.objects.get(username="chafik")

    response = signed_in(chafik).post("/clubs/sfax/games/new", club_game_data())

    assert (response.status_code, Game.objects.count()) == (403, 0)


def test_club_game_phone_of_the_scorer_may_score_it_signed_out(rules_club):
    browser = signed_in(User.objects.get(username="bilal"))
    browser.post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()
    phone = Client()  # the same phone, signed out: its right stays, as at any table
    phone.cookies[COOKIE] = browser.cookies[COOKIE].value

    response = phone.post(f"/games/{game.public_id}/hands", hand_data(1))

    assert (response.status_code, game.hands.count()) == (302, 1)


def test_club_admin_corrects_a_hand_of_a_game_he_did_not_start(amina, rules_club):
    scorer = signed_in(User.objects.get(username="bilal"))
    scorer.post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()
    scorer.post(f"/games/{game.public_id}/hands", hand_data(1))

    response = signed_in(amina).post(
        f"/games/{game.public_id}/hands/1/edit", hand_data(1, taker=2, tricks=(1, 0, 4))
    )

    edit = Change.objects.get(game=game, action=Change.Action.EDITED)
    assert (response.status_code, game.hands.get().taker) == (302, 2)
    assert (edit.by_user, edit.hand_number) == (amina, 1)


def test_club_scorer_scores_a_club_game_another_scorer_started(rules_club):
    with_role(rules_club, "Dalila", Member.Role.SCORER)
    signed_in(User.objects.get(username="bilal")).post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()

    response = signed_in(User.objects.get(username="dalila")).post(
        f"/games/{game.public_id}/hands", hand_data(1)
    )

    assert (response.status_code, game.hands.count()) == (302, 1)


def test_scorer_demoted_to_member_no_longer_scores_the_club_games_he_started(amina, rules_club):
    bilal = User.objects.get(username="bilal")
    scorer = signed_in(bilal)
    scorer.post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()
    phone = Client()  # his phone, signed out
    phone.cookies[COOKIE] = scorer.cookies[COOKIE].value
    member = rules_club.members.get(user=bilal)
    admin = signed_in(amina)

    admin.post(f"/clubs/sfax/members/{member.pk}/role", {"role": "member"})
    demoted = [
        scorer.post(f"/games/{game.public_id}/hands", hand_data(1)).status_code,
        phone.post(f"/games/{game.public_id}/hands", hand_data(1)).status_code,
        scorer.get(f"/games/{game.public_id}/share").status_code,
        scorer.post(f"/games/{game.public_id}/rematch").status_code,
    ]
    admin.post(f"/clubs/sfax/members/{member.pk}/role", {"role": "scorer"})
    again = phone.post(f"/games/{game.public_id}/hands", hand_data(1)).status_code

    assert (game.owner, demoted, again) == (bilal, [403, 403, 403, 403], 302)
    assert (game.hands.count(), Game.objects.count()) == (1, 1)


def test_club_games_rematch_by_a_scorer_is_a_club_game(rules_club):
    bilal = signed_in(User.objects.get(username="bilal"))
    bilal.post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()
    dalila = signed_in(with_role(rules_club, "Dalila", Member.Role.SCORER))

    response = dalila.post(f"/games/{game.public_id}/rematch")

    rematch = Game.objects.get(rematch_of=game)
    assert (response.status_code, rematch.club_game.club, rematch.owner) == (
        302,
        rules_club,
        game.owner,
    )


def test_club_member_may_not_correct_a_hand(rules_club):
    scorer = signed_in(User.objects.get(username="bilal"))
    scorer.post("/clubs/sfax/games/new", club_game_data())
    game = Game.objects.get()
    scorer.post(f"/games/{game.public_id}/hands", hand_data(1))
    chafik = signed_in(User.objects.get(username="chafik"))

    response = chafik.post(f"/games/{game.public_id}/hands/1/edit", hand_data(1, taker=2))

    assert (response.status_code, game.hands.get().taker) == (403, 1)


def test_club_game_page_links_back_to_its_club(rules_club, watcher):
    state = club_services.start_club_game(
        club=rules_club, names=["Amina", "Bilal", "Chafik", "Zoé"], first_dealer=0, owner_id=None
    )

    page = watcher.get(f"/games/{state.game.public_id}/").content.decode()

    assert '<a href="/clubs/sfax/">Sfax</a>' in page


# --- Importing records --------------------------------------------------------------------


def test_import_records_valid_lines_are_imported_into_the_club(amina, club):
    text = "\n".join(
        [
            record_line("g1"),
            "",
            record_line("g2", taker=2, players=["Amina", "Yasmine", "Bilal", "Zoé"]),
        ]
    )

    page = import_through(signed_in(amina), "sfax", {"text": text})

    assert (page.context["job"].state, page.context["result"]["imported"]) == ("done", 2)
    assert sorted(
        Game.objects.filter(club_game__club=club).values_list("record_id", flat=True)
    ) == [
        "g1",
        "g2",
    ]
    assert sorted(club.members.values_list("name", flat=True)) == [
        "Amina",
        "Bilal",
        "Chafik",
        "Dalila",
        "Yasmine",
        "Zoé",
    ]


def test_import_records_from_a_file(amina, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("records.jsonl", (record_line("g1") + "\n").encode())

    response = import_through(signed_in(amina), "sfax", {"file": upload})

    assert (response.status_code, Game.objects.filter(club_game__club=club).count()) == (200, 1)


def test_import_records_invalid_lines_are_said_by_number_and_nothing_is_stored(amina, club):
    text = "\n".join(
        [record_line("g1"), "not json", record_line("g3"), record_line("g4", first_dealer=7)]
    )

    response = import_through(signed_in(amina), "sfax", {"text": text})

    said = errors(response)
    assert (response.status_code, Game.objects.count()) == (200, 0)
    assert [line.split(":")[0] for line in said] == ["line 2", "line 4"]
    assert club.members.count() == 1


def test_import_records_same_id_twice_in_the_file_is_refused(amina, club):
    text = "\n".join([record_line("g1"), record_line("g1")])

    response = import_through(signed_in(amina), "sfax", {"text": text})

    assert (response.status_code, Game.objects.count()) == (200, 0)
    assert errors(response) == ["line 2: the id g1 is on line 1 too"]


def test_import_records_again_is_refused(amina, club):
    browser = signed_in(amina)
    import_through(browser, "sfax", {"text": record_line("g1")})

    response = import_through(
        browser, "sfax", {"text": record_line("g2") + "\n" + record_line("g1")}
    )

    assert (response.status_code, Game.objects.count()) == (200, 1)
    assert errors(response) == ["line 2: the game g1 is in the club already"]


def test_import_records_by_a_scorer_is_forbidden(club):
    scorer = with_role(club, "Bilal", Member.Role.SCORER)

    response = import_through(signed_in(scorer), "sfax", {"text": record_line("g1")})

    assert (response.status_code, Game.objects.count()) == (403, 0)


# --- The club's page ----------------------------------------------------------------------


def test_private_club_page_is_forbidden_to_non_members(club):
    response = signed_in(account("zoe")).get("/clubs/sfax/")

    assert response.status_code == 403


def test_private_club_page_signed_out_is_sent_to_sign_in(watcher, club):
    assert watcher.get("/clubs/sfax/").status_code == 302


def test_public_club_page_is_visible_to_anyone(watcher, amina):
    make_club(amina, public=True)

    response = watcher.get("/clubs/sfax/")

    assert (response.status_code, response.context["member"]) == (200, None)
    assert "/clubs/sfax/games/new" not in response.content.decode()


def test_club_page_links_seasons_records_games_and_players(amina, club):
    club_services.create_season(
        club=club,
        name="Spring",
        slug="spring",
        first_day=date(2025, 3, 1),
        last_day=date(2025, 5, 31),
        points=(3, 2, 1, 0),
    )
    state = club_services.start_club_game(
        club=club, names=["Amina", "Bilal", "Chafik", "Zoé"], first_dealer=0, owner_id=None
    )
    bilal = club.members.get(name="Bilal")

    page = signed_in(amina).get("/clubs/sfax/").content.decode()

    for link in [
        "/clubs/sfax/seasons/spring/",
        "/clubs/sfax/seasons/spring/standings.csv",
        "/clubs/sfax/records.jsonl",
        f"/games/{state.game.public_id}/",
        f"/clubs/sfax/players/{bilal.pk}/",
        "/clubs/sfax/games/new",
        "/clubs/sfax/settings",
        "/clubs/sfax/members",
        "/clubs/sfax/seasons/new",
        "/clubs/sfax/import",
    ]:
        assert f'href="{link}"' in page, link


def test_club_page_queries_do_not_grow_with_its_games(amina, club, django_assert_max_num_queries):
    for _ in range(40):
        state = club_services.start_club_game(
            club=club, names=["Amina", "Bilal", "Chafik", "Zoé"], first_dealer=0, owner_id=None
        )
        services.record_hand(
            public_id=state.game.public_id,
            number=1,
            hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
            token=None,
        )
    browser = signed_in(amina)

    # 9: the disputes waiting, for an admin (40.3); 10: the imports and rebuilds not ended (43)
    with django_assert_max_num_queries(10):
        response = browser.get("/clubs/sfax/")

    assert len(response.context["games"]) == 20


def test_new_club_game_page_says_the_clubs_whole_rules(rules_club):
    bilal = User.objects.get(username="bilal")

    response = signed_in(bilal).get("/clubs/sfax/games/new")

    said = response.context["rules"]
    assert said == (
        "31 points to win · a failed taker scores minus his bid · "
        f"stake {format_money(Decimal(1), 'TND')}"
    )
    assert f"The club's rules: {escape(said)}." in response.content.decode()
