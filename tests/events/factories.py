"""What the events' tests make: an event of Sfax with its nights, its players entered and
checked in, its rounds drawn and published, its tables settled."""

from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User

from scoring.clubs.events import services
from scoring.clubs.models import ClubGame, EventRound, Member
from scoring.clubs.nights import services as night_services
from scoring.common.forms import RulesFields
from scoring.engine import Contract, Hand, Trump
from scoring.table import services as table_services

PLAYERS = (
    "Bilal",
    "Chafik",
    "Dalila",
    "Emna",
    "Farid",
    "Ghada",
    "Hedi",
    "Inès",
    "Jamel",
    "Karim",
    "Leila",
    "Mounir",
)
"""With Amina, the club's admin: thirteen players."""

SETTINGS = {
    "name": "Championnat 2026",
    "points": [3, 2, 1, 0],
    "sit_out_points": "0",
    "best_nights": None,
    "min_attendance": None,
    "hide_last_rounds": 0,
    "counts_in_season": True,
    "final": "none",
    "carry_over": "1",
    "entry_fee": Decimal(0),
    "fee_currency": "EUR",
    "prize_kind": "share",
    "prizes": [],
    "public": False,
}


def ids(club, *names):
    return [club.members.get(name=name).pk for name in names]


def names_of(club, member_ids):
    found = dict(Member.objects.filter(club=club).values_list("pk", "name"))
    return [found[one] for one in member_ids]


def make_event(club, by, *, nights=((date(2026, 3, 6), 3),), players=(), **settings):
    """An event of the club with its nights (day, rounds), ``players`` entered and checked in
    at each of its nights."""
    event = services.create_event(
        club=club, settings={**SETTINGS, **settings}, rules=club.rules, by=by
    )
    for day, rounds in nights:
        services.add_night(event_id=event.pk, date=day, place="", rounds=rounds, by=by)
    if players:
        services.enter(event_id=event.pk, member_ids=ids(club, *players), guests=[], by=by)
        for night in event.nights.all():
            check_in(night, club, players)
    return event


def check_in(night, club, players):
    night_services.check_in(night_id=night.pk, member_ids=ids(club, *players), guests=[])


def key_of(event, number):
    return services.draft_key(EventRound.objects.get(event=event, number=number))


def next_round(event, by, method="random"):
    """The next round drawn and published; the round."""
    number = EventRound.objects.filter(event=event).count() + 1
    services.draw_round(event_id=event.pk, number=number, method=method, by=by)
    return services.publish(
        event_id=event.pk, number=number, key=key_of(event, number), owner_id=None, by=by
    )


def settle_all(event, number, by, totals=(30, 20, 10, 0)):
    """Every table of round ``number`` settled with these totals, by seat."""
    row = EventRound.objects.get(event=event, number=number)
    for table in range(1, len(row.tables) + 1):
        services.settle_table(
            event_id=event.pk,
            number=number,
            table=table,
            totals=list(totals),
            reason="time",
            by=by,
        )


def games_of(event):
    return ClubGame.objects.filter(round__event_round__event=event).order_by("table")


def rules_data(club):
    """The rule fields as the event's form posts the club's rules (a box left unticked is
    not sent)."""
    data = {}
    for name, value in RulesFields.initial_of(club.rules).items():
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    return data


def event_data(club, **changes):
    """An event's settings as its form posts them."""
    return {
        **rules_data(club),
        "name": "Coupe",
        "points_0": 3,
        "points_1": 2,
        "points_2": 1,
        "points_3": 0,
        "sit_out_points": "0",
        "hide_last_rounds": 0,
        "final": "none",
        "carry_over": "1",
        "entry_fee": "0",
        "prize_kind": "share",
        "prizes": "",
        "counts_in_season": "on",
        **changes,
    }


def member_account(club, name, role):
    """An account that is the club's player ``name``, now in ``role``."""
    user = User.objects.create(username=name.lower())
    Member.objects.filter(club=club, name=name).update(user=user, role=role)
    return user


def win(game, seat=0):
    """The game played to its end (a target of 21): ``seat`` bids 6 and takes the six tricks,
    four times."""
    tricks = tuple(6 * (one == seat) for one in range(4))
    for number in range(1, 5):
        table_services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(seat, 6, Trump.HEARTS), tricks=tricks),
            token=None,
        )
