"""A club night at Sfax, which the nights' and the live view's tests share: its players,
who is checked in, the night's addresses, and a game won."""

from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services

PLAYERS = ("Bilal", "Chafik", "Dalila", "Emna", "Farid", "Ghada", "Hedi", "Inès")
"""With Amina, the club's admin: nine players."""


def ids(club, *names):
    return [club.members.get(name=name).pk for name in names]


def present(club, night, names, guests=()):
    night_services.check_in(night_id=night.pk, member_ids=ids(club, *names), guests=list(guests))


def night_url(night, tail=""):
    return f"/clubs/sfax/nights/{night.pk}/{tail}"


def nine_present(club, night):
    present(club, night, ["Amina", *PLAYERS])


def win(game):
    """The game played to its end: its first seat bids 6 and takes the six tricks, four times
    (6 points a hand, 24 past the target of 21)."""
    for number in range(1, 5):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(0, 6, Trump.HEARTS), tricks=(6, 0, 0, 0)),
            token=None,
        )
