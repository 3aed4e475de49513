"""The demo club, the bulk import of a club's records, and ``manage.py rebuild_league``.

Expected ratings are computed here with OpenSkill's Plackett-Luce called directly, over the
records in the order league.md gives (finished, then id): not with scoring.engine.league.
"""

import io
import json
import math
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command
from openskill.models import PlackettLuce

from scoring.clubs.imports import services as import_services
from scoring.clubs.league.ratings import rebuild
from scoring.clubs.league.standings import season_standings
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Club, ClubChange, ClubResult, Member, Season
from scoring.engine import GameOver, Hand, Record, loads
from scoring.table import services
from scoring.table.models import Change, Game, Summary
from scoring.table.models import Hand as HandRow
from scoring.table.state import load_game
from tests.clubs.factories import results, some_records, won_record

MEMBERS = ("Amina", "Bilal", "Chafik", "Dalila", "Emna", "Farid")
DATA = Path(__file__).resolve().parents[1] / "data"


def demo(*args):
    out = io.StringIO()
    call_command("demo_club", *args, stdout=out)
    return out.getvalue()


def rebuild_league(*args):
    out = io.StringIO()
    call_command("rebuild_league", *args, stdout=out)
    return out.getvalue()


def table(club):
    """Every season's standings, as the page shows them."""
    return [
        [
            (
                line.standing.rank,
                line.standing.player,
                line.standing.games,
                line.standing.wins,
                line.standing.league_points,
                line.standing.points,
                line.standing.units,
                line.standing.rating,
            )
            for line in season_standings(club, season)
        ]
        for season in club.seasons.order_by("first_day")
    ]


@pytest.fixture
def club(db):
    club = Club.objects.create(name="Le Cercle", slug="cercle", stake=Decimal("0.50"))
    for name in MEMBERS[:4]:
        member_services.add_member(club=club, name=name)
    return club


def expected_ratings(records, zone="Europe/Paris"):
    """Each counted game's ratings after it, by record id: Plackett-Luce over the won
    games in the order they finished, then by id; ranks from the final totals; each
    returning player's sigma grown first by the club's idle growth (a new club's, 0.04 a
    day), min(25/3, sqrt(sigma² + 0.04 d)), d the days since his last game in ``zone``."""
    model = PlackettLuce()
    current = {}
    days = {}
    after = {}
    won = [record for record in records if record.score().finished]
    for record in sorted(won, key=lambda r: (r.about.finished_at, r.about.id)):
        totals = record.score().totals
        ranks = [1 + sum(other > total for other in totals) for total in totals]
        keys = [name.casefold() for name in record.players]
        day = record.about.finished_at.astimezone(ZoneInfo(zone)).date()
        teams = [
            [
                model.rating(
                    current[key].mu,
                    min(25 / 3, math.sqrt(current[key].sigma ** 2 + 0.04 * (day - days[key]).days)),
                )
                if key in current
                else model.rating()
            ]
            for key in keys
        ]
        days.update(dict.fromkeys(keys, day))
        rated = model.rate(teams, ranks=ranks)
        current.update((key, team[0]) for key, team in zip(keys, rated, strict=True))
        after[record.about.id] = [value for team in rated for value in (team[0].mu, team[0].sigma)]
    return after


# The demo club.


def test_demo_club_small_is_a_public_club_of_12_members_two_seasons_and_its_games(db):
    printed = demo("--games", "25", "--seed", "4")

    club = Club.objects.get(slug="demo")
    assert (club.name, club.public) == ("Demo", True)
    assert Member.objects.filter(club=club).count() == 12
    first, second = Season.objects.filter(club=club).order_by("first_day")
    assert first.last_day < second.first_day
    assert (
        Summary.objects.filter(game__club_game__club=club, status=Summary.Status.WON).count() == 25
    )
    assert ClubResult.objects.filter(club=club).count() == 4 * 25
    assert all(standings for standings in table(club))  # both seasons have games
    assert sum(line[2] for line in table(club)[0] + table(club)[1]) == 4 * 25
    assert printed.splitlines()[-1] == "/clubs/demo/"


def test_demo_club_prints_how_to_log_in_as_its_admin(db, client):
    printed = demo("--games", "3", "--seed", "4").splitlines()
    password = printed[-2].rsplit(" ", 1)[1]

    logged_in = client.post("/accounts/login/", {"username": "demo-admin", "password": password})

    admin = Member.objects.get(club__slug="demo", user__username="demo-admin")
    assert printed[-2].startswith("its admin, Amina: log in at /accounts/login/ as demo-admin ")
    assert (logged_in.status_code, admin.name, admin.role) == (302, "Amina", Member.Role.ADMIN)
    assert client.get("/clubs/demo/settings").status_code == 200


def test_demo_club_run_again_gives_the_admin_a_new_password(db, client):
    first = demo("--games", "0").splitlines()[-2].rsplit(" ", 1)[1]
    second = demo("--games", "0").splitlines()[-2].rsplit(" ", 1)[1]

    old = client.post("/accounts/login/", {"username": "demo-admin", "password": first})
    new = client.post("/accounts/login/", {"username": "demo-admin", "password": second})

    assert (first != second, old.status_code, new.status_code) == (True, 200, 302)


def test_demo_club_games_are_valid_records_written_as_the_import_writes_them(db):
    demo("--games", "25", "--seed", "4")

    club = Club.objects.get(slug="demo")
    games = Game.objects.filter(club_game__club=club)
    assert games.count() == 25
    assert set(games.values_list("club_label", flat=True)) == {"Demo"}
    assert (
        Change.objects.filter(game__club_game__club=club, action=Change.Action.IMPORTED).count()
        == 25
    )
    for result in ClubResult.objects.filter(club=club, seat=0).select_related("game"):
        last = HandRow.objects.filter(game=result.game).order_by("-number").first()
        assert last is not None
        assert last.recorded_at == result.finished_at > result.game.created_at


def test_demo_club_same_seed_twice_gives_the_same_standings(db):
    demo("--games", "25", "--seed", "4")
    before = table(Club.objects.get(slug="demo"))

    printed = demo("--games", "25", "--seed", "4")

    assert table(Club.objects.get(slug="demo")) == before
    assert Club.objects.filter(slug="demo").count() == 1
    assert Game.objects.count() == 25  # the old demo's games are gone
    assert printed.splitlines()[0] == "deleted the old Demo club and its 25 games"


def test_demo_club_other_seed_gives_other_standings(db):
    demo("--games", "25", "--seed", "4")
    before = table(Club.objects.get(slug="demo"))

    demo("--games", "25", "--seed", "5")

    assert table(Club.objects.get(slug="demo")) != before


def test_demo_club_rebuilt_league_keeps_its_results(db):
    demo("--games", "25", "--seed", "4")
    club = Club.objects.get(slug="demo")
    before = results(club)

    rebuild(club)

    assert results(club) == before


def test_demo_club_negative_games_is_refused(db):
    with pytest.raises(CommandError, match="--games -1: give 0 or more"):
        demo("--games", "-1")

    assert not Club.objects.exists()


# The bulk import of a club's records.


def test_import_club_records_valid_records_keep_their_ids_and_finish_times(club):
    records = some_records()

    imported = import_services.import_club_records(club=club, records=records, owner_id=None)

    assert imported == 6
    games = {game.record_id: game for game in Game.objects.filter(club_game__club=club)}
    assert set(games) == {record.about.id for record in records}
    for record in records:
        game = games[record.about.id]
        assert game.created_at == record.about.started_at
        assert (game.place, game.club_label) == ("Café de la Gare", "Le Cercle")
        last = game.hands.order_by("-number").first()
        assert game.hands.count() == len(record.hands)
        assert game.changes.get().action == Change.Action.IMPORTED
        if record.score().finished:
            assert last.recorded_at == record.about.finished_at
            assert game.summary.status == Summary.Status.WON
            assert game.abandoned_at is None
        else:
            assert last.recorded_at == record.about.started_at
            assert game.summary.status == Summary.Status.ABANDONED
            assert game.abandoned_at == record.about.finished_at


def test_import_club_records_unknown_players_become_members_named_as_the_club_writes(club):
    import_services.import_club_records(club=club, records=some_records(), owner_id=None)

    members = dict(Member.objects.filter(club=club).values_list("name", "role"))
    assert set(members) == set(MEMBERS)
    assert members["Emna"] == members["Farid"] == Member.Role.MEMBER
    game = Game.objects.get(record_id="rec-2")
    assert game.summary.names == ["Emna", "Farid", "Amina", "Bilal"]


def test_import_club_records_league_equals_an_independent_computation(club):
    records = some_records()

    import_services.import_club_records(club=club, records=records, owner_id=None)

    expected = expected_ratings(records)
    rows = results(club)
    order = list(dict.fromkeys(row[0] for row in rows))
    assert order == ["rec-1", "rec-2", "rec-4", "rec-a", "rec-b"]
    for record_id, ratings in expected.items():
        found = [value for row in rows if row[0] == record_id for value in row[-2:]]
        assert found == pytest.approx(ratings, abs=1e-9)


def test_import_club_records_league_equals_a_rebuild(club):
    import_services.import_club_records(club=club, records=some_records(), owner_id=None)
    imported = results(club)

    rebuild(club)

    assert results(club) == imported


def every_way_record():
    """A won game whose hands are kept in every way a hand is: by its calls and the cards
    played, by taker and bid with the cards, by the calls and tricks, by taker and bid and
    tricks, all passed; and the same hand under several dealers."""
    data = json.loads((DATA / "valid" / "plays_revokes_both_ways.json").read_text())
    by_calls = {"calls": [3, "pass", "pass", "pass"], "trump": "S", "tricks": [2, 2, 1, 1]}
    sweep = {"taker": 1, "bid": 3, "trump": "H", "tricks": [0, 6, 0, 0]}
    data["hands"] += [{"calls": ["pass"] * 4}, by_calls, sweep, by_calls, sweep]
    data["id"] = "every-way"
    return loads(json.dumps(data))


def test_rebuild_reads_every_way_a_hand_is_kept(club):
    record = every_way_record()
    assert record.score().finished
    import_services.import_club_records(club=club, records=[record], owner_id=None)
    imported = results(club)

    rebuild(club)

    assert (len(imported), results(club)) == (4, imported)


def test_import_club_records_stores_each_hand_as_given_repeated_or_not(club):
    records = [every_way_record(), *some_records()]
    import_services.import_club_records(club=club, records=records, owner_id=None)

    stored = {
        game.record_id: load_game(game).record.hands
        for game in Game.objects.filter(club_game__club=club)
    }
    assert stored == {record.about.id: record.hands for record in records}


ORDER = ["rec-1", "rec-2", "rec-4", "rec-a", "rec-b"]
"""some_records()'s counted games in the order they finished."""


def rated_in_order(club, records, order):
    """The club's games in the order of their rows, its rows' ratings (mu, sigma), and the
    ratings a full recomputation of ``records`` gives those games in ``order``."""
    rows = results(club)
    expected = expected_ratings(records)
    return (
        list(dict.fromkeys(row[0] for row in rows)),
        [value for row in rows for value in row[-2:]],
        [value for record_id in order for value in expected[record_id]],
    )


def test_import_club_records_after_earlier_games_rates_them_all_in_order(club):
    records = some_records()
    import_services.import_club_records(club=club, records=records[3:], owner_id=None)

    import_services.import_club_records(club=club, records=records[:3], owner_id=None)

    seen, rated, expected = rated_in_order(club, records, ORDER)
    assert seen == ORDER
    assert rated == pytest.approx(expected, abs=1e-9)


def test_import_club_records_between_earlier_and_later_games_rates_from_its_first(club):
    # rec-1 stays first, its rating kept; the games imported come after it, before rec-b.
    records = some_records()
    import_services.import_club_records(club=club, records=[records[0], records[3]], owner_id=None)

    import_services.import_club_records(
        club=club, records=[records[1], records[2], records[4], records[5]], owner_id=None
    )

    seen, rated, expected = rated_in_order(club, records, ORDER)
    assert seen == ORDER
    assert rated == pytest.approx(expected, abs=1e-9)


def test_import_club_records_one_already_in_the_club_is_refused_and_nothing_stored(club):
    records = some_records()
    import_services.import_club_records(club=club, records=records[:1], owner_id=None)
    before = (Game.objects.count(), HandRow.objects.count(), ClubResult.objects.count())

    with pytest.raises(import_services.AlreadyInClub) as refused:
        import_services.import_club_records(
            club=club, records=records[1:3] + records[:1], owner_id=None
        )

    assert (refused.value.line, refused.value.record_id) == (3, "rec-1")
    assert (Game.objects.count(), HandRow.objects.count(), ClubResult.objects.count()) == before
    assert not Member.objects.filter(club=club, name="Emna").exists()


def test_import_club_records_hand_after_the_win_is_refused_and_nothing_stored(club):
    good = won_record(1, ("Amina", "Bilal", "Emna", "Farid"), taker=0)
    bad = won_record(2, ("Amina", "Bilal", "Emna", "Farid"), taker=1)
    bad = Record(bad.players, bad.first_dealer, bad.rules, (*bad.hands, Hand()), bad.about)

    with pytest.raises(GameOver):
        import_services.import_club_records(club=club, records=[good, bad], owner_id=None)

    assert not Game.objects.exists()
    assert not Member.objects.filter(club=club, name="Emna").exists()


def test_import_club_records_id_taken_outside_the_club_gets_a_new_one(club):
    elsewhere = won_record(1, ("Amina", "Bilal", "Chafik", "Dalila"), taker=0)
    services.import_record(record=elsewhere)

    import_services.import_club_records(club=club, records=[elsewhere], owner_id=None)

    game = Game.objects.get(club_game__club=club)
    assert game.record_id != "rec-1"
    assert ClubResult.objects.filter(club=club).count() == 4


# manage.py rebuild_league.


def test_rebuild_league_one_club_prints_its_counts(club):
    import_services.import_club_records(club=club, records=some_records(), owner_id=None)
    before = results(club)
    ClubResult.objects.filter(club=club).delete()

    printed = rebuild_league("--club", "cercle")

    assert printed == (
        "cercle: 5 counted games, 20 results\n"
        "  repaired: 20 league rows, the totals of no player\n"
        "rebuilt the league of 1 club, 5 counted games\n"
    )
    assert results(club) == before


def test_rebuild_league_every_club_prints_each(club):
    import_services.import_club_records(club=club, records=some_records()[:1], owner_id=None)
    Club.objects.create(name="Vide", slug="vide")

    printed = rebuild_league()

    assert printed.splitlines() == [
        "cercle: 1 counted game, 4 results",
        "vide: 0 counted games, 0 results",
        "rebuilt the league of 2 clubs, 1 counted game",
    ]


def test_rebuild_league_unknown_club_is_refused(db):
    with pytest.raises(CommandError, match="--club nowhere: no club has this address"):
        rebuild_league("--club", "nowhere")


def test_rebuild_league_command_says_and_repairs_what_differed_and_writes_the_history(club):
    import_services.import_club_records(club=club, records=some_records(), owner_id=None)
    right = results(club)
    ClubResult.objects.filter(club=club, seat=0).update(mu=1.0)

    printed = rebuild_league("--club", club.slug)

    assert "  repaired: 5 league rows" in printed
    assert results(club) == right
    (line,) = ClubChange.objects.filter(club=club, action="league_rebuilt").values_list(
        "after", flat=True
    )
    assert line["differing"] == 5
