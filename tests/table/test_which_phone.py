"""The truth everywhere (issue 40.5): each confirmation, signature, dispute and decision in
a game's history says who, which seat, which phone (the seat's own, by its code; the
scorer's, passed round; the referee's) and when."""

import re

import pytest
from django.test import Client

from scoring.common.rights import COOKIE, PhoneRights, cookie_value
from scoring.engine import Confirmation as Mode
from scoring.table import services
from tests.table.agreement import new_game, record, seat_phone

pytestmark = pytest.mark.django_db

LINE = re.compile(r"<li><time datetime=\"([^\"]+)\">[^<]*</time> (.*?)</li>", re.S)


def history(response):
    """The history's lines: each its moment, and its words without tags."""
    return [
        (at, re.sub(r"<[^>]+>", "", text).replace("\u2068", "").replace("\u2069", ""))
        for at, text in LINE.findall(response.content.decode())
    ]


def said(response, start):
    return [text for _, text in history(response) if text.startswith(start)]


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


def scorer_holding(game, seat, label=""):
    """The scorer's phone (it started the game) holding ``seat`` by its code too."""
    link = services.make_seat_links(public_id=game.public_id)[seat]
    phone = Client()
    rights = PhoneRights({game.public_id: 0}, label, {game.public_id: link.pk})
    phone.cookies[COOKIE] = cookie_value(rights)
    return phone


def test_confirmation_by_the_seat_code_says_the_seats_own_phone_and_when():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)

    chafik.post(url(game, "hands/1/confirm"), {"version": "1"})
    change = game.changes.first()
    page = chafik.get(url(game))

    assert change.after == {"seat": 2, "phone": "seat"}
    assert said(page, "hand confirmed") == [
        "hand confirmed, hand 1: Chafik by the seat’s own phone (its code)"
    ]
    assert [at for at, text in history(page) if text.startswith("hand confirmed")] == [
        change.at.isoformat()
    ]


def test_confirmation_from_the_scorers_phone_holding_the_seat_says_the_scorers_phone():
    game = new_game()
    record(game, seat=1)
    phone = scorer_holding(game, 3, label="Table 2")

    response = phone.post(url(game, "hands/1/confirm"), {"version": "1"})

    assert (response.status_code, game.changes.first().after) == (
        302,
        {"seat": 3, "phone": "scorer"},
    )
    assert said(phone.get(url(game)), "hand confirmed") == [
        "hand confirmed, hand 1: Dalila by Table 2, the scorer’s phone"
    ]


def test_dispute_and_decision_say_the_seats_phone_and_the_referee():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    referee = scorer_holding(game, 0)  # the game's owner's phone: its referee

    chafik.post(url(game, "dispute"), {"number": "1", "version": "1", "reason": "4 made"})
    referee.post(url(game, "hands/1/decide"), {"outcome": "confirmed", "reason": "Recounted"})
    page = referee.get(url(game))

    assert said(page, "hand disputed") == [
        "hand disputed, hand 1: Chafik — 4 made by the seat’s own phone (its code)"
    ]
    assert said(page, "referee’s decision") == [
        "referee’s decision, hand 1: confirmed as it stands — Recounted by the referee"
    ]


def test_signature_says_the_seats_own_phone():
    game = new_game(Mode.WHOLE_GAME)
    services.abandon_game(public_id=game.public_id)
    amina = seat_phone(game, 0)

    amina.post(url(game, "sign"))

    assert said(amina.get(url(game)), "result signed") == [
        "result signed: Amina by the seat’s own phone (its code)"
    ]


def test_confirmation_of_a_phone_with_a_name_says_it_before_which_phone():
    game = new_game()
    record(game, seat=1)
    link = services.make_seat_links(public_id=game.public_id)[2]
    phone = Client()
    phone.cookies[COOKIE] = cookie_value(
        PhoneRights({}, "Chafik’s Nokia", {game.public_id: link.pk})
    )

    phone.post(url(game, "hands/1/confirm"), {"version": "1"})

    assert said(phone.get(url(game)), "hand confirmed") == [
        "hand confirmed, hand 1: Chafik by Chafik’s Nokia, the seat’s own phone (its code)"
    ]


def test_confirmation_written_before_phones_were_said_keeps_its_words():
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=2)

    assert said(chafik.get(url(game)), "hand confirmed") == [
        "hand confirmed, hand 1: Chafik by a player’s phone"
    ]


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("fr", "par le téléphone de la place (son code)"),
        ("ar", "بواسطة هاتف المقعد نفسه (برمزه)"),
    ],
)
def test_which_phone_is_said_in_french_and_arabic(language, line):
    game = new_game()
    record(game, seat=1)
    chafik = seat_phone(game, 2)
    chafik.post(url(game, "hands/1/confirm"), {"version": "1"})

    page = chafik.get(url(game), HTTP_ACCEPT_LANGUAGE=language)

    assert line in next(text for _, text in history(page))
