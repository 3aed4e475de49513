"""A name typed by a person, put into a translated sentence, arrives isolated on an Arabic
page (between U+2068 and U+2069, scoring/common/words.py ``isolate``), so that the bidi
algorithm does not turn ``Amina B.`` into ``.Amina B``; in French and English it arrives as
it was typed. One test per kind of sentence: a message, a page's notice, a mail's subject, a
template's ``{% blocktranslate %}``."""

import re

import pytest
from django.contrib.messages import get_messages
from django.core import mail as django_mail
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from scoring.accounts import services as account_services
from scoring.clubs import mail
from scoring.clubs.models import Club, Member
from scoring.common.words import say_day
from tests.clubs.factories import signed_in
from tests.clubs.night_money import PLAYERS, new_night, play_two_rounds
from tests.jobs import run_jobs

pytestmark = pytest.mark.django_db

CLUB = "Café du Port (Sfax)"
PLAYER = "Amina B."
ISOLATED = {
    "ar": ("\u2068Café du Port (Sfax)\u2069", "\u2068Amina B.\u2069"),
    "fr": (CLUB, PLAYER),
    "en": (CLUB, PLAYER),
}
LANGUAGES = ["ar", "fr", "en"]


@pytest.fixture
def named(club):
    """Sfax renamed ``Café du Port (Sfax)``, its admin Amina ``Amina B.``."""
    Club.objects.filter(pk=club.pk).update(name=CLUB)
    Member.objects.filter(club=club, name="Amina").update(name=PLAYER)
    return Club.objects.get(pk=club.pk)


@pytest.mark.parametrize("language", LANGUAGES)
def test_message_of_a_role_given_isolates_the_name_in_arabic_only(amina, named, language):
    bilal = named.members.get(name="Bilal")
    Member.objects.filter(pk=bilal.pk).update(name=PLAYER + " 2")

    response = signed_in(amina).post(
        f"/clubs/sfax/members/{bilal.pk}/role", {"role": "scorer"}, HTTP_ACCEPT_LANGUAGE=language
    )

    with translation.override(language):
        name = "\u2068Amina B. 2\u2069" if language == "ar" else "Amina B. 2"
        said = gettext("%(name)s is now %(role)s.") % {
            "name": name,
            "role": Member.Role.SCORER.label,
        }
    assert [str(message) for message in get_messages(response.wsgi_request)] == [said]


@pytest.mark.parametrize("language", LANGUAGES)
def test_notice_of_the_last_admin_isolates_the_name_in_arabic_only(amina, named, language):
    me = named.members.get(name=PLAYER)

    response = signed_in(amina).post(
        f"/clubs/sfax/members/{me.pk}/role", {"role": "member"}, HTTP_ACCEPT_LANGUAGE=language
    )

    with translation.override(language):
        notice = gettext(
            "The club keeps at least one admin with an account: %(name)s stays one."
        ) % {"name": ISOLATED[language][1]}
    assert (response.status_code, response.context["notice"]) == (409, notice)


@pytest.mark.parametrize("language", LANGUAGES)
def test_night_mail_subject_isolates_the_club_in_arabic_only(amina, named, organiser, language):
    account_services.change_email(user=amina, address="amina@example.org")
    account_services.verify_email(user_id=amina.pk, address="amina@example.org")
    signed_in(amina).post("/clubs/sfax/mail", {"nights": "on"}, HTTP_ACCEPT_LANGUAGE=language)
    night = new_night(named, names=(PLAYER, *PLAYERS))
    play_two_rounds(named, organiser, night)

    mail.mail_night.call(night.pk)
    run_jobs()

    (message,) = django_mail.outbox
    with translation.override(language):
        subject = gettext("%(club)s: the ranking of the night of %(date)s") % {
            "club": ISOLATED[language][0],
            "date": say_day(night.date),
        }
    assert message.subject == subject


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_title_sentence_isolates_the_club_in_arabic_only(organiser, named, language):
    html = organiser.get("/clubs/sfax/members", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    title = re.search(r"<title>(.*?)</title>", html, re.S)
    with translation.override(language):
        said = gettext("%(name)s: members") % {"name": ISOLATED[language][0]}
    assert title is not None
    assert title[1] == escape(said)
