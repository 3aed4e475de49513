"""A club's league against an independent computation (league.md), tests/clubs/league_check.py
``check_league``: its figures are worked out there from the club's games as records,
following the spec alone."""

import random
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.league import ratings as league_ratings
from scoring.clubs.league import standings as league_standings
from scoring.clubs.models import ClubResult, Member
from scoring.engine import Hand, Trump
from scoring.table import services
from scoring.table.models import Game
from scoring.table.models import Hand as HandRow
from scoring.table.state import HAND_COLUMNS, load_game
from tests.clubs.league_check import (
    MEMBERS,
    check_league,
    deal,
    imported,
    make_club,
    play,
    start,
    stored_league,
    stored_standings,
    wins_for,
)

# --- the independent computation ---------------------------------------------------


# --- clubs and games ----------------------------------------------------------------


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


VOID = Hand(calls=(None, None, None, None))

# Seat 0 takes at 4 and makes it three times: totals [12, 3, 3, 0], ranks [1, 2, 2, 4].
SEAT_0_WINS = (deal(0, 4, 4, 1, 1, 0), deal(0, 4, 4, 1, 1, 0), deal(0, 4, 4, 1, 1, 0))


def won_game(club, names, seat=0):
    game = start(club, names)
    play(game, wins_for(seat))
    return game


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
    league_ratings.rebuild(club)
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
            for line in league_standings.season_standings(club, season)
        ]
        for season in (spring, summer)
    }

    assert [
        league_standings.season_of([spring, summer], moment, time_zone) for moment in finishes
    ] == [
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
    first = league_standings.season_standings(club, season)[0]
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
            # Up to 120 days back: the days between a player's games grow his sigma.
            moment = timezone.now() - timedelta(minutes=rng.randrange(1, 60 * 24 * 120))
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


def random_setting(rng, club):
    """A random change of the club's rating settings or time zone, through the settings'
    service: idle growth turned on or off, its rate, the zone its days are counted in."""
    club.refresh_from_db()
    rules = club.rating_rules
    change = rng.choice(("growth", "rate", "zone"))
    if change == "growth":
        rules = replace(rules, idle_growth=not rules.idle_growth)
    elif change == "rate":
        rules = replace(rules, idle_rate=rng.choice((0.04, 0.5, 2.0)))
    zone = rng.choice(("Europe/Paris", "Pacific/Kiritimati", "America/Adak"))
    club_services.update_club(
        club_id=club.pk,
        name=club.name,
        time_zone=zone if change == "zone" else club.time_zone,
        rules=club.rules,
        points=club.points,
        public=club.public,
        invite_admits=club.invite_admits,
        rating_rules=rules,
    )


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

    settings_rng = random.Random(seed)  # apart: the writes are drawn as before
    read = set()
    for _ in range(STEPS):
        if settings_rng.random() < 0.1:
            random_setting(settings_rng, club)
        random_write(rng, rng.choice(games))
        after = counted(check_league(club, seasons, read))
        seen |= changes(before, after, winners, order)
        before = after

    assert seen == {"won", "won before others", "no longer won", "winner changed", "moved"}


def test_rebuild_reads_a_hands_columns_as_the_table_keeps_them():
    assert league_ratings._HandRow._fields == HAND_COLUMNS


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


# --- Confirmation (issue 40.2): a game counts once its result is final -----------------


def confirming_club(mode, stake=0):
    """A club whose games follow the confirmation ``mode``, played for no money unless
    ``stake``: a game played for money is final once its settlement is agreed as well
    (issue 40.4, below)."""
    club = make_club()
    type(club).objects.filter(pk=club.pk).update(confirmation=mode, stake=stake)
    club.refresh_from_db()
    return club


@pytest.mark.django_db
def test_league_counts_a_game_confirmed_hand_by_hand_only_once_every_hand_is():
    club = confirming_club("each_hand")
    game = won_game(club, MEMBERS[:4])
    waiting = ClubResult.objects.filter(game=game).count()
    rebuilt = league_ratings.rebuild(club)

    for number in (1, 2):
        services.confirm_hand(public_id=game.public_id, number=number, version=1, seat=2)
    two = ClubResult.objects.filter(game=game).count()
    services.confirm_hand(public_id=game.public_id, number=3, version=1, seat=3)

    assert (game.confirmation, waiting, rebuilt, two) == ("each_hand", 0, 0, 0)
    assert ClubResult.objects.filter(game=game).count() == 4
    check_league(club)


@pytest.mark.django_db
def test_league_counts_a_game_signed_as_a_whole_once_all_four_signed():
    club = confirming_club("whole_game")
    game = won_game(club, MEMBERS[:4])

    for seat in (0, 1, 2):
        services.sign_game(public_id=game.public_id, seat=seat)
    three = ClubResult.objects.filter(game=game).count()
    services.sign_game(public_id=game.public_id, seat=3)

    assert (three, ClubResult.objects.filter(game=game).count()) == (0, 4)
    check_league(club)


@pytest.mark.django_db
def test_league_counts_a_game_whose_minutes_ran_out_from_its_next_change():
    club = confirming_club("each_hand")
    game = won_game(club, MEMBERS[:4])
    past = timezone.now() - timedelta(minutes=20)
    HandRow.objects.filter(game=game, number__gt=1).update(entered_at=past)
    waiting = ClubResult.objects.filter(game=game).count()

    services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=2)

    assert (waiting, ClubResult.objects.filter(game=game).count()) == (0, 4)
    check_league(club)


@pytest.mark.django_db
def test_league_counts_a_game_played_for_money_once_the_four_agreed_to_its_settlement():
    club = confirming_club("each_hand", stake="0.50")
    game = won_game(club, MEMBERS[:4])
    for number in (1, 2, 3):
        services.confirm_hand(public_id=game.public_id, number=number, version=1, seat=2)
    for seat in (0, 1, 2):
        services.agree_settlement(public_id=game.public_id, seat=seat)
    three = ClubResult.objects.filter(game=game).count()
    rebuilt_three = league_ratings.rebuild(club)

    services.agree_settlement(public_id=game.public_id, seat=3)

    assert (three, rebuilt_three, ClubResult.objects.filter(game=game).count()) == (0, 0, 4)
    assert league_ratings.rebuild(club) == 1
    check_league(club)


@pytest.mark.django_db
def test_league_counts_a_game_whose_settlement_minutes_ran_out_from_its_next_change():
    club = confirming_club("each_hand", stake="0.50")
    game = won_game(club, MEMBERS[:4])
    past = timezone.now() - timedelta(minutes=40)
    HandRow.objects.filter(game=game).update(entered_at=past, recorded_at=past)
    Game.objects.filter(pk=game.pk).update(finished_at=past)
    waiting = ClubResult.objects.filter(game=game).count()

    services.agree_settlement(public_id=game.public_id, seat=0)

    assert (waiting, ClubResult.objects.filter(game=game).count()) == (0, 4)
    assert league_ratings.rebuild(club) == 1
    check_league(club)


# --- Disputes (issue 40.3): a game with a hand disputed counts once the referee decided ----


@pytest.mark.django_db
def test_league_counts_a_game_with_a_disputed_hand_only_once_the_referee_decided():
    club = confirming_club("each_hand")
    game = won_game(club, MEMBERS[:4])
    services.dispute_hand(public_id=game.public_id, number=1, version=1, seat=2, reason="4 made")
    for number in (2, 3):
        services.confirm_hand(public_id=game.public_id, number=number, version=1, seat=3)
    disputed = ClubResult.objects.filter(game=game).count()

    services.decide_dispute(public_id=game.public_id, number=1, reason="Counted again")

    assert (disputed, ClubResult.objects.filter(game=game).count()) == (0, 4)
    check_league(club)
