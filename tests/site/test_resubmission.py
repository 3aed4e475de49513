"""Every form that makes something makes it once (scoring/common/once.py): sent again as it
was drawn (Back and resend, a double tap, a plain POST twice), it leads to what the first
sending made, with a word that it was already sent, and makes nothing more."""

import re
from datetime import timedelta
from unittest.mock import patch

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from scoring.accounts.models import ApiToken
from scoring.clubs.models import Club, Member, Night, Season
from scoring.common import once
from scoring.common.models import FormSent
from scoring.infra.jobs import Job
from scoring.table.models import Game
from tests.clubs.factories import club_data, club_game_data, make_club, record_line, season_data
from tests.clubs.races import ROUNDS, at_once, new_club, racing
from tests.factories import new_game_data

pytestmark = pytest.mark.django_db

ONCE = re.compile(r'<input type="hidden" name="once" value="([^"]+)"')
ALREADY = "This form was already sent: here is what it made, once."


@pytest.fixture
def amina():
    user = User.objects.create(username="amina")
    make_club(user)
    return user


def browser_of(user):
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


def token_of(browser, page):
    """The one-time token of the form that ``page`` draws."""
    found = ONCE.findall(browser.get(page).content.decode())
    assert len(found) == 1
    return found[0]


def game_page(game):
    return f"/games/{game.public_id}/"


CREATE_FORMS = {
    # form page, where it posts, what it posts, what it makes, the page of what it made
    "new game": ("/games/new", "/games/new", new_game_data(), Game, game_page),
    "club game": (
        "/clubs/sfax/games/new",
        "/clubs/sfax/games/new",
        club_game_data(),
        Game,
        game_page,
    ),
    "night": (
        "/clubs/sfax/nights/new",
        "/clubs/sfax/nights/new",
        {"date": "2026-12-04", "place": "", "rounds": ""},
        Night,
        lambda night: f"/clubs/sfax/nights/{night.pk}/",
    ),
    "season": (
        "/clubs/sfax/seasons/new",
        "/clubs/sfax/seasons/new",
        season_data(),
        Season,
        lambda season: f"/clubs/sfax/seasons/{season.slug}/",
    ),
    "member": (
        "/clubs/sfax/members",
        "/clubs/sfax/members",
        {"name": "Élodie", "role": "member"},
        Member,
        lambda member: f"/clubs/sfax/players/{member.pk}/",
    ),
    "club import": (
        "/clubs/sfax/import",
        "/clubs/sfax/import",
        {"text": record_line("g1")},
        Job,
        lambda job: f"/clubs/sfax/jobs/{job.public}",
    ),
    "game import": (
        "/games/import",
        "/games/import",
        {"text": record_line("g1")},
        Game,
        game_page,
    ),
    "club": ("/clubs/new", "/clubs/new", club_data(slug="gabes"), Club, lambda _: "/clubs/gabes/"),
    "API token": (
        "/accounts/",
        "/accounts/tokens/new",
        {"name": "scores sheet"},
        ApiToken,
        lambda _: "/accounts/",
    ),
}


@pytest.mark.parametrize("form", CREATE_FORMS)
def test_create_form_sent_twice_makes_one_and_leads_there_again(amina, form):
    page, address, data, model, page_of = CREATE_FORMS[form]
    browser = browser_of(amina)
    sent = {**data, "once": token_of(browser, page)}
    before = model.objects.count()

    first = browser.post(address, sent)
    second = browser.post(address, sent)
    # The last word said: the first sending's own ("The season … is made") is not read.
    said = [str(message) for message in get_messages(second.wsgi_request)][-1:]
    made = model.objects.order_by("pk").last()

    assert first.status_code in (200, 302)
    assert (model.objects.count() - before, second.status_code) == (1, 302)
    assert (said, second["Location"]) == ([ALREADY], page_of(made))
    assert browser.get(second["Location"]).status_code == 200


def test_create_form_refused_keeps_its_token_good_for_the_corrected_form(amina):
    browser = browser_of(amina)
    token = token_of(browser, "/clubs/sfax/seasons/new")

    refused = browser.post(
        "/clubs/sfax/seasons/new", {**season_data(last_day="2025-01-01"), "once": token}
    )
    made = browser.post("/clubs/sfax/seasons/new", {**season_data(), "once": token})

    assert (refused.status_code, made.status_code, Season.objects.count()) == (422, 302, 1)


def test_create_form_older_than_a_week_is_drawn_again_with_a_new_token(amina):
    browser = browser_of(amina)
    with patch("django.core.signing.time.time", return_value=1.0e9):
        old = once.new_token()

    response = browser.post("/clubs/sfax/nights/new", {"date": "2026-12-04", "once": old})
    fresh = ONCE.findall(response.content.decode())

    assert (response.status_code, Night.objects.count()) == (422, 0)
    assert [(each != old, once.read_token(each) is not None) for each in fresh] == [(True, True)]
    assert "This form was opened too long ago" in response.content.decode()


def test_create_form_tokens_past_their_week_are_let_go(amina):
    browser = browser_of(amina)
    FormSent.objects.create(
        token="6f1f0cf6-6a0c-4bde-9d2f-0a6a1d3f3b11",
        address="/clubs/sfax/",
        sent_at=timezone.now() - once.GOOD_FOR - timedelta(minutes=1),
    )

    browser.post(
        "/clubs/sfax/nights/new",
        {"date": "2026-12-04", "once": token_of(browser, "/clubs/sfax/nights/new")},
    )

    assert list(FormSent.objects.values_list("address", flat=True)) == [
        f"/clubs/sfax/nights/{Night.objects.get().pk}/"
    ]


@racing
@pytest.mark.django_db(transaction=True)
def test_create_form_sent_twice_at_once_makes_one_and_both_lead_there():
    for round_ in range(ROUNDS):
        club, amina = new_club(round_)
        page = f"/clubs/{club.slug}/nights/new"
        browsers = [browser_of(amina), browser_of(amina)]
        sent = {"date": "2026-12-04", "once": token_of(browsers[0], page)}

        responses = at_once(
            *(
                lambda browser=browser, page=page, sent=sent: browser.post(page, sent)
                for browser in browsers
            )
        )

        night = Night.objects.get(club=club)
        assert [(response.status_code, response["Location"]) for response in responses] == [
            (302, f"/clubs/{club.slug}/nights/{night.pk}/")
        ] * 2
