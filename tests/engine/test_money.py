"""Currencies, stakes and amounts."""

from decimal import Decimal

import pytest

from scoring.engine import (
    CURRENCIES,
    RulesError,
    amount,
    decimals,
    from_minor,
    parse_stake,
    to_minor,
)
from scoring.engine.money import MAX_STAKE, check_currency, format_amount, prize_amounts


@pytest.mark.parametrize(
    ("currency", "places"),
    [
        ("EUR", 2),
        ("USD", 2),
        ("MAD", 2),
        ("DZD", 2),
        ("TND", 3),
        ("KWD", 3),
        ("JPY", 0),
        ("CLF", 4),
    ],
)
def test_decimals_are_the_currencys_usual_minor_unit(currency, places):
    assert decimals(currency) == places


def test_currencies_are_iso_4217_codes():
    assert (
        {"EUR", "TND", "JPY", "CLF"} <= CURRENCIES,
        "XXX" in CURRENCIES,
        "eur" in CURRENCIES,
    ) == (
        True,
        False,
        False,
    )


@pytest.mark.parametrize(
    ("code", "shown"),
    [("eur", '"eur"'), ("XXX", '"XXX"'), ("", '""'), (978, "978"), (None, "null")],
)
def test_check_currency_refuses_anything_but_an_iso_code(code, shown):
    with pytest.raises(RulesError) as error:
        check_currency(code)
    assert str(error.value) == f'currency {shown} is not an ISO 4217 code such as "EUR"'


def test_decimals_refuses_an_unknown_currency():
    with pytest.raises(RulesError) as error:
        decimals("ABC")
    assert str(error.value) == 'currency "ABC" is not an ISO 4217 code such as "EUR"'


@pytest.mark.parametrize(
    ("text", "currency", "stake"),
    [
        ("0", "EUR", Decimal(0)),
        ("0.50", "EUR", Decimal("0.5")),
        ("0.500", "EUR", Decimal("0.5")),  # trailing zeros are no more decimals
        (" 2 ", "EUR", Decimal(2)),
        ("0.250", "TND", Decimal("0.25")),
        ("0.125", "TND", Decimal("0.125")),
        ("100", "JPY", Decimal(100)),
        ("1E+2", "JPY", Decimal(100)),
        ("0.0001", "CLF", Decimal("0.0001")),
        ("999999999999.99", "EUR", Decimal("999999999999.99")),
    ],
)
def test_parse_stake_accepts_a_decimal_string_with_the_currencys_decimals(text, currency, stake):
    assert parse_stake(text, currency) == stake


@pytest.mark.parametrize(
    ("text", "currency", "message"),
    [
        ("0.505", "EUR", 'stake "0.505" has more decimals than EUR uses (2)'),
        ("0.1255", "TND", 'stake "0.1255" has more decimals than TND uses (3)'),
        ("100.5", "JPY", 'stake "100.5" has more decimals than JPY uses (0)'),
        ("-1", "EUR", 'stake "-1" must be zero or more'),
        ("-0.01", "EUR", 'stake "-0.01" must be zero or more'),
        ("NaN", "EUR", 'stake "NaN" must be zero or more'),
        ("Infinity", "EUR", 'stake "Infinity" must be zero or more'),
        ("1e30", "EUR", 'stake "1e30" must be less than 1000000000000'),
        ("1000000000000", "JPY", 'stake "1000000000000" must be less than 1000000000000'),
        (0.5, "EUR", 'stake 0.5 is not a decimal string such as "0.50"'),
        (1, "EUR", 'stake 1 is not a decimal string such as "0.50"'),
        (None, "EUR", 'stake null is not a decimal string such as "0.50"'),
        ("", "EUR", 'stake "" is not a decimal string such as "0.50"'),
        ("  ", "EUR", 'stake "  " is not a decimal string such as "0.50"'),
        ("0,50", "EUR", 'stake "0,50" is not a decimal string such as "0.50"'),
        ("€1", "EUR", 'stake "€1" is not a decimal string such as "0.50"'),
    ],
)
def test_parse_stake_refuses_bad_stakes_naming_them(text, currency, message):
    with pytest.raises(RulesError) as error:
        parse_stake(text, currency)
    assert str(error.value) == message


def test_max_stake_is_a_trillion():
    assert MAX_STAKE == 10**12


@pytest.mark.parametrize(
    ("units", "stake", "currency", "expected"),
    [
        (3, "0.50", "EUR", "1.50"),
        (-1, "0.50", "EUR", "-0.50"),
        (0, "0.50", "EUR", "0.00"),
        (1, "2", "EUR", "2.00"),
        (3, "0.250", "TND", "0.750"),
        (-6, "0.125", "TND", "-0.750"),
        (3, "100", "JPY", "300"),
        (-2, "100", "JPY", "-200"),
        (5, "0.0001", "CLF", "0.0005"),
        # A game for nothing: zero, never "-0.00".
        (-3, "0", "EUR", "0.00"),
        (-3, "0", "JPY", "0"),
        (-1, "-0", "TND", "0.000"),
        (4, "0", "TND", "0.000"),
        # The largest stake times many units keeps its precision:
        # 999999999999.99 * 999999 = 999999999999990000 - 999999999999.99.
        (-999_999, "999999999999.99", "EUR", "-999998999999990000.01"),
    ],
)
def test_amount_is_units_times_stake_with_the_currencys_decimals(units, stake, currency, expected):
    assert format_amount(amount(units, Decimal(stake), currency)) == expected


@pytest.mark.parametrize(
    ("value", "text"),
    [(Decimal("1.50"), "1.50"), (Decimal("-0.750"), "-0.750"), (Decimal("1E+2"), "100")],
)
def test_format_amount_writes_plain_decimals(value, text):
    assert format_amount(value) == text


@pytest.mark.parametrize(
    ("value", "currency", "minor"),
    [
        (Decimal("1.50"), "EUR", 150),
        (Decimal("-0.5000"), "EUR", -50),
        (Decimal("2.125"), "TND", 2125),
        (Decimal("300"), "JPY", 300),
        (Decimal("0"), "EUR", 0),
    ],
)
def test_amounts_in_the_smallest_unit_and_back(value, currency, minor):
    assert (to_minor(value, currency), from_minor(minor, currency)) == (
        minor,
        value.quantize(Decimal(1).scaleb(-decimals(currency))),
    )


def test_an_amount_finer_than_the_currency_is_refused():
    with pytest.raises(RulesError) as error:
        to_minor(Decimal("1.005"), "EUR")
    assert str(error.value) == "amount 1.005 has more decimals than EUR uses (2)"


@pytest.mark.parametrize(
    ("prizes", "shares", "expected"),
    [
        # 50/30/20 of 13 entries at 5.000 TND: each share rounded down to the millime.
        (["50", "30", "20"], True, [Decimal("32.500"), Decimal("19.500"), Decimal("13.000")]),
        (["33.3333", "33.3333"], True, [Decimal("21.666"), Decimal("21.666")]),
        (["40", "15.5"], False, [Decimal("40.000"), Decimal("15.500")]),
    ],
)
def test_prize_amounts_are_shares_of_the_pool_rounded_down_or_fixed(prizes, shares, expected):
    assert prize_amounts(Decimal("5"), 13, prizes, "TND", shares=shares) == (
        Decimal("65.000"),
        expected,
    )
