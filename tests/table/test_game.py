"""The table: start a game, record hands, never lose or double one, see the game."""

import json
import re
import threading
from dataclasses import replace
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.common.rights import COOKIE
from scoring.engine import About, Rules, loads
from scoring.table import services
from scoring.table.models import Change, Game, Hand, Player
from scoring.table.state import load_game
from tests.conftest import scorer_cookie
from tests.factories import BILAL_FIVE, NAMES, game_url, hand_data, new_game_data, play
from tests.golden import DATA, VALID
from tests.svg import geometry, unreadable


def totals(game):
    return load_game(game).result.totals


# --- Start a game ---------------------------------------------------------------------


@pytest.mark.smoke
@pytest.mark.django_db
def test_new_game_valid_form_creates_seats_in_order(client):
    response = client.post("/games/new", new_game_data(player_2="  Chafik  "))

    game = Game.objects.get()
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game.public_id}/"
    assert load_game(game).names == NAMES
    assert (game.first_dealer, game.target, game.stake) == (0, 21, 0)


@pytest.mark.django_db
def test_new_game_repeated_name_is_refused_beside_the_field_and_keeps_input(client):
    response = client.post("/games/new", new_game_data(player_3=" amina"))

    assert response.status_code == 422
    assert response.context["form"].errors == {"player_3": ["players: names must differ"]}
    assert 'value=" amina"' in response.content.decode()
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_new_game_stake_with_too_many_decimals_is_refused(client):
    response = client.post("/games/new", new_game_data(stake="0.505", currency="EUR"))

    assert response.context["form"].errors == {
        "stake": ['stake "0.505" has more decimals than EUR uses (2)']
    }


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "typed"), [("fr", "0,50"), ("fr", "0.50"), ("ar", "0,50")])
def test_new_game_stake_typed_as_the_language_writes_it_is_kept(client, lang, typed):
    client.post("/games/new", new_game_data(stake=typed), HTTP_ACCEPT_LANGUAGE=lang)

    assert Game.objects.get().stake == Decimal("0.5")


@pytest.mark.django_db
def test_new_game_stake_with_a_comma_in_english_is_refused(client):
    response = client.post("/games/new", new_game_data(stake="0,50"), HTTP_ACCEPT_LANGUAGE="en")

    assert (response.status_code, Game.objects.count()) == (422, 0)


@pytest.mark.django_db
def test_new_game_three_decimal_stake_in_dinars_is_kept(client):
    client.post("/games/new", new_game_data(stake="0.505", currency="TND"))

    assert (
        load_game(Game.objects.get()).record.rules.stake
        == Rules(stake=__import__("decimal").Decimal("0.505"), currency="TND").stake
    )


@pytest.mark.django_db
def test_new_game_random_first_dealer_is_a_seat(client):
    client.post("/games/new", new_game_data(first_dealer="random"))

    assert Game.objects.get().first_dealer in (0, 1, 2, 3)


@pytest.mark.django_db
def test_new_game_page_suggests_names_already_used(client, game):
    response = client.get("/games/new")

    assert list(response.context["known_names"]) == sorted(NAMES)
    assert '<option value="Chafik">' in response.content.decode()


@pytest.mark.django_db
def test_new_game_reuses_a_known_player_whatever_the_case(client, game):
    client.post("/games/new", new_game_data(player_0="AMINA"))

    assert Player.objects.count() == 4


# --- Record a hand --------------------------------------------------------------------


def test_game_page_shows_hand_dealer_speaker_and_totals(client, game):
    response = client.get(game_url(game))

    status = re.sub(
        r"\s+", " ", re.search(r'<h1 class="status".*?</h1>', response.content.decode(), re.S)[0]
    )
    assert "Hand 1</strong> <span>Amina deals · Bilal speaks first</span>" in status


@pytest.mark.smoke
def test_add_hand_plain_post_records_it_and_redirects(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1))

    assert (response.status_code, response.headers["Location"]) == (302, game_url(game))
    assert Hand.objects.get().tricks == [1, 4, 0, 1]
    assert totals(game) == (1, 4, 0, 1)


def test_add_hand_htmx_swaps_the_game_in_place(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1), HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page
    assert "Hand 2</strong>" in page


def test_add_hand_without_trump_is_refused_and_keeps_input(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1, trump=""))

    form = response.context["form"]
    assert (response.status_code, form.errors["trump"]) == (422, ["Choose the trump, or no trump."])
    assert 'value="1" id="id_taker_1" checked' in response.content.decode()
    assert Hand.objects.count() == 0


def test_add_hand_invalid_with_htmx_retargets_the_form(client, game):
    response = client.post(
        game_url(game, "hands"), hand_data(1, tricks=(5, 4, 0)), HTTP_HX_REQUEST="true"
    )

    assert (response.status_code, response.headers["HX-Retarget"]) == (422, "#entry")
    assert "tricks add up to 9, not 6" in response.content.decode()


def test_add_hand_all_four_tricks_must_add_up(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1, tricks=(1, 1, 1), tricks_3=1))

    assert response.context["form"].errors["tricks"] == ["tricks add up to 4, not 6"]


def test_add_hand_two_blank_tricks_are_refused(client, game):
    response = client.post(game_url(game, "hands"), hand_data(1, tricks=(1, 4)))

    assert response.context["form"].errors["tricks"] == [
        "Give the tricks of at least three players."
    ]


def test_add_hand_void_deal_takes_one_tap_and_passes_the_deal(client, game):
    client.post(game_url(game, "hands"), {"number": 1, "void": "1"})

    state = load_game(game)
    assert (len(state.hands), state.hands[0].taker, state.result.next_dealer) == (1, None, 1)


def test_add_hand_with_auction_takes_taker_and_bid_from_calls(client, game):
    data = hand_data(1, taker="", bid="", call_0="pass", call_1="3", call_2="pass", call_3="5")

    client.post(game_url(game, "hands"), data)

    # The calls are the facts kept; the taker and bid follow from them.
    row, hand = Hand.objects.get(), load_game(game).record.hands[0]
    assert (row.taker, row.bid, row.calls) == (None, None, ["pass", 3, "pass", 5])
    assert (hand.contract.taker, hand.contract.bid) == (0, 5)


def test_add_hand_with_auction_refuses_a_bid_not_higher_naming_the_players(client, game):
    data = hand_data(1, call_0="4", call_1="3", call_2="pass", call_3="pass")

    response = client.post(game_url(game, "hands"), data)

    assert response.context["form"].errors["calls"] == [
        "Chafik bid 3, which must be higher than Bilal’s 4."
    ]


def test_add_hand_with_auction_disagreeing_with_taker_is_refused(client, game):
    data = hand_data(1, taker=1, bid=4, call_0="pass", call_1="4", call_2="pass", call_3="pass")

    response = client.post(game_url(game, "hands"), data)

    assert response.context["form"].errors["calls"] == ["The calls give a different taker or bid."]


def test_add_hand_error_in_french(client, game):
    response = client.post(
        game_url(game, "hands"), hand_data(1, tricks=(5, 4, 0)), HTTP_ACCEPT_LANGUAGE="fr"
    )

    assert response.context["form"].errors["tricks"] == ["les levées font 9 en tout, et non 6"]


# --- Never lose or double a hand ------------------------------------------------------


def test_add_hand_same_token_twice_records_it_once_and_says_so(client, game):
    data = hand_data(1, token="6f1f0cf6-6a0c-4bde-9d2f-0a6a1d3f3b11")

    first = client.post(game_url(game, "hands"), data)
    second = client.post(game_url(game, "hands"), data)

    assert (first.status_code, second.status_code, Hand.objects.count()) == (302, 200, 1)
    assert second.context["notice"] == (
        "This form was already sent: it recorded hand 1, once. Here is the game."
    )


def test_add_hand_form_sent_again_with_other_taps_keeps_them_as_the_next_hand(client, game):
    token = "6f1f0cf6-6a0c-4bde-9d2f-0a6a1d3f3b11"
    client.post(game_url(game, "hands"), hand_data(1, token=token))

    # The page before, reached by Back: its form, for hand 1, tapped again for hand 2.
    again = client.post(
        game_url(game, "hands"), hand_data(1, token=token, taker=2, trump="S", tricks=(1, 0, 4))
    )
    form = again.context["form"]
    kept = {name: form.initial.get(name) for name in ("number", "taker", "bid", "trump")}

    assert (again.status_code, Hand.objects.count()) == (409, 1)
    assert again.context["notice"] == (
        "This form had already recorded hand 1, so what you tapped since was not recorded: "
        "it is kept below as hand 2. Check it, then save it."
    )
    assert kept == {"number": 2, "taker": 2, "bid": 4, "trump": "S"}
    assert [form.initial.get(f"tricks_{seat}") for seat in range(4)] == [1, 0, 4, 1]
    assert str(form.initial["token"]) != token


def test_add_hand_already_recorded_by_someone_else_shows_current_state(client, game):
    client.post(game_url(game, "hands"), hand_data(1))

    response = client.post(game_url(game, "hands"), hand_data(1, taker=2))

    assert response.status_code == 409
    assert "Hand 1 was just recorded by someone else" in response.content.decode()
    assert Hand.objects.get().taker == 1


def test_add_hand_two_phones_at_once_record_exactly_one(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and concurrent connections need PostgreSQL")
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    start, statuses = threading.Barrier(2), []

    def phone(taker):
        start.wait()
        try:
            phone = Client()
            phone.cookies[COOKIE] = scorer_cookie([game.public_id])
            response = phone.post(game_url(game, "hands"), hand_data(1, taker=taker))
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(taker,)) for taker in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [302, 409]
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.smoke
def test_game_won_announces_winner_and_closes_entry(client, game):
    play(client, game, [BILAL_FIVE] * 5)

    response = client.get(game_url(game))

    page = response.content.decode()
    assert "Bilal wins!" in page
    assert 'id="entry"' not in page
    assert load_game(game).result.winner == 1


def test_add_hand_after_the_end_is_refused_with_the_game_as_it_stands(client, game):
    play(client, game, [BILAL_FIVE] * 5)

    response = client.post(game_url(game, "hands"), {**BILAL_FIVE, "number": 6})

    assert (response.status_code, response.context["notice"], Hand.objects.count()) == (
        409,
        "The game was won meanwhile: here is the game now.",
        5,
    )


def test_rematch_keeps_seats_and_passes_the_deal(client, game):
    play(client, game, [BILAL_FIVE] * 5)

    response = client.post(game_url(game, "rematch"))
    again = client.post(game_url(game, "rematch"))

    rematch = Game.objects.get(rematch_of=game)
    assert response.headers["Location"] == again.headers["Location"] == game_url(rematch)
    # Hands 1 to 5 were dealt by seats 0, 1, 2, 3, 0: seat 1 deals next.
    assert (load_game(rematch).names, rematch.first_dealer) == (NAMES, 1)


@pytest.mark.smoke
def test_edit_hand_recomputes_totals(client, game):
    play(client, game, [BILAL_FIVE] * 2)

    response = client.post(
        game_url(game, "hands/1/edit"), {**BILAL_FIVE, "number": 1, "tricks_1": 2, "tricks_2": 4}
    )

    assert response.status_code == 302
    assert totals(game) == (0, 2 - 5 + 5, 1 + 4, 0)


def test_edit_hand_that_ends_the_game_earlier_explains_and_offers_discard(client, game):
    play(client, game, [BILAL_FIVE] * 4 + [{"number": 5, "void": "1"}])
    # Hand 2 becomes a boulmous for Bilal: 5 + 6 + 5 + 5 = 21 at hand 4.
    boulmous = {**BILAL_FIVE, "number": 2, "bid": 6, "tricks_0": 0, "tricks_1": 6, "tricks_2": 0}

    refused = client.post(game_url(game, "hands/2/edit"), boulmous)
    accepted = client.post(game_url(game, "hands/2/edit"), {**boulmous, "discard_after_end": "1"})

    assert refused.status_code == 422
    assert refused.context["form"].ends_at == 4
    assert "discard the hands after hand 4" in refused.content.decode()
    assert accepted.status_code == 302
    state = load_game(game)
    assert (len(state.hands), state.result.winner) == (4, 1)
    assert list(
        game.changes.filter(action=Change.Action.DISCARDED).values_list("hand_number", flat=True)
    ) == [5]


def test_edit_hand_of_unknown_number_is_404(client, game):
    response = client.get(game_url(game, "hands/1/edit"))

    assert response.status_code == 404


@pytest.mark.smoke
def test_undo_hand_removes_the_last_hand_once(client, game):
    play(client, game, [BILAL_FIVE] * 2)

    client.post(game_url(game, "hands/2/undo"))
    client.post(game_url(game, "hands/2/undo"))

    assert list(Hand.objects.values_list("number", flat=True)) == [1]


def test_history_lists_every_change(client, game):
    play(client, game, [BILAL_FIVE] * 2)
    client.post(game_url(game, "hands/2/undo"))

    response = client.get(game_url(game))

    texts = [event.text for event in response.context["sheet"].history]
    assert texts == [
        "hand undone, hand 2: Bilal 5♠, tricks 0-5-1-0",
        "hand recorded, hand 2: Bilal 5♠, tricks 0-5-1-0",
        "hand recorded, hand 1: Bilal 5♠, tricks 0-5-1-0",
        "game started",
    ]


@pytest.mark.parametrize(
    ("lang", "arrow"), [("en", "tricks 0-5-1-0 → Bilal"), ("ar", "0-5-1-0\u2069 ← \u2068")]
)
def test_history_of_a_correction_points_from_before_to_after_as_the_language_reads(
    client, game, lang, arrow
):
    play(client, game, [BILAL_FIVE])
    client.post(game_url(game, "hands/1/edit"), {**BILAL_FIVE, "number": 1, "tricks_1": 4})

    response = client.get(game_url(game), HTTP_ACCEPT_LANGUAGE=lang)

    assert arrow in response.context["sheet"].history[0].text


# --- Export and import ----------------------------------------------------------------


@pytest.mark.smoke
def test_export_record_is_the_engine_record(client, game):
    play(client, game, [BILAL_FIVE, {"void": "1"}])

    response = client.get(game_url(game, "record.json"))

    assert (
        response.headers["Content-Disposition"]
        == f'attachment; filename="boulmous-{game.public_id}.json"'
    )
    assert json.loads(response.content)["hands"] == [
        {"taker": 1, "bid": 5, "trump": "S", "tricks": [0, 5, 1, 0]},
        {"calls": ["pass", "pass", "pass", "pass"]},
    ]


@pytest.mark.smoke
@pytest.mark.parametrize(
    "path",
    VALID,
    ids=lambda path: path.stem,
)
def test_import_pasted_record_stores_its_game_as_read(client, db, path):
    # What the game scores is the engine's, checked on every golden record at the engine
    # and through boulmous-score (tests/engine/test_golden.py, test_cli.py): here, that the
    # import stores the game it read, whose export reads back the same (its descriptive
    # keys are the site's to fill in: tests/table/test_backups.py).
    response = client.post("/games/import", {"text": path.read_text()})

    game = Game.objects.get()
    exported = loads(client.get(game_url(game, "record.json")).content)
    assert response.status_code == 302
    assert replace(exported, about=About()) == replace(loads(path.read_bytes()), about=About())


def test_import_invalid_record_lists_problems_and_stores_nothing(client, db):
    response = client.post("/games/import", {"text": '{"format": "boulmous/2", "players": []}'})

    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == [
        'format: "boulmous/2" is not "boulmous/1"',
        "players: four names expected, in seat order",
        "hands: a list of hands is expected",
    ]
    assert Game.objects.count() == 0


def test_import_uploaded_file(client, db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    record = next((DATA / "valid").glob("*.json")).read_bytes()

    response = client.post("/games/import", {"file": SimpleUploadedFile("game.json", record)})

    assert (response.status_code, Game.objects.count()) == (302, 1)


# --- See the game ---------------------------------------------------------------------


@pytest.mark.smoke
def test_home_lists_games_in_progress_and_finished(client, game):
    finished = services.create_game(names=NAMES, rules=Rules(target=5), first_dealer=0).game
    play(client, finished, [BILAL_FIVE])

    response = client.get("/")

    assert [summary.public_id for summary in response.context["playing"]] == [game.public_id]
    assert [(summary.public_id, summary.winner) for summary in response.context["finished"]] == [
        (finished.public_id, "Bilal")
    ]


def test_game_page_queries_do_not_grow_with_hands(client, game):
    long_game = services.create_game(names=NAMES, rules=Rules(target=1000), first_dealer=0).game
    play(client, game, [BILAL_FIVE])
    play(client, long_game, [BILAL_FIVE] * 60)

    with CaptureQueriesContext(connection) as one:
        client.get(game_url(game))
    with CaptureQueriesContext(connection) as sixty:
        client.get(game_url(long_game))

    assert len(one) == len(sixty)


def test_home_queries_do_not_grow_with_games(client, game):
    with CaptureQueriesContext(connection) as one:
        client.get("/")
    for _ in range(5):
        play(
            client,
            services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game,
            [BILAL_FIVE],
        )
    with CaptureQueriesContext(connection) as six:
        client.get("/")

    assert len(one) == len(six)


def test_game_page_chart_has_a_line_per_player(client, game):
    play(client, game, [BILAL_FIVE] * 2)

    response = client.get(game_url(game))

    lines = re.findall(r'<polyline points="([^"]+)"', response.content.decode())
    assert [len(line.split()) for line in lines] == [3, 3, 3, 3]


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_game_page_chart_coordinates_are_numbers_svg_reads_in_every_language(client, game, lang):
    play(client, game, [BILAL_FIVE] * 2)

    html = client.get(game_url(game), HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    drawn = dict(geometry(html))
    assert (f'<html lang="{lang}"' in html, "y1" in drawn, unreadable(html)) == (True, True, [])


def test_game_page_unknown_game_is_404(client, db):
    assert client.get("/games/999/").status_code == 404
