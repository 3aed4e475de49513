"""French is complete, and the compiled catalogue is the one the sources give."""

from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[2] / "scoring" / "locale" / "fr" / "LC_MESSAGES"


def load(name, reader):
    with (LOCALE / name).open("rb") as file:
        return reader(file)


def translations(catalog):
    """Message to translation; plural forms as tuples, however the reader gives them."""
    return {_plain(message.id): _plain(message.string) for message in catalog if message.id}


def _plain(value):
    return tuple(value) if isinstance(value, list | tuple) else value


def test_french_catalogue_translates_every_message():
    catalog = load("django.po", read_po)

    untranslated = [
        message.id
        for message in catalog
        if message.id and (message.fuzzy or not all(_strings(message.string)))
    ]

    assert untranslated == []


def test_french_compiled_catalogue_matches_its_source():
    assert translations(load("django.mo", read_mo)) == translations(load("django.po", read_po))


def _strings(string):
    return string if isinstance(string, tuple) else (string,)
