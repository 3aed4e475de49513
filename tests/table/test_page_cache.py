"""Pages drawn once per version (issue 21): the game page, the settlement, record.json and
the rules page come from the cache, keyed by all they depend on. Each write changes what
every kind of viewer sees next, in every language; a scorer never gets a watcher's page nor
a watcher a scorer's; two phones never share a CSRF token, nor a hand form's token; and a
page kept from the cache is always the page drawn anew."""

import re
import uuid

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from redis.exceptions import ConnectionError as RedisConnectionError

from scoring.accounts import services as account_services
from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Member
from scoring.common.rights import COOKIE, PhoneRights, cookie_value
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.infra import pagecache
from scoring.infra.fragments import KEPT
from scoring.table import services
from scoring.table.models import ScorerLink
from tests.clubs.factories import make_club, signed_in
from tests.factories import NAMES, account, hand_data

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "fr", "ar")
HTMX = {"HTTP_HX_REQUEST": "true"}
# Each request's own: the CSRF token (a field, the htmx header) and the hand form's token.
OWN = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[^"]+|("X-CSRFToken": ")[^"]+'
    r'|(name="token" value=")[^"]+'
)


@pytest.fixture(autouse=True)
def _nothing_kept():
    """Each test starts with no page kept in this process (the shared cache is cleared by
    tests/conftest.py)."""
    pagecache.LOCAL.clear()
    KEPT.clear()


def game_of(hands, **rules):
    game = services.create_game(names=NAMES, rules=Rules(**rules), first_dealer=0).game
    for number in range(1, hands + 1):
        hand = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


def body(response):
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def common(text):
    """The page without what is each request's own."""
    return OWN.sub(lambda match: next(group for group in match.groups() if group), text)


def csrf_tokens(text):
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)) | set(
        re.findall(r'"X-CSRFToken": "([^"]+)"', text)
    )


def form_tokens(text):
    return re.findall(r'name="token" value="([^"]+)"', text)


@pytest.fixture
def uncached(monkeypatch):
    """The pages drawn as before the cache: nothing kept, nothing read from it, and no
    piece of a page kept in the process ({% kept %}) either."""

    def drawn(url, client, **headers):
        KEPT.clear()
        pagecache.LOCAL.clear()
        with monkeypatch.context() as patched:
            patched.setattr(pagecache, "cacheable", lambda request, **kwargs: False)
            for module in ("scoring.table.views.table", "scoring.table.views.records"):
                patched.setattr(f"{module}.cacheable", lambda request, **kwargs: False)
            patched.setattr("scoring.referee.views.cacheable", lambda request, **kwargs: False)
            return client.get(url, **headers)

    return drawn


def viewers(client, watcher):
    return {"scorer": client, "watcher": watcher}


PAGES = ("/games/{gid}/", "/games/{gid}/settlement", "/games/{gid}/record.json")


def seen(url, viewer, language):
    return common(body(viewer.get(url, HTTP_ACCEPT_LANGUAGE=language)))


def every_view(gid, client, watcher):
    return {
        (page, kind, language): seen(page.format(gid=gid), viewer, language)
        for page in PAGES
        for kind, viewer in viewers(client, watcher).items()
        for language in LANGUAGES
    }


def write(action, client, gid):
    """A change of the game, as a scorer's phone makes it."""
    if action == "recorded":
        response = client.post(f"/games/{gid}/hands", hand_data(3))
    elif action == "edited":
        response = client.post(f"/games/{gid}/hands/2/edit", hand_data(2, taker=2, bid=5))
    elif action == "undone":
        response = client.post(f"/games/{gid}/hands/2/undo")
    elif action == "abandoned":
        response = client.post(f"/games/{gid}/abandon")
    else:
        response = client.post(f"/games/{gid}/resume")
    assert response.status_code == 302, response.status_code


@pytest.mark.parametrize("action", ["recorded", "edited", "undone", "abandoned", "resumed"])
def test_a_write_changes_what_every_viewer_sees_next_in_every_language(
    client, watcher, uncached, action
):
    gid = game_of(2).public_id
    if action == "resumed":
        write("abandoned", client, gid)
    before = every_view(gid, client, watcher)  # every page, kind and language now cached

    write(action, client, gid)
    after = every_view(gid, client, watcher)

    for (page, kind, language), text in after.items():
        viewer = viewers(client, watcher)[kind]
        fresh = uncached(page.format(gid=gid), viewer, HTTP_ACCEPT_LANGUAGE=language)
        assert text == common(body(fresh)), (page, kind, language)
        assert text != before[page, kind, language], (page, kind, language)


def test_a_page_from_the_cache_is_the_page_drawn_anew(client, watcher, uncached):
    gid = game_of(3, stake=2).public_id
    for url in (f"/games/{gid}/", f"/games/{gid}/settlement", f"/rules?game={gid}", "/rules"):
        for viewer in (client, watcher):
            for language in LANGUAGES:
                first = body(viewer.get(url, HTTP_ACCEPT_LANGUAGE=language))
                kept = body(viewer.get(url, HTTP_ACCEPT_LANGUAGE=language))
                fresh = body(uncached(url, viewer, HTTP_ACCEPT_LANGUAGE=language))
                assert common(first) == common(kept) == common(fresh), (url, language)


def test_the_second_view_of_a_page_comes_from_the_cache(client, watcher):
    gid = game_of(30, target=1000).public_id
    for viewer, url in (
        (watcher, f"/games/{gid}/"),
        (client, f"/games/{gid}/"),
        (watcher, "/rules"),
    ):
        body(viewer.get(url))
        with CaptureQueriesContext(connection) as queries:
            body(viewer.get(url))
        # The game and its summary, in one query; the rules page reads nothing.
        assert len(queries) == (0 if url == "/rules" else 1), [q["sql"] for q in queries]


def test_a_scorer_never_gets_a_watchers_page_nor_a_watcher_a_scorers(client, watcher):
    gid = game_of(1).public_id
    watched = body(watcher.get(f"/games/{gid}/"))
    scored = body(client.get(f"/games/{gid}/"))
    watched_again = body(watcher.get(f"/games/{gid}/"))

    assert ('id="hand-form"' in watched, 'id="hand-form"' in scored) == (False, True)
    assert ("You are watching" in watched, "You are watching" in scored) == (True, False)
    assert common(watched_again) == common(watched)
    assert ("/edit" in watched, "/edit" in scored) == (False, True)


def test_a_revoked_scorer_link_gets_the_watchers_page(client, made_games):
    gid = game_of(1).public_id
    link = ScorerLink.objects.create(game_id=client.get(f"/games/{gid}/").context["state"].game.pk)
    helper = Client()
    helper.cookies[COOKIE] = cookie_value(PhoneRights({gid: link.pk}))

    scoring_page = body(helper.get(f"/games/{gid}/"))
    ScorerLink.objects.filter(pk=link.pk).update(revoked_at="2026-01-01T00:00Z")
    revoked_page = body(helper.get(f"/games/{gid}/"))

    assert ('id="hand-form"' in scoring_page, 'id="hand-form"' in revoked_page) == (True, False)


def test_two_phones_never_share_a_csrf_token_nor_a_form_token(client, made_games):
    gid = game_of(1).public_id
    phones = [client]
    for _ in range(2):
        phone = Client()
        phone.cookies[COOKIE] = cookie_value(PhoneRights({gid: 0}))
        phones.append(phone)

    pages = [body(phone.get(f"/games/{gid}/")) for phone in phones]
    again = body(phones[0].get(f"/games/{gid}/"))

    assert len({common(page) for page in pages}) == 1  # one page, from the cache
    tokens = [csrf_tokens(page) for page in pages]
    assert all(len(found) == 1 for found in tokens), tokens
    assert len(set().union(*tokens)) == 3
    secrets = {phone.cookies["csrftoken"].value for phone in phones}
    assert len(secrets) == 3
    forms = [token for page in [*pages, again] for token in form_tokens(page)]
    assert len(forms) == len(set(forms)) == 4
    assert all(uuid.UUID(token) for token in forms)
    assert pagecache.CSRF_PLACEHOLDER not in "".join(pages)
    assert pagecache.TOKEN_PLACEHOLDER not in "".join(pages)


def test_a_cached_page_token_is_taken_by_the_csrf_check(made_games):
    gid = game_of(1).public_id
    phone = Client(enforce_csrf_checks=True)
    phone.cookies[COOKIE] = cookie_value(PhoneRights({gid: 0}))
    body(phone.get(f"/games/{gid}/"))  # drawn and kept
    page = body(phone.get(f"/games/{gid}/"))  # from the cache
    (token,) = csrf_tokens(page)

    response = phone.post(
        f"/games/{gid}/hands",
        {**hand_data(2), "csrfmiddlewaretoken": token, "token": form_tokens(page)[0]},
    )

    assert response.status_code == 302


@pytest.mark.parametrize("url", [*PAGES, "/rules?game={gid}", "/rules"])
def test_an_unchanged_page_asked_again_is_a_304_until_the_game_changes(client, url):
    gid = game_of(1).public_id
    url = url.format(gid=gid)
    client.get(url)  # a first visit: the phone's CSRF cookie comes with it
    tag = client.get(url)["ETag"]

    unchanged = client.get(url, HTTP_IF_NONE_MATCH=tag)
    other_language = client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="fr")
    client.post(f"/games/{gid}/hands", hand_data(2))
    after_a_hand = client.get(url, HTTP_IF_NONE_MATCH=tag)

    assert (unchanged.status_code, unchanged.content, unchanged["ETag"]) == (304, b"", tag)
    assert "Cookie" in unchanged["Vary"]
    assert other_language.status_code == (304 if url.endswith(".json") else 200)
    assert after_a_hand.status_code == (304 if url.startswith("/rules") else 200)


def test_the_times_are_the_phones_zone_whatever_was_kept(watcher):
    gid = game_of(1).public_id
    watcher.cookies["tz"] = "Asia/Tokyo"
    tokyo = body(watcher.get(f"/games/{gid}/"))
    watcher.cookies["tz"] = "America/Lima"
    lima = body(watcher.get(f"/games/{gid}/"))

    times = re.compile(r"<time [^>]*>([^<]+)</time>")
    assert times.findall(tokyo) != times.findall(lima)


def test_the_htmx_fragment_and_the_page_are_kept_apart(client):
    gid = game_of(1).public_id
    page = body(client.get(f"/games/{gid}/"))
    fragment = body(client.get(f"/games/{gid}/", **HTMX))
    page_again = body(client.get(f"/games/{gid}/"))

    assert ("<html" in page, "<html" in fragment, "<html" in page_again) == (True, False, True)
    assert "HX-Request" in client.get(f"/games/{gid}/")["Vary"]


def test_a_message_to_show_is_shown_not_kept(client, rf):
    gid = game_of(1).public_id
    body(client.get(f"/games/{gid}/"))
    said = Message(constants.SUCCESS, "Settings saved for this phone.")
    client.cookies["messages"] = CookieStorage(rf.get("/"))._encode([said])

    with_message = body(client.get(f"/games/{gid}/"))
    without = body(client.get(f"/games/{gid}/"))  # the message was shown: from the cache

    assert ("Settings saved" in with_message, "Settings saved" in without) == (True, False)


def test_a_page_with_a_query_string_is_drawn_not_kept(watcher):
    gid = game_of(1).public_id
    keys_before = set(cache._cache)
    page = body(watcher.get(f"/games/{gid}/?utm=1"))

    assert (set(cache._cache) == keys_before, "utm=1" in page) == (True, True)


def test_a_cache_that_does_not_answer_costs_the_drawing_not_the_page(client, monkeypatch):
    gid = game_of(1).public_id

    class Down:
        def get(self, key):
            raise RedisConnectionError("down")

        def set(self, key, value, timeout):
            raise RedisConnectionError("down")

    monkeypatch.setattr(pagecache, "django_cache", Down())

    assert 'id="hand-form"' in body(client.get(f"/games/{gid}/"))
    assert body(client.get("/rules"))


def test_the_public_name_of_a_club_member_changes_what_the_public_sees(uncached):
    amina = account("amina")
    club = make_club(amina, public=True)
    member_services.add_member(club=club, name="Nour Haddad")
    state = club_services.start_club_game(
        club=club, names=("Nour Haddad", "Amina", "Ali", "Omar"), first_dealer=0, owner_id=None
    )
    gid = state.game.public_id
    stranger, member = Client(), signed_in(amina)
    pages = [f"/games/{gid}/", f"/games/{gid}/settlement", f"/games/{gid}/record.json"]
    before = [body(stranger.get(url)) for url in pages] + [body(member.get(pages[0]))]

    Member.objects.filter(club=club, name="Nour Haddad").update(short_in_public=True)
    after = [body(stranger.get(url)) for url in pages] + [body(member.get(pages[0]))]

    assert all("Nour Haddad" in text for text in before)
    assert ["Nour H." in text for text in after] == [True, True, True, False]
    assert ["Haddad" in text for text in after] == [False, False, False, True]
    for url, text in zip(pages, after, strict=False):
        assert common(text) == common(body(uncached(url, stranger)))


def test_a_club_game_renamed_in_the_club_shows_the_new_name(uncached):
    amina = account("amina")
    club = make_club(amina, public=True)
    bilal = account("bilal")
    member_services.add_member(club=club, name="Bilal")
    Member.objects.filter(club=club, name="Bilal").update(user=bilal)
    state = club_services.start_club_game(
        club=club, names=("Bilal", "Amina", "Ali", "Omar"), first_dealer=0, owner_id=None
    )
    gid = state.game.public_id
    stranger = Client()
    assert "Bilal" in body(stranger.get(f"/games/{gid}/"))

    account_services.delete_account(user_id=bilal.pk, anonymous=True)  # renamed "Player 1"
    after = body(stranger.get(f"/games/{gid}/"))

    assert ">Bilal<" not in after
    assert common(after) == common(body(uncached(f"/games/{gid}/", stranger)))


def test_an_account_gone_is_named_no_more_in_the_history_of_its_games(uncached):
    omar = account("omar")
    scorer = Client()
    scorer.force_login(omar)
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0, owner_id=omar.pk)
    gid = game.game.public_id
    assert scorer.post(f"/games/{gid}/hands", hand_data(1)).status_code == 302
    stranger = Client()
    assert "by omar" in body(stranger.get(f"/games/{gid}/"))

    account_services.delete_account(user_id=omar.pk, anonymous=False)
    after = body(stranger.get(f"/games/{gid}/"))

    assert "omar" not in after
    assert common(after) == common(body(uncached(f"/games/{gid}/", stranger)))


def test_the_deploy_is_in_every_key(monkeypatch):
    game_of(0)
    first = pagecache.page_key("game", 1)
    monkeypatch.setattr(pagecache, "deploy_version", lambda: "another deploy")

    assert pagecache.page_key("game", 1) != first


def test_a_hand_form_sent_back_with_its_errors_is_never_kept(client):
    gid = game_of(1, target=1000).public_id
    body(client.get(f"/games/{gid}/"))  # the new hand's fields kept
    refused = client.post(f"/games/{gid}/hands", hand_data(2, tricks=(6, 6, 6)), **HTMX)
    again = body(client.get(f"/games/{gid}/"))

    assert refused.status_code == 422
    assert 'role="alert"' in refused.content.decode()
    assert 'id="id_tricks_0_6" checked' in refused.content.decode()
    assert 'id="id_tricks_0_6" checked' not in again


def test_rows_kept_in_one_language_are_not_shown_in_another(client, uncached):
    gid = game_of(3, target=1000).public_id
    for language in LANGUAGES:
        kept_page = common(body(client.get(f"/games/{gid}/", HTTP_ACCEPT_LANGUAGE=language)))
        fresh = uncached(f"/games/{gid}/", client, HTTP_ACCEPT_LANGUAGE=language)
        assert kept_page == common(body(fresh)), language


def test_a_page_kept_in_the_process_is_the_one_the_shared_cache_keeps(watcher):
    gid = game_of(1).public_id
    drawn = common(body(watcher.get(f"/games/{gid}/")))  # drawn, kept in both
    pagecache.LOCAL.clear()
    shared = common(body(watcher.get(f"/games/{gid}/")))  # read from the shared cache
    local = common(body(watcher.get(f"/games/{gid}/")))  # from this process's copy

    assert drawn == shared == local
    assert len(pagecache.LOCAL.texts) == 1
