"""Two club games worked out by hand (GAME_A, GAME_B), the club Café des Sports they are
played in, and won games imported as records."""

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from scoring.clubs import services as club_services
from scoring.clubs.imports import services as import_services
from scoring.engine import About, Contract, Hand, Record, Rules, Trump
from scoring.table import services

NAMES = ("Amina", "Bilal", "Chafik", "Dalila")
H, S, D, C, NT = Trump.HEARTS, Trump.SPADES, Trump.DIAMONDS, Trump.CLUBS, Trump.NO_TRUMP
RANKS_A, RANKS_B = (2, 1, 4, 3), (3, 2, 1, 4)


# Game A, seats Amina, Bilal, Chafik, Dalila: totals 8, 21, 1, 3, so ranks 2, 1, 4, 3.
# Amina makes a boulmous (6♠); Chafik misses his 3♦ (a boîte, 2 - 3 = -1); Bilal makes four
# contracts and wins. Units: Bilal +3 as winner +1 for Chafik's boîte -1 for the boulmous;
# Amina -1 + 3; Chafik -1 - 1 - 1; Dalila -1 - 1.
GAME_A = (
    Hand(Contract(1, 4, H), (1, 4, 1, 0)),
    Hand(Contract(0, 6, S), (6, 0, 0, 0)),
    Hand(Contract(2, 3, D), (0, 2, 2, 2)),
    Hand(Contract(1, 5, C), (0, 5, 1, 0)),
    Hand(Contract(1, 5, C), (0, 5, 0, 1)),
    Hand(Contract(1, 5, NT), (1, 5, 0, 0)),
)


# Game B, same seats: Dalila misses a boulmous (5 - 6 = -1, a boîte, a stake to each other
# player), Chafik makes four 4♠ and wins. Totals 1, 3, 21, -1, so ranks 3, 2, 1, 4.
# Units: Amina -1 + 1; Bilal -1 + 1; Chafik +3 + 1 + 1; Dalila -1 - 1 - 3.
GAME_B = (
    Hand(Contract(3, 6, H), (1, 0, 0, 5)),
    Hand(Contract(2, 4, S), (0, 1, 5, 0)),
    Hand(Contract(2, 4, S), (0, 1, 5, 0)),
    Hand(Contract(2, 4, S), (0, 1, 5, 0)),
    Hand(Contract(2, 4, S), (0, 0, 6, 0)),
)


def new_club(admin, *, public=False, stake=Decimal("0.50")):
    club = club_services.create_club(
        name="Café des Sports",
        slug="cafe",
        time_zone="Europe/Paris",
        rules=Rules(stake=stake, currency="EUR"),
        points=(3, 2, 1, 0),
        public=public,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name="Amina",
    )
    today = timezone.localdate()
    club_services.create_season(
        club=club,
        name="This season",
        slug="now",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
    )
    return club


def play(club, hands, names=NAMES):
    """A club game played hand by hand through the services, as at the table."""
    state = club_services.start_club_game(club=club, names=names, first_dealer=0, owner_id=None)
    for number, hand in enumerate(hands, start=1):
        state = services.record_hand(
            public_id=state.game.public_id, number=number, hand=hand, token=None
        )
    assert state.result.finished
    return state.game


def won_by(seat, players, finished_at, record_id):
    """A record ``seat`` wins with six 3♥ of four tricks, the next seat taking the other two:
    totals 24 and 12, the others 0."""
    tricks = [0, 0, 0, 0]
    tricks[seat], tricks[(seat + 1) % 4] = 4, 2
    return Record(
        players=tuple(players),
        rules=Rules(stake=Decimal("0.50"), currency="EUR"),
        hands=(Hand(Contract(seat, 3, H), tuple(tricks)),) * 6,
        about=About(id=record_id, started_at=finished_at, finished_at=finished_at),
    )


def imported(club, admin, records):
    import_services.import_club_records(club=club, records=records, owner_id=admin.pk)
