"""A club's part of privacy (docs/privacy.md): a member shown to the public by his first
name and initial, on every public page and export, while the club's members see his full
name; an admin downloading a member's data and removing him at his request, ratings
unmoved; and who may do each."""

import csv
import io
import json
import unicodedata
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from scoring.accounts.services import delete_account
from scoring.clubs import services as club_services
from scoring.clubs.edits import delete_club_game, delete_night
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.mail import night_mail
from scoring.clubs.members import services as member_services
from scoring.clubs.members.care import merge_members, rename_member
from scoring.clubs.models import ClubChange, ClubResult, MailChoice, Member
from scoring.clubs.names import Named, shown_names
from scoring.clubs.nights import services as night_services
from scoring.clubs.privacy import anonymous_name, remove_member
from scoring.common.rights import Actor
from scoring.management.backup import write_backup
from scoring.table import services
from scoring.table.models import Game, Summary
from tests.clubs.cafe import (
    PLAYERS,
    WON_BY_AMINA,
    WON_BY_BILAL,
    member,
    new_club,
    play,
    ratings,
    signed_in,
    user,
)
from tests.clubs.league_check import stored_totals
from tests.clubs.races import at_once, racing

pytestmark = pytest.mark.django_db


@pytest.fixture
def amina(db):
    return user("amina")


@pytest.fixture
def bilal(db):
    return user("bilal")


@pytest.fixture
def cafe(amina, bilal):
    """A public club: Amina Belhaj its admin (account amina), Bilal Chebbi a member
    (account bilal), two games played."""
    club = new_club(amina)
    play(club, WON_BY_BILAL, owner=amina)
    play(club, WON_BY_AMINA, owner=amina)
    Member.objects.filter(club=club, name=PLAYERS[1]).update(user=bilal, role=Member.Role.MEMBER)
    return club


def test_shown_names_two_alike_short_names_are_numbered_in_joining_order():
    members = [
        Named(1, "amina belhaj", "Amina Belhaj", True),
        Named(2, "amina bouzid", "Amina Bouzid", True),
        Named(3, "amina b.", "Amina B.", False),
        Named(4, "dalila", "Dalila", False),
    ]

    assert shown_names(members, public=True) == {
        "amina belhaj": "Amina B. (2)",
        "amina bouzid": "Amina B. (3)",
        "amina b.": "Amina B.",
        "dalila": "Dalila",
    }
    assert shown_names(members, public=False) == {
        "amina belhaj": "Amina Belhaj",
        "amina bouzid": "Amina Bouzid",
        "amina b.": "Amina B.",
        "dalila": "Dalila",
    }


# --- First name and initial: every public page and export -----------------------------------


@pytest.fixture
def short_amina(cafe):
    Member.objects.filter(club=cafe, name=PLAYERS[0]).update(short_in_public=True)
    return cafe


def public_and_member_views(club, path, member_account):
    """The same address as a stranger, a signed-in account of no club, and a member get it."""
    outsider = get_user_model().objects.filter(username="outsider").first() or user("outsider")
    return (
        Client().get(path),
        signed_in(outsider).get(path),
        signed_in(member_account).get(path),
    )


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/cafe/",
        "/clubs/cafe/seasons/now/",
        "/clubs/cafe/seasons/now/print",
        "/clubs/cafe/players/{bilal}/",
        "/clubs/cafe/players/{amina}/",
    ],
)
def test_public_pages_short_choice_show_first_name_and_initial_members_full(
    short_amina, bilal, path
):
    club = short_amina
    address = path.format(amina=member(club, PLAYERS[0]).pk, bilal=member(club, PLAYERS[1]).pk)

    stranger, outsider, insider = public_and_member_views(club, address, bilal)

    for response in (stranger, outsider):
        html = response.content.decode()
        assert (response.status_code, "Amina Belhaj" in html, "Amina B." in html) == (
            200,
            False,
            True,
        )
    html = insider.content.decode()
    assert (insider.status_code, "Amina Belhaj" in html) == (200, True)


@pytest.mark.parametrize("tail", ["", "settlement", "settlement.pdf", "record.json", "live"])
def test_club_game_pages_short_choice_show_first_name_and_initial_members_full(
    short_amina, bilal, tail
):
    game = Game.objects.filter(club_game__club=short_amina).order_by("pk").first()
    path = f"/games/{game.public_id}/{tail}"

    stranger, outsider, insider = public_and_member_views(short_amina, path, bilal)

    def text(response):
        if tail == "settlement.pdf":
            return "".join(
                page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
            )
        if tail == "record.json":
            return " ".join(json.loads(response.content)["players"])
        return response.content.decode()

    for response in (stranger, outsider):
        assert (
            response.status_code,
            "Amina Belhaj" in text(response),
            "Amina B." in text(response),
        ) == (200, False, True)
    assert (insider.status_code, "Amina Belhaj" in text(insider)) == (200, True)


def test_club_game_page_scorer_sees_the_names_as_typed(short_amina, amina):
    game = Game.objects.filter(club_game__club=short_amina).order_by("pk").first()

    html = signed_in(amina).get(f"/games/{game.public_id}/").content.decode()

    assert "Amina Belhaj" in html


def test_standings_csv_short_choice_names_him_short_for_the_public_only(short_amina, bilal):
    def players(response):
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
        return sorted(row[1] for row in rows[1:])

    stranger, outsider, insider = public_and_member_views(
        short_amina, "/clubs/cafe/seasons/now/standings.csv", bilal
    )

    assert players(stranger) == players(outsider) == sorted(["Amina B.", *PLAYERS[1:]])
    assert players(insider) == sorted(PLAYERS)


def test_records_jsonl_short_choice_changes_only_the_names_for_the_public(short_amina, bilal):
    stranger, _, insider = public_and_member_views(short_amina, "/clubs/cafe/records.jsonl", bilal)

    public = [json.loads(line) for line in b"".join(stranger.streaming_content).splitlines()]
    full = [json.loads(line) for line in b"".join(insider.streaming_content).splitlines()]
    assert [record["players"] for record in public] == [["Amina B.", *PLAYERS[1:]]] * 2
    assert [record["players"] for record in full] == [list(PLAYERS)] * 2
    for record in full:
        record["players"][0] = "Amina B."
    assert public == full


def test_standings_pdf_short_choice_names_him_short_for_the_public(short_amina, bilal):
    stranger, _, insider = public_and_member_views(
        short_amina, "/clubs/cafe/seasons/now/standings.pdf", bilal
    )

    def text(response):
        return "".join(
            page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
        )

    assert ("Amina Belhaj" in text(stranger), "Amina B." in text(stranger)) == (False, True)
    assert "Amina Belhaj" in text(insider)


def test_night_pages_short_choice_names_him_short_for_the_public(short_amina, amina, bilal):
    club = short_amina
    night = night_services.create_night(club=club, date=timezone.localdate(), place="", rounds=1)
    ids = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=ids, guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=amina.pk)
    table = Game.objects.get(club_game__round__night=night)
    for number, hand in enumerate(WON_BY_BILAL, start=1):
        services.record_hand(public_id=table.public_id, number=number, hand=hand, token=None)
    for path in (f"/clubs/cafe/nights/{night.pk}/", f"/clubs/cafe/nights/{night.pk}/ranking"):
        stranger, _, insider = public_and_member_views(club, path, bilal)
        assert ("Amina Belhaj" in stranger.content.decode(), stranger.status_code) == (False, 200)
        assert "Amina Belhaj" in insider.content.decode()


# --- Choosing it -----------------------------------------------------------------------------


def test_public_name_member_chooses_for_himself(cafe, bilal):
    shown = member(cafe, PLAYERS[1])

    response = signed_in(bilal).post(
        f"/clubs/cafe/players/{shown.pk}/public-name", {"shown": "short"}
    )

    shown.refresh_from_db()
    assert (response.status_code, shown.short_in_public) == (302, True)
    html = Client().get("/clubs/cafe/seasons/now/").content.decode()
    assert ("Bilal C." in html, "Bilal Chebbi" in html) == (True, False)


def test_public_name_admin_chooses_for_a_member_on_request(cafe, amina):
    shown = member(cafe, PLAYERS[2])

    response = signed_in(amina).post(
        f"/clubs/cafe/players/{shown.pk}/public-name", {"shown": "short"}
    )

    shown.refresh_from_db()
    assert (response.status_code, shown.short_in_public) == (302, True)


def test_public_name_another_member_is_refused_and_nothing_changes(cafe, bilal):
    other = member(cafe, PLAYERS[0])

    response = signed_in(bilal).post(
        f"/clubs/cafe/players/{other.pk}/public-name", {"shown": "short"}
    )

    other.refresh_from_db()
    assert (response.status_code, other.short_in_public) == (403, False)


def test_public_name_stranger_is_refused(cafe):
    other = member(cafe, PLAYERS[1])

    signed_out = Client().post(f"/clubs/cafe/players/{other.pk}/public-name", {"shown": "short"})
    outsider = signed_in(user("outsider")).post(
        f"/clubs/cafe/players/{other.pk}/public-name", {"shown": "short"}
    )

    other.refresh_from_db()
    assert (signed_out.status_code, outsider.status_code, other.short_in_public) == (
        403,
        403,
        False,
    )


def test_public_name_bad_choice_says_so_on_the_page_and_changes_nothing(cafe, bilal):
    shown = member(cafe, PLAYERS[1])

    response = signed_in(bilal).post(
        f"/clubs/cafe/players/{shown.pk}/public-name", {"shown": "nickname"}
    )

    shown.refresh_from_db()
    html = response.content.decode()
    assert (response.status_code, shown.short_in_public) == (422, False)
    assert 'class="field-errors" role="alert"' in html


def test_player_page_offers_the_choice_to_himself_and_admins_only(cafe, amina, bilal):
    page = f"/clubs/cafe/players/{member(cafe, PLAYERS[1]).pk}/"
    other = f"/clubs/cafe/players/{member(cafe, PLAYERS[2]).pk}/"

    offered = [
        "public-name" in client.get(path).content.decode()
        for client, path in (
            (signed_in(bilal), page),
            (signed_in(bilal), other),
            (signed_in(amina), other),
            (Client(), page),
        )
    ]

    assert offered == [True, False, True, False]


# --- An admin downloads a member's data, and removes him, at his request --------------------


def test_member_data_admin_gets_that_members_club_part_only(cafe, amina):
    shown = member(cafe, PLAYERS[1])

    response = signed_in(amina).get(f"/clubs/cafe/members/{shown.pk}/data.json")

    data = json.loads(response.content)
    assert (response.status_code, response["Content-Type"]) == (
        200,
        "application/json; charset=utf-8",
    )
    assert (data["format"], data["club"], data["name"], data["role"], data["account"]) == (
        "boulmous-member-data/1",
        "Café des Sports",
        "Bilal Chebbi",
        "member",
        True,
    )
    assert [result["seat"] for result in data["results"]] == [1, 1]
    assert [result["rank"] for result in data["results"]] == [1, 2]
    assert [game["record"]["players"][1] for game in data["games"]] == ["Bilal Chebbi"] * 2
    assert set(data) == {
        "format",
        "club",
        "club_address",
        "name",
        "role",
        "since",
        "account",
        "shown_to_the_public",
        "results",
        "games",
    }
    assert "bilal@example.com" not in response.content.decode()


def test_remove_member_anonymises_him_everywhere_ratings_unmoved(cafe, amina, bilal):
    before = ratings(cafe)
    shown = member(cafe, PLAYERS[1])

    response = signed_in(amina).post(
        f"/clubs/cafe/members/{shown.pk}/remove", {"name": "bilal chebbi"}
    )

    shown.refresh_from_db()
    assert response.status_code == 302
    assert (shown.name, shown.user_id, shown.role) == ("Player 1", None, "guest")
    games = Game.objects.filter(club_game__club=cafe)
    assert [list(g.seats.values_list("player__name", flat=True)) for g in games] == [
        ["Amina Belhaj", "Player 1", "Chafik Daoud", "Dalila"]
    ] * 2
    assert [s.names[1] for s in Summary.objects.filter(game__in=games)] == ["Player 1"] * 2
    record = Client().get(f"/games/{games[0].public_id}/record.json").json()
    assert record["players"][1] == "Player 1"
    assert set(ClubResult.objects.filter(club=cafe, seat=1).values_list("name", "key")) == {
        ("Player 1", "player 1")
    }
    assert ratings(cafe) == before
    totals = stored_totals(cafe)
    assert set(totals) == {"amina belhaj", "player 1", "chafik daoud", "dalila"}
    rebuild(cafe)
    assert (ratings(cafe), stored_totals(cafe)) == (before, totals)
    assert "Bilal Chebbi" not in signed_in(amina).get("/clubs/cafe/").content.decode()


def test_remove_member_confirm_page_names_the_anonymous_name(cafe, amina):
    shown = member(cafe, PLAYERS[1])

    response = signed_in(amina).get(f"/clubs/cafe/members/{shown.pk}/remove")

    assert (response.status_code, "Player 1" in response.content.decode()) == (200, True)
    shown.refresh_from_db()
    assert shown.name == "Bilal Chebbi"


def test_remove_member_wrong_name_typed_is_refused_and_nothing_changes(cafe, amina):
    shown = member(cafe, PLAYERS[1])

    response = signed_in(amina).post(f"/clubs/cafe/members/{shown.pk}/remove", {"name": "Bilal"})

    shown.refresh_from_db()
    said = response.content.decode()
    assert (response.status_code, shown.name) == (422, "Bilal Chebbi")
    assert "This is not “Bilal Chebbi”: type the name as the club writes it." in said
    assert ClubChange.objects.filter(club=cafe, action="member_anonymised").count() == 0


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Élodie Bénard is now Player 1, for ever: his results stay under that name."),
        (
            "fr",
            "Élodie Bénard est désormais Player 1, pour toujours\u00a0: "
            "ses résultats restent sous ce nom.",
        ),
        (
            "ar",
            (
                "أصبح \u2068Élodie Bénard\u2069 الآن "
                "\u2068Player 1\u2069 إلى الأبد: تبقى نتائجه تحت هذا الاسم."
            ),
        ),
    ],
)
def test_remove_member_typed_name_with_accents_anonymises_says_so_and_writes_history(
    cafe, amina, language, message
):
    elodie = member_services.add_member(club=cafe, name="Élodie Bénard")
    typed = unicodedata.normalize("NFD", "  élodie BÉNARD ")  # accents typed apart, any case

    response = signed_in(amina).post(
        f"/clubs/cafe/members/{elodie.pk}/remove",
        {"name": typed},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )

    elodie.refresh_from_db()
    assert (response.redirect_chain, elodie.name) == ([("/clubs/cafe/members", 302)], "Player 1")
    assert message in response.content.decode()
    lines = ClubChange.objects.filter(club=cafe, action="member_anonymised")
    assert list(lines.values_list("subject", "by_user__username")) == [("Player 1", "amina")]
    # The name removed is kept nowhere, not in the club's history either.
    assert ClubChange.objects.filter(club=cafe, subject__icontains="Élodie").count() == 0


def test_members_page_sets_anonymising_apart_from_retiring(cafe, amina):
    shown = member(cafe, PLAYERS[1])

    page = signed_in(amina).get("/clubs/cafe/members").content.decode()

    players, _, rest = page.partition('class="danger-zone"')
    remove = f"/clubs/cafe/members/{shown.pk}/remove"
    assert (remove in players, remove in rest) == (False, True)


def test_anonymous_name_is_the_smallest_free_in_the_club(cafe):
    member_services.add_member(club=cafe, name="Player 1")
    member_services.add_member(club=cafe, name="player 3")

    first = remove_member(club=cafe, member_id=member(cafe, PLAYERS[1]).pk)
    second = remove_member(club=cafe, member_id=member(cafe, PLAYERS[2]).pk)

    assert (first.name, second.name, anonymous_name(cafe)) == ("Player 2", "Player 4", "Player 5")


def test_remove_member_only_admin_with_account_is_refused_and_nothing_changes(cafe, amina):
    before = ratings(cafe)
    shown = member(cafe, PLAYERS[0])

    response = signed_in(amina).post(f"/clubs/cafe/members/{shown.pk}/remove", {"name": PLAYERS[0]})

    shown.refresh_from_db()
    assert (response.status_code, shown.name, shown.user_id) == (409, "Amina Belhaj", amina.pk)
    assert "only admin" in response.content.decode()
    assert ratings(cafe) == before


def test_remove_member_in_one_club_leaves_his_other_club_alone(cafe, amina, bilal):
    other = new_club(amina, slug="trefle")
    play(other, WON_BY_BILAL)

    remove_member(club=cafe, member_id=member(cafe, PLAYERS[1]).pk)

    assert member(other, PLAYERS[1]).name == "Bilal Chebbi"
    game = Game.objects.get(club_game__club=other)
    assert list(game.seats.values_list("player__name", flat=True)) == list(PLAYERS)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/clubs/cafe/members/{id}/data.json"),
        ("get", "/clubs/cafe/members/{id}/remove"),
        ("post", "/clubs/cafe/members/{id}/remove"),
    ],
)
def test_member_privacy_actions_refused_to_all_but_admins(cafe, bilal, method, path):
    shown = member(cafe, PLAYERS[2])
    scorer = user("scorer")
    member_services.add_member(club=cafe, name="Sami", role=Member.Role.SCORER)
    Member.objects.filter(club=cafe, name="Sami").update(user=scorer)
    address = path.format(id=shown.pk)

    answers = [
        getattr(client, method)(address).status_code
        for client in (signed_in(bilal), signed_in(scorer), signed_in(user("outsider")))
    ]
    signed_out = getattr(Client(), method)(address)

    shown.refresh_from_db()
    assert answers == [403, 403, 403]
    assert (signed_out.status_code, signed_out["Location"].startswith("/accounts/login/")) == (
        302,
        True,
    )
    assert (shown.name, shown.role) == ("Chafik Daoud", "guest")


def test_member_privacy_actions_unknown_member_is_404(cafe, amina):
    admin = signed_in(amina)

    answers = [
        admin.get("/clubs/cafe/members/999999/data.json").status_code,
        admin.get("/clubs/cafe/members/999999/remove").status_code,
        admin.post("/clubs/cafe/members/999999/remove").status_code,
    ]

    assert answers == [404, 404, 404]


# --- Races (PostgreSQL) ----------------------------------------------------------------------

RACE_ROUNDS = 8


@racing
@pytest.mark.django_db(transaction=True)
def test_two_admins_deleting_their_accounts_at_once_leave_the_club_an_admin():
    for round_ in range(RACE_ROUNDS):
        first, second = user(f"amina{round_}"), user(f"bilal{round_}")
        club = new_club(first, slug=f"cafe-{round_}")
        member_services.add_member(club=club, name=PLAYERS[1], role=Member.Role.ADMIN)
        Member.objects.filter(club=club, name=PLAYERS[1]).update(user=second)
        phones = [signed_in(first), signed_in(second)]
        forms = [
            {"password": f"pw-{account.username}", "names": "anonymous"}
            for account in (first, second)
        ]

        responses = at_once(
            *(
                lambda phone=phone, form=form: phone.post("/accounts/delete/", form)
                for phone, form in zip(phones, forms, strict=True)
            )
        )

        statuses = sorted(response.status_code for response in responses)
        admins = club.members.filter(role=Member.Role.ADMIN, user__isnull=False).count()
        assert (statuses, admins) == ([302, 422], 1)


@racing
@pytest.mark.django_db(transaction=True)
def test_hand_saved_while_a_member_is_removed_leaves_the_league_as_a_rebuild_gives():
    for round_ in range(RACE_ROUNDS):
        admin = user(f"amina{round_}")
        club = new_club(admin, slug=f"cafe-{round_}")
        play(club, WON_BY_BILAL)
        state = club_services.start_club_game(
            club=club, names=PLAYERS, first_dealer=0, owner_id=None
        )
        for number, hand in enumerate(WON_BY_BILAL[:-1], start=1):
            services.record_hand(
                public_id=state.game.public_id, number=number, hand=hand, token=None
            )
        bilal = member(club, PLAYERS[1]).pk

        at_once(
            lambda club=club, bilal=bilal: remove_member(club=club, member_id=bilal),
            lambda gid=state.game.public_id: services.record_hand(
                public_id=gid, number=len(WON_BY_BILAL), hand=WON_BY_BILAL[-1], token=None
            ),
        )

        kept = ratings(club)
        names = set(ClubResult.objects.filter(club=club, seat=1).values_list("name", flat=True))
        summary = Summary.objects.get(game=state.game).names[1]
        totals = stored_totals(club)
        rebuild(club)
        assert (len(kept), names, summary, ratings(club) == kept) == (
            8,
            {"Player 1"},
            "Player 1",
            True,
        )
        assert stored_totals(club) == totals


# Every surface that names a member, once he is anonymous (issue 39, item 2).


def _everything_said(cafe, amina, night, game, tmp_path):
    """What each surface that names the club's members says, as bytes: the pages and the
    files an admin and the public get, the API's reads, the night's mail, the backup."""
    admin, public = signed_in(amina), Client()
    season = "/clubs/cafe/seasons/now"
    nights = f"/clubs/cafe/nights/{night.pk}"
    said = {}
    for client, who in ((admin, "admin"), (public, "public")):
        for path in [
            "/clubs/cafe/",
            "/clubs/cafe/history",
            "/clubs/cafe/games/",
            "/clubs/cafe/standings/",
            "/clubs/cafe/records.jsonl",
            "/clubs/cafe/nights.ics",
            f"{nights}/night.ics",
            f"{nights}/",
            f"{nights}/ranking",
            f"{nights}/ranking.csv",
            f"{season}/",
            f"{season}/standings.csv",
            f"{season}/print",
            f"{season}/embed",
            f"/games/{game.public_id}/",
            f"/games/{game.public_id}/share",
            f"/games/{game.public_id}/record.json",
            "/api/v1/clubs/cafe",
            "/api/v1/clubs/cafe/changes",
            "/api/v1/clubs/cafe/games",
            "/api/v1/clubs/cafe/nights",
            f"/api/v1/clubs/cafe/nights/{night.pk}",
            "/api/v1/clubs/cafe/seasons/now/standings",
            f"/api/v1/games/{game.public_id}",
        ]:
            response = client.get(path)
            # Each answers its admin; the public is shown the door of the admins' pages.
            expected = (200,) if who == "admin" else (200, 302, 401, 403, 404)
            assert response.status_code in expected, (who, path, response.status_code)
            said[f"{who} {path}"] = b"".join(response) if response.streaming else response.content
        for path in [f"{season}/standings.pdf", f"{nights}/ranking.pdf"]:
            response = client.get(path)
            if response.status_code == 200:
                pages = PdfReader(io.BytesIO(response.content)).pages
                said[f"{who} {path}"] = "".join(page.extract_text() for page in pages).encode()
    choice, _ = MailChoice.objects.get_or_create(
        member=member(cafe, PLAYERS[0]),
        defaults={"nights": True, "language": "en", "origin": "https://example.org"},
    )
    mail = night_mail(choice, night)
    said["mail"] = "\n".join([mail.subject, mail.text, mail.html]).encode()
    tmp_path.mkdir()
    write_backup(tmp_path / "backup.zip", "default")
    with zipfile.ZipFile(tmp_path / "backup.zip") as archive:
        for name in archive.namelist():
            said[f"backup {name}"] = archive.read(name)
    # The club's history as stored: what it says of him is what it keeps, nothing more.
    rows = ClubChange.objects.filter(club=cafe).values_list("subject", "before", "after")
    said["stored history"] = json.dumps(list(rows), ensure_ascii=False).encode()
    return said


@pytest.mark.parametrize("how", ["removed by an admin", "account deleted, name anonymous"])
def test_anonymised_member_names_he_had_appear_on_no_surface(cafe, amina, bilal, how, tmp_path):
    bilal_member = member(cafe, PLAYERS[1])
    admin = Actor(user_id=amina.pk)
    # He had another name before (renamed, in the club's history), sat in a game deleted
    # since (its record kept in the history), and played a night.
    rename_member(club=cafe, member_id=bilal_member.pk, name="Bilal Chebi", by=admin)
    deleted = play(cafe, WON_BY_BILAL, names=(PLAYERS[0], "Bilal Chebi", *PLAYERS[2:]))
    delete_club_game(club=cafe, public_id=deleted.public_id, by=admin)
    # ... was checked in at a night deleted since (its check-in kept in the history) ...
    gone = night_services.create_night(
        club=cafe, date=timezone.localdate(), place="Ailleurs", rounds=1, by=admin
    )
    night_services.check_in(night_id=gone.pk, member_ids=[bilal_member.pk], guests=[])
    delete_night(club=cafe, night_id=gone.pk, by=admin)
    night = night_services.create_night(
        club=cafe, date=timezone.localdate(), place="Café", rounds=1, by=admin
    )
    seated = [member(cafe, name).pk for name in (PLAYERS[0], "Bilal Chebi", *PLAYERS[2:])]
    night_services.check_in(night_id=night.pk, member_ids=seated, guests=[])
    drawn = night_services.draw_round(night_id=night.pk, owner_id=amina.pk, by=admin)
    (game,) = Game.objects.filter(club_game__round=drawn)
    for number, hand in enumerate(WON_BY_AMINA, start=1):
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    night_services.end_night(night_id=night.pk, by=admin)
    before = _everything_said(cafe, amina, night, game, tmp_path / "before")
    named_before = {where for where, text in before.items() if b"cheb" in text.lower()}
    # pages, files, API reads, mail, history (its page, its API, its rows), backup tables
    assert len(named_before) == 48

    if how == "removed by an admin":
        response = signed_in(amina).post(
            f"/clubs/cafe/members/{bilal_member.pk}/remove", {"name": "Bilal Chebi"}
        )
        assert response.status_code == 302
    else:
        delete_account(user_id=bilal.pk, anonymous=True)

    said = _everything_said(cafe, amina, night, game, tmp_path / "after")
    assert {where for where, text in said.items() if b"cheb" in text.lower()} == set()
    assert {where for where in named_before if b"player 1" not in said[where].lower()} == set()


def test_anonymised_member_history_follows_him_through_his_names_only(cafe, amina):
    admin = Actor(user_id=amina.pk)
    pierre = member_services.add_member(club=cafe, name="Pierre Dupont")
    rename_member(club=cafe, member_id=pierre.pk, name="Pierre Martin", by=admin)
    # Another player takes the name he left; a guest typed wrong is merged into him.
    member_services.add_member(club=cafe, name="Pierre Dupont")
    guest = member_services.add_member(club=cafe, name="Pierrot")
    merge_members(club=cafe, gone_id=guest.pk, kept_id=pierre.pk, by=admin)
    old = play(cafe, WON_BY_AMINA, names=(PLAYERS[0], "Pierre Martin", *PLAYERS[2:]))
    delete_club_game(club=cafe, public_id=old.public_id, by=admin)
    # A deleted game of long names: its line's subject is cut short within his name.
    long = ("Mohamed-Amine Ben Salah El Mansouri", "Fatma-Zahra Ben Youssef Trabelsi")
    table = (*long, "Abdelkader Ben Mohamed Chaabane", "Pierre Martin")
    delete_club_game(club=cafe, public_id=play(cafe, WON_BY_AMINA, names=table).public_id, by=admin)
    cut = ClubChange.objects.get(club=cafe, action="game_deleted", subject__startswith="Moh")
    assert cut.subject.endswith(" · Pierre")

    remove_member(club=cafe, member_id=pierre.pk, by=admin)

    cut.refresh_from_db()
    assert cut.subject == f"{long[0]} 25 · {long[1]} 5 · {table[2]} 0 · Player 1"[:120]
    assert cut.before["players"] == [*table[:3], "Player 1"]
    lines = ClubChange.objects.filter(club=cafe).exclude(pk=cut.pk).order_by("pk")
    assert [
        (line.action, line.subject, line.before, line.after)
        for line in lines
        if line.action not in ("club_created", "season_created")
    ] == [
        ("member_added", "Player 1", None, {"role": "member"}),
        (
            "member_renamed",
            "Player 1",
            {"name": "Player 1"},
            {"name": "Player 1", "games": 0},
        ),
        ("member_added", "Pierre Dupont", None, {"role": "member"}),
        ("member_added", "Player 1", None, {"role": "member"}),
        (
            "members_merged",
            "Player 1",
            {"name": "Player 1", "role": "member", "account": False, "games": 0},
            {"into": "Player 1"},
        ),
        (
            "game_deleted",
            "Amina Belhaj 25 · Player 1 5 · Chafik Daoud 0 · Dalila 0",
            lines.get(action="game_deleted").before,
            None,
        ),
        ("member_anonymised", "Player 1", None, None),
    ]
    assert lines.get(action="game_deleted").before["players"][1] == "Player 1"
