"""Currencies (ISO 4217) and their usual number of decimals."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from .errors import RulesError, gettext_noop

# Active ISO 4217 codes whose minor unit is not two decimals.
_DECIMALS: dict[str, int] = {}
# Active ISO 4217 codes by their minor unit (decimals).
_CODES = {
    0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
    2: (
        "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP "
        "BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB "
        "EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES "
        "KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR "
        "MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD "
        "RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP "
        "TRY TTD TWD TZS UAH USD USN UYU UZS VES VED WST XCD XCG YER ZAR ZMW ZWG"
    ),
    3: "BHD IQD JOD KWD LYD OMR TND",
    4: "CLF UYW",
}
for _places, _codes in _CODES.items():
    _DECIMALS.update(dict.fromkeys(_codes.split(), _places))

CURRENCIES: frozenset[str] = frozenset(_DECIMALS)

MAX_STAKE = 10**12
"""Stakes must be below this (a trillion): amounts then fit Decimal's precision."""


def check_currency(code: object) -> str:
    if isinstance(code, str) and code in _DECIMALS:
        return code
    raise RulesError(
        gettext_noop('currency {code!r} is not an ISO 4217 code such as "EUR"'), code=code
    )


def decimals(currency: str) -> int:
    """The currency's usual number of decimals: two for EUR, three for TND."""
    return _DECIMALS[check_currency(currency)]


def parse_stake(text: object, currency: str) -> Decimal:
    """A stake as a decimal string, zero or more, with no more decimals than the currency has."""
    try:
        if not isinstance(text, str) or not text.strip():
            raise InvalidOperation
        stake = Decimal(text.strip())
    except InvalidOperation:
        raise RulesError(
            gettext_noop('stake {text!r} is not a decimal string such as "0.50"'), text=text
        ) from None
    if not stake.is_finite() or stake < 0:
        raise RulesError(gettext_noop("stake {text!r} must be zero or more"), text=text)
    if stake >= MAX_STAKE:
        # Larger stakes would overflow the 28 digits of Decimal arithmetic.
        raise RulesError(
            gettext_noop("stake {text!r} must be less than {limit}"), text=text, limit=MAX_STAKE
        )
    places = decimals(currency)
    if stake != stake.quantize(Decimal(1).scaleb(-places)):
        raise RulesError(
            gettext_noop("stake {text!r} has more decimals than {currency} uses ({digits})"),
            text=text,
            currency=currency,
            digits=places,
        )
    return stake if stake else Decimal(0)  # no "-0"


def amount(units: int, stake: Decimal, currency: str) -> Decimal:
    """``units`` stakes, to the currency's decimals."""
    value = (stake * units).quantize(Decimal(1).scaleb(-decimals(currency)))
    # A zero stake times a loss is -0: show it as 0.
    return value if value else value.copy_abs()


def format_amount(value: Decimal) -> str:
    """A plain decimal string (``-1.50``), as the record's output writes amounts."""
    return f"{value:f}"


def to_minor(value: Decimal, currency: str) -> int:
    """``value`` in the currency's smallest unit (cents for EUR, millimes for TND): money
    settled in integers. A value with more decimals than the currency has is refused."""
    places = decimals(currency)
    minor = value.scaleb(places)
    if minor != minor.to_integral_value():
        raise RulesError(
            gettext_noop("amount {value} has more decimals than {currency} uses ({digits})"),
            value=format_amount(value),
            currency=currency,
            digits=places,
        )
    return int(minor)


def from_minor(units: int, currency: str) -> Decimal:
    """``units`` of the currency's smallest unit, to its decimals: 150 cents are 1.50."""
    return amount(units, Decimal(1).scaleb(-decimals(currency)), currency)


def prize_amounts(
    fee: Decimal, entrants: int, prizes: Iterable[object], currency: str, *, shares: bool
) -> tuple[Decimal, list[Decimal]]:
    """An event's pool (its fee times its entrants) and the prize of each place, in the fee's
    currency: each a share of the pool in percent, rounded down to the currency's unit (so
    that the prizes never give more than the pool), or a fixed amount."""
    unit = Decimal(1).scaleb(-decimals(currency))
    pool = (Decimal(fee) * entrants).quantize(unit)
    amounts = []
    for value in prizes:
        amount = Decimal(str(value))
        if shares:
            amount = (pool * amount / 100).quantize(unit, rounding=ROUND_DOWN)
        amounts.append(amount.quantize(unit))
    return pool, amounts
