"""A club's league worked out apart from scoring/clubs/league/ and compared with what is
stored (``check_league``), and the clubs and games it is checked on: tests/clubs/test_league.py
and the tests of edits, members, privacy and races share them.

The expected figures are computed here from the club's games as records, following the
spec alone (league.md): which games count and in what order, ranks at a table, league
points, the order and shared ranks of the standings, and the ratings by OpenSkill's
Plackett-Luce called directly. Neither scoring.engine.league nor scoring.clubs.league is
used for them."""

import csv
import io
import math
import unicodedata
from datetime import timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from openskill.models import PlackettLuce

from scoring.clubs import services as club_services
from scoring.clubs.imports import services as import_services
from scoring.clubs.league import ratings as league_ratings
from scoring.clubs.league import standings as league_standings
from scoring.clubs.league.pages import money as pages_money
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubResult, Member, PlayerTotals
from scoring.engine import About, Contract, Hand, Record, Rules, Trump
from scoring.engine import score as score_record
from scoring.engine.league import standings_csv
from scoring.table import services
from scoring.table.models import Game
from scoring.table.state import exported, load_game

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


def idle_grown(sigma, last_day, day, per_day):
    """The contract's idle growth: min(25/3, sqrt(sigma² + rate * d)), d the whole days
    between the days the two games finished on in the club's zone. The square is ``sigma *
    sigma``, correctly rounded (``sigma**2``, the C library's pow(), may be a last bit off)."""
    return min(25 / 3, math.sqrt(sigma * sigma + per_day * (day - last_day).days))


def expected_league(club):
    """Every counted game's rows, as ``ROW_FIELDS``, ratings included, in position order;
    with the club's idle growth, each player's sigma grown before each game for the days
    since his last one."""
    club.refresh_from_db()
    zone = ZoneInfo(club.time_zone)
    ratings = {}
    last_days = {}
    rows = []
    for position, (game_id, record, scored) in enumerate(counted_games(club)):
        keys = [key_of(name) for name in record.players]
        ranks = ranks_of(scored["totals"])
        day = record.about.finished_at.astimezone(zone).date()
        teams = []
        for key in keys:
            if key not in ratings:
                teams.append([MODEL.rating()])
                continue
            mu, sigma = ratings[key]
            if club.idle_growth:
                sigma = idle_grown(sigma, last_days[key], day, club.idle_rate)
            teams.append([MODEL.rating(mu, sigma)])
        after = MODEL.rate(teams, ranks=ranks)
        in_club_money = record.rules.currency == club.currency
        for seat, (key, name, team) in enumerate(zip(keys, record.players, after, strict=True)):
            ratings[key] = (team[0].mu, team[0].sigma)
            last_days[key] = day
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
        for line in league_standings.season_standings(club, season)
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
    text = standings_csv(line.standing for line in league_standings.season_standings(club, season))
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


def stored_player(club, member, game_ids):
    """His page's figures, ``game_ids`` the club's games' ids by their public ones."""
    from scoring.clubs.league.pages import player_stats

    stats = player_stats(club, member)
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
    game_ids = dict(Game.objects.filter(club_game__club=club).values_list("public_id", "pk"))
    for member in Member.objects.filter(club=club):
        sums, by_bid, by_trump, meetings, recent, money, ratings = expected_player(
            club, member.key, rows
        )
        stored, rating, chart = stored_player(club, member, game_ids)
        shown = pages_money(money, club)
        assert stored == (sums, by_bid, by_trump, meetings, recent, shown)
        assert rating == (ratings[-1] if ratings else (25.0, 25 / 3))
        assert (chart is None) == (not ratings)


def check_league(club, seasons=(), read=None):
    """The stored rows equal the independent computation, and a full rebuild leaves them
    as they were; each season's standings and CSV equal the independent ones, and each
    player's page his rows added up.

    ``read``, a set a test keeps across its writes, holds the league's stored states whose
    pages (players', standings, CSV) were checked already: those pages only read the
    league's tables, so a write that left every row of them as an earlier state had (a hand
    of a game not yet won, a write refused) has its pages checked once, not again. The
    rows, the totals and the rebuild are checked after every write."""
    stored = stored_league(club)
    expected = expected_league(club)
    totals = stored_totals(club)
    state = league_state(club, totals, seasons)
    if read is None or state not in read:
        # Each player's totals as the writes kept them: his page equals his rows added up
        # here, and a rebuild, which counts them all again, leaves them as they were.
        check_players(club, expected)
        for season in seasons:
            standings = expected_standings(club, season, expected)
            assert stored_standings(club, season) == standings
            assert stored_csv(club, season) == expected_csv(standings)
    league_ratings.rebuild(club)
    assert (stored, stored_league(club)) == (expected, expected)
    assert stored_totals(club) == totals
    if read is not None:
        read.add(state)
    return expected


def league_state(club, totals, seasons):
    """Every row of the club's league tables the pages read, as one comparable value: its
    results (every column), its members, its seasons, its settings and its totals."""
    rows = [
        list(ClubResult.objects.filter(club=club).order_by("position", "seat").values()),
        list(Member.objects.filter(club=club).order_by("pk").values()),
        [vars(season) | {"_state": None} for season in seasons],
        {name: value for name, value in vars(club).items() if name != "_state"},
        sorted(totals.items()),
    ]
    return repr(rows)


def stored_totals(club):
    return {
        row.key: (row.figures, row.amount, row.contracts, row.meetings)
        for row in PlayerTotals.objects.filter(club=club)
    }


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


def deal(taker, bid, *tricks, trump=Trump.HEARTS):
    return Hand(Contract(taker, bid, trump), tricks=tuple(tricks))


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
