"""axe-core (WCAG 2.2 A and AA, and best practices) finds nothing on any page, in any state;
each page has exactly one h1, in English, French and Arabic. axe checks every page in
Arabic, the language with the most to break (right to left, its own script and plurals),
and in English and French one page per template: a template's other pages differ by their
data, which the Arabic pass checks.

The game page's own states (start, mid-game, an error, finished) are checked where
they are reached by taps, in test_one_screen.py.
"""

from contextlib import contextmanager
from decimal import Decimal

import pytest

from scoring.clubs import history as club_history
from scoring.clubs import services as club_services
from scoring.clubs.mail import unsubscribe_token
from scoring.clubs.members import services as member_services
from scoring.clubs.nights import services as night_services
from scoring.common.rights import Actor
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from tests.browser.axe import violations
from tests.browser.templates import rendered_templates
from tests.factories import NAMES
from tests.golden import REVOKED

pytestmark = pytest.mark.browser

PLAY = "taker=0&bid=3&trump=H"


@contextmanager
def checked(lang):
    """``check(page, name)`` after each visit: the page's axe violations (all of them in
    Arabic, the first page of each template in English and French, else none) and its h1
    count; ``forget()`` before each visit (tests/browser/templates.py)."""
    seen = set()

    with rendered_templates() as templates:

        def check(page, name):
            template = templates.first(otherwise=name)
            found = violations(page) if lang == "ar" or template not in seen else []
            seen.add(template)
            return found, page.locator("h1").count()

        yield check, templates.forget


@pytest.fixture
def games(transactional_db):
    """A game with money and two hands, the second a boulmous; and a game just begun."""
    played = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.50")), first_dealer=0, place="Café"
    ).game
    for number, hand in enumerate(
        [
            Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
            Hand(Contract(2, 6, Trump.SPADES), tricks=(0, 0, 6, 0)),
        ],
        start=1,
    ):
        services.record_hand(public_id=played.public_id, number=number, hand=hand, token=None)
    fresh = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    services.make_scorer_link(public_id=played.public_id)
    return played, fresh


def pages(played, fresh):
    """Every page and state to check: (name, address, what to do there first)."""
    cards = REVOKED.split(",")
    return [
        ("home", "/", None),
        ("new game, rules open", "/games/new", "details.rules summary"),
        ("editing a hand", f"/games/{played.public_id}/hands/2/edit", None),
        ("card by card, start", f"/games/{fresh.public_id}/hands/1/play?{PLAY}", None),
        (
            "card by card, mid-trick",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={','.join(cards[:6])}",
            None,
        ),
        (
            "card by card, complete with a revoke",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={REVOKED}",
            None,
        ),
        ("calculator", "/referee/trick?trump=H&cards=JD,AH,9C,JH", None),
        ("rules", f"/rules?game={played.public_id}", None),
        ("settlement", f"/games/{played.public_id}/settlement", None),
        ("import", "/games/import", None),
        ("share", f"/games/{played.public_id}/share", None),
        (
            "scorer link opened",
            f"/games/{played.public_id}/score/{played.scorer_links.get().secret}",
            None,
        ),
        ("a game watched", f"/games/{played.public_id}/", "watch"),
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_page_has_one_h1_and_no_axe_violation(phone, games, lang):
    page = phone(lang)
    found = {}

    with checked(lang) as (check, forget):
        for name, address, first in pages(*games):
            if first == "watch":  # another phone, which may only watch
                page = phone(lang, scorer=False)
            forget()
            page.goto(address)
            if first and first != "watch":
                page.locator(first).click()
            found[name] = check(page, name)

    assert found == {name: ([], 1) for name, _address, _first in pages(*games)}


@pytest.fixture
def club_pages(transactional_db):
    """A public club with a season, a finished game, a night with a drawn round; its admin."""
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    admin = User.objects.create_user("amina", password="felt-and-trumps-21")
    club = club_services.create_club(
        name="Café du Port",
        slug="port",
        time_zone="Africa/Tunis",
        rules=Rules(stake=Decimal("0.50")),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name=NAMES[0],
    )
    today = timezone.localdate()
    club_services.create_season(
        club=club,
        name="Autumn",
        slug="autumn",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
    )
    state = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=admin.pk)
    for number in range(1, 5):
        hand = Hand(Contract(1, 6, Trump.HEARTS), tricks=(0, 6, 0, 0))
        services.record_hand(public_id=state.game.public_id, number=number, hand=hand, token=None)
    night = night_services.create_night(club=club, date=today, place="", rounds=2)
    ids = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=ids, guests=["Élodie"])
    night_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    member = club.members.get(name="Bilal")
    other = club.members.get(name=NAMES[2])  # sat with Bilal: a merge refused
    guest = member_services.add_member(club=club, name="Bilall")
    idle = member_services.add_member(club=club, name="Zied")
    # A join waiting for an admin: on the club page and the members page.
    newcomer = User.objects.create_user("nour")
    member_services.join_club(club=club, user_id=newcomer.pk, member_id=None, name="Nour")
    club_history.log(club, Actor(user_id=admin.pk), "member_renamed", "Omarr")
    base = "/clubs/port"
    nights = f"{base}/nights/{night.pk}"
    return [
        ("clubs", "/clubs/"),
        ("new club", "/clubs/new"),
        ("club", f"{base}/"),
        ("games, filtered", f"{base}/games/?q=a&status=won"),
        ("invite link replaced", f"{base}/join/not-the-link"),
        ("settings", f"{base}/settings"),
        ("history", f"{base}/history"),
        ("members", f"{base}/members"),
        ("member remove", f"{base}/members/{member.pk}/remove"),
        ("member rename", f"{base}/members/{member.pk}/rename"),
        ("member merge, what follows", f"{base}/members/{guest.pk}/merge?into={member.pk}"),
        ("member merge, refused", f"{base}/members/{member.pk}/merge?into={other.pk}"),
        ("member retire", f"{base}/members/{member.pk}/retire"),
        ("member delete", f"{base}/members/{idle.pk}/delete"),
        ("new season", f"{base}/seasons/new"),
        ("new club game", f"{base}/games/new"),
        ("club import", f"{base}/import"),
        ("join", f"{base}/join/{club.invite_secret}"),
        ("season", f"{base}/seasons/autumn/"),
        ("season edit", f"{base}/seasons/autumn/edit"),
        ("season delete", f"{base}/seasons/autumn/delete"),
        ("game delete", f"{base}/games/{state.game.public_id}/delete"),
        ("all-time standings", f"{base}/standings/"),
        ("standings print", f"{base}/seasons/autumn/print"),
        ("player", f"{base}/players/{member.pk}/"),
        ("new night", f"{base}/nights/new"),
        ("night", f"{nights}/"),
        ("night edit", f"{nights}/edit"),
        ("night delete", f"{nights}/delete"),
        ("close the round, asked", f"{nights}/close"),
        ("end the night, asked", f"{nights}/end"),
        ("table sheet", f"{nights}/rounds/1/sheet"),
        ("table cards", f"{nights}/rounds/1/cards"),
        ("night ranking", f"{nights}/ranking"),
        ("mail from the club", f"{base}/mail"),
        ("mail, stop asked", f"/mail/unsubscribe/nights/{unsubscribe_token(member.pk, 'nights')}"),
        ("season framed on a website", f"{base}/seasons/autumn/embed"),
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_every_club_page_has_one_h1_and_no_axe_violation(phone, club_pages, lang):
    page = phone(lang)
    page.goto("/accounts/login/")
    page.fill("#id_username", "amina")
    page.fill("#id_password", "felt-and-trumps-21")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    found = {}

    with checked(lang) as (check, forget):
        for name, address in club_pages:
            forget()
            page.goto(address)
            found[name] = check(page, name)

    assert found == {name: ([], 1) for name, _address in club_pages}
