"""French and Arabic are complete, keep every placeholder, and compile to what the sources give.

Arabic is written right to left and says its numbers in Western digits, money included.
"""

import ast
import io
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.utils import translation
from django.utils.translation import templatize

from scoring.common.words import format_money

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "scoring" / "locale"
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


def message_keys(catalog):
    """(Context, message) of every message; a plural message by its two English forms."""
    return {(message.context, _plain(message.id)) for message in catalog if message.id}


# The keywords Django's makemessages gives xgettext, which also knows gettext, ngettext
# and pgettext's plain forms.
XGETTEXT_KEYWORDS = [
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
    "--keyword=pgettext_lazy:1c,2",
    "--keyword=npgettext_lazy:1c,2,3",
]
SOURCES = ["scoring", "boulmous_site", "templates"]


def extract_messages(work):
    """The messages the sources hold, as ``make messages`` extracts them (a template made
    Python by Django's templatize, then xgettext), written in ``work``, not in the tree."""
    files = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix == ".py":
                files.append(str(path))
            elif path.suffix in {".html", ".txt"}:
                made = work / path.relative_to(ROOT).with_suffix(path.suffix + ".py")
                made.parent.mkdir(parents=True, exist_ok=True)
                made.write_text(templatize(path.read_text(), origin=str(path)))
                files.append(str(made))
    listed = work / "files.txt"
    listed.write_text("\n".join(files))
    found = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            "--output=-",
            *XGETTEXT_KEYWORDS,
            "--files-from",
            str(listed),
        ],
        capture_output=True,
        check=True,
    ).stdout
    # xgettext leaves its header's charset and plural rule for a translator to fill.
    found = found.replace(b"charset=CHARSET", b"charset=UTF-8").replace(
        b"nplurals=INTEGER; plural=EXPRESSION", b"nplurals=2; plural=(n != 1)"
    )
    return read_po(io.BytesIO(found))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext's xgettext is not installed")
    return message_keys(extract_messages(tmp_path_factory.mktemp("messages")))


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_holds_every_message_of_the_sources(language, extracted):
    catalogued = message_keys(load(language, "django.po", read_po))

    assert sorted(extracted - catalogued, key=str) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_holds_no_message_the_sources_left(language, extracted):
    catalogued = message_keys(load(language, "django.po", read_po))

    assert sorted(catalogued - extracted, key=str) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_counts_no_untranslated_or_fuzzy_message(language):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    source = LOCALES / language / "LC_MESSAGES" / "django.po"

    checked = subprocess.run(
        ["msgfmt", "--statistics", "--check", "--output-file=/dev/null", str(source)],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C"},
    )

    counts = re.search(r"^\d+ translated messages?(.*)\.$", checked.stderr, re.MULTILINE)
    assert (checked.returncode, counts.group(1)) == (0, "")


# Each name Django's translation functions go by; a module may import them under another
# (``gettext_lazy as _``), which the lint reads from its imports.
GETTEXT_NAMES = {
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}


def _gettext_aliases(tree):
    aliases = set(GETTEXT_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            aliases |= {alias.asname for alias in node.names if alias.name in GETTEXT_NAMES}
    return aliases - {None}


def _is_gettext(node, aliases):
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
    return name in aliases


def _built_at_run_time(argument):
    """An f-string, a concatenation, a %-formatting or a ``.format()`` call: a message
    xgettext cannot read, or one built before it is looked up, so never found."""
    return isinstance(argument, ast.JoinedStr | ast.BinOp) or (
        isinstance(argument, ast.Call)
        and isinstance(argument.func, ast.Attribute)
        and argument.func.attr == "format"
    )


def gettext_misuses(source, name="<source>"):
    """``file:line`` of each gettext call given a message built at run time, and of each
    gettext call inside an f-string (xgettext does not look there: never translated)."""
    tree = ast.parse(source)
    aliases = _gettext_aliases(tree)
    found = set()
    for node in ast.walk(tree):
        if _is_gettext(node, aliases) and any(
            _built_at_run_time(argument) for argument in node.args
        ):
            found.add(f"{name}:{node.lineno}")
        if isinstance(node, ast.JoinedStr):
            found |= {
                f"{name}:{inner.lineno}" for inner in ast.walk(node) if _is_gettext(inner, aliases)
            }
    return found


def test_no_gettext_call_is_given_a_message_built_at_run_time():
    found = set()
    for top in ["scoring", "boulmous_site"]:
        for path in sorted((ROOT / top).rglob("*.py")):
            found |= gettext_misuses(path.read_text(), str(path.relative_to(ROOT)))

    assert sorted(found) == []


@pytest.mark.parametrize(
    "source",
    [
        "from django.utils.translation import gettext\nx = f\"{gettext('Paid.')} {y}\"",
        'from django.utils.translation import gettext_lazy as _\nx = _(f"Paid {y}.")',
        'from django.utils.translation import ngettext as n\nx = n("a" + y, "b", 2)',
        'from django.utils.translation import pgettext\nx = pgettext("c", "{}".format(y))',
        'from django.utils.translation import gettext\nx = gettext("%s." % y)',
    ],
)
def test_gettext_lint_finds_a_message_built_at_run_time(source):
    assert gettext_misuses(source) == {"<source>:2"}


def test_gettext_lint_passes_a_message_given_whole():
    source = (
        "from django.utils.translation import gettext as _\n"
        'x = _("Paid %(name)s.") % {"name": f"{y}"}\n'
        "z = _(label)\n"
    )

    assert gettext_misuses(source) == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_its_source(language):
    compiled = translations(load(language, "django.mo", read_mo))

    source = translations(load(language, "django.po", read_po))

    assert compiled == source


# What French typography leaves alone: markup, code, addresses, times, placeholders, and
# the HTTP header the API's messages quote.
NOT_PROSE = re.compile(
    r"<code>.*?</code>|<[^>]*>|\w+://\S+|\d+(?::\d+)+|&\w+;|\?\w+=\S*"
    r"|Authorization: Bearer|" + PERCENT.pattern + "|" + BRACE.pattern
)
NO_BREAK_SPACES = "\u00a0\u202f"


def typography_slips(text):
    """Each « : ; ! ? » with no no-break space before it, and each « with none after it, in
    its few characters of context."""
    prose = NOT_PROSE.sub(lambda found: "\0" * len(found.group()), text)
    slips = [
        place
        for place, character in enumerate(prose)
        if character in ":;!?»" and (place == 0 or prose[place - 1] not in NO_BREAK_SPACES)
    ]
    slips += [
        place
        for place, character in enumerate(prose)
        if character == "«" and prose[place + 1 : place + 2] not in tuple(NO_BREAK_SPACES)
    ]
    return [text[max(place - 12, 0) : place + 3] for place in sorted(slips)]


def test_french_writes_the_typographic_apostrophe_and_quotes():
    catalog = load("fr", "django.po", read_po)

    straight = [
        form
        for message in catalog
        if message.id
        for form in _strings(_plain(message.string))
        if straight_quotes(form)
    ]

    assert straight == []


def straight_quotes(text):
    """The straight quotes of ``text``'s prose, markup aside: French writes the typographic
    apostrophe and « »."""
    return re.findall(r"['\"]", NOT_PROSE.sub("", text))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("l'as", ["'"]),
        ("aujourd' hui", ["'"]),
        ('le mot "boulmous"', ['"', '"']),
        ('<a href="/regles">l’as</a> et «\u00a0boulmous\u00a0»', []),
    ],
)
def test_straight_quotes_found_in_prose_only(text, found):
    assert straight_quotes(text) == found


def test_french_puts_a_no_break_space_before_double_punctuation_and_inside_quotes():
    catalog = load("fr", "django.po", read_po)

    slips = {
        form: typography_slips(form)
        for message in catalog
        if message.id
        for form in _strings(_plain(message.string))
        if typography_slips(form)
    }

    assert slips == {}


@pytest.mark.parametrize(
    ("text", "slips"),
    [
        ("Saison modifiée: %(name)s", ["son modifiée: %"]),
        ("Qui remporte la levée ?", ["te la levée ?"]),
        ("« Omar »", ["« O", "« Omar »"]),
        (
            "Saison modifiée\u00a0: «\u00a0%(name)s\u00a0» à 20:30 ; voir https://x.org/?a=1",
            ["s\u00a0» à 20:30 ; v"],
        ),
        ("Envoyez <code>Authorization: Bearer …</code>\u202f!", []),
    ],
)
def test_french_typography_finds_a_missing_no_break_space(text, slips):
    assert typography_slips(text) == slips


GLOSSARY = ROOT / "docs" / "glossary.md"
GLOSSARY_COLUMNS = {"fr": (1, 2), "ar": (3, 4)}
"""The glossary table's columns of each language: its chosen forms, its refused ones."""
# Placeholders, the format's name and a record's keys are not words of the sentence, nor
# is "round" that goes round the table.
NOT_WORDS = re.compile(
    PERCENT.pattern
    + "|"
    + BRACE.pattern
    + r'|boulmous/1|"boulmous"|calls and dealer|round the table'
)
CARD_GAME_ITSELF = ("About the game", "Boulmous is a trick-taking card game")
"""The messages that say the card game itself (« le jeu », « اللعبة »), not a game played."""
ARABIC_PROCLITICS = "(?:[وفبلك]?ال|[وفبلك])?"


def glossary():
    """The glossary's terms: (English, {language: (chosen forms, refused forms)})."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text().splitlines()
        if line.startswith("| ") and not line.startswith("| English")
    ]
    return [
        (
            row[0],
            {
                language: tuple(
                    [form.strip() for form in row[column].split("/") if form.strip()]
                    for column in columns
                )
                for language, columns in GLOSSARY_COLUMNS.items()
            },
        )
        for row in rows
    ]


def _refused(form, language):
    before = ARABIC_PROCLITICS if language == "ar" else ""
    return re.compile(rf"(?<!\w){before}{re.escape(form)}(?!\w)", re.IGNORECASE)


def vocabulary_slips(catalog, language, terms):
    """(term, English, translation) of each message that says a term with no chosen form,
    or with a refused one."""
    slips = []
    for message in catalog:
        if not message.id:
            continue
        english = NOT_WORDS.sub(" ", " / ".join(_strings(_plain(message.id))))
        said = " / ".join(_strings(_plain(message.string)))
        for term, forms in terms:
            chosen, refused = forms[language]
            exempt = term == "game" and str(message.id).startswith(CARD_GAME_ITSELF)
            says_term = re.search(rf"\b{re.escape(term)}s?\b", english, re.IGNORECASE)
            if says_term and not exempt and not any(form in said.casefold() for form in chosen):
                slips.append((term, english, said))
            if not exempt and any(_refused(form, language).search(said) for form in refused):
                slips.append((term, english, said))
    return slips


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_says_each_glossary_term_with_its_one_word(language):
    catalog = load(language, "django.po", read_po)

    assert vocabulary_slips(catalog, language, glossary()) == []


def test_glossary_gives_each_term_its_words_in_both_languages():
    terms = glossary()

    assert [term for term, forms in terms if not all(forms[lang][0] for lang in LANGUAGES)] == []
    assert {"league points", "boîte", "boulmous", "night", "round"} <= {t for t, _ in terms}


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
