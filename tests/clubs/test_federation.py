"""A federation of clubs (issue 42.6; league.md, "A federation of clubs"): clubs invited,
accepting, leaving, each change in the club's history; one ranking of the accounts across
the clubs, equal to an independent computation from the nights' rankings after random
writes; its page, CSV, PDF and API, by the policy's rights."""

import random
from collections import defaultdict
from datetime import timedelta
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.accounts.models import AccountEmail
from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.federation import services
from scoring.clubs.federation.ranking import federation_ranking
from scoring.clubs.league.standings import night_standings
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubChange, Federation, Member, Night
from scoring.clubs.nights import services as night_services
from scoring.common.rights import Actor
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services as table_services
from tests.clubs.factories import account, signed_in

pytestmark = pytest.mark.django_db

NOW = timezone.now()
TODAY = NOW.date()
PLAYERS = ("Amina", "Bilal", "Chafik", "Dalila", "Emna", "Farid", "Ghada", "Hedi")


def deal(taker, bid, *tricks):
    return Hand(Contract(taker, bid, Trump.HEARTS), tricks=tuple(tricks))


def wins_for(seat):
    """Three hands after which ``seat`` has won at 10, the others apart."""
    tricks = [0, 0, 0, 0]
    for offset, count in enumerate((4, 1, 1, 0)):
        tricks[(seat + offset) % 4] = count
    return (deal(seat, 4, *tricks),) * 3


def club_of(slug, admin, accounts):
    """A club of the eight players, Amina its admin; ``accounts`` by name link accounts."""
    club = club_services.create_club(
        name=slug.title(),
        slug=slug,
        time_zone="Africa/Tunis",
        rules=Rules(target=10),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name="Amina",
    )
    for name in PLAYERS[1:]:
        member = member_services.add_member(club=club, name=name)
        if name in accounts:
            Member.objects.filter(pk=member.pk).update(user=accounts[name])
    return club


def played_night(club, day, rng):
    """A night of ``day``: eight players checked in, one round drawn, each table won by a
    seat ``rng`` picks."""
    night = night_services.create_night(club=club, date=day, place="", rounds=1)
    ids = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=ids, guests=[])
    drawn = night_services.draw_round(night_id=night.pk, owner_id=None)
    for game in drawn.club_games.select_related("game"):
        for number, hand in enumerate(wins_for(rng.randrange(4)), 1):
            table_services.record_hand(
                public_id=game.game.public_id, number=number, hand=hand, token=None
            )
    return night


@pytest.fixture
def world():
    """Two clubs, Sfax and Tunis, whose admins are sfax and tunis; Bilal and Chafik hold an
    account in both (the same accounts), Dalila in Sfax only; a federation run by fed."""
    sfax_admin, tunis_admin, fed = account("sfax"), account("tunis"), account("fed")
    bilal, chafik, dalila = account("bilal"), account("chafik"), account("dalila")
    sfax = club_of("sfax", sfax_admin, {"Bilal": bilal, "Chafik": chafik, "Dalila": dalila})
    tunis = club_of("tunis", tunis_admin, {"Bilal": bilal, "Chafik": chafik})
    federation = services.create_federation(
        name="Sahel", slug="sahel", public=False, admin_user_id=fed.pk
    )
    return {
        "sfax": sfax,
        "tunis": tunis,
        "federation": federation,
        "fed": fed,
        "sfax_admin": sfax_admin,
        "tunis_admin": tunis_admin,
        "bilal": bilal,
        "dalila": dalila,
    }


def joined(world):
    """Both clubs invited through the federation's page and accepted by their admins."""
    fed = signed_in(world["fed"])
    for slug in ("sfax", "tunis"):
        response = fed.post("/federations/sahel/invite", {"club": slug})
        assert response.status_code == 302
        admin = signed_in(world[f"{slug}_admin"])
        answer = admin.post(f"/clubs/{slug}/federations/sahel/answer", {"answer": "accept"})
        assert answer.status_code == 302


def independent(federation, day):
    """The ranking from each night's ranking as the night page shows it (night_standings),
    by the contract's formula in decimals at 60 digits: ``{account: (score, nights)}``."""
    results = defaultdict(list)
    clubs = [row.club for row in federation.clubs.filter(joined_at__isnull=False, left_at=None)]
    for club in clubs:
        accounts = dict(
            Member.objects.filter(club=club, user__isnull=False).values_list("name", "user_id")
        )
        for night in Night.objects.filter(club=club):
            lines = night_standings(night)
            age = (day - night.date).days
            if len(lines) < 4 or not 0 <= age <= 1095:
                continue
            w = Decimal(1) if age <= 365 else Decimal("0.66") if age <= 730 else Decimal("0.33")
            n = len(lines)
            for line in lines:
                user = accounts.get(line.standing.player)
                if user is not None:
                    results[user].append((w, Decimal(1000) * (n - line.standing.rank) / (n - 1)))
    expected = {}
    with localcontext() as context:
        context.prec = 60
        for user, own in results.items():
            if len(own) < 2:
                continue
            values = sorted((w * b for w, b in own), reverse=True)
            a = sum(values) / sum(w for w, _ in own)
            b = sum(values[:5]) / 5
            score = ((a + b) / 2).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
            expected[user] = (score, len(own))
    return expected


def stored(federation, day):
    return {
        entry.player: (entry.score, entry.nights)
        for entry in federation_ranking(federation, day).entries
    }


def test_federation_joined_by_two_clubs_ranks_an_account_once_across_them(world):
    joined(world)
    rng = random.Random(7)
    for club, days in ((world["sfax"], (3, 400)), (world["tunis"], (10, 800))):
        for ago in days:
            played_night(club, TODAY - timedelta(days=ago), rng)

    ranking = federation_ranking(world["federation"], TODAY)

    bilal = [entry for entry in ranking.entries if entry.player == world["bilal"].pk]
    assert [(entry.nights, entry.sources) for entry in bilal] == [(4, ("Sfax", "Tunis"))]
    assert stored(world["federation"], TODAY) == independent(world["federation"], TODAY)
    # Each club's admin (Amina, an account of her own in each) and the three accounts.
    assert {entry.player for entry in ranking.entries} == {
        world["sfax_admin"].pk,
        world["tunis_admin"].pk,
        world["bilal"].pk,
        world["dalila"].pk,
        Member.objects.get(club=world["sfax"], name="Chafik").user_id,
    }


def test_federation_ranking_equals_an_independent_computation_after_random_writes(world):
    joined(world)
    rng = random.Random(42)
    clubs = [world["sfax"], world["tunis"]]
    for step in range(10):
        club = rng.choice(clubs)
        night = played_night(club, TODAY - timedelta(days=rng.randrange(0, 1200)), rng)
        game = night.round_set.get().club_games.first().game
        what = rng.randrange(5)
        if what == 0:
            # A correction: the winning hand undone, then another seat wins.
            table_services.undo_hand(public_id=game.public_id, number=3)
            seat = rng.randrange(4)
            tricks = [0, 0, 0, 0]
            tricks[seat] = 4
            tricks[(seat + 1) % 4] = 2
            table_services.record_hand(
                public_id=game.public_id, number=3, hand=deal(seat, 4, *tricks), token=None
            )
        elif what == 1:
            edits.delete_club_game(club=club, public_id=game.public_id)
        elif what == 2:
            edits.edit_night(
                club=club,
                night_id=night.pk,
                date=TODAY - timedelta(days=rng.randrange(0, 1200)),
                place="",
                rounds=1,
            )
        elif what == 3:
            edits.delete_night(club=club, night_id=rng.choice(list(club.nights.all())).pk)
        else:
            services.leave_federation(club=club, federation=world["federation"])
            if step % 2:
                services.invite_club(federation=world["federation"], club=club)
                services.answer_invitation(club=club, federation=world["federation"], accept=True)
        assert stored(world["federation"], TODAY) == independent(world["federation"], TODAY)


def test_club_leaving_takes_its_nights_out_of_the_ranking(world):
    joined(world)
    rng = random.Random(3)
    for club in (world["sfax"], world["tunis"]):
        played_night(club, TODAY - timedelta(days=1), rng)
    before = stored(world["federation"], TODAY)

    response = signed_in(world["tunis_admin"]).post("/clubs/tunis/federations/sahel/leave")

    assert response.status_code == 302
    assert {user: nights for user, (_, nights) in before.items()} == {
        world["bilal"].pk: 2,
        Member.objects.get(club=world["sfax"], name="Chafik").user_id: 2,
    }
    assert stored(world["federation"], TODAY) == {}


def test_each_change_of_a_club_in_a_federation_is_in_its_history_with_who(world):
    joined(world)
    admin = signed_in(world["sfax_admin"])
    admin.post("/clubs/sfax/federations/sahel/leave")

    lines = ClubChange.objects.filter(club=world["sfax"], action__startswith="federation")
    assert list(lines.order_by("pk").values_list("action", "by_user__username", "subject")) == [
        ("federation_invited", "fed", "Sahel"),
        ("federation_joined", "sfax", "Sahel"),
        ("federation_left", "sfax", "Sahel"),
    ]


def test_invitation_declined_then_answered_again_changes_nothing(world):
    signed_in(world["fed"]).post("/federations/sahel/invite", {"club": "sfax"})
    admin = signed_in(world["sfax_admin"])

    first = admin.post("/clubs/sfax/federations/sahel/answer", {"answer": "decline"})
    again = admin.post("/clubs/sfax/federations/sahel/answer", {"answer": "accept"}, follow=True)

    assert (first.status_code, again.status_code) == (302, 200)
    assert "This invitation was answered already." in again.content.decode()
    row = world["federation"].clubs.get()
    assert (row.joined_at, row.left_at is not None) == (None, True)


@pytest.mark.parametrize(
    ("club", "said"),
    [("nowhere", "No club has this address."), ("sfax", "This club is invited already")],
)
def test_invite_refused_says_why_where_typed_and_changes_nothing(world, club, said):
    fed = signed_in(world["fed"])
    fed.post("/federations/sahel/invite", {"club": "sfax"})
    count = ClubChange.objects.count()

    response = fed.post("/federations/sahel/invite", {"club": club})

    assert (response.status_code, said in response.content.decode()) == (422, True)
    assert ClubChange.objects.count() == count


def test_club_admin_only_answers_for_his_club(world):
    signed_in(world["fed"]).post("/federations/sahel/invite", {"club": "sfax"})

    response = signed_in(world["tunis_admin"]).post(
        "/clubs/sfax/federations/sahel/answer", {"answer": "accept"}
    )

    assert response.status_code == 403
    assert world["federation"].clubs.get().joined_at is None


def test_only_the_federations_admin_invites(world):
    response = signed_in(world["sfax_admin"]).post("/federations/sahel/invite", {"club": "sfax"})

    assert (response.status_code, world["federation"].clubs.count()) == (403, 0)


@pytest.mark.parametrize("public", [False, True])
def test_federation_page_seen_by_its_clubs_members_and_the_public_if_public(world, public):
    joined(world)
    Federation.objects.filter(pk=world["federation"].pk).update(public=public)

    member = signed_in(world["dalila"]).get("/federations/sahel/")
    stranger = signed_in(account("stranger")).get("/federations/sahel/")
    signed_out = Client().get("/federations/sahel/")

    assert member.status_code == 200
    assert (stranger.status_code, signed_out.status_code) == ((200, 200) if public else (403, 302))


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_federation_page_pdf_and_csv_in_each_language(world, language):
    joined(world)
    rng = random.Random(5)
    for club in (world["sfax"], world["tunis"]):
        played_night(club, TODAY - timedelta(days=2), rng)
    browser = signed_in(world["bilal"])

    page = browser.get("/federations/sahel/", HTTP_ACCEPT_LANGUAGE=language)
    pdf = browser.get("/federations/sahel/ranking.pdf", HTTP_ACCEPT_LANGUAGE=language)
    csv = browser.get("/federations/sahel/ranking.csv", HTTP_ACCEPT_LANGUAGE=language)

    html = page.content.decode()
    assert (page.status_code, "Bilal" in html, "federation-ranking" in html) == (200, True, True)
    assert (pdf.status_code, pdf.content[:5]) == (200, b"%PDF-")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "rank,player,score,nights,mean,best,clubs"
    assert any(line.split(",")[1] == "Bilal" and line.endswith("Sfax; Tunis") for line in lines)


def test_federation_ranking_costs_three_queries_whatever_its_nights(
    world, django_assert_num_queries
):
    joined(world)
    rng = random.Random(9)
    for ago in range(3):
        played_night(world["sfax"], TODAY - timedelta(days=ago), rng)

    with django_assert_num_queries(3):
        federation_ranking(world["federation"], TODAY)


def test_new_federation_made_once_by_its_admin(world):
    browser = signed_in(world["dalila"])
    form = browser.get("/federations/new").content.decode()
    once = form.split('name="once" value="')[1].split('"')[0]

    first = browser.post("/federations/new", {"name": "Cap Bon", "once": once})
    again = browser.post("/federations/new", {"name": "Cap Bon", "once": once})

    assert (first.status_code, first.headers["Location"]) == (302, "/federations/cap-bon/")
    assert (again.status_code, Federation.objects.filter(slug="cap-bon").count()) == (302, 1)
    made = Federation.objects.get(slug="cap-bon")
    assert list(made.admins.values_list("username", flat=True)) == ["dalila"]


def test_actor_is_named_by_a_service_called_without_a_view(world):
    services.invite_club(
        federation=world["federation"], club=world["sfax"], by=Actor(user_id=world["fed"].pk)
    )

    line = ClubChange.objects.get(club=world["sfax"], action="federation_invited")
    assert (line.by_user_id, line.after) == (world["fed"].pk, {"federation": "sahel"})


def test_api_ranking_equals_the_csv_and_follows_the_rights(world):
    joined(world)
    rng = random.Random(11)
    for club in (world["sfax"], world["tunis"]):
        played_night(club, TODAY - timedelta(days=1), rng)
    browser = signed_in(world["bilal"])

    answer = browser.get("/api/v1/federations/sahel/ranking").json()
    csv = browser.get("/federations/sahel/ranking.csv").content.decode().splitlines()[1:]
    refused = signed_in(account("stranger")).get("/api/v1/federations/sahel/ranking")
    unknown = browser.get("/api/v1/federations/nowhere/ranking")

    assert (answer["federation"], answer["clubs"]) == ("sahel", ["sfax", "tunis"])
    assert [
        ",".join(
            [
                str(row["rank"]),
                row["player"],
                row["score"],
                str(row["nights"]),
                row["mean"],
                row["best"],
                "; ".join(row["clubs"]),
            ]
        )
        for row in answer["rows"]
    ] == csv
    assert (refused.status_code, unknown.status_code) == (403, 404)


def test_federation_page_queries_do_not_grow_with_its_nights(world):
    joined(world)
    rng = random.Random(13)
    browser = signed_in(world["bilal"])

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert browser.get("/federations/sahel/").status_code == 200
        return len(captured.captured_queries)

    played_night(world["sfax"], TODAY - timedelta(days=1), rng)
    played_night(world["tunis"], TODAY - timedelta(days=2), rng)
    few = queries()
    for ago in range(3, 7):
        played_night(rng.choice([world["sfax"], world["tunis"]]), TODAY - timedelta(days=ago), rng)

    assert queries() == few


# --- A club leaving: asked, then done (issue 42, review 1) -----------------------------------

CONFIRM = '<button class="button danger" type="submit">'
"""The button that does an action asked first: absent when it is refused."""


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Leave the federation <bdi>Sahel</bdi>?"),
        ("fr", "Quitter la fédération <bdi>Sahel</bdi>\u00a0?"),
        ("ar", "مغادرة الاتحاد <bdi>Sahel</bdi>؟"),
    ],
)
def test_club_leaving_asked_first_changes_nothing_until_confirmed(world, language, heading):
    joined(world)
    admin = signed_in(world["sfax_admin"])
    lines = ClubChange.objects.filter(club=world["sfax"]).count()

    asked = admin.get("/clubs/sfax/federations/sahel/leave", HTTP_ACCEPT_LANGUAGE=language)

    html = asked.content.decode()
    assert (asked.status_code, heading in html, CONFIRM in html) == (200, True, True)
    assert ClubChange.objects.filter(club=world["sfax"]).count() == lines
    row = world["federation"].clubs.get(club=world["sfax"])
    assert (row.joined_at is not None, row.left_at) == (True, None)


def test_club_leaving_confirmed_leads_to_its_federations_with_its_message(world):
    joined(world)
    admin = signed_in(world["sfax_admin"])

    done = admin.post("/clubs/sfax/federations/sahel/leave", follow=True)

    assert done.redirect_chain == [("/clubs/sfax/federations/", 302)]
    assert [str(message) for message in done.context["messages"]] == [
        "The club left Sahel: its nights no longer count in its ranking."
    ]
    line = ClubChange.objects.filter(club=world["sfax"]).order_by("-pk").first()
    assert (line.action, line.by_user_id, line.before) == (
        "federation_left",
        world["sfax_admin"].pk,
        {"federation": "sahel"},
    )


def test_club_leaving_sent_twice_leaves_once_and_says_so(world):
    joined(world)
    admin = signed_in(world["sfax_admin"])

    first = admin.post("/clubs/sfax/federations/sahel/leave")
    again = admin.post("/clubs/sfax/federations/sahel/leave", follow=True)

    assert (first.status_code, again.redirect_chain) == (302, [("/clubs/sfax/federations/", 302)])
    assert [str(message) for message in again.context["messages"]] == [
        "The club left Sahel: its nights no longer count in its ranking.",
        "The club is no member of this federation.",
    ]
    assert ClubChange.objects.filter(club=world["sfax"], action="federation_left").count() == 1


def test_club_leaving_page_of_a_club_no_member_says_so_without_a_form(world):
    response = signed_in(world["sfax_admin"]).get("/clubs/sfax/federations/sahel/leave")

    html = response.content.decode()
    assert (response.status_code, CONFIRM in html) == (200, False)
    assert "The club is no member of <bdi>Sahel</bdi>: there is nothing to leave." in html


def test_club_leaving_only_by_the_club_s_admin(world):
    joined(world)

    member = signed_in(world["dalila"]).get("/clubs/sfax/federations/sahel/leave")
    other = signed_in(world["tunis_admin"]).post("/clubs/sfax/federations/sahel/leave")

    assert (member.status_code, other.status_code) == (403, 403)
    assert world["federation"].clubs.get(club=world["sfax"]).left_at is None


def test_club_federations_page_links_to_the_leave_page(world):
    joined(world)

    html = signed_in(world["sfax_admin"]).get("/clubs/sfax/federations/").content.decode()

    assert 'href="/clubs/sfax/federations/sahel/leave"' in html


# --- Its admins, and its deletion (review 2) -------------------------------------------------


def admins_of(federation):
    return sorted(federation.admins.values_list("username", flat=True))


def test_federation_admin_adds_another_by_username(world):
    response = signed_in(world["fed"]).post("/federations/sahel/admins", {"account": "dalila"})

    assert (response.status_code, response["Location"]) == (302, "/federations/sahel/admins")
    assert admins_of(world["federation"]) == ["dalila", "fed"]
    # The new admin runs it: its settings answer him.
    assert signed_in(world["dalila"]).get("/federations/sahel/settings").status_code == 200


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("nobody", "No account has this username."),
        # Not by an address, even a verified one: that would tell whether it has an account.
        ("dalila@example.org", "No account has this username."),
        ("fed", "This account is an admin of the federation already."),
    ],
)
def test_federation_admin_added_refused_says_why_where_typed(world, named, said):
    AccountEmail.objects.create(user=world["dalila"], address="dalila@example.org", verified_at=NOW)

    response = signed_in(world["fed"]).post("/federations/sahel/admins", {"account": named})

    assert (response.status_code, said in response.content.decode()) == (422, True)
    assert admins_of(world["federation"]) == ["fed"]


def test_federation_admin_removed_after_asking(world):
    world["federation"].admins.add(world["dalila"])
    fed = signed_in(world["fed"])

    asked = fed.get(f"/federations/sahel/admins/{world['dalila'].pk}/remove")
    untouched = admins_of(world["federation"])
    done = fed.post(f"/federations/sahel/admins/{world['dalila'].pk}/remove")

    assert (asked.status_code, CONFIRM in asked.content.decode()) == (200, True)
    assert untouched == ["dalila", "fed"]
    assert (done.status_code, done["Location"]) == (302, "/federations/sahel/admins")
    assert admins_of(world["federation"]) == ["fed"]


def test_federation_admin_removing_himself_leads_to_the_federations(world):
    world["federation"].admins.add(world["dalila"])

    done = signed_in(world["fed"]).post(f"/federations/sahel/admins/{world['fed'].pk}/remove")

    assert (done.status_code, done["Location"]) == (302, "/federations/")
    assert admins_of(world["federation"]) == ["dalila"]


def test_federation_last_admin_never_removed(world):
    fed = signed_in(world["fed"])
    url = f"/federations/sahel/admins/{world['fed'].pk}/remove"

    asked = fed.get(url).content.decode()
    refused = fed.post(url)

    said = "<bdi>fed</bdi> is the federation's only admin: add another admin first."
    assert (said in asked, CONFIRM in asked) == (True, False)
    assert (refused.status_code, said in refused.content.decode()) == (409, True)
    assert admins_of(world["federation"]) == ["fed"]


def test_federation_admin_removed_twice_is_not_found_the_second_time(world):
    world["federation"].admins.add(world["dalila"])
    fed = signed_in(world["fed"])
    url = f"/federations/sahel/admins/{world['dalila'].pk}/remove"

    first, again = fed.post(url), fed.post(url)

    assert (first.status_code, again.status_code) == (302, 404)
    assert admins_of(world["federation"]) == ["fed"]


@pytest.mark.parametrize(
    "url",
    [
        "/federations/sahel/admins",
        "/federations/sahel/admins/{fed}/remove",
        "/federations/sahel/delete",
    ],
)
def test_federation_admins_and_deletion_only_for_its_admins(world, url):
    joined(world)
    address = url.format(fed=world["fed"].pk)
    # Dalila sees the federation (a member of Sfax), and runs nothing of it.
    member = signed_in(world["dalila"])

    seen, posted = member.get(address), member.post(address, {"account": "dalila"})

    assert (seen.status_code, posted.status_code) == (403, 403)
    assert (admins_of(world["federation"]), Federation.objects.count()) == (["fed"], 1)


def test_federation_with_member_clubs_not_deleted_asked_says_which(world):
    joined(world)
    fed = signed_in(world["fed"])

    asked = fed.get("/federations/sahel/delete").content.decode()
    refused = fed.post("/federations/sahel/delete")

    said = "2 clubs are still members (Sfax, Tunis)"
    assert (said in asked, CONFIRM in asked) == (True, False)
    assert (refused.status_code, said in refused.content.decode()) == (409, True)
    assert Federation.objects.filter(slug="sahel").exists() is True


def test_federation_deleted_after_asking_once_its_clubs_left(world):
    joined(world)
    signed_in(world["sfax_admin"]).post("/clubs/sfax/federations/sahel/leave")
    signed_in(world["tunis_admin"]).post("/clubs/tunis/federations/sahel/leave")
    outsider = club_of("gabes", account("gabes"), {})
    services.invite_club(federation=world["federation"], club=outsider)
    fed = signed_in(world["fed"])

    asked = fed.get("/federations/sahel/delete").content.decode()
    done = fed.post("/federations/sahel/delete", follow=True)

    assert "its 1 invitation waiting for a club's answer." in asked
    assert done.redirect_chain == [("/federations/", 302)]
    assert [str(message) for message in done.context["messages"]] == [
        "The federation Sahel is deleted."
    ]
    assert Federation.objects.filter(slug="sahel").exists() is False
    # The clubs' history keeps their lines about it; the invitation went with it.
    assert ClubChange.objects.filter(club=world["sfax"], action="federation_left").count() == 1
    assert outsider.federations.count() == 0


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Admins", "Add an admin", "Username")),
        (
            "fr",
            ("Administrateurs", "Ajouter un administrateur", "Nom d’utilisateur"),
        ),
        ("ar", ("المشرفون", "إضافة مشرف", "اسم المستخدم")),
    ],
)
def test_federation_admins_page_in_each_language(world, language, words):
    world["federation"].admins.add(world["dalila"])
    fed = signed_in(world["fed"])

    page = fed.get("/federations/sahel/admins", HTTP_ACCEPT_LANGUAGE=language)
    remove = fed.get(
        f"/federations/sahel/admins/{world['dalila'].pk}/remove", HTTP_ACCEPT_LANGUAGE=language
    )
    delete = fed.get("/federations/sahel/delete", HTTP_ACCEPT_LANGUAGE=language)

    html = page.content.decode()
    assert [word in html for word in words] == [True, True, True]
    assert (remove.status_code, delete.status_code) == (200, 200)
    link = f'href="/federations/sahel/admins/{world["dalila"].pk}/remove"'
    assert (link in html, 'href="/federations/sahel/delete"' in html) == (True, True)


def test_federation_page_links_its_admin_to_the_admins_page(world):
    html = signed_in(world["fed"]).get("/federations/sahel/").content.decode()

    assert 'href="/federations/sahel/admins"' in html
