"""Games played with the house-rule options (scoring/engine/rules.py): set on the new-game
page, followed by the hand form, and said by the rules page and the settlement."""

import io
import json
import re

import pytest
from pypdf import PdfReader

from scoring.table.models import Game
from scoring.table.state import load_game
from tests.factories import hand_data, new_game_data

pytestmark = pytest.mark.django_db


def started(client, **options):
    client.post("/games/new", new_game_data(**options))
    return Game.objects.latest("id")


def test_new_game_with_the_dealer_must_bid_keeps_it(client):
    game = started(client, dealer_must_bid="on")

    assert (game.dealer_must_bid, game.rules.dealer_must_bid) == (True, True)


def test_game_page_offers_all_passed_only_where_the_dealer_may_pass(client):
    usual = started(client)
    game = started(client, dealer_must_bid="on")

    must_bid = client.get(f"/games/{game.public_id}/").content.decode()
    may_pass = client.get(f"/games/{usual.public_id}/").content.decode()

    assert ('name="void"' in must_bid, 'name="void"' in may_pass) == (False, True)


def test_void_deal_is_refused_with_a_message_where_the_dealer_must_bid(client):
    game = started(client, dealer_must_bid="on")

    response = client.post(f"/games/{game.public_id}/hands", {"number": 1, "void": "1"})

    assert (
        response.context["form"].non_field_errors(),
        len(load_game(game).hands),
    ) == (["hand 1: calls: the dealer must bid when the three others pass"], 0)


def test_dealers_pass_in_the_auction_is_refused_where_he_must_bid(client):
    game = started(client, dealer_must_bid="on")
    passes = {f"call_{position}": "pass" for position in range(4)}
    dealer_bids = passes | {"call_3": "3"}  # Amina deals, and speaks last

    refused = client.post(
        f"/games/{game.public_id}/hands", hand_data(1, taker="", bid="", trump="S", **passes)
    )
    client.post(
        f"/games/{game.public_id}/hands",
        hand_data(1, taker="", bid="", trump="S", tricks=(3, 1, 1), **dealer_bids),
    )

    state = load_game(game)
    assert (refused.context["form"].non_field_errors(), state.result.totals) == (
        ["hand 1: calls: the dealer must bid when the three others pass"],
        (3, 1, 1, 1),
    )


def test_rules_page_and_settlement_say_the_dealer_must_bid(client):
    game = started(client, dealer_must_bid="on")

    rules = client.get(f"/rules?game={game.public_id}").content.decode()
    settlement = client.get(f"/games/{game.public_id}/settlement").content.decode()

    assert (
        "When the three others pass, the dealer may not pass: he must bid, so no deal is void."
        in rules,
        "21 points to win · a failed taker scores his tricks minus his bid · no money: counted "
        "in stakes · the dealer must bid" in settlement,
    ) == (True, True)


def test_boulmous_made_scores_12_in_a_game_played_with_it(client):
    game = started(client, boulmous_doubled="on")

    client.post(f"/games/{game.public_id}/hands", hand_data(1, taker=1, bid=6, tricks=(0, 6, 0)))

    assert (game.boulmous_doubled, load_game(game).result.totals) == (True, (0, 12, 0, 0))


def test_card_by_card_page_says_a_boulmous_made_scores_12(client):
    game = started(client, boulmous_doubled="on")

    page = client.get(
        f"/games/{game.public_id}/hands/1/play", {"taker": 0, "bid": 6, "trump": "H"}
    ).content.decode()
    data = json.loads(re.search(r'<script id="play-data" [^>]*>(.*?)</script>', page).group(1))

    # What the page, and static/js/play.js offline, says for each number of tricks taken.
    assert data["outcomes"][5:] == [
        "Amina misses the contract (a boîte): -1 points.",
        "Amina makes the contract: 12 points.",
    ]


def test_rules_page_and_settlement_say_a_boulmous_made_scores_12(client):
    game = started(client, boulmous_doubled="on")

    rules = client.get(f"/rules?game={game.public_id}").content.decode()
    settlement = client.get(f"/games/{game.public_id}/settlement").content.decode()

    assert (
        "A boulmous made scores 12 for its taker, twice its six tricks." in rules,
        "no money: counted in stakes · a boulmous made scores 12" in settlement,
    ) == (True, True)


def test_edit_hand_page_offers_all_passed_only_where_the_dealer_may_pass(client):
    game = started(client, dealer_must_bid="on")
    client.post(f"/games/{game.public_id}/hands", hand_data(1))

    page = client.get(f"/games/{game.public_id}/hands/1/edit").content.decode()

    assert 'name="void"' not in page


def test_settlement_pdf_says_the_games_options(client):
    game = started(client, dealer_must_bid="on", boulmous_doubled="on")

    response = client.get(f"/games/{game.public_id}/settlement.pdf")
    text = " ".join(
        " ".join(
            page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
        ).split()
    )

    assert "the dealer must bid · a boulmous made scores 12" in text


def test_new_game_page_describes_each_option_with_help_by_it(client):
    page = client.get("/games/new").content.decode()

    described = re.findall(r'aria-describedby="(id_\w+_helptext)"', page)
    assert (described, [name for name in described if f'id="{name}"' not in page]) == (
        [
            "id_dealer_must_bid_helptext",
            "id_boulmous_doubled_helptext",
            "id_confirmation_minutes_helptext",
        ],
        [],
    )
