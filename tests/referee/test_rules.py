"""The rules page: the rules in the project's words, the card orders as cards, a game's options."""

import re
from decimal import Decimal

import pytest

from scoring.engine import FailedTaker, Rules
from scoring.table import services
from tests.factories import NAMES

pytestmark = pytest.mark.django_db

CARD_LIST = re.compile(r'<ol class="cards" aria-label="([^"]*)">(.*?)</ol>', re.DOTALL)
CARD = re.compile(r'<li class="card (red|black)">([^<]*)</li>')
PLAIN = ["A", "K", "Q", "J", "10", "9"]


def card_lists(page):
    """Each card list on the page, in order: its label, and its cards as (label, colour)."""
    return [
        (label, [(card, colour) for colour, card in CARD.findall(body)])
        for label, body in CARD_LIST.findall(page)
    ]


def labels_by_list(page):
    return {label: [card for card, _colour in cards] for label, cards in card_lists(page)}


def rules_page(client, query="", language="en"):
    return client.get(f"/rules{query}", HTTP_ACCEPT_LANGUAGE=language)


@pytest.fixture
def options_game():
    return services.create_game(
        names=NAMES,
        rules=Rules(target=31, failed_taker=FailedTaker.MINUS_BID, stake=Decimal("0.50")),
        first_dealer=0,
    ).game


@pytest.mark.parametrize(
    ("language", "title"), [("en", "<h1>The rules</h1>"), ("fr", "<h1>Les règles</h1>")]
)
def test_rules_page_answers_in_each_language(client, language, title):
    response = rules_page(client, language=language)

    assert (response.status_code, title in response.content.decode()) == (200, True)


@pytest.mark.parametrize(
    "heading",
    [
        "The cards",
        "The auction",
        "Trump and the card order",
        "Following suit",
        "Scoring and boîtes",
        "The end of the game",
        "Money",
    ],
)
def test_rules_page_english_has_section(client, heading):
    page = rules_page(client).content.decode()

    assert f"<h2>{heading}</h2>" in page


@pytest.mark.parametrize(
    "heading",
    [
        "Les cartes",
        "Les enchères",
        "L’atout et l’ordre des cartes",
        "Fournir",
        "La marque et les boîtes",
        "La fin de la partie",
        "L’argent",
    ],
)
def test_rules_page_french_has_section(client, heading):
    page = rules_page(client, language="fr").content.decode()

    assert f"<h2>{heading}</h2>" in page


def test_rules_page_shows_twenty_card_lists_of_all_cards_each_order(client):
    lists = card_lists(rules_page(client).content.decode())

    # ♠ ♥ ♦ ♣ trump (the seven trumps, then the other suits, one of them without its jack),
    # then no trump (four suits of six).
    assert [len(cards) for _label, cards in lists] == [
        *(7, 6, 6, 5),
        *(7, 6, 5, 6),
        *(7, 6, 5, 6),
        *(7, 5, 6, 6),
        *(6, 6, 6, 6),
    ]


def test_rules_page_hearts_trump_runs_from_the_jack_of_hearts(client):
    lists = labels_by_list(rules_page(client).content.decode())

    assert lists["Trumps when hearts are trump, strongest first"] == [
        "J♥",
        "J♦",
        "A♥",
        "K♥",
        "Q♥",
        "10♥",
        "9♥",
    ]


def test_rules_page_hearts_trump_diamonds_lose_their_jack(client):
    lists = labels_by_list(rules_page(client).content.decode())

    assert lists["The diamonds when hearts are trump, strongest first"] == [
        "A♦",
        "K♦",
        "Q♦",
        "10♦",
        "9♦",
    ]


def test_rules_page_hearts_trump_other_suits_keep_their_jack(client):
    lists = labels_by_list(rules_page(client).content.decode())

    assert (
        lists["The spades when hearts are trump, strongest first"],
        lists["The clubs when hearts are trump, strongest first"],
    ) == ([rank + "♠" for rank in PLAIN], [rank + "♣" for rank in PLAIN])


@pytest.mark.parametrize(
    ("name", "trumps"),
    [
        ("spades", ["J♠", "J♣", "A♠", "K♠", "Q♠", "10♠", "9♠"]),
        ("diamonds", ["J♦", "J♥", "A♦", "K♦", "Q♦", "10♦", "9♦"]),
        ("clubs", ["J♣", "J♠", "A♣", "K♣", "Q♣", "10♣", "9♣"]),
    ],
)
def test_rules_page_each_trump_suit_shows_its_trumps_in_order(client, name, trumps):
    lists = labels_by_list(rules_page(client).content.decode())

    assert lists[f"Trumps when {name} are trump, strongest first"] == trumps


@pytest.mark.parametrize(
    ("name", "symbol"), [("spades", "♠"), ("hearts", "♥"), ("diamonds", "♦"), ("clubs", "♣")]
)
def test_rules_page_no_trump_each_suit_runs_ace_to_nine(client, name, symbol):
    lists = labels_by_list(rules_page(client).content.decode())

    assert lists[f"The {name} at no trump, strongest first"] == [rank + symbol for rank in PLAIN]


def test_rules_page_colours_cards_by_suit(client):
    lists = card_lists(rules_page(client).content.decode())

    wrong = [
        (card, colour)
        for _label, cards in lists
        for card, colour in cards
        if colour != ("red" if card[-1] in "♥♦" else "black")
    ]
    assert wrong == []


def test_rules_page_french_labels_the_card_lists(client):
    lists = labels_by_list(rules_page(client, language="fr").content.decode())

    assert lists["Les atouts quand cœur est atout, du plus fort au plus faible"] == [
        "V♥",
        "V♦",
        "A♥",
        "R♥",
        "D♥",
        "10♥",
        "9♥",
    ]


def test_rules_page_french_cards_read_v_d_r_in_every_order(client):
    lists = card_lists(rules_page(client, language="fr").content.decode())

    letters = {card[:-1] for _label, cards in lists for card, _colour in cards}
    assert letters == {"A", "R", "D", "V", "10", "9"}


@pytest.mark.parametrize(
    ("language", "option", "word"),
    [
        (
            "en",
            "<strong>Tricks minus bid</strong>: the taker marks the tricks he won, minus his bid.",
            "usual",
        ),
        (
            "fr",
            "<strong>Levées moins l’enchère</strong>\u00a0: le preneur marque les levées qu’il a "
            "faites, moins son enchère.",
            "habituel",
        ),
    ],
)
def test_rules_page_presents_the_failed_taker_options_alike(client, language, option, word):
    page = rules_page(client, language=language).content.decode()

    assert (option in page, word in page) == (True, False)


def test_rules_page_with_game_shows_its_target(client, options_game):
    page = rules_page(client, f"?game={options_game.public_id}").content.decode()

    assert "The first player alone at the top with 31 points or more wins." in page


def test_rules_page_with_game_shows_minus_bid_rule(client, options_game):
    page = rules_page(client, f"?game={options_game.public_id}").content.decode()

    assert (
        "His tricks do not count, he scores minus his bid: a missed 4 scores −4." in page,
        "His tricks count, minus his bid" in page,
    ) == (True, False)


def test_rules_page_with_game_shows_tricks_minus_bid_rule_by_default(client, game):
    page = rules_page(client, f"?game={game.public_id}").content.decode()

    assert (
        "His tricks count, minus his bid: 2 tricks on a bid of 4 score −2." in page,
        "His tricks do not count" in page,
    ) == (True, False)


def test_rules_page_with_game_shows_stake(client, options_game):
    page = rules_page(client, f"?game={options_game.public_id}").content.decode()

    assert "<dd>€0.50</dd>" in page


def test_rules_page_with_game_shows_three_decimal_stake(client):
    tunis = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.250"), currency="TND"), first_dealer=0
    ).game

    page = rules_page(client, f"?game={tunis.public_id}").content.decode()

    assert "<dd>TND0.250</dd>" in page


def test_rules_page_with_game_without_money_says_so(client, game):
    page = rules_page(client, f"?game={game.public_id}").content.decode()

    assert "<dd>no money</dd>" in page


def test_rules_page_with_game_links_back_to_it(client, options_game):
    page = rules_page(client, f"?game={options_game.public_id}").content.decode()

    assert f'<a href="/games/{options_game.public_id}/">Back to the game</a>' in page


def test_rules_page_french_with_game_shows_its_options(client, options_game):
    page = rules_page(client, f"?game={options_game.public_id}", language="fr").content.decode()

    assert (
        "Les règles de cette partie" in page,
        "Ses levées ne comptent pas" in page,
        "<dd>0,50\xa0€</dd>" in page,
    ) == (True, True, True)


@pytest.mark.parametrize(
    "query",
    [
        "?game=999999",
        "?game=abc",
        "?game=",
        "?game=-1",
        "?game=1.5",
        "?game=²",
        "?game=" + "9" * 30,
    ],
)
def test_rules_page_unknown_game_is_ignored(client, query):
    response = rules_page(client, query)

    assert (response.status_code, "This game's rules" in response.content.decode()) == (
        200,
        False,
    )


def test_rules_page_without_game_has_no_game_box(client, game):
    page = rules_page(client).content.decode()

    assert ("This game's rules" in page, 'class="this-game"' in page) == (False, False)


def test_game_page_links_to_its_rules(client, game):
    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert f'<a href="/rules?game={game.public_id}">The rules of this game</a>' in page


def test_header_links_to_rules(client):
    page = client.get("/").content.decode()

    assert '<a class="rules-link" href="/rules">Rules</a>' in page


def test_rules_page_refuses_post(client):
    response = client.post("/rules")

    assert response.status_code == 405
