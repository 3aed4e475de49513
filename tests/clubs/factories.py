"""What the clubs' tests make: accounts signed in without a password, the club Sfax, its
players in a role, the forms' and records' data, and a club's stored results."""

import json
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.test import Client

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member
from scoring.engine import About, Contract, Hand, Record, Rules, Trump
from tests.factories import run_jobs


def account(username):
    """An account; tests sign it in without a password (hashing one takes long)."""
    return User.objects.create(username=username)


def signed_in(user):
    browser = Client()
    browser.force_login(user)
    return browser


def make_club(
    admin,
    *,
    public=False,
    invite_admits=False,
    slug="sfax",
    time_zone="Africa/Tunis",
    points=(3, 2, 1, 0),
    players=(),
    **rules,
):
    """The club Sfax, whose first admin is ``admin``, known there as Amina, and ``players``
    added after her, in this order."""
    club = club_services.create_club(
        name="Sfax",
        slug=slug,
        time_zone=time_zone,
        rules=Rules(**rules),
        points=points,
        public=public,
        invite_admits=invite_admits,
        admin_user_id=admin.pk,
        admin_name="Amina",
    )
    for name in players:
        member_services.add_member(club=club, name=name)
    return club


def with_role(club, name, role):
    """An account that is the club's player ``name`` in ``role``."""
    user = account(name.lower())
    Member.objects.create(club=club, name=name, key=name.casefold(), role=role, user=user)
    return user


def club_data(**changes):
    data = {
        "name": "Club de Sfax",
        "slug": "",
        "your_name": "Amina",
        "time_zone": "Africa/Tunis",
        "target": "31",
        "failed_taker": "minus_bid",
        "stake": "0.5",
        "currency": "TND",
        "points_0": "4",
        "points_1": "2",
        "points_2": "1",
        "points_3": "0",
        "public": "on",
    }
    data.update(changes)
    return data


def record_line(record_id, *, taker=1, players=("Amina", "Bilal", "Chafik", "Dalila"), **extra):
    """A won game at 3 points as one line of a records.jsonl: ``taker`` makes 3 at hearts."""
    tricks = [1, 1, 1, 1]
    tricks[taker] = 3
    record = {
        "format": "boulmous/1",
        "id": record_id,
        "finished_at": "2025-03-01T20:00:00Z",
        "players": list(players),
        "first_dealer": 0,
        "rules": {"target": 3, "failed_taker": "tricks_minus_bid", "stake": "0", "currency": "EUR"},
        "hands": [{"taker": taker, "bid": 3, "trump": "H", "tricks": tricks}],
    }
    record.update(extra)
    return json.dumps(record)


def errors(response):
    """The form's errors above its fields, as the page shows them."""
    html = response.content.decode()
    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', html, re.S)
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", box.group(1))]


def season_data(**changes):
    data = {
        "name": "Spring 2025",
        "slug": "",
        "first_day": "2025-03-01",
        "last_day": "2025-05-31",
        "points_0": "3",
        "points_1": "2",
        "points_2": "1",
        "points_3": "0",
    }
    data.update(changes)
    return data


def club_game_data(**changes):
    data = {
        "player_0": "Amina",
        "player_1": "Bilal",
        "player_2": "Chafik",
        "player_3": "Zoé",
        "first_dealer": "0",
    }
    data.update(changes)
    return data


START = datetime(2025, 3, 6, 19, 0, tzinfo=UTC)


RESULT_FIELDS = ("game__record_id", "seat", "position", "finished_at", "key", "rank", "total")
RESULT_FIELDS += ("won", "taken", "made", "boites", "units", "contracts", "amount", "mu", "sigma")


def results(club):
    return list(
        ClubResult.objects.filter(club=club)
        .order_by("position", "seat")
        .values_list(*RESULT_FIELDS)
    )


def won_record(number, players, taker, finished=None, record_id=None):
    """A game won by ``taker`` at its fourth hand: he bids 3 and takes all six tricks
    each time (24 points, the target 21)."""
    tricks = tuple(6 if seat == taker else 0 for seat in range(4))
    finished = finished or START + timedelta(hours=number)
    return Record(
        players=players,
        first_dealer=number % 4,
        rules=Rules(stake=Decimal("0.50")),
        hands=(Hand(), *(Hand(Contract(taker, 3, Trump.HEARTS), tricks=tricks) for _ in range(4))),
        about=About(
            id=record_id or f"rec-{number}",
            started_at=finished - timedelta(minutes=30),
            finished_at=finished,
            place="Café de la Gare",
        ),
    )


def unfinished_record(number, players):
    return Record(
        players=players,
        hands=(Hand(Contract(0, 4, Trump.SPADES), tricks=(4, 1, 1, 0)),),
        about=About(
            id=f"open-{number}",
            started_at=START,
            finished_at=START + timedelta(minutes=5),
            abandoned=True,
            place="Café de la Gare",
        ),
    )


def some_records():
    """Five won games among six players, one abandoned; two finished at the same time
    (so the record id decides), and a name written in another case than the club's."""
    return [
        won_record(1, ("Amina", "Bilal", "Chafik", "Dalila"), taker=2),
        won_record(2, ("Emna", "Farid", "amina", "Bilal"), taker=0),
        unfinished_record(3, ("Chafik", "Dalila", "Emna", "Farid")),
        won_record(5, ("Dalila", "Emna", "Farid", "Chafik"), taker=3, record_id="rec-b"),
        won_record(5, ("Bilal", "Chafik", "Amina", "Emna"), taker=1, record_id="rec-a"),
        won_record(4, ("Farid", "Amina", "Dalila", "Bilal"), taker=1),
    ]


def settings_form(**changes):
    values = {
        "name": "Sfax",
        "time_zone": "Europe/Paris",
        "target": 10,
        "failed_taker": "tricks_minus_bid",
        "stake": "0.50",
        "currency": "EUR",
        "points_0": 3,
        "points_1": 2,
        "points_2": 1,
        "points_3": 0,
        "public": "on",
        "invite_admits": "on",
    }
    return values | changes


def import_through(browser, slug, data):
    """A club's records posted to its import page, as its admin sends them; once the page
    sends him to its job, the job run (:func:`tests.factories.run_jobs`) and its page
    read. Returns the last answer: the form refused, or the job's page."""
    response = browser.post(f"/clubs/{slug}/import", data)
    if response.status_code != 302 or "/jobs/" not in response.headers["Location"]:
        return response
    run_jobs()
    return browser.get(response.headers["Location"])
