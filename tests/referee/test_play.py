"""A hand recorded card by card: the referee at the table."""

import json
import re

import pytest

from scoring.engine import Rules, loads, score
from scoring.table import services
from scoring.table.models import Hand
from scoring.table.state import load_game
from tests.factories import NAMES
from tests.golden import LEGAL, REVOKED

CONTRACT = {"taker": 0, "bid": 3, "trump": "H"}


@pytest.fixture
def game(db):
    return services.create_game(names=NAMES, rules=Rules(), first_dealer=3).game


def play_url(game, number=1):
    return f"/games/{game.public_id}/hands/{number}/play"


def test_play_page_says_who_plays_and_disables_played_cards(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": "AH,KH"})

    page = response.content.decode()
    assert response.context["play"].to_play == "Chafik"
    assert '<span class="key played" aria-disabled="true">A♥</span>' in page
    assert "cards=AH%2CKH%2CQH" in page


def test_play_page_gives_the_trick_winner_and_why_after_the_fourth_card(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": "AH,KH,QH,JD"})

    trick = response.context["play"].tricks[0]
    assert (trick.winner, trick.reason) == (
        "Dalila",
        "The jack of diamonds is the second-highest trump when hearts are trump.",
    )
    assert response.context["play"].to_play == "Dalila"


def test_play_page_take_back_drops_the_last_card(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": "AH,KH,QH"})

    assert response.context["play"].back_href == "?taker=0&bid=3&trump=H&cards=AH%2CKH"


@pytest.mark.smoke
def test_play_page_complete_play_finds_and_explains_the_revoke(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": REVOKED})

    play = response.context["play"]
    assert play.revokes == [
        "Bilal did not follow hearts in trick 1: Bilal played the nine of clubs while holding K♥."
    ]
    assert (play.outcome, play.tricks_won) == (
        "Amina makes the contract: 3 points.",
        [("Amina", 3), ("Bilal", 0), ("Chafik", 0), ("Dalila", 3)],
    )
    assert "Keep the hand as played" in response.content.decode()


def test_play_page_legal_play_has_no_revoke(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": LEGAL})

    assert (response.context["play"].revokes, response.context["play"].complete) == ([], True)


@pytest.mark.smoke
def test_play_saved_is_stored_as_facts_and_exported(client, game):
    response = client.post(
        f"/games/{game.public_id}/hands", {**CONTRACT, "number": 1, "plays": REVOKED}
    )

    exported = json.loads(client.get(f"/games/{game.public_id}/record.json").content)
    result = score(loads(json.dumps(exported)))
    assert response.status_code == 302
    assert Hand.objects.get().plays[0] == ["AH", "9C", "QH", "JH"]
    assert exported["hands"][0]["plays"][1] == ["JD", "TH", "KH", "9H"]
    assert (result["hands"][0]["tricks"], result["hands"][0]["revokes"]) == (
        [3, 0, 0, 3],
        [{"trick": 1, "seat": 1, "card": "9C", "led": "H"}],
    )


def test_play_saved_marks_the_score_sheet(client, game):
    client.post(f"/games/{game.public_id}/hands", {**CONTRACT, "number": 1, "plays": REVOKED})

    row = client.get(f"/games/{game.public_id}/").context["sheet"].rows[0]

    assert (row.by_card, row.revokes) == (True, 1)


def test_play_of_a_recorded_hand_corrects_it(client, game):
    client.post(f"/games/{game.public_id}/hands", {**CONTRACT, "number": 1, "plays": REVOKED})
    edit = client.get(f"/games/{game.public_id}/hands/1/edit")

    response = client.post(
        f"/games/{game.public_id}/hands/1/edit", {**CONTRACT, "number": 1, "plays": LEGAL}
    )

    assert (
        edit.context["play_url"]
        == play_url(game) + f"?taker=0&bid=3&trump=H&cards={REVOKED.replace(',', '%2C')}"
    )
    assert response.status_code == 302
    assert load_game(game).record.hands[0].play.revokes == ()


def test_play_from_the_hand_form_goes_to_its_own_address(client, game):
    response = client.get(play_url(game), {**CONTRACT, "number": 1, "csrfmiddlewaretoken": "x"})

    assert response.headers["Location"] == play_url(game) + "?taker=0&bid=3&trump=H"


def test_play_from_the_hand_form_with_htmx_loads_the_page(client, game):
    response = client.get(play_url(game), {**CONTRACT, "number": 1}, HTTP_HX_REQUEST="true")

    assert response.headers["HX-Redirect"] == play_url(game) + "?taker=0&bid=3&trump=H"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({**CONTRACT, "cards": "AH,AH"}, "a card cannot be played twice"),
        ({**CONTRACT, "cards": "AH,XX"}, 'card "XX" is not a card'),
    ],
)
def test_play_page_bad_play_is_explained(client, game, query, message):
    response = client.get(play_url(game), query)

    assert response.status_code == 400
    assert message in re.sub(r"&quot;", '"', response.content.decode())


def test_play_page_of_a_hand_too_far_is_404(client, game):
    assert client.get(play_url(game, 2), CONTRACT).status_code == 404


def test_play_save_refuses_an_incomplete_play(client, game):
    response = client.post(
        f"/games/{game.public_id}/hands", {**CONTRACT, "number": 1, "plays": "AH,KH"}
    )

    assert response.context["form"].non_field_errors() == [
        "plays: six tricks of four cards expected"
    ]


def test_play_page_with_htmx_announces_the_trick_winner_outside_the_swapped_area(client, game):
    response = client.get(
        play_url(game), {**CONTRACT, "cards": "AH,KH,QH,JD"}, HTTP_HX_REQUEST="true"
    )

    assert (
        '<p id="play-announce" class="visually-hidden" aria-live="polite" hx-swap-oob="true">'
        "Trick 1: Dalila wins. The jack of diamonds"
    ) in response.content.decode()


# --- Without a contract, the page asks for it -------------------------------------------


def choices(page, name):
    """The radio buttons named ``name``: (value, label, checked), in order."""
    pattern = (
        rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*?( checked)?>'
        r"<span>([^<]*)</span>"
    )
    return [(value, label, bool(checked)) for value, checked, label in re.findall(pattern, page)]


def errors(page):
    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, re.DOTALL)
    return re.findall(r"<li>([^<]*)</li>", box.group(1)) if box else []


def test_play_page_without_a_contract_offers_to_choose_it(client, game):
    response = client.get(play_url(game))

    page = response.content.decode()
    assert response.status_code == 200
    assert choices(page, "taker") == [(str(seat), name, False) for seat, name in enumerate(NAMES)]
    assert [label for _value, label, _checked in choices(page, "bid")] == [
        "3",
        "4",
        "5",
        "6 boulmous",
    ]
    assert [(value, label) for value, label, _checked in choices(page, "trump")] == [
        ("S", "spades"),
        ("H", "hearts"),
        ("D", "diamonds"),
        ("C", "clubs"),
        ("NT", "no trump"),
    ]
    assert (errors(page), "This field is required." in page) == ([], False)


def test_play_page_contract_form_comes_back_to_the_play_page(client, game):
    page = client.get(play_url(game)).content.decode()

    form = re.search(r'<form class="contract-choice" ([^>]*)>', page).group(1)
    assert form == (
        f'method="get" action="{play_url(game)}" hx-get="{play_url(game)}" '
        'hx-target="#play" hx-replace-url="true"'
    )


def test_play_page_incomplete_contract_keeps_the_choices_and_asks_for_the_rest(client, game):
    response = client.get(play_url(game), {"taker": 2, "bid": 6})

    page = response.content.decode()
    assert response.status_code == 422
    assert [value for value, _label, checked in choices(page, "taker") if checked] == ["2"]
    assert [value for value, _label, checked in choices(page, "bid") if checked] == ["6"]
    assert [value for value, _label, checked in choices(page, "trump") if checked] == []
    assert errors(page) == ["Choose the trump, or no trump."]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({**CONTRACT, "taker": 9}, "This taker is not one of the four players."),
        ({**CONTRACT, "bid": 7}, "This bid is not 3, 4, 5 or 6."),
        ({**CONTRACT, "bid": "x"}, "This bid is not 3, 4, 5 or 6."),
        ({**CONTRACT, "trump": "Z"}, "This trump is not one of the five."),
    ],
)
def test_play_page_invalid_contract_value_is_said_once(client, game, query, message):
    response = client.get(play_url(game), query)

    page = response.content.decode()
    assert response.status_code == 422
    assert (errors(page), page.count(message)) == ([message], 1)


def test_play_page_contract_form_keeps_the_cards_played(client, game):
    page = client.get(play_url(game), {"taker": 0, "bid": 3, "cards": "AH,KH"}).content.decode()

    assert '<input type="hidden" name="cards" value="AH,KH" id="id_cards">' in page


def test_play_page_contract_chosen_starts_the_play(client, game):
    response = client.get(play_url(game), {"taker": "1", "bid": "4", "trump": "NT"})

    play = response.context["play"]
    assert (response.status_code, play.contract, play.to_play) == (200, "Bilal 4NT", "Bilal")


def test_play_page_contract_form_with_htmx_is_swapped_in_place(client, game):
    response = client.get(play_url(game), {"taker": 0}, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert (response.status_code, "<html" in page, 'class="contract-choice"' in page) == (
        422,
        False,
        True,
    )


def test_play_from_an_empty_hand_form_goes_to_the_bare_play_page(client, game):
    response = client.get(play_url(game), {"number": 1, "token": ""})

    assert response.headers["Location"] == play_url(game)


# --- French cards ------------------------------------------------------------------------


def test_play_page_in_french_shows_french_card_letters(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": "JH"}, HTTP_ACCEPT_LANGUAGE="fr")

    keys = [key.label for row in response.context["play"].keys for key in row]
    assert keys[:12] == [
        "9♠", "10♠", "V♠", "D♠", "R♠", "A♠", "9♥", "10♥", "V♥", "D♥", "R♥", "A♥",
    ]  # fmt: skip
    assert '<span class="key played" aria-disabled="true">V♥</span>' in response.content.decode()


def test_play_page_in_french_names_the_cards_held_in_a_revoke_in_french(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": REVOKED}, HTTP_ACCEPT_LANGUAGE="fr")

    assert response.context["play"].revokes == [
        "Bilal n’a pas fourni à cœur à la levée 1\u00a0: Bilal a joué le neuf de trèfle "
        "en ayant en main R♥."
    ]


def test_play_page_keys_name_the_card_for_screen_readers(client, game):
    page = client.get(play_url(game), CONTRACT).content.decode()

    assert 'aria-label="Amina plays the jack of diamonds">J♦</a>' in page


# --- What static/js/play.js is given, to follow the play offline --------------------------


def script_data(page):
    found = re.search(r'<script id="play-data" type="application/json">(.*?)</script>', page)
    return json.loads(found.group(1))


def test_play_page_gives_the_script_the_play_and_the_page_words(client, game):
    response = client.get(play_url(game), {**CONTRACT, "cards": "AH,KH"})

    data = script_data(response.content.decode())
    assert (data["taker"], data["bid"], data["trump"], data["cards"]) == (0, 3, "H", ["AH", "KH"])
    assert (data["names"], data["contract"]) == (list(NAMES), "Amina 3♥")
    assert data["deck"][14] == ["JD", "J♦", "the jack of diamonds"]
    assert data["words"]["wins"] == "Trick %(number)s: %(name)s wins."
    # The outcome for each number of tricks the taker may take, as the complete page says it.
    assert data["outcomes"][2:4] == [
        "Amina misses the contract (a boîte): -1 points.",
        "Amina makes the contract: 3 points.",
    ]


def test_play_page_gives_the_script_its_words_in_french(client, game):
    response = client.get(play_url(game), CONTRACT, HTTP_ACCEPT_LANGUAGE="fr")

    data = script_data(response.content.decode())
    assert data["deck"][14][1:] == ["V♦", "le valet de carreau"]
    assert data["suits"]["H"] == "cœur"
    assert data["words"]["take_back"] != "Take back the last card"


def test_play_page_save_form_is_queued_offline_and_kept_for_the_script(client, game):
    page = client.get(play_url(game), {**CONTRACT, "cards": LEGAL}).content.decode()

    forms = re.findall(r'<form method="post" data-offline-queue action="([^"]*)">', page)
    # The form shown, and its copy in <template id="play-save-form"> for the script.
    assert forms == [f"/games/{game.public_id}/hands"] * 2
    assert page.count(f'<input type="hidden" name="plays" value="{LEGAL}">') == 2
