"""Amounts for people: formatted for the language and the currency by Babel (CLDR)."""

from decimal import Decimal

from babel.numbers import format_currency
from django.utils.translation import get_language, to_locale


def format_money(amount: Decimal, currency: str) -> str:
    """``1,50 €`` in French, ``€1.50`` in English, ``1,500 TND`` with three decimals."""
    return format_currency(amount, currency, locale=to_locale(get_language() or "en"))
