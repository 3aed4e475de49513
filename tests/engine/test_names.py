"""Names and free text (scoring/engine/names.py, issue 18): NFC, no control, invisible or bidi
character, and no two names that look alike (their UTS #39 confusable skeletons)."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import RecordError, RulesError, check_players, loads
from scoring.engine.names import (
    check_name,
    check_text,
    collation_key,
    first_name_and_initial,
    look_alike,
    name_key,
    parse_confusables,
    prototypes,
    skeleton,
    sorted_by_name,
    tellable_names,
)

CYRILLIC_A = "\u0410"  # CYRILLIC CAPITAL LETTER A, which looks like A

REFUSED = [
    ("Dali\u202ela", "character 5 is U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u2066Amina", "character 1 is U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("Ami\u2067na", "character 4 is U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("Ami\u2068na", "character 4 is U+2068 FIRST STRONG ISOLATE"),
    ("Ami\u2069na", "character 4 is U+2069 POP DIRECTIONAL ISOLATE"),
    ("A\u200emina", "character 2 is U+200E LEFT-TO-RIGHT MARK"),
    ("A\u200fmina", "character 2 is U+200F RIGHT-TO-LEFT MARK"),
    ("\u061c\u0639\u0644\u064a", "character 1 is U+061C ARABIC LETTER MARK"),
    ("Cha\u200bfik", "character 4 is U+200B ZERO WIDTH SPACE"),
    ("\ufeffAmina", "character 1 is U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("Ami\u00adna", "character 4 is U+00AD SOFT HYPHEN"),
    ("Amina\x07", "character 6 is U+0007"),
    ("a\x00b", "character 2 is U+0000"),
    ("Bi\nlal", "character 3 is U+000A"),
    ("Bi\u2028lal", "character 3 is U+2028 LINE SEPARATOR"),
    ("Bi\u2029lal", "character 3 is U+2029 PARAGRAPH SEPARATOR"),
    ("Bi\ud800lal", "character 3 is U+D800"),
]


@pytest.mark.parametrize(("text", "said"), REFUSED)
def test_check_text_refuses_control_invisible_and_bidi_characters_naming_them(text, said):
    with pytest.raises(RulesError) as error:
        check_text(text)

    assert str(error.value) == said + ", a control or invisible character"


@pytest.mark.parametrize(
    "text", ["Amina", "Élise", "علي", "Straße", "🂡 Ace", "Jean\u00a0Pierre", "Zoë-Lou", ""]
)
def test_check_text_keeps_printable_text(text):
    assert check_text(text) == text


def test_check_text_keeps_text_in_nfc():
    assert (check_text("Rene\u0301"), check_text("Cafe\u0301 des Sports")) == (
        "Ren\u00e9",
        "Caf\u00e9 des Sports",
    )


def test_check_name_trims_then_keeps_in_nfc():
    assert check_name("  Rene\u0301\n") == "Ren\u00e9"


@given(st.text())
def test_check_text_any_text_is_kept_in_nfc_or_refused_at_its_first_unseen_character(text):
    nfc = unicodedata.normalize("NFC", text)
    unseen = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # the bidi controls are all format characters
    first = next(
        (at for at, char in enumerate(nfc, start=1) if unicodedata.category(char) in unseen),
        None,
    )

    try:
        outcome = ("kept", check_text(text))
    except RulesError as error:
        outcome = ("refused", error.params["position"])

    assert outcome == (("kept", nfc) if first is None else ("refused", first))


# --- skeletons ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Amina", CYRILLIC_A + "mina"),
        ("Ali", CYRILLIC_A + "li"),
        ("Ali", "AIi"),  # a capital I for the l
        ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),  # Cyrillic er, a, u
        ("Karim", "Karirn"),  # rn for m
        ("Bob1", "Bobl"),
        ("Amina", "Ami\u00adna"),  # a soft hyphen, default-ignorable
        ("Ren\u00e9", "Rene\u0301"),
    ],
)
def test_skeleton_of_names_that_look_alike_is_the_same(one, other):
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Amina", "Amine"), ("Ali", "ali"), ("Bilal", "Bila")])
def test_skeleton_of_names_that_read_apart_differs(one, other):
    assert skeleton(one) != skeleton(other)


@given(st.text())
def test_skeleton_is_the_same_in_nfc_and_nfd(text):
    assert skeleton(unicodedata.normalize("NFC", text)) == skeleton(
        unicodedata.normalize("NFD", text)
    )


def test_prototypes_are_unicodes_confusables():
    table = prototypes()

    assert (len(table) > 6000, table["\u0430"], table["m"], table["\u0661"]) == (
        True,
        "a",
        "rn",
        "l",
    )


def test_parse_confusables_reads_sources_prototypes_and_skips_comments():
    text = (
        "\ufeff# confusables.txt\n"
        "# Version: 13.0.0\n"
        "\n"
        "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#\n"
        "006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, N\n"
    )

    assert parse_confusables(text) == {"\u0430": "a", "m": "rn"}


# --- look_alike ----------------------------------------------------------------------------


def test_look_alike_finds_a_name_like_an_earlier_one():
    assert look_alike(["Amina", "Bilal", CYRILLIC_A + "mina"]) == (CYRILLIC_A + "mina", "Amina")


def test_look_alike_finds_a_name_like_a_known_one():
    assert look_alike(["Chafik", CYRILLIC_A + "li"], known=["Ali", "Bilal"]) == (
        CYRILLIC_A + "li",
        "Ali",
    )


def test_look_alike_does_not_say_the_same_name_twice():
    assert look_alike(["Amina", "Ren\u00e9", "Rene\u0301"], known=["Amina"]) is None


def test_look_alike_does_not_compare_the_known_names_with_each_other():
    assert look_alike(["Chafik"], known=["Ali", CYRILLIC_A + "li"]) is None


@given(st.text(min_size=1))
def test_look_alike_a_name_and_itself_in_nfd_do_not_look_alike(name):
    assert look_alike([name, unicodedata.normalize("NFD", name)]) is None


def test_name_key_is_nfc_then_case_folded():
    assert (name_key("RENE\u0301"), name_key("Straße")) == ("ren\u00e9", "strasse")


# --- the record's players -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "said", "seat", "other"),
    [
        (
            ["Amina", "Bilal", CYRILLIC_A + "mina", "Dalila"],
            f'"{CYRILLIC_A}mina" and "Amina"',
            2,
            0,
        ),
        (["Ali", "Bilal", "Chafik", CYRILLIC_A + "li"], f'"{CYRILLIC_A}li" and "Ali"', 3, 0),
        (["Ali", "AIi", "Chafik", "Dalila"], '"AIi" and "Ali"', 1, 0),
    ],
)
def test_check_players_refuses_names_that_look_alike_naming_both(names, said, seat, other):
    with pytest.raises(RulesError) as error:
        check_players(names)

    assert (str(error.value), error.value.params["seat"], error.value.params["other"]) == (
        f"players: {said} look alike",
        seat,
        other,
    )


def test_check_players_refuses_a_bidi_control_naming_its_seat():
    with pytest.raises(RulesError) as error:
        check_players(["Amina", "Bilal", "Cha\u202efik", "Dalila"])

    assert (str(error.value), error.value.params["seat"]) == (
        "players: seat 2: character 4 is U+202E RIGHT-TO-LEFT OVERRIDE, "
        "a control or invisible character",
        2,
    )


def test_check_players_keeps_names_in_nfc():
    assert check_players(["Rene\u0301", "Bilal", "Chafik", "Dalila"]) == (
        "Ren\u00e9",
        "Bilal",
        "Chafik",
        "Dalila",
    )


def test_loads_keeps_players_and_text_in_nfc():
    text = (
        '{"format": "boulmous/1", "players": ["Rene\\u0301", "Bilal", "Chafik", "Dalila"],'
        ' "place": "Cafe\\u0301", "hands": []}'
    )

    record = loads(text)

    assert (record.players[0], record.about.place) == ("Ren\u00e9", "Caf\u00e9")


def test_loads_refuses_a_place_with_a_right_to_left_override():
    text = (
        '{"format": "boulmous/1", "players": ["Amina", "Bilal", "Chafik", "Dalila"],'
        ' "place": "Caf\\u202e", "hands": []}'
    )

    with pytest.raises(RecordError) as error:
        loads(text)

    assert str(error.value) == (
        "place: character 4 is U+202E RIGHT-TO-LEFT OVERRIDE, a control or invisible character"
    )


def test_tellable_names_cut_never_leaves_a_letter_without_its_harakat():
    # مُحَمَّدٌ: the sixth character, a mim, carries a fatha and a shadda; both stay with it.
    shown = tellable_names(("مُحَمَّدٌ بن علي", "Amina", "Bilal", "Chafik"))

    assert shown == ("مُحَمَّ…", "Amina", "Bilal", "Chafik")


def test_tellable_names_alike_all_through_are_told_by_their_seats():
    # "Mohamed Ali" and "Mohamed Ali Ali" part only where the first ends: both would read
    # "Moh…Ali", so every seat is numbered.
    shown = tellable_names(("Mohamed Ali", "Mohamed Ali Ali", "Amina", "Bilal"))

    assert shown == ("1·Moha…", "2·Moha…", "3·Amin…", "4·Bila…")


@pytest.mark.parametrize(
    ("names", "labels"),
    [
        (("Amina", "Bilal", "Chafik", "Dalila"), ("Amina", "Bilal", "Chafik", "Dalila")),
        (
            (
                "Yasmina Benali-Ouahrani",
                "Yasmine Belkacem Ould Abderrahmane",
                "Mohamed Amine Ben Abdelkader Zerhouni",
                "Mohamed Amine Ben Abdelkader Zitouni-Ali",
            ),
            ("Yasmina", "Yasmine", "Moh…Zer", "Moh…Zit"),
        ),
        (
            ("Yasmina", "Yasmina Benali", "Abdallah", "Abdelkader"),
            ("Yasmina", "Yas…Ben", "Abdall…", "Abdelk…"),
        ),
        (
            ("Ali", "Alia Benali", "Alexandre Dupont", "Alexandra Dupont"),
            ("Ali", "Alia", "Ale…dre", "Ale…dra"),
        ),
        (  # they part far into a long word: its last three letters before they part
            ("Mohamed Abdelkader", "Mohamed Abdelkrim", "Amina", "Bilal"),
            ("Moh…lka", "Moh…lkr", "Amina", "Bilal"),
        ),
    ],
)
def test_tellable_names_fit_seven_characters_and_tell_the_players_apart(names, labels):
    shown = tellable_names(names)

    assert shown == labels
    assert all(len(label) <= 7 for label in shown)
    assert len(set(shown)) == len(shown)


@given(
    st.lists(st.text(alphabet="ab ", min_size=1, max_size=40), min_size=4, max_size=4, unique=True)
)
def test_tellable_names_are_always_four_different_labels(names):
    assert len(set(tellable_names(names))) == 4


# Names in the reader's order.


def test_sorted_by_name_puts_elodie_between_dounia_and_farid():
    names = ["Yasmine", "Farid", "Élodie", "Dounia", "élodie", "Emna"]

    assert sorted_by_name(names, str) == ["Dounia", "élodie", "Élodie", "Emna", "Farid", "Yasmine"]


def test_sorted_by_name_orders_arabic_names_in_the_arabic_alphabet():
    # By code point, أحمد and إيمان (alef with hamza) come before ابتسام (bare alef).
    names = ["ياسين", "إيمان", "بلال", "أحمد", "زينب", "ابتسام", "ثابت"]

    assert sorted_by_name(names, str) == [
        "ابتسام",
        "أحمد",
        "إيمان",
        "بلال",
        "ثابت",
        "زينب",
        "ياسين",
    ]


def test_collation_key_is_the_same_in_nfc_and_nfd():
    name = "Élodie Bénard"

    assert collation_key(unicodedata.normalize("NFD", name)) == collation_key(name)


# --- First name and initial: the rule --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Amina Belhaj", "Amina B."),
        ("Dalila", "Dalila"),
        ("Jean de la Fontaine", "Jean F."),
        ("Jean-Luc Dupont-Moretti", "Jean-Luc D."),
        ("محمد بن علي", "محمد ع."),
        ("عبد الله العمري", "عبد ع."),
        ("  Amina   Belhaj ", "Amina B."),
        ("Élodie Éluard", "Élodie É."),
    ],
)
def test_first_name_and_initial_of_a_name_gives_the_documented_form(name, shown):
    assert first_name_and_initial(name) == shown
