"""Who may change a game: the phone that started it, a phone handed a scorer link (until it
is revoked), and the account that started it. Everyone else watches: no forms, and every
write is a 403 that changes nothing. A scorer link scores: it does not share, and its
rights on a rematch started through it end with it. The history says who made each
change."""

import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from scoring.common.rights import COOKIE, POLICY, Action, Role
from scoring.engine import Contract, Hand, Record, Rules, Trump
from scoring.table import services
from scoring.table.models import Change, Game, Player, ScorerLink, Summary
from scoring.table.models import Hand as HandRow
from scoring.table.state import load_game, load_games, summary_of
from tests.factories import NAMES, hand_data, new_game_data


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def played(game, hands=2):
    for number in range(1, hands + 1):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
            token=None,
        )


WRITES = [
    ("hands", lambda game: hand_data(3)),
    ("hands/1/edit", lambda game: hand_data(1, taker=2)),
    ("hands/2/undo", lambda game: {}),
    ("hands/2/redo", lambda game: {}),
    ("abandon", lambda game: {}),
    ("resume", lambda game: {}),
    ("rematch", lambda game: {}),
    ("share/new", lambda game: {}),
    ("share/1/revoke", lambda game: {}),
]


@pytest.mark.parametrize(("suffix", "data"), WRITES, ids=[suffix for suffix, _ in WRITES])
def test_write_without_rights_is_refused_and_changes_nothing(watcher, game, suffix, data):
    played(game)
    before = (list(HandRow.objects.values_list("number", "taker")), Change.objects.count())

    response = watcher.post(url(game, suffix), data(game))

    after = (list(HandRow.objects.values_list("number", "taker")), Change.objects.count())
    assert (response.status_code, after, Game.objects.count()) == (403, before, 1)


@pytest.mark.parametrize("suffix", ["hands/1/edit", "hands/3/play?taker=0&bid=3&trump=H", "share"])
def test_scorer_pages_without_rights_are_refused(watcher, game, suffix):
    played(game)

    assert watcher.get(url(game, suffix)).status_code == 403


def test_game_page_for_a_watcher_shows_the_game_without_forms(watcher, game):
    played(game)

    page = watcher.get(url(game)).content.decode()

    assert "You are watching this game" in page
    assert ('id="entry"' in page, "/edit" in page, "/undo" in page, "/abandon" in page) == (
        False,
        False,
        False,
        False,
    )
    assert re.findall(r'<span class="total">(-?\d+)</span>', page) == ["2", "8", "0", "2"]


@pytest.mark.django_db
def test_unknown_game_is_a_404_for_reads_and_writes(watcher):
    assert (
        watcher.get("/games/nothing-here/").status_code,
        watcher.post("/games/nothing-here/hands", hand_data(1)).status_code,
    ) == (404, 404)


@pytest.mark.django_db
def test_no_sequential_id_appears_in_a_game_address(client):
    response = client.post("/games/new", new_game_data())

    game = Game.objects.get()
    assert response.headers["Location"] == f"/games/{game.public_id}/"
    assert (len(game.public_id) >= 20, str(game.pk) != game.public_id) == (True, True)


@pytest.mark.django_db
def test_new_game_gives_its_phone_the_right_to_score_it():
    phone = Client()
    phone.post("/games/new", new_game_data())
    game = Game.objects.get()

    response = phone.post(url(game, "hands"), hand_data(1))

    assert (response.status_code, HandRow.objects.count()) == (302, 1)
    assert phone.cookies[COOKIE]["httponly"] is True


def test_forged_rights_cookie_gives_no_right(watcher, game):
    watcher.cookies[COOKIE] = '{"g":{"' + game.public_id + '":0},"l":""}:forged'

    response = watcher.post(url(game, "hands"), hand_data(1))

    assert (response.status_code, HandRow.objects.count()) == (403, 0)


def test_scorer_link_hands_the_scoring_to_another_phone_until_revoked(client, game):
    client.post(url(game, "share/new"))
    link = game.scorer_links.get()
    other = Client()
    other.post(url(game, f"score/{link.secret}"), {"label": "Bilal’s phone"})

    recorded = other.post(url(game, "hands"), hand_data(1))
    client.post(url(game, f"share/{link.pk}/revoke"))
    refused = other.post(url(game, "hands"), hand_data(2))

    assert (recorded.status_code, refused.status_code, HandRow.objects.count()) == (302, 403, 1)
    assert Change.objects.filter(action=Change.Action.RECORDED).get().by_device == "Bilal’s phone"


def test_scorer_link_asks_a_phone_its_name_once_then_keeps_it(client, game):
    second = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    links = [services.make_scorer_link(public_id=one.public_id) for one in (game, second)]
    phone = Client()
    first = phone.get(url(game, f"score/{links[0].secret}")).content.decode()
    phone.post(url(game, f"score/{links[0].secret}"), {"label": "Table 2"})

    again = phone.get(url(second, f"score/{links[1].secret}")).content.decode()
    phone.post(url(second, f"score/{links[1].secret}"))
    phone.post(url(second, "hands"), hand_data(1))

    assert ("phone-name" in first, "<details" in first) == (False, False)
    assert ("This phone is Table 2." in again, "<details" in again) == (True, True)
    assert 'value="Table 2"' in again
    recorded = Change.objects.get(game=second, action=Change.Action.RECORDED)
    assert recorded.by_device == "Table 2"


def test_revoked_or_unknown_scorer_link_says_so(client, game):
    client.post(url(game, "share/new"))
    link = game.scorer_links.get()
    client.post(url(game, f"share/{link.pk}/revoke"))

    revoked = Client().get(url(game, f"score/{link.secret}"))
    unknown = Client().get(url(game, "score/not-a-secret"))

    assert (revoked.status_code, unknown.status_code) == (404, 404)
    assert "This scorer link does not work" in revoked.content.decode()


def test_share_page_shows_the_watch_link_and_scorer_links_as_qr_codes(client, game):
    client.post(url(game, "share/new"))

    page = client.get(url(game, "share")).content.decode()

    link = game.scorer_links.get()
    assert f"http://testserver/games/{game.public_id}/" in page
    assert f"http://testserver/games/{game.public_id}/score/{link.secret}" in page
    assert page.count('<svg class="segno"') + page.count("<svg") >= 2


def test_policy_says_who_may_do_what_with_a_game():
    assert {action: POLICY[action] for action in Action if action.name.endswith("_GAME")} == {
        Action.WATCH_GAME: frozenset(Role),
        Action.SCORE_GAME: {
            Role.OWNER_PHONE,
            Role.OWNER_ACCOUNT,
            Role.SCORER_LINK,
            Role.CLUB_ADMIN,
            Role.CLUB_SCORER,
        },
        Action.SHARE_GAME: {
            Role.OWNER_PHONE,
            Role.OWNER_ACCOUNT,
            Role.CLUB_ADMIN,
            Role.CLUB_SCORER,
        },
        Action.CONFIRM_GAME: {Role.SEAT_HOLDER},
        Action.DISPUTE_GAME: {Role.SEAT_HOLDER},
        Action.REFEREE_GAME: {Role.OWNER_PHONE, Role.OWNER_ACCOUNT, Role.CLUB_ADMIN},
        Action.REMATCH_GAME: {Role.OWNER_PHONE, Role.OWNER_ACCOUNT, Role.SCORER_LINK},
    }


def joined(client, game):
    """Another phone, handed a new scorer link of the game by ``client``: it and the link."""
    client.post(url(game, "share/new"))
    link = game.scorer_links.latest("id")
    other = Client()
    other.post(url(game, f"score/{link.secret}"), {"label": "Bilal’s phone"})
    return other, link


def test_scorer_link_scores_but_may_not_share_the_game(client, game):
    other, link = joined(client, game)

    page = other.get(url(game)).content.decode()
    shared = other.get(url(game, "share"))
    made = other.post(url(game, "share/new"))
    revoked = other.post(url(game, f"share/{link.pk}/revoke"))
    scored = other.post(url(game, "hands"), hand_data(1))

    assert (shared.status_code, made.status_code, revoked.status_code) == (403, 403, 403)
    assert scored.status_code == 302
    assert url(game, "share") not in page
    assert list(ScorerLink.objects.values_list("pk", "revoked_at")) == [(link.pk, None)]


@pytest.mark.django_db
def test_rematch_through_a_scorer_link_is_the_owners_and_scored_until_the_link_is_revoked():
    amina = User.objects.create(username="amina")
    owner = Client()
    owner.force_login(amina)
    owner.post("/games/new", new_game_data())
    game = Game.objects.get()
    other, link = joined(owner, game)

    other.post(url(game, "rematch"))
    rematch = Game.objects.get(rematch_of=game)
    scored = other.post(url(rematch, "hands"), hand_data(1))
    shared = other.get(url(rematch, "share"))
    owners_share = owner.get(url(rematch, "share"))
    owner.post(url(game, f"share/{link.pk}/revoke"))
    refused = other.post(url(rematch, "hands"), hand_data(2))

    handed = rematch.scorer_links.get()
    assert (rematch.owner, handed.handed_on_from) == (amina, link)
    assert (scored.status_code, shared.status_code, refused.status_code) == (302, 403, 403)
    assert handed.secret in owners_share.content.decode()
    assert ScorerLink.objects.filter(revoked_at=None).count() == 0
    assert rematch.hands.count() == 1


def test_scorer_link_revoked_ends_its_rights_on_every_rematch_started_through_it(client, game):
    other, link = joined(client, game)
    other.post(url(game, "rematch"))
    rematch = Game.objects.get(rematch_of=game)
    other.post(url(rematch, "rematch"))
    again = Game.objects.get(rematch_of=rematch)
    before = other.post(url(again, "hands"), hand_data(1)).status_code

    client.post(url(game, f"share/{link.pk}/revoke"))

    after = [other.post(url(g, "hands"), hand_data(1)).status_code for g in (game, rematch, again)]
    assert (before, after) == (302, [403, 403, 403])


def test_rematch_by_the_phone_that_started_the_game_is_its_own(client, game):
    phone = Client()
    phone.post("/games/new", new_game_data())
    started = Game.objects.exclude(pk=game.pk).get()

    phone.post(url(started, "rematch"))
    rematch = Game.objects.get(rematch_of=started)

    assert phone.get(url(rematch, "share")).status_code == 200
    assert rematch.scorer_links.count() == 0


@pytest.mark.django_db
def test_account_that_started_a_game_may_score_it_from_another_phone():
    User.objects.create_user("amina", password="a-long-pass-phrase")
    first, second = Client(), Client()
    first.post("/accounts/login/", {"username": "amina", "password": "a-long-pass-phrase"})
    first.post("/games/new", new_game_data())
    game = Game.objects.get()
    second.post("/accounts/login/", {"username": "amina", "password": "a-long-pass-phrase"})

    response = second.post(url(game, "hands"), hand_data(1))

    assert (game.owner.username, response.status_code) == ("amina", 302)
    assert Change.objects.filter(action=Change.Action.RECORDED).get().by_user.username == "amina"


def test_history_names_who_made_each_change(client, game):
    client.post(url(game, "hands"), hand_data(1))
    client.post(url(game, "share/new"))
    other = Client()
    other.post(url(game, f"score/{game.scorer_links.get().secret}"), {"label": "Dalila"})
    other.post(url(game, "hands"), hand_data(2, taker=3, bid=4, trump="D", tricks=(0, 1, 1)))
    client.post(url(game, "hands/2/undo"))

    page = client.get(url(game)).content.decode()

    history = page[page.index('class="history"') :].split("</section>", 1)[0]
    lines = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
        for item in re.findall(r"<li><time[^>]*>.*?</time>(.*?)</li>", history, re.DOTALL)
    ]
    assert lines == [
        "hand undone, hand 2: Dalila 4♦, tricks 0-1-1-4 by the phone that started the game",
        "hand recorded, hand 2: Dalila 4♦, tricks 0-1-1-4 by Dalila",
        "hand recorded, hand 1: Bilal 4♥, tricks 1-4-0-1 by the phone that started the game",
        "game started by the phone that started the game",
    ]
    assert Change.objects.filter(by_device="Dalila").count() == 1


@pytest.mark.django_db
def test_home_lists_only_this_phones_games_and_suggests_only_their_names():
    mine, theirs = Client(), Client()
    mine.post("/games/new", new_game_data())
    theirs.post("/games/new", new_game_data(player_0="Zoé", player_1="Yasmine"))

    home = mine.get("/")
    new = mine.get("/games/new")

    assert [summary.scores[0][0] for summary in home.context["playing"]] == ["Amina"]
    assert list(new.context["known_names"]) == sorted(NAMES)


@pytest.mark.django_db
def test_new_game_sent_twice_starts_one_game(client):
    drawn = client.get("/games/new").content.decode()
    [once] = re.findall(r'<input type="hidden" name="once" value="([^"]+)"', drawn)
    data = new_game_data(once=once)

    first = client.post("/games/new", data)
    second = client.post("/games/new", data)

    assert (Game.objects.count(), first.headers["Location"]) == (1, second.headers["Location"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["Amina\x07", "Bi\x1blal", "Cha\u200bfik", "Dali\u202ela", "\ufeffAmina"]
)
def test_new_game_refuses_control_and_invisible_characters_in_names(client, name):
    response = client.post("/games/new", new_game_data(player_0=name))

    assert (response.status_code, response.context["form"].errors["player_0"]) == (
        422,
        ["A name cannot hold control or invisible characters."],
    )


@pytest.mark.django_db
def test_names_are_compared_the_same_way_in_every_database(client):
    client.post("/games/new", new_game_data(player_0="i", player_1="İ", player_2="Chafik"))
    client.post("/games/new", new_game_data(player_0="I", player_1="i̇", player_2="CHAFIK"))

    keys = sorted(Player.objects.values_list("key", flat=True))
    assert (Game.objects.count(), len(keys), len(set(keys))) == (2, len(set(keys)), len(keys))
    assert Player.objects.filter(key="chafik").count() == 1


@pytest.mark.django_db
def test_new_game_names_are_kept_in_nfc(client):
    client.post("/games/new", new_game_data(player_0="Zoe\u0301"))

    assert Player.objects.filter(name="Zoé").count() == 1


# --- Summaries ------------------------------------------------------------------------


def summaries_equal_the_engine():
    states = load_games(Game.objects.order_by("pk"))
    rows = {row.game_id: row for row in Summary.objects.all()}
    return [
        (summary_of(state), state.game.pk)
        for state in states
        if {key: getattr(rows[state.game.pk], key) for key in summary_of(state)}
        != summary_of(state)
    ]


def test_summary_follows_every_write_as_the_engine_gives_it(client, game):
    actions = [
        ("hands", hand_data(1)),
        ("hands", hand_data(2, taker=2, bid=6, trump="S", tricks=(0, 0, 6))),
        ("hands/1/edit", hand_data(1, taker=0, bid=3, tricks=(3, 1, 1))),
        ("hands/2/undo", {}),
        ("hands/2/redo", {}),
        ("abandon", {}),
        ("resume", {}),
    ]
    mismatches = []

    for suffix, data in actions:
        client.post(url(game, suffix), data)
        mismatches += summaries_equal_the_engine()

    assert mismatches == []
    assert Summary.objects.get().hands == 2


def test_rebuild_summaries_makes_them_again_from_the_hands(game):
    played(game, hands=3)
    Summary.objects.update(totals=[0, 0, 0, 0], hands=0)

    call_command("rebuild_summaries", verbosity=0)

    assert summaries_equal_the_engine() == []
    assert Summary.objects.get().totals == list(load_game(game).result.totals)


@pytest.mark.django_db
def test_imported_game_has_its_summary():
    hand = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))

    services.import_record(record=Record(players=NAMES, rules=Rules(), hands=(hand,)))

    assert summaries_equal_the_engine() == []


def test_refusal_is_a_page_in_the_apps_style_and_language(watcher, game):
    response = watcher.post(url(game, "hands"), hand_data(1), HTTP_ACCEPT_LANGUAGE="fr")

    page = response.content.decode()
    assert (response.status_code, '<html lang="fr"' in page, "<h1>" in page) == (403, True, True)
