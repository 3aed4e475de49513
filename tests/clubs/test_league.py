"""A club's league against an independent computation (league.md).

The expected figures are computed here from the club's games as records, following the
spec alone: which games count and in what order, ranks at a table, league points, the
order and shared ranks of the standings, and the ratings by OpenSkill's Plackett-Luce
called directly. Neither scoring.engine.league nor scoring.league is used for them.
"""

import csv
import io
import random
import unicodedata
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from openskill.models import PlackettLuce

from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.imports import services as import_services
from scoring.clubs.league.pages import money as pages_money
from scoring.clubs.league.ratings import _HandRow, rebuild
from scoring.clubs.league.standings import season_of, season_standings
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member, PlayerTotals
from scoring.engine import About, Contract, Hand, Record, Rules, Trump
from scoring.engine import score as score_record
from scoring.engine.league import standings_csv
from scoring.table import services
from scoring.table.models import Game
from scoring.table.models import Hand as HandRow
from scoring.table.state import HAND_COLUMNS, exported, load_game

MODEL = PlackettLuce()

MEMBERS = ("Amina", "Bilal", "Chafik", "Dalila", "Emna", "Farid")

HEADER = [
    "rank",
    "player",
    "games",
    "wins",
    "league_points",
    "points",
    "taken",
    "made",
    "boites",
    "boulmous_made",
    "boulmous_missed",
    "units",
    "rating_mu",
    "rating_sigma",
    "rating",
]

ROW_FIELDS = (
    "game_id",
    "seat",
    "position",
    "finished_at",
    "key",
    "name",
    "rank",
    "total",
    "won",
    "taken",
    "made",
    "boites",
    "boulmous_made",
    "boulmous_missed",
    "units",
    "contracts",
    "amount",
    "mu",
    "sigma",
)


# --- the independent computation ---------------------------------------------------


def key_of(name):
    """A name as the club compares it: NFC, case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def counted_games(club):
    """The club's won games as records, each with its scorer output, in the order they
    finished: by finished_at, then by the record's id."""
    games = []
    for game in Game.objects.filter(club_game__club=club):
        record = exported(load_game(game))
        scored = score_record(record)
        if scored["finished"]:
            games.append((game.pk, record, scored))
    return sorted(games, key=lambda game: (game[1].about.finished_at, game[1].about.id))


def ranks_of(totals):
    return [1 + sum(other > total for other in totals) for total in totals]


def seat_facts(scored, seat):
    """What a seat did in a scored game, from the scorer's hands."""
    taken = [hand for hand in scored["hands"] if hand["taker"] == seat]
    return {
        "taken": len(taken),
        "made": sum(bool(hand["made"]) for hand in taken),
        "boites": sum(hand["boite"] for hand in taken),
        "boulmous_made": sum(hand["boulmous"] and hand["made"] for hand in taken),
        "boulmous_missed": sum(hand["boulmous"] and not hand["made"] for hand in taken),
        "units": scored["settlement"]["units"][seat],
        "contracts": [[hand["bid"], hand["trump"], hand["made"]] for hand in taken],
        "balance": Decimal(scored["settlement"]["balances"][seat]),
    }


def expected_league(club):
    """Every counted game's rows, as ``ROW_FIELDS``, ratings included, in position order."""
    ratings = {}
    rows = []
    for position, (game_id, record, scored) in enumerate(counted_games(club)):
        keys = [key_of(name) for name in record.players]
        ranks = ranks_of(scored["totals"])
        teams = [
            [MODEL.rating(*ratings[key]) if key in ratings else MODEL.rating()] for key in keys
        ]
        after = MODEL.rate(teams, ranks=ranks)
        in_club_money = record.rules.currency == club.currency
        for seat, (key, name, team) in enumerate(zip(keys, record.players, after, strict=True)):
            ratings[key] = (team[0].mu, team[0].sigma)
            facts = seat_facts(scored, seat)
            balance = facts.pop("balance")
            rows.append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "position": position,
                    "finished_at": record.about.finished_at,
                    "key": key,
                    "name": name,
                    "rank": ranks[seat],
                    "total": scored["totals"][seat],
                    "won": seat == scored["winner"],
                    **facts,
                    "amount": balance if in_club_money else None,
                    "mu": team[0].mu,
                    "sigma": team[0].sigma,
                }
            )
    return rows


def stored_league(club):
    return list(
        ClubResult.objects.filter(club=club).order_by("position", "seat").values(*ROW_FIELDS)
    )


COUNTS = HEADER[2:12]
"""The standings' columns from games to units."""


def expected_standings(club, season, rows):
    """The season's standings in the spec's order (rank, player, the counts, mu, sigma),
    from the club's expected ``rows``."""
    zone = ZoneInfo(club.time_zone)
    names = dict(Member.objects.filter(club=club).values_list("key", "name"))
    lines = {}
    for row in rows:
        day = row["finished_at"].astimezone(zone).date()
        if not season.first_day <= day <= season.last_day:
            continue
        line = lines.setdefault(
            row["key"], {"player": names.get(row["key"], row["name"])} | dict.fromkeys(COUNTS, 0)
        )
        line["games"] += 1
        line["wins"] += row["won"]
        line["league_points"] += season.points[row["rank"] - 1]
        line["points"] += row["total"]
        for field in COUNTS[4:]:
            line[field] += row[field]
        # Rows come in the order the games finished: the last one is his latest rating.
        line["mu"], line["sigma"] = row["mu"], row["sigma"]
    order = sorted(
        lines.values(),
        key=lambda line: (-line["league_points"], -line["wins"], -line["points"], line["player"]),
    )
    result = []
    previous, rank = None, 0
    for position, line in enumerate(order, start=1):
        decided = (line["league_points"], line["wins"], line["points"])
        rank = rank if decided == previous else position
        previous = decided
        counts = tuple(line[field] for field in COUNTS)
        result.append((rank, line["player"], *counts, line["mu"], line["sigma"]))
    return result


def stored_standings(club, season):
    return [
        (
            line.standing.rank,
            line.standing.player,
            *(getattr(line.standing, field) for field in COUNTS),
            line.standing.rating.mu,
            line.standing.rating.sigma,
        )
        for line in season_standings(club, season)
    ]


def expected_csv(standings):
    """standings.csv's rows, read back: the header, then each line, ratings to six places."""
    lines = []
    for line in standings:
        mu, sigma = line[12:]
        lines.append(
            [
                *(str(value) for value in line[:12]),
                *(f"{value:.6f}" for value in (mu, sigma, mu - 3 * sigma)),
            ]
        )
    return [HEADER, *lines]


def stored_csv(club, season):
    text = standings_csv(line.standing for line in season_standings(club, season))
    return list(csv.reader(io.StringIO(text, newline="")))


def expected_player(club, key, rows):
    """A player's page figures from the club's expected ``rows``, added up here: his sums,
    contracts by bid and trump, head-to-head, last games and ratings."""
    mine = [row for row in rows if row["key"] == key]
    games = {row["game_id"] for row in mine}
    sums = {
        "games": len(mine),
        "wins": sum(row["won"] for row in mine),
        "points": sum(row["total"] for row in mine),
        **{field: sum(row[field] for row in mine) for field in COUNTS[4:]},
    }
    contracts = [tuple(contract) for row in mine for contract in row["contracts"]]
    by_bid = [
        (bid, sum(c[0] == bid for c in contracts), sum(c[0] == bid and c[2] for c in contracts))
        for bid in (3, 4, 5, 6)
    ]
    by_trump = sorted(
        (
            trump,
            sum(c[1] == trump for c in contracts),
            sum(c[1] == trump and c[2] for c in contracts),
        )
        for trump in ("S", "H", "D", "C", "NT")
    )
    rank = {row["game_id"]: row["rank"] for row in mine}
    meetings = {}
    for row in rows:
        if row["game_id"] in games and row["key"] != key:
            tally = meetings.setdefault(row["key"], [0, 0, 0, 0])
            mine_rank = rank[row["game_id"]]
            tally[0] += 1
            tally[1 if mine_rank < row["rank"] else 2 if mine_rank > row["rank"] else 3] += 1
    recent = [(row["game_id"], row["rank"], row["total"]) for row in reversed(mine[-10:])]
    amounts = [row["amount"] for row in mine if row["amount"] is not None]
    money = sum(amounts, Decimal(0)) if amounts else None
    ratings = [(row["mu"], row["sigma"]) for row in mine]
    return sums, by_bid, by_trump, sorted(meetings.values()), recent, money, ratings


def stored_player(club, member):
    from scoring.clubs.league.pages import player_stats

    stats = player_stats(club, member)
    game_ids = dict(Game.objects.filter(club_game__club=club).values_list("public_id", "pk"))
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "NT": "NT"}
    return (
        (
            {field: stats.counts[field] for field in ("games", "wins", "points", *COUNTS[4:])},
            [(int(line.symbol), line.taken, line.made) for line in stats.by_bid],
            sorted((symbols[line.symbol], line.taken, line.made) for line in stats.by_trump),
            sorted([m.games, m.ahead, m.behind, m.level] for m in stats.head_to_head),
            [(game_ids[game.public_id], game.rank, game.total) for game in stats.recent],
            stats.money,
        ),
        (stats.rating.mu, stats.rating.sigma),
        stats.chart,
    )


def check_players(club, rows):
    """Each member's player page (added up in the database) equals his rows added up here."""
    for member in Member.objects.filter(club=club):
        sums, by_bid, by_trump, meetings, recent, money, ratings = expected_player(
            club, member.key, rows
        )
        stored, rating, chart = stored_player(club, member)
        shown = pages_money(money, club)
        assert stored == (sums, by_bid, by_trump, meetings, recent, shown)
        assert rating == (ratings[-1] if ratings else (25.0, 25 / 3))
        assert (chart is None) == (not ratings)


def check_league(club, seasons=()):
    """The stored rows equal the independent computation, and a full rebuild leaves them
    as they were; each season's standings and CSV equal the independent ones, and each
    player's page his rows added up."""
    stored = stored_league(club)
    expected = expected_league(club)
    # Each player's totals as the writes kept them: his page equals his rows added up here,
    # and a rebuild, which counts them all again, leaves them as they were.
    check_players(club, expected)
    totals = stored_totals(club)
    rebuild(club)
    assert (stored, stored_league(club)) == (expected, expected)
    assert stored_totals(club) == totals
    for season in seasons:
        standings = expected_standings(club, season, expected)
        assert stored_standings(club, season) == standings
        assert stored_csv(club, season) == expected_csv(standings)
    return expected


def stored_totals(club):
    return {
        row.key: (row.figures, row.amount, row.contracts, row.meetings)
        for row in PlayerTotals.objects.filter(club=club)
    }


# --- clubs and games ----------------------------------------------------------------


def make_club(slug="sfax", time_zone="Europe/Paris", target=10, members=MEMBERS):
    """A club playing to ``target`` for 0.50 EUR a game, with these members."""
    user = get_user_model().objects.create_user(f"admin-{slug}")
    club = club_services.create_club(
        name=slug.title(),
        slug=slug,
        time_zone=time_zone,
        rules=Rules(target=target, stake=Decimal("0.50"), currency="EUR"),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=True,
        admin_user_id=user.pk,
        admin_name=members[0],
    )
    for name in members[1:]:
        member_services.add_member(club=club, name=name)
    return club


def season_around_today(club, points=(5, 3, 1, 0)):
    """A season from a month ago to a month ahead, in the club's time zone."""
    today = timezone.now().astimezone(ZoneInfo(club.time_zone)).date()
    return club_services.create_season(
        club=club,
        name="Now",
        slug="now",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=points,
    )


def deal(taker, bid, *tricks, trump=Trump.HEARTS):
    return Hand(Contract(taker, bid, trump), tricks=tuple(tricks))


VOID = Hand(calls=(None, None, None, None))

# Seat 0 takes at 4 and makes it three times: totals [12, 3, 3, 0], ranks [1, 2, 2, 4].
SEAT_0_WINS = (deal(0, 4, 4, 1, 1, 0), deal(0, 4, 4, 1, 1, 0), deal(0, 4, 4, 1, 1, 0))


def wins_for(seat):
    """Three hands after which ``seat`` has won at 10: totals 12, 3, 3 and 0 from him on."""
    tricks = [0, 0, 0, 0]
    for offset, count in enumerate((4, 1, 1, 0)):
        tricks[(seat + offset) % 4] = count
    return (deal(seat, 4, *tricks),) * 3


def start(club, names):
    return club_services.start_club_game(club=club, names=names, first_dealer=0, owner_id=None).game


def play(game, hands):
    """Record these hands after the game's last one."""
    state = load_game(game)
    for number, hand in enumerate(hands, start=state.next_number):
        state = services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return state


def won_game(club, names, seat=0):
    game = start(club, names)
    play(game, wins_for(seat))
    return game


def imported(club, names, hands, finished_at, record_id, currency="EUR"):
    """A won game imported into the club, finished at ``finished_at``."""
    record = Record(
        players=tuple(names),
        rules=Rules(target=club.target, stake=Decimal("0.50"), currency=currency),
        hands=tuple(hands),
        about=About(
            id=record_id, started_at=finished_at - timedelta(hours=1), finished_at=finished_at
        ),
    )
    return import_services.import_club_game(record=record, club=club).game


def ratings_of(game):
    return list(ClubResult.objects.filter(game=game).order_by("seat").values_list("mu", "sigma"))


def positions(club):
    return list(
        ClubResult.objects.filter(club=club, seat=0)
        .order_by("position")
        .values_list("game__record_id", flat=True)
    )


# --- games becoming counted, corrected, no longer counted ---------------------------


@pytest.mark.django_db
def test_league_newly_won_game_is_rated_after_the_others():
    club = make_club()
    season = season_around_today(club)
    first = won_game(club, MEMBERS[:4], seat=0)
    second = start(club, ("Emna", "Amina", "Bilal", "Farid"))
    play(second, wins_for(1)[:2])
    unfinished = ratings_of(second)

    play(second, wins_for(1)[2:])

    assert (unfinished, positions(club)) == ([], [first.record_id, second.record_id])
    check_league(club, [season])


@pytest.mark.django_db
def test_league_corrected_game_in_the_middle_rerates_later_games():
    club = make_club()
    season = season_around_today(club)
    first = won_game(club, MEMBERS[:4], seat=0)
    middle = won_game(club, ("Bilal", "Chafik", "Amina", "Emna"), seat=0)
    last = won_game(club, ("Chafik", "Bilal", "Farid", "Amina"), seat=1)
    before = ratings_of(last)

    # Totals [12, 3, 3, 0] become [12, 2, 4, 0]: Chafik now second, Amina third.
    services.edit_hand(
        public_id=middle.public_id, number=1, hand=deal(0, 4, 4, 0, 2, 0), discard_after_end=True
    )

    assert positions(club) == [first.record_id, middle.record_id, last.record_id]
    assert ratings_of(last) != before
    check_league(club, [season])


@pytest.mark.django_db
def test_league_corrected_game_with_the_same_ranks_keeps_every_rating():
    club = make_club()
    season = season_around_today(club)
    game = won_game(club, MEMBERS[:4], seat=0)
    later = won_game(club, ("Bilal", "Amina", "Emna", "Farid"), seat=2)
    before = [ratings_of(game), ratings_of(later)]

    # Spades instead of hearts: his contracts change, the totals and ranks do not.
    services.edit_hand(
        public_id=game.public_id,
        number=1,
        hand=deal(0, 4, 4, 1, 1, 0, trump=Trump.SPADES),
        discard_after_end=True,
    )

    contracts = ClubResult.objects.get(game=game, seat=0).contracts
    assert (contracts, [ratings_of(game), ratings_of(later)]) == (
        [[4, "S", True], [4, "H", True], [4, "H", True]],
        before,
    )
    check_league(club, [season])


@pytest.mark.django_db
def test_league_edit_changing_the_winner_rerates_from_that_game():
    club = make_club()
    season = season_around_today(club)
    game = start(club, MEMBERS[:4])
    # Totals [1, 4, 1, 0], [5, 5, 2, 0], [9, 6, 3, 0], then [12, 7, 4, 1]: Amina wins.
    play(game, [deal(1, 4, 1, 4, 1, 0), *SEAT_0_WINS[:2], deal(0, 3, 3, 1, 1, 1)])
    later = won_game(club, ("Bilal", "Amina", "Emna", "Farid"), seat=2)

    # The last hand now gives [9, 11, 4, 1]: Bilal wins.
    services.edit_hand(
        public_id=game.public_id, number=4, hand=deal(1, 4, 0, 5, 1, 0), discard_after_end=True
    )

    won = ClubResult.objects.filter(club=club, won=True).order_by("position")
    assert list(won.values_list("name", flat=True)) == ["Bilal", "Emna"]
    assert positions(club) == [game.record_id, later.record_id]
    check_league(club, [season])


@pytest.mark.django_db
def test_league_game_ending_earlier_by_a_correction_keeps_its_first_finish_and_place():
    club = make_club()
    season = season_around_today(club)
    early = start(club, MEMBERS[:4])
    play(early, SEAT_0_WINS[:2])
    other = won_game(club, ("Emna", "Farid", "Amina", "Bilal"), seat=0)
    play(early, SEAT_0_WINS[2:])
    order, finished = positions(club), Game.objects.get(pk=early.pk).finished_at

    # A boulmous made at hand 2 gives [10, 1, 1, 0]: the game is won there, hand 3 dropped;
    # it still finished when it was first won, after the other game.
    state = services.edit_hand(
        public_id=early.public_id, number=2, hand=deal(0, 6, 6, 0, 0, 0), discard_after_end=True
    )

    assert (order, positions(club)) == ([other.record_id, early.record_id],) * 2
    assert Game.objects.get(pk=early.pk).finished_at == finished
    assert (len(state.hands), state.result.winner) == (2, 0)
    check_league(club, [season])


@pytest.mark.django_db
def test_league_game_no_longer_won_loses_its_rows_and_later_games_are_rerated():
    club = make_club()
    season = season_around_today(club)
    first = won_game(club, MEMBERS[:4], seat=0)
    middle = won_game(club, ("Bilal", "Chafik", "Amina", "Emna"), seat=2)
    last = won_game(club, ("Chafik", "Bilal", "Farid", "Amina"), seat=3)

    services.undo_hand(public_id=middle.public_id, number=3)

    assert ClubResult.objects.filter(game=middle).count() == 0
    assert positions(club) == [first.record_id, last.record_id]
    check_league(club, [season])


@pytest.mark.django_db
def test_league_winning_hand_redone_counts_the_game_again_at_its_first_finish():
    club = make_club()
    season = season_around_today(club)
    first = won_game(club, MEMBERS[:4], seat=0)
    middle = won_game(club, ("Bilal", "Chafik", "Amina", "Emna"), seat=2)
    last = won_game(club, ("Chafik", "Bilal", "Farid", "Amina"), seat=3)
    before = (stored_league(club), Game.objects.get(pk=middle.pk).finished_at)
    services.undo_hand(public_id=middle.public_id, number=3)

    services.redo_hand(public_id=middle.public_id, number=3)

    assert positions(club) == [first.record_id, middle.record_id, last.record_id]
    assert (stored_league(club), Game.objects.get(pk=middle.pk).finished_at) == before
    check_league(club, [season])


@pytest.mark.django_db
def test_league_old_game_undone_then_redone_keeps_its_moment_season_and_later_ratings():
    club = make_club()
    year = club_services.create_season(
        club=club,
        name="2025",
        slug="2025",
        first_day=date(2025, 1, 1),
        last_day=date(2025, 12, 31),
        points=(3, 2, 1, 0),
    )
    now = season_around_today(club)
    finished = datetime(2025, 5, 1, 20, 0, tzinfo=UTC)
    old = imported(club, MEMBERS[:4], wins_for(1), finished, "old")
    imported(
        club, ("Bilal", "Chafik", "Amina", "Emna"), wins_for(0), finished + timedelta(1), "next"
    )
    won_game(club, ("Chafik", "Bilal", "Farid", "Amina"), seat=2)
    before = (stored_league(club), stored_standings(club, year), stored_standings(club, now))

    services.undo_hand(public_id=old.public_id, number=3)
    services.redo_hand(public_id=old.public_id, number=3)

    assert Game.objects.get(pk=old.pk).finished_at == finished
    assert (
        stored_league(club),
        stored_standings(club, year),
        stored_standings(club, now),
    ) == before
    check_league(club, [year, now])


@pytest.mark.django_db
def test_league_abandoned_game_counts_only_once_resumed_and_won():
    club = make_club()
    season = season_around_today(club)
    first = won_game(club, MEMBERS[:4], seat=0)
    game = start(club, ("Emna", "Farid", "Amina", "Bilal"))
    play(game, wins_for(1)[:2])
    services.abandon_game(public_id=game.public_id)
    abandoned = positions(club)

    services.resume_game(public_id=game.public_id)
    play(game, wins_for(1)[2:])

    assert (abandoned, positions(club)) == ([first.record_id], [first.record_id, game.record_id])
    check_league(club, [season])


# --- the order of games finished at the same instant --------------------------------


@pytest.mark.django_db
def test_league_games_finished_at_the_same_instant_go_by_record_id():
    club = make_club()
    season = club_services.create_season(
        club=club,
        name="2025",
        slug="2025",
        first_day=date(2025, 1, 1),
        last_day=date(2025, 12, 31),
        points=(3, 2, 1, 0),
    )
    moment = datetime(2025, 5, 1, 20, 0, tzinfo=UTC)

    imported(club, MEMBERS[:4], wins_for(0), moment, "b-second")
    imported(club, ("Bilal", "Chafik", "Amina", "Emna"), wins_for(1), moment, "a-first")
    imported(club, ("Chafik", "Farid", "Bilal", "Amina"), wins_for(2), moment, "c-third", "TND")
    # By code point, as a record id is compared: capitals before small letters.
    imported(club, ("Amina", "Dalila", "Farid", "Emna"), wins_for(3), moment, "Z-zeroth")
    imported(club, ("Dalila", "Emna", "Farid", "Amina"), wins_for(0), moment, "a-fourth-later")

    assert positions(club) == ["Z-zeroth", "a-first", "a-fourth-later", "b-second", "c-third"]
    check_league(club, [season])


@pytest.mark.django_db
def test_league_finish_times_set_equal_then_rebuilt_and_edited_keep_record_id_order():
    club = make_club()
    season = season_around_today(club)
    games = [
        won_game(club, MEMBERS[:4], seat=0),
        won_game(club, ("Bilal", "Chafik", "Amina", "Emna"), seat=1),
        won_game(club, ("Chafik", "Farid", "Bilal", "Amina"), seat=2),
    ]
    for game, record_id in zip(games, ("m-game", "K-game", "x-game"), strict=True):
        Game.objects.filter(pk=game.pk).update(record_id=record_id)
    moment = timezone.now() - timedelta(hours=1)
    HandRow.objects.filter(game__in=games, number=3).update(recorded_at=moment)
    Game.objects.filter(pk__in=[game.pk for game in games]).update(finished_at=moment)
    rebuild(club)
    rebuilt = positions(club)

    # Seat 2 now second alone at the first game: its ratings change, its place does not.
    services.edit_hand(
        public_id=games[0].public_id, number=1, hand=deal(0, 4, 4, 0, 2, 0), discard_after_end=True
    )

    assert (rebuilt, positions(club)) == (["K-game", "m-game", "x-game"],) * 2
    check_league(club, [season])


# --- seasons by the day in the club's time zone -------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("time_zone", ["America/New_York", "Africa/Tunis"])
def test_league_season_counts_games_by_their_day_in_the_club_time_zone(time_zone):
    club = make_club(time_zone=time_zone)
    zone = ZoneInfo(time_zone)
    spring = club_services.create_season(
        club=club,
        name="Q1",
        slug="q1",
        first_day=date(2025, 1, 1),
        last_day=date(2025, 3, 31),
        points=(3, 2, 1, 0),
    )
    summer = club_services.create_season(
        club=club,
        name="Q2",
        slug="q2",
        first_day=date(2025, 4, 1),
        last_day=date(2025, 6, 30),
        points=(3, 2, 1, 0),
    )
    finishes = [
        datetime(2024, 12, 31, 23, 30, tzinfo=zone),
        datetime(2025, 1, 1, 0, 30, tzinfo=zone),
        datetime(2025, 3, 31, 23, 30, tzinfo=zone),
        datetime(2025, 4, 1, 0, 30, tzinfo=zone),
    ]
    for seat, finished_at in enumerate(finishes):
        imported(club, MEMBERS[:4], wins_for(seat), finished_at.astimezone(UTC), f"g{seat}")

    lines = {
        season.slug: [
            (line.standing.rank, line.standing.player, line.standing.games, line.standing.wins)
            for line in season_standings(club, season)
        ]
        for season in (spring, summer)
    }

    assert [season_of([spring, summer], moment, time_zone) for moment in finishes] == [
        None,
        spring,
        spring,
        summer,
    ]
    # Q1: Bilal wins (ranks 4 1 2 2), then Chafik (2 4 1 2): league points 2, 3, 5, 4.
    assert lines == {
        "q1": [(1, "Chafik", 2, 1), (2, "Dalila", 2, 0), (3, "Bilal", 2, 1), (4, "Amina", 2, 0)],
        "q2": [(1, "Dalila", 1, 1), (2, "Amina", 1, 0), (2, "Bilal", 1, 0), (4, "Chafik", 1, 0)],
    }
    check_league(club, [spring, summer])


# --- guests -------------------------------------------------------------------------


@pytest.mark.django_db
def test_league_guest_counts_in_the_standings():
    club = make_club()
    season = season_around_today(club)

    won_game(club, ("Amina", "Bilal", "Chafik", "Xavier"), seat=3)

    guest = Member.objects.get(club=club, name="Xavier")
    first = season_standings(club, season)[0]
    assert (guest.role, first.standing.player, first.member_id, first.standing.wins) == (
        Member.Role.GUEST,
        "Xavier",
        guest.pk,
        1,
    )
    check_league(club, [season])


# --- random edits -------------------------------------------------------------------


def random_hand(rng):
    """A contract of any bid and trump; the tricks leaning to the taker, so games end."""
    taker = rng.randrange(4)
    tricks = [0, 0, 0, 0]
    for _ in range(6):
        tricks[rng.choice((taker, taker, taker, 0, 1, 2, 3))] += 1
    return deal(taker, rng.choice((3, 3, 3, 4, 4, 5, 6)), *tricks, trump=rng.choice(list(Trump)))


ACTIONS = ("record", "edit", "undo", "redo", "abandon")
WEIGHTS = (6, 3, 1.5, 1, 0.3)


def random_write(rng, game):
    """A random write on the game, as a table might make it; refusals change nothing."""
    state = load_game(game)
    last = len(state.hands)
    public_id = game.public_id
    if game.abandoned_at is not None and rng.random() < 0.7:
        services.resume_game(public_id=public_id)
        return
    action = rng.choices(ACTIONS, WEIGHTS)[0]
    if action == "record" and state.result.finished:
        action = rng.choice(("edit", "edit", "undo", "move"))
    try:
        if action == "record":
            hand = VOID if rng.random() < 0.1 else random_hand(rng)
            services.record_hand(public_id=public_id, number=last + 1, hand=hand, token=None)
        elif action == "edit" and last:
            number = rng.randint(1, last)
            services.edit_hand(
                public_id=public_id, number=number, hand=random_hand(rng), discard_after_end=True
            )
        elif action == "undo" and last:
            services.undo_hand(public_id=public_id, number=last)
        elif action == "redo":
            services.redo_hand(public_id=public_id, number=last + 1)
        elif action == "abandon":
            services.abandon_game(public_id=public_id)
        elif action == "move":  # an admin's edit of its date: the one write that moves it
            moment = timezone.now() - timedelta(minutes=rng.randrange(1, 600))
            edits.move_club_game(club=game.club_game.club, public_id=public_id, finished_at=moment)
    except services.WriteRefused:
        pass
    game.refresh_from_db()


def counted(rows):
    """The counted games in order, with their winner."""
    return [(row["game_id"], row["name"]) for row in rows if row["won"]]


def changes(before, after, winners, order):
    """What a step did to the counted games, given as (game, winner) in order; ``winners``
    and ``order`` keep each game's last winner and each pair's last order over the run."""
    was, now = dict(before), dict(after)
    kinds = set()
    if now.keys() - was.keys():
        kinds.add("won")
    if (now.keys() - was.keys()) & {game for game, _ in after[:-1]}:
        kinds.add("won before others")
    if was.keys() - now.keys():
        kinds.add("no longer won")
    for game, winner in after:
        if winners.setdefault(game, winner) != winner:
            kinds.add("winner changed")
        winners[game] = winner
    for position, (first, _) in enumerate(after):
        for second, _ in after[position + 1 :]:
            if order.get((second, first)):
                kinds.add("moved")
            order[first, second], order[second, first] = True, False
    return kinds


STEPS = 60
SEEDS = (5, 6, 10)
TARGET = 6


@pytest.mark.django_db
@pytest.mark.parametrize("seed", SEEDS)
def test_league_random_writes_keep_results_equal_to_a_full_recomputation(seed):
    rng = random.Random(seed)
    club = make_club(target=TARGET)
    seasons = [season_around_today(club)]
    tables = [MEMBERS[:4], MEMBERS[2:], ("Farid", "Amina", "Emna", "Chafik"), MEMBERS[1:5]]
    games = [start(club, names) for names in tables]
    before, seen = [], set()
    winners, order = {}, {}

    for _ in range(STEPS):
        random_write(rng, rng.choice(games))
        after = counted(check_league(club, seasons))
        seen |= changes(before, after, winners, order)
        before = after

    assert seen == {"won", "won before others", "no longer won", "winner changed", "moved"}


def test_rebuild_reads_a_hands_columns_as_the_table_keeps_them():
    assert _HandRow._fields == HAND_COLUMNS


def test_tally_of_the_columns_a_migration_had_counts_what_they_hold():
    """A migration's rows lack the columns added after it (0023 counts the totals with the
    columns it knew): the statistics they hold are counted, the others are not."""
    from scoring.clubs.league.totals import COLUMNS, tally

    def row(game, key, rank, **figures):
        values = dict.fromkeys(COLUMNS, 0) | {"contracts": [], "amount": None}
        values.update(game_id=game, key=key, rank=rank, won=rank == 1, total=22 - rank)
        return values | figures

    rows = [
        row(1, "amina", 1, taken=2, made=2, no_trump_taken=1),
        row(1, "omar", 2, taken=1),
        row(2, "amina", 2, taken=1, no_trump_taken=1),
        row(2, "omar", 1, made=1),
    ]
    before = [name for name in COLUMNS if not name.startswith("no_trump")]

    whole = tally([[values[name] for name in COLUMNS] for values in rows])
    then = tally([[values[name] for name in before] for values in rows], before)

    assert {key: sums.figures for key, sums in then.items()} == {
        key: {name: n for name, n in sums.figures.items() if not name.startswith("no_trump")}
        for key, sums in whole.items()
    }
    assert whole["amina"].figures["no_trump_taken"] == 2
