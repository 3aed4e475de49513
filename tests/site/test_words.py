"""How names and places are said in each language: French elides before a vowel, places
read as words."""

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe

from scoring.clubs import history
from scoring.common.rights import NOBODY
from scoring.common.words import elide, isolate, say_place
from tests.clubs.league_games import new_club


@pytest.mark.parametrize(
    ("text", "names", "said"),
    [
        ("Toutes les parties de Omar", ["Omar"], "Toutes les parties d’Omar"),
        ("La partie de Élodie est supprimée.", ["Élodie"], "La partie d’Élodie est supprimée."),
        ("De Inès à Karim", ["Inès", "Karim"], "D’Inès à Karim"),
        ("le courriel que Ariana envoie", ["Ariana"], "le courriel qu’Ariana envoie"),
        ("celui de <bdi>Ugo</bdi>", ["Ugo"], "celui d’<bdi>Ugo</bdi>"),
        ("Les parties de Hélène", ["Hélène"], "Les parties d’Hélène"),
        ("Les parties de Hamza", ["Hamza"], "Les parties de Hamza"),
        ("Les parties de Yasmine", ["Yasmine"], "Les parties de Yasmine"),
        ("le 4 de Omar, le bide de Karim", ["Karim"], "le 4 de Omar, le bide de Karim"),
        ("Le classement de Automne 2026", ["Automne 2026"], "Le classement d’Automne 2026"),
        ("un mode de Omarr", ["Omar"], "un mode de Omarr"),
    ],
)
def test_french_elides_before_a_name_that_starts_with_a_vowel_sound(text, names, said):
    with translation.override("fr"):
        assert elide(text, names) == said


def test_english_is_left_as_it_is():
    with translation.override("en"):
        assert elide("the games de Omar", ["Omar"]) == "the games de Omar"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Toutes les parties d’O&#x27;Neil &amp; Co"),
        ("en", "All the games of O&#x27;Neil &amp; Co"),
        ("ar", "كل مباريات O&#x27;Neil &amp; Co"),
    ],
)
def test_a_template_elides_a_name_as_its_html_holds_it(language, said):
    template = Template(
        "{% blocktranslate with name=name asvar all %}All the games of {{ name }}"
        "{% endblocktranslate %}{{ all|elide:name }}"
    )

    with translation.override(language):
        assert template.render(Context({"name": "O'Neil & Co"})) == said


@pytest.mark.django_db
def test_history_line_in_french_puts_a_no_break_space_before_its_colon(client):
    admin = get_user_model().objects.create_user("amina", password="x")
    club = new_club(admin)
    history.log(club, NOBODY, "season_edited", "Automne")
    client.force_login(admin)

    html = client.get(f"/clubs/{club.slug}/history", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "<strong>saison modifiée</strong>\u00a0: <bdi>Automne</bdi>" in html


@pytest.mark.parametrize(
    ("language", "places"),
    [
        ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"]),
        ("fr", ["1re", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "111e"]),
        (
            "ar",
            [
                "الأول",
                "الثاني",
                "الثالث",
                "الرابع",
                "الـ11",
                "الـ12",
                "الـ13",
                "الـ21",
                "الـ22",
                "الـ111",
            ],
        ),
    ],
)
def test_a_place_reads_as_a_word_in_each_language(language, places):
    with translation.override(language):
        said = [say_place(place) for place in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)]

    assert said == places


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "2nd place"), ("fr", "2e place"), ("ar", "المركز الثاني")],
)
def test_a_place_in_a_sentence_reads_as_a_word(language, said):
    template = Template(
        "{% blocktranslate with place=rank|place %}{{ place }} place{% endblocktranslate %}"
    )

    with translation.override(language):
        assert template.render(Context({"rank": 2})) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [("ar", "\u2068Amina B.\u2069"), ("fr", "Amina B."), ("en", "Amina B.")],
)
def test_isolate_isolates_a_name_in_a_right_to_left_language_only(language, said):
    with translation.override(language):
        assert isolate("Amina B.") == said


def test_isolate_keeps_safe_html_safe_and_plain_text_plain():
    with translation.override("ar"):
        safe = isolate(mark_safe("<b>Omar</b>"))
        plain = isolate("<b>Omar</b>")

    assert (safe, isinstance(safe, SafeData)) == ("\u2068<b>Omar</b>\u2069", True)
    assert (plain, isinstance(plain, SafeData)) == ("\u2068<b>Omar</b>\u2069", False)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ar", "\u2068Café du Port (Sfax) &amp; Co\u2069"),
        ("fr", "Café du Port (Sfax) &amp; Co"),
        ("en", "Café du Port (Sfax) &amp; Co"),
    ],
)
def test_isolate_filter_in_a_sentence_isolates_the_escaped_name(language, said):
    template = Template(
        "{% blocktranslate with name=club|isolate %}{{ name }}{% endblocktranslate %}"
    )

    with translation.override(language):
        assert template.render(Context({"club": "Café du Port (Sfax) & Co"})) == said


def test_french_elides_before_a_name_isolate_leaves_as_it_is():
    with translation.override("fr"):
        assert elide(f"la partie de {isolate('Omar')}", ["Omar"]) == "la partie d’Omar"
