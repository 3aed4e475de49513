"""Seats on phones (issue 40.1): each seat of a game has a QR code and a short code; a phone
that takes one holds that seat and watches the game as its player, until the owner revokes
the code. A seat holder scores nothing; the history says who took and revoked each seat."""

import re

import pytest
from django.test import Client

from scoring.common.rights import COOKIE, POLICY, Action, PhoneRights, Role, cookie_value, read
from scoring.table import services
from scoring.table.forms import seat_code
from scoring.table.models import SEAT_CODE_ALPHABET, Change, Hand, SeatLink
from tests.factories import hand_data

SEAT_HELD = re.compile(r'<p class="notice seat-held">(.*?)</p>')


def held_line(response):
    found = SEAT_HELD.search(response.content.decode())
    return found.group(1) if found else None


def seats_of(game):
    return services.make_seat_links(public_id=game.public_id)


# --- Rights and services -------------------------------------------------------------------


def test_seat_holder_may_watch_confirm_and_dispute_and_nothing_more():
    allowed = {action for action, roles in POLICY.items() if Role.SEAT_HOLDER in roles}
    assert allowed == {Action.WATCH_GAME, Action.CONFIRM_GAME, Action.DISPUTE_GAME}


def test_make_seat_links_gives_one_code_a_seat_and_the_same_ones_when_asked_again(game):
    first = seats_of(game)
    again = seats_of(game)

    codes = [link.code for link in first]
    assert (
        [link.seat for link in first],
        [link.pk for link in again],
        all(len(code) == 6 and set(code) <= set(SEAT_CODE_ALPHABET) for code in codes),
        len(set(codes)),
    ) == ([0, 1, 2, 3], [link.pk for link in first], True, 4)


def test_revoke_seat_link_makes_a_new_code_for_that_seat_only(game):
    before = seats_of(game)

    revoked = services.revoke_seat_link(public_id=game.public_id, seat=1)
    twice = services.revoke_seat_link(public_id=game.public_id, seat=1)
    after = seats_of(game)

    assert (
        revoked,
        twice,
        [link.pk == old.pk for link, old in zip(after, before, strict=True)],
    ) == (
        True,
        False,
        [True, False, True, True],
    )


def test_seat_code_as_typed_is_read_as_kept():
    assert seat_code(" ab3-k7 x\n") == "AB3K7X"


def test_cookie_keeps_seats_beside_games_and_label():
    rights = PhoneRights({"g1": 0}, "Table 2")
    rights.take_seat("g2", 7)
    rights.take_seat("g2", 9)

    class Request:
        def get_signed_cookie(self, name, default, salt):
            from django.core import signing

            return signing.get_cookie_signer(salt=name + salt).unsign(cookie_value(rights))

    assert read(Request()) == PhoneRights({"g1": 0}, "Table 2", {"g2": 9})


# --- The owner's page ----------------------------------------------------------------------


def test_seats_page_shows_each_player_his_qr_and_code_to_the_owner(client, game):
    links = seats_of(game)

    response = client.get(f"/games/{game.public_id}/seats")

    page = response.content.decode()
    assert (
        response.status_code,
        page.count('<div class="qr">'),
        [link.code in page for link in links],
        f"/seat/{links[2].code}" in page,
        "<bdi>Chafik</bdi>" in page,
    ) == (200, 4, [True] * 4, True, True)


def test_seats_page_before_codes_offers_to_make_them(client, game):
    made = client.post(f"/games/{game.public_id}/seats/new")
    again = client.post(f"/games/{game.public_id}/seats/new")

    assert (made.status_code, again.status_code, SeatLink.objects.count()) == (302, 302, 4)


def test_seats_page_and_its_writes_are_refused_to_a_watcher(watcher, game):
    seats_of(game)

    got = watcher.get(f"/games/{game.public_id}/seats")
    made = watcher.post(f"/games/{game.public_id}/seats/new")
    revoked = watcher.post(f"/games/{game.public_id}/seats/1/revoke")

    assert (got.status_code, made.status_code, revoked.status_code) == (403, 403, 403)
    assert SeatLink.objects.filter(revoked_at=None).count() == 4


def test_game_page_links_its_scorer_to_the_seats_page(client, game):
    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert f'href="/games/{game.public_id}/seats"' in page


# --- A phone takes a seat ------------------------------------------------------------------


def test_typed_code_takes_the_seat_and_lands_on_the_watch_page(game):
    link = seats_of(game)[1]
    phone = Client()

    response = phone.post("/seat", {"code": link.code.lower()})
    page = phone.get(response["Location"])

    assert (response.status_code, response["Location"], held_line(page)) == (
        302,
        f"/games/{game.public_id}/",
        "You hold <bdi>Bilal</bdi>’s seat.",
    )


def test_seat_address_asks_before_taking_and_its_button_takes_it(game):
    link = seats_of(game)[3]
    phone = Client()

    asked = phone.get(f"/seat/{link.code}")
    taken_before = SeatLink.objects.get(pk=link.pk).taken_at
    response = phone.post("/seat", {"code": link.code})

    assert (
        asked.status_code,
        "<bdi>Dalila</bdi>" in asked.content.decode(),
        taken_before,
        response.status_code,
        read_seats(phone),
    ) == (200, True, None, 302, {game.public_id: link.pk})


def read_seats(phone):
    class Request:
        def get_signed_cookie(self, name, default, salt):
            from django.core import signing

            value = phone.cookies[COOKIE].value
            return signing.get_cookie_signer(salt=name + salt).unsign(value)

    return read(Request()).seats


def test_seat_taken_twice_is_held_once_and_said_once_in_the_history(game):
    link = seats_of(game)[0]
    phone = Client()

    first = phone.post("/seat", {"code": link.code})
    second = phone.post("/seat", {"code": link.code})

    seated = Change.objects.filter(game=game, action=Change.Action.SEATED)
    assert (first.status_code, second.status_code, seated.count(), seated[0].after) == (
        302,
        302,
        1,
        {"seat": 0},
    )


@pytest.mark.parametrize("code", ["", "ZZZZZZ", "ab", "0000000000000"])
def test_bad_code_is_said_on_the_field_and_takes_nothing(game, code):
    seats_of(game)
    phone = Client()

    response = phone.post("/seat", {"code": code})

    page = response.content.decode()
    assert (response.status_code, 'class="field-errors"' in page, COOKIE in phone.cookies) == (
        422,
        True,
        False,
    )


def test_revoked_code_takes_nothing_and_its_address_is_a_404(game):
    link = seats_of(game)[2]
    services.revoke_seat_link(public_id=game.public_id, seat=2)

    typed = Client().post("/seat", {"code": link.code})
    opened = Client().get(f"/seat/{link.code}")

    assert (typed.status_code, opened.status_code) == (422, 404)


def test_revoking_the_code_drops_the_seat_from_the_phone_at_its_next_request(client, game):
    link = seats_of(game)[1]
    phone = Client()
    phone.post("/seat", {"code": link.code})
    held = held_line(phone.get(f"/games/{game.public_id}/"))

    client.post(f"/games/{game.public_id}/seats/1/revoke")
    after = phone.get(f"/games/{game.public_id}/")

    assert (held, held_line(after), after.status_code) == (
        "You hold <bdi>Bilal</bdi>’s seat.",
        None,
        200,
    )


def test_seat_holder_cannot_score(game):
    link = seats_of(game)[1]
    phone = Client()
    phone.post("/seat", {"code": link.code})

    page = phone.get(f"/games/{game.public_id}/")
    response = phone.post(f"/games/{game.public_id}/hands", hand_data(1))

    assert ('id="hand-form"' in page.content.decode(), response.status_code) == (False, 403)
    assert Hand.objects.filter(game=game).count() == 0


def test_scorer_sees_no_seat_line_on_his_page(client, game):
    link = seats_of(game)[0]
    client.post("/seat", {"code": link.code})

    assert held_line(client.get(f"/games/{game.public_id}/")) is None


def test_history_says_who_took_and_revoked_each_seat(client, game):
    link = seats_of(game)[2]
    phone = Client()
    phone.post("/seat", {"code": link.code})
    client.post(f"/games/{game.public_id}/seats/2/revoke")

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert (
        "seat taken: Chafik" in page,
        "seat code revoked: Chafik" in page,
        "a player’s phone" in page,
    ) == (True, True, True)


def test_undo_stays_redoable_after_a_seat_is_taken(client, game):
    client.post(f"/games/{game.public_id}/hands", hand_data(1))
    client.post(f"/games/{game.public_id}/hands/1/undo")
    Client().post("/seat", {"code": seats_of(game)[0].code})

    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert f"/games/{game.public_id}/hands/1/redo" in page


@pytest.mark.parametrize("language", ["fr", "ar"])
def test_seat_line_is_said_in_the_phone_language(game, language):
    link = seats_of(game)[1]
    phone = Client(HTTP_ACCEPT_LANGUAGE=language)
    phone.post("/seat", {"code": link.code})

    line = held_line(phone.get(f"/games/{game.public_id}/"))

    assert (line is not None, "<bdi>Bilal</bdi>" in (line or ""), "You hold" in (line or "")) == (
        True,
        True,
        False,
    )


def test_seat_lines_in_french_elide_before_a_vowel(game):
    phone = Client(HTTP_ACCEPT_LANGUAGE="fr")
    phone.post("/seat", {"code": seats_of(game)[0].code})

    line = held_line(phone.get(f"/games/{game.public_id}/"))

    asked = phone.get(f"/seat/{seats_of(game)[0].code}").content.decode()
    assert line == "Vous occupez la place d’<bdi>Amina</bdi>."
    assert "depuis la place d’<bdi>Amina</bdi>." in asked


def test_pages_kept_in_the_cache_say_each_phone_its_own_seat(game):
    links = seats_of(game)
    bilal, dalila, stranger = Client(), Client(), Client()
    bilal.post("/seat", {"code": links[1].code})
    dalila.post("/seat", {"code": links[3].code})

    lines = [held_line(phone.get(f"/games/{game.public_id}/")) for phone in (bilal, dalila)]
    lines += [held_line(phone.get(f"/games/{game.public_id}/")) for phone in (stranger, bilal)]

    assert lines == [
        "You hold <bdi>Bilal</bdi>’s seat.",
        "You hold <bdi>Dalila</bdi>’s seat.",
        None,
        "You hold <bdi>Bilal</bdi>’s seat.",
    ]
