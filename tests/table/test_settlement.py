"""Settle up: the money during the game, the settlement page, abandoned games."""

import json
from decimal import Decimal

import pytest
from django.utils import translation

from scoring.common.words import format_money
from scoring.engine import Contract, Hand, Rules, Trump, loads, settle
from scoring.table import services
from scoring.table.models import Change, Game
from tests.factories import NAMES, new_game_data
from tests.golden import VALID

# An independent reading of how a payment is said, in each language.
PAYS = {"en": "{payer} pays {payee} {amount}", "fr": "{payer} paie {amount} à {payee}"}
OWES = {
    "en": "{payer} owes {payee} {count} stake{s}",
    "fr": "{payer} doit {count} mise{s} à {payee}",
}


def record(game, hands):
    for number, (taker, bid, trump, tricks) in enumerate(hands, start=1):
        contract = None if taker is None else Contract(taker, bid, trump)
        hand = Hand() if contract is None else Hand(contract, tricks=tricks)
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)


# Chafik makes a boulmous at hand 2, Dalila a boîte at hand 3, Bilal a boulmous at
# hand 5; Bilal wins at hand 6 with 23 points (Chafik 10, Amina 1, Dalila -2).
# In stakes, by hand: Bilal wins +3 (others -1); boulmous: Chafik +3 and Bilal +3
# (others -1 each time); Dalila's boîte costs her 1 more, to Bilal.
# Bilal 3 - 1 + 3 + 1 = 6; Chafik -1 + 3 - 1 = 1; Amina -3; Dalila -4: no two or
# three of them cancel out, so three transfers: the largest debtor pays first.
WON = [
    (1, 5, Trump.SPADES, (0, 5, 1, 0)),
    (2, 6, Trump.HEARTS, (0, 0, 6, 0)),
    (3, 4, Trump.NO_TRUMP, (1, 2, 1, 2)),
    (1, 5, Trump.DIAMONDS, (0, 5, 1, 0)),
    (1, 6, Trump.CLUBS, (0, 6, 0, 0)),
    (1, 5, Trump.SPADES, (0, 5, 1, 0)),
]


@pytest.fixture
def won(db):
    game = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.50")), first_dealer=0
    ).game
    record(game, WON)
    return game


@pytest.mark.parametrize(
    ("language", "payments", "balances"),
    [
        (
            "en",
            ["Dalila pays Bilal €2.00", "Amina pays Bilal €1.00", "Amina pays Chafik €0.50"],
            ["€3.00", "€0.50", "−€1.50", "−€2.00"],
        ),
        (
            "fr",
            [
                "Dalila paie 2,00\xa0€ à Bilal",
                "Amina paie 1,00\xa0€ à Bilal",
                "Amina paie 0,50\xa0€ à Chafik",
            ],
            ["3,00\xa0€", "0,50\xa0€", "−1,50\xa0€", "−2,00\xa0€"],
        ),
    ],
)
def test_settlement_of_a_won_game_says_who_pays_whom(client, won, language, payments, balances):
    response = client.get(f"/games/{won.public_id}/settlement", HTTP_ACCEPT_LANGUAGE=language)

    settle_up = response.context["settle"]
    assert [player.units for player in settle_up.standings] == [6, 1, -3, -4]
    assert [player.name for player in settle_up.standings] == ["Bilal", "Chafik", "Amina", "Dalila"]
    assert settle_up.payments == payments
    assert [player.balance.replace("-", "−") for player in settle_up.standings] == balances
    assert all(payment in response.content.decode() for payment in payments)


def test_settlement_without_money_counts_stakes(client, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    record(game, WON)

    response = client.get(f"/games/{game.public_id}/settlement")

    assert response.context["settle"].payments == [
        "Dalila owes Bilal 4 stakes",
        "Amina owes Bilal 2 stakes",
        "Amina owes Chafik 1 stake",
    ]


@pytest.mark.parametrize(
    ("stake", "balances"),
    [
        (Decimal("0.50"), ["3,00\xa0€", "0,50\xa0€", "-1,50\xa0€", "-2,00\xa0€"]),
        (Decimal(0), ["+6", "+1", "-3", "-4"]),
    ],
)
def test_settlement_in_arabic_isolates_each_balance_left_to_right(client, db, stake, balances):
    game = services.create_game(names=NAMES, rules=Rules(stake=stake), first_dealer=0).game
    record(game, WON)

    response = client.get(f"/games/{game.public_id}/settlement", HTTP_ACCEPT_LANGUAGE="ar")

    shown = [player.balance for player in response.context["settle"].standings]
    assert [balance.split("\u2069")[0] for balance in shown] == [
        f"\u2066{balance}" for balance in balances
    ]


def test_settlement_in_dinars_has_three_decimals(client, db):
    game = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.250"), currency="TND"), first_dealer=0
    ).game
    record(game, WON)

    response = client.get(f"/games/{game.public_id}/settlement", HTTP_ACCEPT_LANGUAGE="fr")

    assert response.context["settle"].payments[0] == "Dalila paie 1,000\xa0TND à Bilal"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_settlement_page_of_golden_game_shows_the_engine_settlement(client, db, path, language):
    client.post("/games/import", {"text": path.read_text()})
    game = Game.objects.get()
    expected = settle(loads(path.read_text()).score())
    names = loads(path.read_text()).players

    response = client.get(f"/games/{game.public_id}/settlement", HTTP_ACCEPT_LANGUAGE=language)

    with translation.override(language):
        money = [format_money(amount, expected.currency) for amount in expected.balances]
        payments = [
            PAYS[language].format(
                payer=names[transfer.payer],
                payee=names[transfer.payee],
                amount=format_money(expected.amount(transfer.units), expected.currency),
            )
            if expected.stake
            else OWES[language].format(
                payer=names[transfer.payer],
                payee=names[transfer.payee],
                count=transfer.units,
                s="s" if transfer.units > 1 else "",
            )
            for transfer in expected.transfers
        ]
    settle_up = response.context["settle"]
    by_name = {player.name: player for player in settle_up.standings}
    assert [by_name[name].units for name in names] == list(expected.units)
    if expected.stake:
        assert [by_name[name].balance for name in names] == money
    assert settle_up.payments == payments


def test_abandoned_game_settles_boulmous_only_and_closes_entry(client, won, db):
    game = services.create_game(names=NAMES, rules=Rules(stake=Decimal("1")), first_dealer=0).game
    record(game, WON[:3])

    client.post(f"/games/{game.public_id}/abandon")
    settlement = client.get(f"/games/{game.public_id}/settlement")
    page = client.get(f"/games/{game.public_id}/").content.decode()

    assert settlement.context["settle"].status == (
        "The game was abandoned at hand 3: only the boulmous payments count."
    )
    assert settlement.context["settle"].payments == [
        "Amina pays Chafik €1.00",
        "Bilal pays Chafik €1.00",
        "Dalila pays Chafik €1.00",
    ]
    assert 'id="entry"' not in page
    assert "Abandoned after 3 hands" in page


def test_resume_reopens_an_abandoned_game(client, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    record(game, WON[:1])
    client.post(f"/games/{game.public_id}/abandon")

    client.post(f"/games/{game.public_id}/resume")

    assert 'id="entry"' in client.get(f"/games/{game.public_id}/").content.decode()
    assert list(game.changes.values_list("action", flat=True)[:2]) == [
        Change.Action.RESUMED,
        Change.Action.ABANDONED,
    ]


def test_abandon_a_won_game_changes_nothing(client, won):
    client.post(f"/games/{won.public_id}/abandon")

    won.refresh_from_db()
    assert won.abandoned_at is None


def test_game_page_shows_boulmous_paid_at_once_and_money_so_far(client, db):
    game = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.50")), first_dealer=0
    ).game
    record(game, WON[:2])

    response = client.get(f"/games/{game.public_id}/")

    sheet = response.context["sheet"]
    assert [row.paid for row in sheet.rows] == ["", "Chafik collects €0.50 from each player"]
    assert sheet.money == [
        ("Amina", "-€0.50"),
        ("Bilal", "-€0.50"),
        ("Chafik", "€1.50"),
        ("Dalila", "-€0.50"),
    ]


def test_game_page_without_money_shows_no_money_panel(client, db):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    record(game, WON[:2])

    response = client.get(f"/games/{game.public_id}/")

    assert (response.context["sheet"].money, response.context["sheet"].rows[1].paid) == (
        [],
        "Chafik collects a stake from each player",
    )


def test_new_game_keeps_the_place(client, db):
    client.post("/games/new", new_game_data(place="Café des Sports"))

    game = Game.objects.get()
    assert "Café des Sports" in client.get(f"/games/{game.public_id}/settlement").content.decode()


def test_settlement_units_add_up_to_zero_in_json_export(client, won):
    exported = json.loads(client.get(f"/games/{won.public_id}/record.json").content)

    assert sum(settle(loads(json.dumps(exported)).score()).units) == 0
