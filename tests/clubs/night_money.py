"""A club night played for stakes, which the night's money and the mail after a night are
checked on: its eight players beside Amina, the night and its pages, two rounds played
(``play_two_rounds``, each player's expected balance) and the hands they are played with."""

from collections import defaultdict
from datetime import date
from decimal import Decimal

from scoring.clubs.nights import services as night_services
from scoring.engine import Contract, Hand, Trump
from scoring.table import services
from scoring.table.models import Game

PLAYERS = ("Bilal", "Chafik", "Dalila", "Emna", "Farid", "Ghada", "Hedi", "Inès")


STAKE = Decimal("0.50")


def new_night(club, names=("Amina", *PLAYERS)):
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=2)
    member_ids = [club.members.get(name=name).pk for name in names]
    night_services.check_in(night_id=night.pk, member_ids=member_ids, guests=[])
    return night


def url(night, tail="ranking"):
    return f"/clubs/sfax/nights/{night.pk}/{tail}"


def seated(game):
    return [seat.player.name for seat in game.seats.select_related("player").order_by("position")]


def record(game, *hands):
    for number, (taker, bid, tricks) in enumerate(hands, start=1):
        services.record_hand(
            public_id=game.public_id,
            number=number,
            hand=Hand(Contract(taker, bid, Trump.HEARTS), tricks=tricks),
            token=None,
        )


BOULMOUS_MADE = (0, 6, (6, 0, 0, 0))
"""Seat 1 makes a boulmous: four of them win the game (24 points past 21)."""


def round_games(night, number):
    return list(
        Game.objects.filter(
            club_game__round__night=night, club_game__round__number=number
        ).order_by("club_game__table")
    )


def play_two_rounds(club, organiser, night):
    """Round 1: seat 1 wins each table with four boulmous (+15 stakes, the others -5 each).
    Round 2: table 1 as well, after a boîte of seat 3 (seat 1 +16; seat 3 -6); table 2
    abandoned after seat 4 made a boulmous and seat 2 missed one (+4 and -4 stakes, the
    others nothing). Each player's expected balance in stakes."""
    units: dict[str, int] = defaultdict(int)
    organiser.post(url(night, "draw"))
    for game in round_games(night, 1):
        record(game, *[BOULMOUS_MADE] * 4)
        names = seated(game)
        for seat, name in enumerate(names):
            units[name] += 15 if seat == 0 else -5
    organiser.post(url(night, "draw"))
    first, second = round_games(night, 2)
    record(first, (2, 4, (0, 3, 1, 2)), *[BOULMOUS_MADE] * 4)
    for seat, name in enumerate(seated(first)):
        units[name] += (16, -5, -6, -5)[seat]
    record(second, (3, 6, (0, 0, 0, 6)), (1, 6, (0, 5, 1, 0)))
    for seat, name in enumerate(seated(second)):
        units[name] += (0, -4, 0, 4)[seat]
    night_services.end_night(night_id=night.pk)
    for name in ("Amina", *PLAYERS):
        units.setdefault(name, 0)  # who sat out both rounds owes nothing
    return units
