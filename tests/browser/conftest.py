"""Browser tests: Debian's Chromium, driven through Playwright, at a phone's size.

Skipped where /usr/bin/chromium is missing (CI installs it). Playwright's sync API
keeps an event loop running in the main thread, where the tests and pytest-django
also use the ORM: Django's async-safety check must be relaxed for the session.
"""

import os
import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from scoring.accounts.tokens import create_token
from scoring.clubs import jobs as club_jobs
from scoring.clubs import services as club_services
from scoring.clubs.events import services as event_services
from scoring.clubs.federation import services as federation_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ForbiddenPair, MailTry, Member
from scoring.clubs.nights import services as night_services
from scoring.common.rights import COOKIE, Actor
from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game
from tests.browser.phone import BROWSER, CHROMIUM, PASSWORD, PHONE
from tests.clubs.cafe import PLAYERS, WON_BY_BILAL, new_club, play
from tests.conftest import scorer_cookie
from tests.factories import LONG_MEMBERS, NAMES

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

HERE = Path(__file__).resolve().parent


FAILED = pytest.StashKey[bool]()
"""Whether a test's call failed: its phones then screenshot their pages."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


LONGEST = (
    "test_organiser_month.py",
    "test_forms_round_trip.py",
    "test_accessibility.py",
    "test_accounts.py",
    "test_every_page_fits.py",
)
"""The files whose tests take longest (tens of seconds each): run first, so that the two
workers share the end of the run evenly rather than one of them ending it alone."""


def pytest_collection_modifyitems(config, items):
    places = [index for index, item in enumerate(items) if HERE in Path(item.path).parents]
    ours = [items[index] for index in places]
    first = {name: rank for rank, name in enumerate(LONGEST)}
    ours.sort(key=lambda item: first.get(Path(item.path).name, len(LONGEST)))
    for index, item in zip(places, ours, strict=True):
        items[index] = item
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"browser tests need Debian's Chromium at {CHROMIUM}")
    for item in ours:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(BROWSER),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


def _whitenoise_only(handler):
    """No test static handler in front of the app: WhiteNoise serves /static/ itself."""
    return handler


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server, with static files served as in production.

    pytest-django puts staticfiles' test handler in front of the app, which answers
    /static/ from the finders: it knows no hashed name and 404s every asset that
    CompressedManifestStaticFilesStorage links. Here WhiteNoise serves them.
    """
    from pytest_django.live_server_helper import LiveServer

    addr = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    server.thread.static_handler = _whitenoise_only
    server.start()
    yield server
    server.stop()


@pytest.fixture
def phone(request, browser, live_server, made_games):
    """phone(lang="en", javascript=True, scorer=True, zone="UTC"): a new page in a fresh
    360x640 context, its clock in time zone ``zone``.

    A scorer phone may score the games the test made before it opened it, as the phone
    that started them; ``scorer=False`` gives a phone that never saw them. When the test
    fails, each page of its phones is screenshot to /tmp/failed-<test>-<n>.png.
    """
    contexts = []

    def open_phone(lang="en", *, javascript=True, scorer=True, zone="UTC"):
        context = browser.new_context(
            viewport=PHONE,
            locale=lang,
            timezone_id=zone,
            extra_http_headers={"Accept-Language": lang},
            java_script_enabled=javascript,
            base_url=live_server.url,
        )
        if scorer and made_games:
            cookie = {"name": COOKIE, "value": scorer_cookie(made_games), "url": live_server.url}
            context.add_cookies([cookie])
        contexts.append(context)
        return context.new_page()

    yield open_phone
    if request.node.stash.get(FAILED, False):
        name = re.sub(r"\W+", "-", request.node.name)
        pages = [page for context in contexts for page in context.pages]
        for number, page in enumerate(pages):
            page.screenshot(path=f"/tmp/failed-{name}-{number}.png", full_page=True)
    for context in contexts:
        context.close()


@pytest.fixture
def cafe(transactional_db):
    """A public club whose admins are Amina Belhaj (account amina) and Bilal Chebbi
    (account bilal), with a game played."""
    amina = User.objects.create_user("amina", "", PASSWORD)
    bilal = User.objects.create_user("bilal", "", PASSWORD)
    club = new_club(amina)
    play(club, WON_BY_BILAL, owner=amina)
    Member.objects.filter(club=club, name=PLAYERS[1]).update(user=bilal, role=Member.Role.ADMIN)
    return club


@pytest.fixture
def long_club(transactional_db):
    """A public club playing for 0.50 EUR a stake, its name, its members' names and its
    night's place long (tests/factories.py LONG_MEMBERS), Amina its admin (account amina)
    and Yasmina a member (account yasmina); a season around today; a night at a
    mixed-script place whose first round both tables won with four boulmous (each loser
    -2.50 EUR), its second round drawn, table 1 one failed contract in (a negative total).

    Returns the arguments of every address of the site, by name (tests/factories.py
    ``address``), the secrets, the users and the game still playing."""
    amina = User.objects.create_user("amina", "", PASSWORD)
    yasmina = User.objects.create_user("yasmina", "", PASSWORD)
    club = club_services.create_club(
        name="Club des Cartes de la Médina de Sousse",
        slug="medina",
        time_zone="Africa/Tunis",
        rules=Rules(stake=Decimal("0.50"), currency="EUR"),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=False,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    today = timezone.localdate()
    season = club_services.create_season(
        club=club,
        name="Saison d’hiver des quatre boulmous",
        slug="hiver",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
        handicap_cup=True,
    )
    members = [member_services.add_member(club=club, name=name) for name in LONG_MEMBERS]
    Member.objects.filter(pk=members[2].pk).update(user=yasmina)
    # A night of last week, every table won: with tonight's, a federation ranks Yasmina.
    last_week = night_services.create_night(
        club=club, date=today - timedelta(days=7), place="", rounds=1
    )
    night_services.check_in(night_id=last_week.pk, member_ids=[m.pk for m in members], guests=[])
    night_services.draw_round(night_id=last_week.pk, owner_id=amina.pk)
    for game in Game.objects.filter(club_game__round__night=last_week):
        for number in range(1, 5):
            services.record_hand(
                public_id=game.public_id,
                number=number,
                hand=Hand(Contract(0, 6, Trump.HEARTS), (6, 0, 0, 0)),
                token=None,
            )
    night_services.end_night(night_id=last_week.pk)
    night = night_services.create_night(
        club=club, date=today, place="Café Central 2, La Marsa", rounds=2
    )
    night_services.check_in(night_id=night.pk, member_ids=[m.pk for m in members], guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=amina.pk)
    won = Hand(Contract(0, 6, Trump.HEARTS), (6, 0, 0, 0))
    games = Game.objects.filter(club_game__round__night=night).order_by("club_game__table")
    for game in games:
        for number in range(1, 5):
            services.record_hand(public_id=game.public_id, number=number, hand=won, token=None)
    finished = games[0]
    night_services.draw_round(night_id=night.pk, owner_id=amina.pk)
    playing = Game.objects.get(
        club_game__round__night=night, club_game__round__number=2, club_game__table=1
    )
    failed = Hand(Contract(1, 5, Trump.SPADES), (2, 2, 1, 1))
    services.record_hand(public_id=playing.public_id, number=1, hand=failed, token=None)
    link = services.make_scorer_link(public_id=finished.public_id)
    seat = services.make_seat_links(public_id=finished.public_id)[0]
    token = create_token(user=amina, name="Tableau du café").token
    event = long_event(club, members, amina)
    federation = federation_services.create_federation(
        name="Fédération des clubs du Sahel et du Cap Bon",
        slug="sahel",
        public=True,
        admin_user_id=amina.pk,
    )
    federation_services.invite_club(federation=federation, club=club)
    federation_services.answer_invitation(club=club, federation=federation, accept=True)
    # The club's mail that did not go out, on its mail page (issue 43.4): one waiting for
    # its next try, one given up, with the mail server's long words.
    MailTry.objects.create(
        member=members[0],
        night=last_week,
        attempts=2,
        reason="451 4.7.1 <" + LONG_MEMBERS[0].lower().replace(" ", ".") + "@example.org>: "
        "Recipient address rejected: greylisted, see https://postmaster.example.org/greylisting",
        retry_at=timezone.now() + timedelta(minutes=5),
    )
    MailTry.objects.create(
        member=members[1], season=season, attempts=5, reason="ConnectionRefusedError: [Errno 111]"
    )
    # An import waiting for the worker (issue 43): its page.
    job = club_jobs.queue_import(
        club=club,
        source=b'{"format": "boulmous/1"}\n',
        lines=1,
        owner_id=amina.pk,
        by=Actor(user_id=amina.pk),
        language="en",
    )
    arguments = {
        "job": job.public,
        "gid": finished.public_id,
        "number": 1,
        "link_id": link.pk,
        "seat": 0,
        "club": club.slug,
        "season": season.slug,
        "night": night.pk,
        "federation": federation.slug,
        "admin_id": amina.pk,
        "member_id": members[1].pk,
        "uidb64": "MQ",
        "token": "set-password",
        "what": "nights",
        "token_id": token.pk,
        "game_id": finished.public_id,
        "player_id": members[1].pk,
        "night_id": night.pk,
        "event": event.pk,
        "event_id": event.pk,
        "pair": ForbiddenPair.objects.get(event=event).pk,
    }
    secrets = {"join": link.secret, "join_club": club.invite_secret, "seat": seat.code}
    return {
        "arguments": arguments,
        "secrets": secrets,
        "admin": amina,
        "member": yasmina,
        "playing": playing.public_id,
    }


def long_event(club, members, amina):
    """An event of the long club with a long name, its players entered, a pair never
    together, a fee and prizes, its round 1 published (one table settled, with a reason)
    and its round 2 a draft: every section of its page shown."""
    by = Actor(user_id=amina.pk)
    event = event_services.create_event(
        club=club,
        settings={
            "name": "Championnat d’hiver des quatre boulmous de la Médina",
            "points": [3, 2, 1, 0],
            "sit_out_points": "average",
            "best_nights": 1,
            "min_attendance": Decimal("0.75"),
            "hide_last_rounds": 1,
            "counts_in_season": True,
            "final": "consolation",
            "carry_over": "0.5",
            "entry_fee": Decimal("12.50"),
            "fee_currency": "EUR",
            "prize_kind": "share",
            "prizes": ["50", "30", "20"],
            "public": True,
        },
        rules=club.rules,
        night=(timezone.localdate() + timedelta(days=7), "Café Central 2, La Marsa", 3),
        by=by,
    )
    event_services.add_night(
        event_id=event.pk, date=timezone.localdate() + timedelta(days=14), place="", rounds=3
    )
    entrants = [member.pk for member in members]
    event_services.enter(event_id=event.pk, member_ids=entrants, guests=[], by=by)
    event_services.forbid_pair(
        club=club, event_id=event.pk, first_id=entrants[0], second_id=entrants[1], by=by
    )
    first_night = event.nights.order_by("date").first()
    night_services.check_in(night_id=first_night.pk, member_ids=entrants, guests=[])
    drawn = event_services.draw_round(event_id=event.pk, number=1, method="random", by=by)
    event_services.publish(
        event_id=event.pk,
        number=1,
        key=event_services.draft_key(drawn),
        owner_id=amina.pk,
        by=by,
    )
    for table in range(1, len(drawn.tables) + 1):
        event_services.settle_table(
            event_id=event.pk,
            number=1,
            table=table,
            totals=[-12, 7, 31, 0],
            reason="La soirée a fini à minuit, le café fermait",
            by=by,
        )
    event_services.draw_round(event_id=event.pk, number=2, method="swiss", by=by)
    return event


@pytest.fixture
def waiting(transactional_db):
    """A game played under each-hand confirmation whose hand 1, entered from Bilal's seat,
    waits for another seat (the confirmation and offline-agreement tests')."""
    game = services.create_game(
        names=NAMES, rules=Rules(confirmation=Confirmation.EACH_HAND), first_dealer=0
    ).game
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
        seat=1,
    )
    return game
