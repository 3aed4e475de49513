"""French and Arabic are complete, keep every placeholder, and compile to what the sources give.

Arabic is written right to left and says its numbers in Western digits, money included.
"""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.utils import translation

from scoring.common.words import format_money

LOCALES = Path(__file__).resolve().parents[2] / "scoring" / "locale"
LANGUAGES = ["fr", "ar"]

# ``%(name)s``, ``%(count)+d``, ``%(name)r``: Django's and Python's named %-placeholders.
PERCENT = re.compile(r"%\(\w+\)[-+ #0]*\d*(?:\.\d+)?[sdifr]")
# ``{number}``, ``{value!r}``: the engine's str.format fields.
BRACE = re.compile(r"\{\w+(?:![rsa])?(?::[^{}]*)?\}")
# Arabic says one, two (and none) in words: "جولة واحدة", "جولتان", not "1 جولة". Only those
# plural forms (0: zero, 1: one, 2: two, in Django's Plural-Forms for ar) may leave out the
# placeholder that holds the count; every other placeholder stays, and every other form
# keeps them all.
COUNT = re.compile(r"%\(count\w*\)")
"""A count's placeholder: ``count``, ``counter``, or the count as shown (``count_shown``,
grouped by the language)."""
FORMS_SAID_IN_WORDS = {"ar": {0, 1, 2}}


def load(language, name, reader):
    with (LOCALES / language / "LC_MESSAGES" / name).open("rb") as file:
        return reader(file)


def translations(catalog):
    """(Context, message) to translation, for the messages translated (the only ones that
    compile); plural forms as tuples, however the reader gives them."""
    return {
        (message.context, _plain(message.id)): _plain(message.string)
        for message in catalog
        if message.id and any(_strings(_plain(message.string)))
    }


def placeholders(text):
    return set(PERCENT.findall(text)) | set(BRACE.findall(text))


def _plain(value):
    return tuple(value) if isinstance(value, list | tuple) else value


def _strings(string):
    return string if isinstance(string, tuple) else (string,)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_translates_every_message(language):
    catalog = load(language, "django.po", read_po)

    untranslated = [
        message.id
        for message in catalog
        if message.id and (message.fuzzy or not all(_strings(message.string)))
    ]

    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_its_source(language):
    compiled = translations(load(language, "django.mo", read_mo))

    source = translations(load(language, "django.po", read_po))

    assert compiled == source


def test_french_elides_with_the_typographic_apostrophe():
    catalog = load("fr", "django.po", read_po)

    straight = [
        form
        for message in catalog
        if message.id
        for form in _strings(_plain(message.string))
        if re.search(r"\w'\w", form)
    ]

    assert straight == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translation_keeps_every_placeholder(language):
    catalog = load(language, "django.po", read_po)

    changed = []
    for message in catalog:
        if not message.id:
            continue
        if not message.pluralizable:
            if message.string and placeholders(message.string) != placeholders(message.id):
                changed.append((message.id, message.string))
            continue
        expected = placeholders(message.id[1])
        for index, form in enumerate(message.string):
            found = placeholders(form)
            in_words = index in FORMS_SAID_IN_WORDS.get(language, set())
            wanted = {p for p in expected if not COUNT.match(p)} if in_words else expected
            if form and not (found == expected or (in_words and found == wanted)):
                changed.append((message.id[1], form))

    assert changed == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "arabic"),
    [("/", "بولموس: حساب النقاط والتحكيم"), ("/rules", "الأتو وترتيب الأوراق")],
)
def test_page_in_arabic_is_right_to_left(client, path, arabic):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="ar")

    html = response.content.decode()
    assert re.search(r"<html[^>]*>", html).group() == '<html lang="ar" dir="rtl">'
    assert arabic in html


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/rules"])
def test_page_in_english_is_left_to_right(client, path):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")

    html = response.content.decode()
    assert re.search(r"<html[^>]*>", html).group() == '<html lang="en" dir="ltr">'


@pytest.mark.parametrize(("amount", "currency"), [("1.500", "TND"), ("1234.50", "EUR")])
def test_money_in_arabic_uses_western_digits(amount, currency):
    with translation.override("ar"):
        text = format_money(Decimal(amount), currency)

    digits = "".join(character for character in text if character.isdigit())
    assert digits == amount.replace(".", "")
