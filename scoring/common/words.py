"""How values are said to people: suits, money, a hand in a few words.

Every page and the PDF say these things through here, so that each is said one
way everywhere.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from babel.dates import format_skeleton, format_time, get_datetime_format
from babel.numbers import format_currency
from django import template
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import (
    get_language,
    get_language_bidi,
    gettext,
    pgettext_lazy,
    to_locale,
)
from django.utils.translation import gettext_lazy as _

from ..engine import OPTIONS, Card, Colour, Contract, Kind, Option, Rank, Rules, Trump

TRUMP_NAMES: dict[Trump, Promise] = {
    Trump.SPADES: _("spades"),
    Trump.HEARTS: _("hearts"),
    Trump.DIAMONDS: _("diamonds"),
    Trump.CLUBS: _("clubs"),
    Trump.NO_TRUMP: _("no trump"),
}


def trump_symbol(trump: Trump) -> str:
    """♠ ♥ ♦ ♣, or the language's short word for no trump."""
    return gettext("NT") if trump.suit is None else trump.suit.symbol


def is_red(trump: Trump) -> bool:
    return trump.suit is not None and trump.suit.colour is Colour.RED


def contract_words(contract: Contract, names: Sequence[str]) -> str:
    """``Chafik 4♥``."""
    return f"{isolate(names[contract.taker])} {contract.bid}{trump_symbol(contract.trump)}"


def _locale() -> str:
    """The current language as Babel's locale: Arabic as in Tunisia, in Western digits."""
    language = get_language() or "en"
    return {"ar": "ar_TN"}.get(language, to_locale(language))


def left_to_right(figure: str) -> str:
    """A figure (a number, an amount) as one piece read left to right, in a right-to-left
    language too: between Unicode's left-to-right isolate and its end (U+2066, U+2069), so
    that ``-2`` keeps its minus in front in an Arabic line, where the bidi algorithm draws
    it ``2-``, in a page, a mail or a PDF alike. Left as it is in a left-to-right language."""
    return f"\u2066{figure}\u2069" if get_language_bidi() else figure


def isolate(text: Any) -> str:
    """A name a person typed (a player's, a club's, a season's, a place), as one piece in a
    translated sentence of a right-to-left language: between Unicode's first strong isolate
    and its end (U+2068, U+2069), so that the bidi algorithm neither moves its neutral
    characters against the Arabic around it (``Amina B.`` drawn ``.Amina B``, the
    parentheses of ``Café du Port (Sfax)`` turned round) nor joins its figures to the
    sentence's. Its own direction is its first letter's. Left as it is in a left-to-right
    language, so French elision (:func:`elide`) still finds « de Name ».

    Plain text stays plain text (a template or ``format_html`` escapes it later); safe HTML
    given stays safe, the two characters being nothing to HTML."""
    if not get_language_bidi():
        return text if isinstance(text, str) else str(text)
    isolated = f"\u2068{text}\u2069"
    return mark_safe(isolated) if isinstance(text, SafeData) else isolated


def format_money(amount: Decimal, currency: str) -> str:
    """``1,50 €`` in French, ``€1.50`` in English, ``1,500 TND`` with three decimals.

    Arabic is formatted as in Tunisia (``1,500 د.ت.``): Western digits, a decimal comma,
    read left to right (:func:`left_to_right`; Babel's right-to-left marks, which would
    turn it round, left out).
    """
    money = format_currency(amount, currency, locale=_locale(), numbering_system="latn")
    return left_to_right(money.replace("\u200f", ""))


register = template.Library()
"""The figures' and the words' filters, in every template (settings' ``builtins``)."""


@register.filter(name="isolate", is_safe=True)
def isolate_filter(text: Any) -> str:
    """``{% blocktranslate with name=club.name|isolate %}``: :func:`isolate`."""
    return isolate(text)


def _isolated(figure: str) -> str:
    """A figure on a page, in a right-to-left language in a ``<bdi dir="ltr">``: read left
    to right as :func:`left_to_right` reads it, with no character added to its text (a
    script or a test that reads the page reads ``-3``)."""
    return format_html('<bdi dir="ltr">{}</bdi>', figure) if get_language_bidi() else figure


@register.filter
def number(value: Any, decimals: int | None = None) -> str:
    """A number as the page's language writes it (``floatformat``'s, with ``decimals``),
    read left to right in Arabic too: ``{{ row.rating|number:1 }}`` is ``-0,5``, not
    ``0,5-``."""
    return _isolated(str(value) if decimals is None else floatformat(value, decimals))


@register.filter
def signed(value: int) -> str:
    """A whole number with its sign, ``+6`` or ``-3``, read left to right in Arabic too."""
    return _isolated(f"{value:+d}")


DAY_SKELETON = "yMMMd"
"""A day: ``Jan 1, 2026``, ``1 janv. 2026``, ``1 جانفي 2026`` (Western digits, no
direction marks)."""


def say_day(day: date | datetime) -> str:
    """A day, the one way pages and PDFs say it; a moment's day is its day in the current
    time zone (scoring/common/clock.py)."""
    if isinstance(day, datetime):
        day = timezone.localdate(day)
    return format_skeleton(DAY_SKELETON, day, locale=_locale())


def say_moment(moment: datetime) -> str:
    """A moment in the current time zone (scoring/common/clock.py), its day then its time
    as the language joins them: ``Jan 1, 2026, 12:30 AM``, ``1 janv. 2026, 00:30``,
    ``1 جانفي 2026، 12:30 ص``."""
    local = timezone.localtime(moment)
    locale = _locale()
    return (
        str(get_datetime_format("medium", locale=locale))
        .replace("'", "")
        .replace("{0}", format_time(local, "short", tzinfo=local.tzinfo, locale=locale))
        .replace("{1}", format_skeleton(DAY_SKELETON, local.date(), locale=locale))
    )


def say_time(moment: datetime) -> str:
    """A moment's time of day in the current time zone: ``11:10 PM``, ``23:10``."""
    local = timezone.localtime(moment)
    return format_time(local, "short", tzinfo=local.tzinfo, locale=_locale())


def describe_hand(snapshot: dict[str, Any], names: Sequence[str]) -> str:
    """A hand's snapshot in a few words: ``Bilal 4♥, tricks 1-0-2-3``."""
    if snapshot.get("taker") is None:
        return gettext("all passed")
    return gettext("%(taker)s %(bid)s%(trump)s, tricks %(tricks)s") % {
        "taker": isolate(names[snapshot["taker"]]),
        "bid": snapshot["bid"],
        "trump": trump_symbol(Trump(snapshot["trump"])),
        "tricks": "-".join(str(count) for count in snapshot["tricks"]),
    }


def red_card(card: Card) -> bool:
    return card.suit.colour is Colour.RED


# As printed in the corners of the cards: French cards read V, D, R (valet, dame, roi).
_RANK_LETTERS: dict[Rank, Promise | str] = {
    Rank.NINE: "9",
    Rank.TEN: "10",
    # Translators: the letter printed on a jack (V for valet in French).
    Rank.JACK: pgettext_lazy("card rank", "J"),
    # Translators: the letter printed on a queen (D for dame in French).
    Rank.QUEEN: pgettext_lazy("card rank", "Q"),
    # Translators: the letter printed on a king (R for roi in French).
    Rank.KING: pgettext_lazy("card rank", "K"),
    # Translators: the letter printed on an ace (A in French too).
    Rank.ACE: pgettext_lazy("card rank", "A"),
}


def card_label(card: Card) -> str:
    """``J♦`` in English, ``V♦`` in French, ``10♠``: how a card is shown to people."""
    return f"{_RANK_LETTERS[card.rank]}{card.suit.symbol}"


@dataclass(frozen=True)
class ShownCard:
    label: str
    colour: str
    """``red`` or ``black``, for the stylesheet."""


def shown(cards: Sequence[Card]) -> list[ShownCard]:
    return [ShownCard(card_label(card), card.suit.colour.value) for card in cards]


_ELIDED = {"de": "d’", "le": "l’", "la": "l’", "que": "qu’"}
"""French elides « de », « le », « la », « que » before a vowel or a mute h: « d’Omar »,
« la partie d’Élodie », « qu’Inès ». A translation cannot, since it does not know the name
it will hold: the sentence is filled, then elided before the names it was given."""
_VOWELS = frozenset("aeiouœæ")
MUTE_H_NAMES = frozenset(
    {"hector", "hélène", "henri", "hermine", "hervé", "honoré", "hortense", "hubert", "hugo"}
)
"""French first names whose h is mute (« d’Hélène »). Any other h is aspirated, as in the
Arabic names of the seed's players (« de Hamza », « de Hichem »)."""


def starts_with_a_vowel_sound(name: str) -> bool:
    """Whether French elides before ``name``: a vowel (accents aside), or a mute h."""
    words = name.split()
    if not words:
        return False
    first = unicodedata.normalize("NFD", words[0][0].casefold())[0]
    return first in _VOWELS or (first == "h" and words[0].casefold() in MUTE_H_NAMES)


def elide(text: str, names: Iterable[str]) -> str:
    """``text`` with « de », « le », « la », « que » elided before each of ``names`` that
    starts with a vowel sound, in French (a name may stand in ``<bdi>``); as is in any other
    language. Safe HTML stays safe: a name is looked for as the HTML holds it."""
    if (get_language() or "").split("-")[0] != "fr":
        return text
    elided = text
    for name in names:
        if not starts_with_a_vowel_sound(str(name)):
            continue
        shown = conditional_escape(name) if isinstance(text, SafeString) else str(name)
        elided = re.sub(
            rf"\b(de|le|la|que|De|Le|La|Que) ((?:<bdi>)?{re.escape(shown)})(?!\w)",
            lambda found: _capital(_ELIDED[found[1].lower()], found[1]) + found[2],
            elided,
        )
    return mark_safe(elided) if isinstance(text, SafeString) else elided


def _capital(elided: str, word: str) -> str:
    return elided.capitalize() if word[0].isupper() else elided


_ARABIC_PLACES = {
    1: "الأول",
    2: "الثاني",
    3: "الثالث",
    4: "الرابع",
    5: "الخامس",
    6: "السادس",
    7: "السابع",
    8: "الثامن",
    9: "التاسع",
    10: "العاشر",
}


def say_place(place: int) -> str:
    """A place as read in a sentence: ``1st``, ``2nd``, ``11th``, ``21st``; French ``1re``,
    ``2e`` (of a « place », feminine); Arabic ``الأول``, ``الثاني`` up to ``العاشر`` (of an
    « مركز », masculine), then the number with the article."""
    language = (get_language() or "en").split("-")[0]
    if language == "fr":
        return "1re" if place == 1 else f"{place}e"
    if language == "ar":
        return _ARABIC_PLACES.get(place, f"الـ{place}")
    teen = 10 <= place % 100 <= 20
    suffix = "th" if teen else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@register.filter(name="elide", is_safe=True)
def elide_filter(text: str, name: str) -> str:
    """``{% blocktranslate with name=... asvar said %}…{% endblocktranslate %}
    {{ said|elide:name }}``: :func:`elide` before one name."""
    return elide(text, [name])


@register.filter(name="place")
def place_filter(place: int) -> str:
    """``{{ rank|place }}``: :func:`say_place`."""
    return say_place(place)


def _said(option: Option, rules: Rules, *, meaning: bool) -> str:
    """What ``option`` of ``rules`` comes to in words: its part of the sentence, or with
    ``meaning`` what the rules page says of it; empty where it says nothing."""
    value = getattr(rules, option.name)
    words = option.meaning if meaning else option.phrase
    at_default = option.meaning_default if meaning else option.phrase_default
    if option.choices:
        choice = option.choice(option.to_data(value))
        words = choice.meaning if meaning else choice.phrase
    elif value == option.default and at_default is not None:
        words = at_default
    if not words:
        return ""
    shown = format_money(value, rules.currency) if option.kind is Kind.MONEY else value
    # Only words with the option's value in them are formatted, as gettext marks them.
    said = gettext(words)
    return said % {option.name: shown} if f"%({option.name})s" in words else said


def rules_sentence(rules: Rules) -> str:
    """The one sentence that says a game's rules, as the settlement, the PDF, the rules page
    and the club's API say them: ``21 points to win · a failed taker scores his tricks minus
    his bid · no money: counted in stakes``."""
    parts = (_said(option, rules, meaning=False) for option in OPTIONS)
    return " · ".join(part for part in parts if part)


@dataclass(frozen=True)
class RuleMeaning:
    """One option of a game's rules on the rules page: its name and what it means here."""

    label: str
    meaning: str


def rules_meanings(rules: Rules) -> list[RuleMeaning]:
    """Each option that says something of a game's rules, as the rules page lists them."""
    meanings = [
        RuleMeaning(gettext(option.label), _said(option, rules, meaning=True)) for option in OPTIONS
    ]
    return [meaning for meaning in meanings if meaning.meaning]
