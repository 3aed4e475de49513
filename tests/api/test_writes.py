"""The API's writes (issue 22): a hand recorded, edited and undone through the table's own
form and services, with a token of an account that may score the game, or the game's
scorer link's secret, or a session with its CSRF token; the form's words, the form's
idempotency token, the table's conflicts; and two phones racing on PostgreSQL."""

import json
import uuid
from collections import Counter
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.accounts.tokens import create_token, revoke_token
from scoring.clubs import services as club_services
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.common.rights import COOKIE
from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Change, Game, Proposal
from scoring.table.models import Hand as HandRow
from tests.api.factories import make_club
from tests.conftest import scorer_cookie
from tests.factories import NAMES, hand_data
from tests.table.races import ROUNDS, at_once, racing, report

pytestmark = pytest.mark.django_db

BILAL_FOUR = {"taker": 1, "bid": 4, "trump": "H", "tricks": [1, 4, 0]}
BILAL_ROW = (1, 4, "H", [1, 4, 0, 1])
BOULMOUS = Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0))


def bearer(secret):
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def owned_game(owner=None):
    return services.create_game(
        names=NAMES, rules=Rules(), first_dealer=0, owner_id=owner.pk if owner else None
    ).game


def hands_url(game, number=None):
    return f"/api/v1/games/{game.public_id}/hands" + ("" if number is None else f"/{number}")


def record(client, game, number, headers, **fields):
    body = {"number": number, **BILAL_FOUR, **fields}
    return client.post(hands_url(game), json.dumps(body), "application/json", **headers)


def edit(client, game, number, headers, **fields):
    body = json.dumps({**BILAL_FOUR, **fields})
    return client.put(hands_url(game, number), body, "application/json", **headers)


def rows(game):
    return list(
        HandRow.objects.filter(game=game)
        .order_by("number")
        .values_list("taker", "bid", "trump", "tricks")
    )


@pytest.fixture
def owner():
    return User.objects.create_user("amina", password="x")


@pytest.fixture
def token(owner):
    return bearer(create_token(user=owner, name="offline").secret)


# --- Record, edit, undo --------------------------------------------------------------------


@pytest.mark.smoke
def test_record_answers_201_with_the_games_new_state(owner, token):
    game = owned_game(owner)

    response = record(Client(), game, 1, token)

    answer = response.json()
    got = Client().get(f"/api/v1/games/{game.public_id}").json()
    assert (response.status_code, answer["status"], answer["hand"], answer["next_hand"]) == (
        201,
        "recorded",
        1,
        2,
    )
    assert (answer["record"], answer["report"]) == (got["record"], got["report"])
    assert rows(game) == [BILAL_ROW]


def test_change_by_a_token_is_its_accounts_in_the_history(owner, token):
    game = owned_game(owner)

    record(Client(), game, 1, token)

    recorded = Change.objects.get(game=game, action=Change.Action.RECORDED)
    assert (recorded.by_user_id, recorded.by_device) == (owner.pk, "")


def test_edit_changes_the_hand_and_scores_again(owner, token):
    game = owned_game(owner)
    record(Client(), game, 1, token)

    response = edit(Client(), game, 1, token, taker=2, trump="S", tricks=[1, 0, 4])

    assert (response.status_code, response.json()["status"]) == (200, "edited")
    assert response.json()["report"]["totals"] == [1, 0, 4, 1]
    assert rows(game) == [(2, 4, "S", [1, 0, 4, 1])]


def test_edit_that_ends_the_game_early_is_a_409_unless_told_to_discard(owner, token):
    game = owned_game(owner)
    chafik = {"taker": 2, "bid": 4, "trump": "H", "tricks": [0, 1, 4]}
    for number in range(1, 7):  # Bilal has 16 after hand 4, 18 after hand 6
        record(Client(), game, number, token, **(chafik if number > 4 else {}))
    wins = {"taker": 1, "bid": 5, "trump": "H", "tricks": [0, 5, 0]}  # 21 at hand 5

    refused = edit(Client(), game, 5, token, **wins)
    kept = len(rows(game))
    done = edit(Client(), game, 5, token, discard_after_end=True, **wins)

    assert (refused.status_code, refused.json()["error"]["code"], kept) == (409, "ends_early", 6)
    assert refused.json()["error"]["message"].startswith(
        "With this change the game is won at hand 5, before the last hand recorded (6)."
    )
    assert (done.status_code, done.json()["next_hand"], len(rows(game))) == (200, None, 5)


@pytest.mark.smoke
def test_undo_deletes_the_last_hand_and_again_changes_nothing_more(owner, token):
    game = owned_game(owner)
    record(Client(), game, 1, token)
    record(Client(), game, 2, token)

    first = Client().delete(hands_url(game, 2), **token)
    again = Client().delete(hands_url(game, 2), **token)

    assert [(one.status_code, one.json()["next_hand"]) for one in (first, again)] == [
        (200, 2),
        (200, 2),
    ]
    assert (len(rows(game)), len(first.json()["record"]["hands"])) == (1, 1)


def test_undo_of_a_hand_not_the_last_is_a_409_with_the_game(owner, token):
    game = owned_game(owner)
    record(Client(), game, 1, token)
    record(Client(), game, 2, token)

    response = Client().delete(hands_url(game, 1), **token)

    error = response.json()["error"]
    assert (response.status_code, error["code"], len(error["game"]["record"]["hands"])) == (
        409,
        "conflict",
        2,
    )
    assert error["message"] == (
        "Only the last hand can be undone: hand 1 is not the last (hand 2 is). "
        "Here is the game now."
    )
    assert len(rows(game)) == 2


# --- The form's words, its token, the table's conflicts ----------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"bid": 9},
        {"tricks": [5, 5, 5]},
        {"taker": "nobody", "trump": "X"},
        {"tricks": [1]},
        {"bid": 3, "dealer": 0, "calls": ["4", "pass", "pass", "pass"]},
    ],
)
def test_invalid_hand_is_a_422_in_the_words_of_the_page(owner, token, fields):
    game = owned_game()
    page = Client()
    page.cookies[COOKIE] = scorer_cookie([game.public_id])
    data = hand_data(1, **{k: v for k, v in fields.items() if k not in ("tricks", "calls")})
    if "tricks" in fields:
        data = {k: v for k, v in data.items() if not k.startswith("tricks_")}
        data.update({f"tricks_{seat}": n for seat, n in enumerate(fields["tricks"])})
    data.update({f"call_{position}": call for position, call in enumerate(fields.get("calls", []))})
    shown = page.post(f"/games/{game.public_id}/hands", data, HTTP_ACCEPT="application/json")
    link = services.make_scorer_link(public_id=game.public_id)

    response = record(Client(), game, 1, bearer(link.secret), **fields)

    error = response.json()["error"]
    words = {(field["name"], field["problem"]) for field in error["fields"]}
    expected = {
        ("hand" if name == "__all__" else name, problem)
        for name, problems in shown.json()["errors"].items()
        for problem in problems
    }
    assert (response.status_code, error["code"], words) == (422, "invalid_hand", expected)
    assert (shown.status_code, rows(game)) == (400, [])


def test_same_token_sent_again_answers_the_same_game_with_one_hand(owner, token):
    game = owned_game(owner)
    once = str(uuid.uuid4())

    first = record(Client(), game, 1, token, token=once)
    again = record(Client(), game, 1, token, token=once)

    assert (first.status_code, again.status_code, again.json()["status"]) == (
        201,
        200,
        "duplicate",
    )
    assert (again.json()["record"], again.json()["report"]) == (
        first.json()["record"],
        first.json()["report"],
    )
    assert rows(game) == [BILAL_ROW]


def test_same_token_sent_with_another_hand_is_a_422_that_says_so(owner, token):
    game = owned_game(owner)
    once = str(uuid.uuid4())
    record(Client(), game, 1, token, token=once)

    other_hand = record(Client(), game, 1, token, token=once, taker=2, tricks=[1, 0, 4])
    next_hand = record(Client(), game, 2, token, token=once)

    errors = [answer.json()["error"] for answer in (other_hand, next_hand)]
    assert [answer.status_code for answer in (other_hand, next_hand)] == [422, 422]
    assert [(error["code"], error["hand"]) for error in errors] == [("token_reused", 1)] * 2
    assert errors[0]["message"] == (
        "This token was used for another hand (hand 1): send a new token with each hand, "
        "the same one only to send the same hand again."
    )
    assert rows(game) == [BILAL_ROW]


def test_token_of_the_pages_form_counts_for_the_api_too(owner, token):
    game = owned_game(owner)
    once = str(uuid.uuid4())
    page = Client()
    page.force_login(owner)
    page.post(f"/games/{game.public_id}/hands", hand_data(1, token=once))

    again = record(Client(), game, 1, token, token=once)

    assert (again.status_code, again.json()["status"], rows(game)) == (
        200,
        "duplicate",
        [BILAL_ROW],
    )


def test_hand_recorded_by_another_phone_is_a_409_with_the_tables_words(owner, token):
    game = owned_game(owner)
    services.record_hand(public_id=game.public_id, number=1, hand=BOULMOUS, token=None)

    response = record(Client(), game, 1, token)

    error = response.json()["error"]
    assert (response.status_code, error["code"], error["message"], error["hand"]) == (
        409,
        "conflict",
        "Hand 1 was just recorded by someone else: here is the game now.",
        1,
    )
    assert error["game"]["report"]["hands"][0]["tricks"] == [6, 0, 0, 0]


def test_abandoned_game_is_a_409_closed(owner, token):
    game = owned_game(owner)
    services.abandon_game(public_id=game.public_id)

    response = record(Client(), game, 1, token)

    assert (response.status_code, response.json()["error"]["code"], rows(game)) == (
        409,
        "closed",
        [],
    )


@pytest.mark.parametrize(
    "before",
    [
        lambda game: services.record_hand(
            public_id=game.public_id, number=1, hand=BOULMOUS, token=None
        ),
        lambda game: services.abandon_game(public_id=game.public_id),
    ],
    ids=["taken", "abandoned"],
)
def test_a_refused_hand_is_said_alike_by_the_api_and_the_pages_json(owner, token, before):
    """One write of a hand (scoring/table/writes.py): the same status, code and hand for the
    API and for the page's form asked for JSON (the offline queue)."""
    game = owned_game(owner)
    before(game)
    page = Client()
    page.force_login(owner)

    api = record(Client(), game, 1, token)
    form = page.post(
        f"/games/{game.public_id}/hands",
        hand_data(1, token=str(uuid.uuid4())),
        HTTP_ACCEPT="application/json",
    )

    said = api.json()["error"]
    assert (form.status_code, form.json()["status"], form.json()["hand"]) == (
        api.status_code,
        said["code"],
        said.get("hand"),
    )


def test_french_error_in_the_language_asked(owner, token):
    game = owned_game(owner)
    services.record_hand(public_id=game.public_id, number=1, hand=BOULMOUS, token=None)

    response = record(Client(), game, 1, {**token, "HTTP_ACCEPT_LANGUAGE": "fr"})

    assert response.json()["error"]["message"] != (
        "Hand 1 was just recorded by someone else: here is the game now."
    )


# --- Who writes ----------------------------------------------------------------------------


def test_token_made_on_the_account_page_writes_then_revoked_there_is_refused_at_once(owner):
    game = owned_game(owner)
    browser = Client()
    browser.force_login(owner)
    made = browser.post("/accounts/tokens/new", {"name": "Offline queue"}).context["new_token"]

    used = record(Client(), game, 1, bearer(made.secret))
    revoked = browser.post(f"/accounts/tokens/{made.token.pk}/revoke")
    after = record(Client(), game, 2, bearer(made.secret))

    assert (used.status_code, revoked.status_code, after.status_code) == (201, 302, 401)
    assert (after.json()["error"]["code"], len(rows(game))) == ("invalid_token", 1)


def test_token_revoked_by_the_service_is_refused_at_once(owner):
    game = owned_game(owner)
    made = create_token(user=owner, name="offline")
    revoke_token(user=owner, token_id=made.token.pk)

    response = Client().delete(hands_url(game, 1), **bearer(made.secret))

    assert (response.status_code, response.json()["error"]["code"]) == (401, "invalid_token")


def test_token_of_an_account_that_may_not_score_the_game_is_a_403(owner):
    game = owned_game(owner)
    stranger = bearer(create_token(user=User.objects.create_user("zied"), name="x").secret)

    response = record(Client(), game, 1, stranger)

    error = response.json()["error"]
    assert (response.status_code, error["code"], error["reason"], rows(game)) == (
        403,
        "forbidden",
        "none",
        [],
    )


def test_scorer_link_scores_its_game_only(owner):
    game, other = owned_game(owner), owned_game(owner)
    link = bearer(services.make_scorer_link(public_id=game.public_id).secret)

    mine = record(Client(), game, 1, link)
    not_mine = record(Client(), other, 1, link)

    assert (mine.status_code, not_mine.status_code) == (201, 403)
    recorded = Change.objects.get(game=game, action=Change.Action.RECORDED)
    assert (recorded.by_user_id, recorded.by_device) == (None, "API")


def test_revoked_scorer_link_is_a_403_saying_so(owner):
    game = owned_game(owner)
    link = services.make_scorer_link(public_id=game.public_id)
    record(Client(), game, 1, bearer(link.secret))
    services.revoke_scorer_link(public_id=game.public_id, link_id=link.pk)

    response = record(Client(), game, 2, bearer(link.secret))

    error = response.json()["error"]
    assert (response.status_code, error["code"], error["reason"]) == (403, "forbidden", "revoked")
    assert error["message"] == (
        "This phone’s scorer link was revoked: it may watch this game, no longer change it."
    )
    assert len(rows(game)) == 1


@pytest.mark.parametrize("secret", ["bm_nope", "not-a-link", "x" * 200])
def test_unknown_secret_is_a_401(owner, secret):
    game = owned_game(owner)

    response = record(Client(), game, 1, bearer(secret))

    assert (response.status_code, response.json()["error"]["code"]) == (401, "invalid_token")


def test_private_club_game_scored_by_its_admins_token_not_by_a_members_or_a_strangers():
    club, admin = make_club()
    member_user = User.objects.create_user("bilal")
    Member.objects.filter(club=club, name=NAMES[1]).update(user=member_user)
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    tokens = [
        bearer(create_token(user=user, name="x").secret)
        for user in (admin, member_user, User.objects.create_user("zied"))
    ]

    answers = [record(Client(), game, 1, each) for each in tokens]

    assert [answer.status_code for answer in answers] == [201, 403, 403]
    assert rows(game) == [BILAL_ROW]


def test_game_of_a_night_that_ended_is_a_403_closed_for_its_link_and_its_admin():
    club, admin = make_club()
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=None)
    members = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members, guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    game = Game.objects.get(club_game__round__night=night)
    link = bearer(game.scorer_links.get().secret)
    admins = bearer(create_token(user=admin, name="x").secret)
    record(Client(), game, 1, link)
    night_services.end_night(night_id=night.pk)

    answers = [record(Client(), game, 2, link), record(Client(), game, 2, admins)]
    undone = Client().delete(hands_url(game, 1), **admins)

    errors = [answer.json()["error"] for answer in (*answers, undone)]
    assert [answer.status_code for answer in (*answers, undone)] == [403, 403, 403]
    assert {(error["code"], error["reason"]) for error in errors} == {("forbidden", "closed")}
    assert errors[0]["message"].startswith("This night ended at ")
    assert rows(game) == [BILAL_ROW]


def test_session_write_needs_its_csrf_token(owner):
    game = owned_game(owner)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)

    refused = record(browser, game, 1, {})
    browser.cookies["csrftoken"] = "a" * 32
    done = record(browser, game, 1, {"HTTP_X_CSRFTOKEN": "a" * 32})

    assert (refused.status_code, refused.json()["error"]["code"], done.status_code) == (
        403,
        "csrf_failed",
        201,
    )


def test_write_with_neither_cookie_nor_token_is_a_401_that_says_what_to_send(owner):
    game = owned_game(owner)
    phone = Client(enforce_csrf_checks=True)
    phone.cookies[COOKIE] = scorer_cookie([game.public_id])

    response = record(Client(enforce_csrf_checks=True), game, 1, {})
    by_cookie = record(phone, game, 1, {})

    error = response.json()["error"]
    assert (response.status_code, error["code"], response["WWW-Authenticate"]) == (
        401,
        "unauthorized",
        'Bearer realm="boulmous"',
    )
    assert error["message"] == (
        "This request sends no token and is not signed in: send a token (Authorization: "
        "Bearer …), or sign in and send the site's CSRF token."
    )
    assert (by_cookie.status_code, by_cookie.json()["error"]["code"]) == (403, "csrf_failed")
    assert rows(game) == []


def test_token_write_needs_no_csrf_token(owner, token):
    game = owned_game(owner)

    response = record(Client(enforce_csrf_checks=True), game, 1, token)

    assert response.status_code == 201


def test_write_address_answers_its_methods_alone(owner, token):
    game = owned_game(owner)

    got = Client().get(hands_url(game), **token)
    put = Client().put(hands_url(game), "{}", "application/json", **token)
    patch = Client().patch(hands_url(game, 1), "{}", "application/json", **token)

    assert [(one.status_code, one["Allow"]) for one in (got, put, patch)] == [
        (405, "POST"),
        (405, "POST"),
        (405, "PUT, DELETE"),
    ]


def test_write_to_no_game_is_a_404(token):
    response = Client().post(
        "/api/v1/games/nope/hands", json.dumps({"number": 1}), "application/json", **token
    )

    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


@pytest.mark.parametrize("body", ["not json", "[]", '{"number": "one"}', "{}"])
def test_malformed_body_is_a_json_error_never_a_500(owner, token, body):
    game = owned_game(owner)

    response = Client().post(hands_url(game), body, "application/json", **token)

    assert (response.status_code in (400, 422), "code" in response.json()["error"]) == (
        True,
        True,
    )
    assert rows(game) == []


# --- Two phones at once (PostgreSQL) -------------------------------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_two_saves_of_the_same_hand_at_once_record_one_the_other_a_409():
    outcomes = Counter()
    owner = User.objects.create_user("amina")
    token = bearer(create_token(user=owner, name="x").secret)
    for _ in range(ROUNDS):
        game = owned_game(owner)
        link = bearer(services.make_scorer_link(public_id=game.public_id).secret)

        answers = at_once(
            lambda client, game=game: record(client, game, 1, token, token=str(uuid.uuid4())),
            lambda client, game=game, link=link: record(
                client, game, 1, link, token=str(uuid.uuid4())
            ),
        )

        codes = sorted(answer.status_code for answer in answers)
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert (codes, refused.json()["error"]["code"], len(rows(game))) == (
            [201, 409],
            "conflict",
            1,
        )
        assert len(refused.json()["error"]["game"]["record"]["hands"]) == 1
        outcomes[tuple(codes)] += 1
    report(outcomes)


@racing
@pytest.mark.django_db(transaction=True)
def test_the_same_token_sent_twice_at_once_records_one_hand():
    outcomes = Counter()
    owner = User.objects.create_user("amina")
    token = bearer(create_token(user=owner, name="x").secret)
    for _ in range(ROUNDS):
        game = owned_game(owner)
        once = str(uuid.uuid4())

        answers = at_once(
            lambda client, game=game, once=once: record(client, game, 1, token, token=once),
            lambda client, game=game, once=once: record(client, game, 1, token, token=once),
        )

        statuses = sorted((answer.status_code, answer.json()["status"]) for answer in answers)
        assert (statuses, rows(game)) == ([(200, "duplicate"), (201, "recorded")], [BILAL_ROW])
        outcomes[tuple(statuses)] += 1
    report(outcomes)


@racing
@pytest.mark.django_db(transaction=True)
def test_a_hand_sent_while_an_admin_deletes_the_game_is_recorded_first_or_a_404():
    """Issue 39: the hand waits for the game's lock the delete holds, then finds no game: a
    404, as a moment later; or it is recorded first and deleted with the game. Never a 500."""
    from scoring.clubs import edits

    outcomes = Counter()
    club, admin = make_club()
    token = bearer(create_token(user=admin, name="x").secret)
    for _ in range(ROUNDS):
        game = club_services.start_club_game(
            club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
        ).game

        sent, _ = at_once(
            lambda client, game=game: record(client, game, 1, token, token=str(uuid.uuid4())),
            lambda client, game=game: edits.delete_club_game(club=club, public_id=game.public_id),
        )

        assert sent.status_code in (201, 404)
        if sent.status_code == 404:
            assert sent.json()["error"] == {
                "code": "not_found",
                "message": "No game has this id.",
            }
        assert (Game.objects.filter(pk=game.pk).exists(), rows(game)) == (False, [])
        outcomes[sent.status_code] += 1
    report(outcomes)


def test_scorer_link_reads_its_game_but_no_private_club(owner):
    club, admin = make_club()
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    link = bearer(services.make_scorer_link(public_id=game.public_id).secret)

    read = Client().get(f"/api/v1/games/{game.public_id}", **link)
    club_page = Client().get("/api/v1/clubs/sfax", **link)

    assert (read.status_code, read.json()["record"]["players"]) == (200, list(NAMES))
    assert (club_page.status_code, club_page.json()["error"]["code"]) == (401, "unauthorized")


# --- A confirmed hand (issue 40.3) ------------------------------------------------------------


def confirmed_game(owner):
    """Hand 1 entered from Bilal's seat and confirmed by Chafik's, in a game of ``owner``."""
    rules = Rules(confirmation=Confirmation.EACH_HAND)
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0, owner_id=owner.pk).game
    facts = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))
    services.record_hand(public_id=game.public_id, number=1, hand=facts, token=None, seat=1)
    services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=2)
    return game


def test_scorer_links_edit_of_a_confirmed_hand_is_proposed_and_its_undo_refused(owner):
    game = confirmed_game(owner)
    link = bearer(services.make_scorer_link(public_id=game.public_id).secret)

    edited = edit(Client(), game, 1, link, tricks=[0, 3, 2])
    undone = Client().delete(hands_url(game, 1), **link)

    codes = [(one.status_code, one.json()["error"]["code"]) for one in (edited, undone)]
    assert codes == [(409, "proposed"), (409, "confirmed")]
    assert (rows(game), Proposal.objects.filter(game=game).count()) == ([BILAL_ROW], 1)


def test_owners_token_is_the_referee_and_edits_a_confirmed_hand_at_once(owner, token):
    game = confirmed_game(owner)

    edited = edit(Client(), game, 1, token, tricks=[0, 3, 2])

    assert (edited.status_code, rows(game)) == (200, [(1, 4, "H", [0, 3, 2, 1])])
