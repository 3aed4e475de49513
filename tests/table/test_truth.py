"""Each phone is told the truth (issue 20): a write refused says why (a revoked scorer link,
an account's right ended, never a right), in a header and in its body; a phone that lost
its right sees why on the game's page; a phone that holds hands waiting to be sent says
so (``games/<gid>/waiting``), and the other phones' pages, the live view's included, say
it until the hands are sent or the report grows old."""

import re
import time
from contextlib import contextmanager
from unittest.mock import patch

import pytest
from django.test import Client

from scoring.common.rights import FOR_OWNER, PhoneRights, cookie_value
from scoring.table.models import Hand as HandRow
from scoring.table.views.live_middleware import current_version
from scoring.table.waiting import KEPT_FOR, waiting
from tests.factories import hand_data

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
REVOKED = "This phone’s scorer link was revoked: it may watch this game, no longer change it."
ENDED = (
    "This phone scored this game for the account that started it, which may no longer score "
    "it: this phone may watch the game, no longer change it."
)
NEVER = (
    "This phone may watch this game, not change it. Only the phone that started it, a phone "
    "handed a scorer link, or the account that started it may."
)


@contextmanager
def later(seconds):
    """The clock ``seconds`` from now, for the reports' age and the cache's expiry."""
    now = time.time()
    with patch("time.time", return_value=now + seconds):
        yield


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def joined(client, game, label="Bilal’s phone"):
    """Another phone, handed a new scorer link of the game by ``client``: it and the link."""
    client.post(url(game, "share/new"))
    link = game.scorer_links.latest("id")
    other = Client()
    other.post(url(game, f"score/{link.secret}"), {"label": label})
    return other, link


def revoked(client, game):
    other, link = joined(client, game)
    client.post(url(game, f"share/{link.pk}/revoke"))
    return other


def refused_text(response):
    """What the page says of why this phone may not change the game: its ``[data-refused]``."""
    found = re.search(r'<p[^>]* data-refused="\w+"[^>]*>([^<]*)</p>', response.content.decode())
    return found and found.group(1)


def test_write_by_a_revoked_phone_says_the_link_was_revoked(client, game):
    other = revoked(client, game)

    response = other.post(url(game, "hands"), hand_data(1))

    assert (response.status_code, response["X-Boulmous-Refused"]) == (403, "revoked")
    assert refused_text(response) == REVOKED
    assert HandRow.objects.count() == 0


def test_write_by_a_revoked_phone_under_htmx_says_why_in_the_403_page(client, game):
    other = revoked(client, game)

    response = other.post(url(game, "hands/1/undo"), HTTP_HX_REQUEST="true")

    assert (response.status_code, response["X-Boulmous-Refused"]) == (403, "revoked")
    assert refused_text(response) == REVOKED


def test_write_by_a_revoked_phone_in_json_says_why(client, game):
    other = revoked(client, game)

    response = other.post(url(game, "hands"), hand_data(1), **JSON)

    assert (response.status_code, response.json()) == (
        403,
        {"status": "forbidden", "reason": "revoked", "message": REVOKED},
    )


def test_write_by_a_phone_whose_owner_lost_the_right_says_so(game):
    phone = Client()
    phone.cookies["boulmous_scorer"] = cookie_value(PhoneRights({game.public_id: FOR_OWNER}))

    response = phone.post(url(game, "hands"), hand_data(1), **JSON)

    assert (response.status_code, response.json()["reason"], response.json()["message"]) == (
        403,
        "ended",
        ENDED,
    )


def test_write_by_a_phone_that_never_had_the_right_says_who_may(watcher, game):
    response = watcher.post(url(game, "abandon"))

    assert (response.status_code, response["X-Boulmous-Refused"]) == (403, "none")
    assert refused_text(response) == NEVER


def test_edit_page_of_a_revoked_phone_says_why(client, game):
    client.post(url(game, "hands"), hand_data(1))
    other = revoked(client, game)

    response = other.get(url(game, "hands/1/edit"))

    assert (response.status_code, refused_text(response)) == (403, REVOKED)


def test_game_page_of_a_revoked_phone_says_why_and_has_no_form(client, game):
    other = revoked(client, game)

    page = other.get(url(game))

    assert (refused_text(page), 'id="hand-form"' in page.content.decode()) == (REVOKED, False)


def test_game_page_of_a_watcher_says_nothing_was_revoked(watcher, game):
    page = watcher.get(url(game))

    assert (refused_text(page), "You are watching this game" in page.content.decode()) == (
        None,
        True,
    )


# --- Hands waiting to be sent ------------------------------------------------------------


def report(phone, game, count):
    return phone.post(url(game, "waiting"), {"count": str(count)})


def notices(phone, game):
    page = phone.get(url(game)).content.decode()
    found = []
    for part in page.split('class="notice waiting-hands" role="status">')[1:]:
        found.append(part[: part.index("</p>")])
    return found


def test_waiting_hands_reported_by_a_scorer_are_shown_to_the_others(client, game, watcher):
    other, _ = joined(client, game)

    answer = report(other, game, 2)

    assert (answer.status_code, answer.json()) == (200, {"status": "reported", "count": 2})
    assert notices(client, game) == ["Bilal’s phone has 2 hands waiting to be sent"]
    assert notices(watcher, game) == ["Bilal’s phone has 2 hands waiting to be sent"]
    assert notices(other, game) == []


def test_waiting_hands_of_the_starting_phone_are_named_as_the_history_does(client, game):
    other, _ = joined(client, game)

    report(client, game, 1)

    assert notices(other, game) == ["The phone that started the game has 1 hand waiting to be sent"]


def test_waiting_hands_reported_by_two_phones_are_both_shown(client, game, watcher):
    bilal, _ = joined(client, game)
    dalila, _ = joined(client, game, label="Dalila")

    report(bilal, game, 2)
    report(dalila, game, 1)

    assert notices(watcher, game) == [
        "Bilal’s phone has 2 hands waiting to be sent",
        "Dalila has 1 hand waiting to be sent",
    ]


def test_waiting_hands_report_of_zero_clears_it(client, game, watcher):
    other, _ = joined(client, game)
    report(other, game, 2)

    report(other, game, 0)

    assert (notices(watcher, game), waiting(game.public_id)) == ([], [])


def test_waiting_hands_report_expires(client, game, watcher):
    other, _ = joined(client, game)
    report(other, game, 2)

    with later(KEPT_FOR - 1):
        still = notices(watcher, game)
    with later(KEPT_FOR):
        gone = notices(watcher, game)

    assert (still, gone) == (["Bilal’s phone has 2 hands waiting to be sent"], [])


def test_waiting_hands_report_by_a_watcher_is_refused_with_its_reason(watcher, game):
    answer = watcher.post(url(game, "waiting"), {"count": "2"}, **JSON)

    assert (answer.status_code, answer.json()["reason"], waiting(game.public_id)) == (
        403,
        "none",
        [],
    )


def test_waiting_hands_report_by_a_revoked_phone_is_refused_with_its_reason(client, game):
    other = revoked(client, game)

    answer = other.post(url(game, "waiting"), {"count": "2"}, **JSON)

    assert (answer.status_code, answer.json()["reason"], waiting(game.public_id)) == (
        403,
        "revoked",
        [],
    )


@pytest.mark.parametrize("count", ["", "two", "-1", "100", "1.5", "9" * 40])
def test_waiting_hands_report_of_a_bad_count_is_400(client, game, count):
    answer = client.post(url(game, "waiting"), {"count": count})

    assert (answer.status_code, answer.json()["status"], waiting(game.public_id)) == (
        400,
        "invalid",
        [],
    )


def test_waiting_hands_report_with_no_count_is_400(client, game):
    answer = client.post(url(game, "waiting"), {})

    assert (answer.status_code, answer.json()["errors"]) == (
        400,
        {"count": ["This field is required."]},
    )


def test_waiting_hands_report_too_big_is_413(client, game):
    answer = client.post(url(game, "waiting"), {"count": "2", "more": "x" * 500})

    assert (answer.status_code, waiting(game.public_id)) == (413, [])


def test_waiting_hands_report_of_a_game_that_does_not_exist_is_404(client):
    assert client.post("/games/nosuchgame/waiting", {"count": "2"}).status_code == 404


def test_waiting_hands_are_listed_in_json_for_anyone(client, game, watcher):
    other, _ = joined(client, game)
    report(other, game, 3)

    answer = watcher.get(url(game, "waiting"))

    assert answer.json() == {
        "waiting": [{"text": "Bilal’s phone has 3 hands waiting to be sent", "count": 3}]
    }


def live(phone, game, version):
    return phone.get(url(game, "live"), HTTP_IF_NONE_MATCH=f'"{version}"')


def test_waiting_hands_change_the_live_version_and_are_in_its_answer(client, game, watcher):
    other, _ = joined(client, game)
    before = current_version(game.public_id)

    report(other, game, 2)
    reported = current_version(game.public_id)
    changed = live(watcher, game, before)
    same = live(watcher, game, reported)
    report(other, game, 0)
    cleared = live(watcher, game, reported)

    assert (changed.status_code, same.status_code, cleared.status_code) == (200, 304, 200)
    assert changed["ETag"] == f'"{reported}"'
    assert "Bilal’s phone has 2 hands waiting to be sent" in changed.content.decode()
    assert "waiting-hands" not in cleared.content.decode()
    assert current_version(game.public_id) == before


def test_waiting_hands_report_of_the_same_count_keeps_the_live_version(client, game):
    other, _ = joined(client, game)
    report(other, game, 2)
    reported = current_version(game.public_id)

    report(other, game, 2)

    assert current_version(game.public_id) == reported


def test_waiting_hands_expired_change_the_live_version(client, game, watcher):
    other, _ = joined(client, game)
    before = current_version(game.public_id)
    report(other, game, 2)
    reported = current_version(game.public_id)

    with later(KEPT_FOR):
        expired = current_version(game.public_id)
        answer = live(watcher, game, reported)

    assert (reported != before, expired, answer.status_code) == (True, before, 200)
