"""Ratings people trust on a club's pages (league.md): the provisional mark, the ratings
list with the ranked players and the others apart, why a player's last games moved his
rating, and the club's rating settings; the ratings against league_check's independent
computation, idle growth included."""

import math
import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from pypdf import PdfReader

from scoring.clubs.models import Club, ClubChange, Member
from tests.clubs.league_check import check_league, expected_league
from tests.clubs.league_games import imported, new_club, won_by

PARIS = ZoneInfo("Europe/Paris")
REGULARS = ("Amina", "Bilal", "Chafik", "Dalila")
NEWCOMERS = ("Emna", "Farid", "Ghada", "Hedi")
AWAY = ("Ines", "Jamel", "Karim", "Lina")


def noon(days_ago):
    """Noon in Paris, ``days_ago`` days before today there."""
    day = timezone.now().astimezone(PARIS).date() - timedelta(days=days_ago)
    return datetime.combine(day, time(12), tzinfo=PARIS)


def games(players, count, last_days_ago, prefix):
    """``count`` games of these four, one a day, the last ``last_days_ago`` days ago, the
    winner turning."""
    return [
        won_by(
            number % 4,
            players,
            noon(last_days_ago + count - 1 - number),
            f"{prefix}-{number}",
        )
        for number in range(count)
    ]


@pytest.fixture
def three_tables(admin, client):
    """Regulars with 20 games up to yesterday, newcomers with 7 this week, and four who
    played 25 games up to 94 days ago."""
    club = new_club(admin)
    imported(
        club,
        admin,
        [
            *games(REGULARS, 20, 1, "r"),
            *games(NEWCOMERS, 7, 1, "n"),
            *games(AWAY, 25, 94, "a"),
        ],
    )
    client.force_login(admin)
    return club


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_all_time_ratings_list_ranks_the_regulars_and_lists_the_others_with_their_reason(
    three_tables, client
):
    response = client.get("/clubs/cafe/standings/")

    ranked = [(line.place, line.player) for line in response.context["ratings_ranked"]]
    apart = [(line.player, line.reason) for line in response.context["ratings_apart"]]
    assert sorted(player for _, player in ranked) == sorted(REGULARS)
    assert [place for place, _ in ranked] == [1, 2, 3, 4]
    assert sorted(apart) == sorted(
        [(name, "7 games of 20") for name in NEWCOMERS]
        + [(name, "last game 94 days ago") for name in AWAY]
    )
    text = text_of(response.content.decode())
    assert ("Not ranked" in text, "7 games of 20" in text, "How ratings work" in text) == (
        True,
        True,
        True,
    )


def test_standings_mark_a_provisional_rating_and_say_what_the_mark_means(three_tables, client):
    response = client.get("/clubs/cafe/standings/")

    marked = {row.player: row.provisional for row in response.context["rows"]}
    assert marked == {
        **dict.fromkeys(NEWCOMERS, True),  # 7 games
        **dict.fromkeys(REGULARS, False),
        **dict.fromkeys(AWAY, False),
    }
    html = response.content.decode()
    assert html.count('class="provisional-mark"') == 4 + 4  # the standings, the list
    assert (
        "“?” marks a provisional rating: fewer than 10 games, or an uncertainty (σ) above 6.0."
        in (text_of(html))
    )


def test_season_ratings_list_is_on_the_seasons_last_day_when_it_ended(three_tables, client):
    from scoring.clubs import services as club_services

    ended = noon(50).date()
    club_services.create_season(
        club=three_tables,
        name="Spring",
        slug="spring",
        first_day=ended - timedelta(days=100),
        last_day=ended,
        points=(3, 2, 1, 0),
    )

    response = client.get("/clubs/cafe/seasons/spring/")

    # On its last day, 50 days ago: the away four had played 44 days before; the regulars
    # and the newcomers had not started.
    assert response.context["ratings_day"] == ended
    assert [line.player for line in response.context["ratings_apart"]] == []
    assert sorted(line.player for line in response.context["ratings_ranked"]) == sorted(AWAY)


def test_player_page_says_the_place_expected_the_change_and_the_pauses_part(admin, client):
    club = new_club(admin)
    imported(
        club,
        admin,
        [*games(REGULARS, 12, 100, "old"), won_by(0, REGULARS, noon(6), "back")],
    )
    client.force_login(admin)
    amina = Member.objects.get(club=club, name="Amina")
    rows = [row for row in expected_league(club) if row["key"] == "amina"]
    before, after = rows[-2], rows[-1]
    others = {
        row["key"]: row for row in expected_league(club)[-8:-4] if row["key"] != "amina"
    }  # the others' ratings after the game before: all four played it

    response = client.get(f"/clubs/cafe/players/{amina.pk}/")

    why = response.context["stats"].recent[0].why
    grown = min(25 / 3, math.sqrt(before["sigma"] * before["sigma"] + 0.04 * 94))
    mine = (before["mu"], grown)
    theirs = [
        (row["mu"], min(25 / 3, math.sqrt(row["sigma"] * row["sigma"] + 0.04 * 94)))
        for row in others.values()
    ]
    expected = 1 + sum(
        (
            1
            + math.erf(
                (mu - mine[0])
                / math.sqrt(2 * (25 / 6) ** 2 + mine[1] ** 2 + sigma**2)
                / math.sqrt(2)
            )
        )
        / 2
        for mu, sigma in theirs
    )
    change = (after["mu"] - 3 * after["sigma"]) - (before["mu"] - 3 * before["sigma"])
    assert (why.days, why.place) == (94, 1)
    assert why.expected == pytest.approx(expected, abs=1e-12)
    assert why.change == pytest.approx(change, abs=1e-12)
    assert why.pause == pytest.approx(-3 * (grown - before["sigma"]), abs=1e-12)
    text = text_of(response.content.decode())
    assert f"expected place {expected:.1f}, got 1: {change:+.1f}" in text
    assert f"(of which {-3 * (grown - before['sigma']):+.1f} from 94 days away)" in text
    assert "How ratings work" in text


def test_player_page_shows_a_provisional_ratings_range(admin, client):
    club = new_club(admin)
    imported(club, admin, games(REGULARS, 3, 1, "g"))
    client.force_login(admin)
    amina = Member.objects.get(club=club, name="Amina")
    last = [row for row in expected_league(club) if row["key"] == "amina"][-1]

    response = client.get(f"/clubs/cafe/players/{amina.pk}/")

    low, high = last["mu"] - 2 * last["sigma"], last["mu"] + 2 * last["sigma"]
    assert response.context["stats"].provisional is True
    assert f"skill (μ ± 2σ) between {low:.1f} and {high:.1f}" in text_of(response.content.decode())


def settings_post(club, **changes):
    data = {
        "name": club.name,
        "time_zone": club.time_zone,
        "target": club.target,
        "failed_taker": club.failed_taker,
        "stake": "0.50",
        "currency": club.currency,
        "confirmation": club.confirmation,
        "points_0": 3,
        "points_1": 2,
        "points_2": 1,
        "points_3": 0,
        "invite_admits": "",
        "colour": club.colour,
    }
    return {**data, **changes}


def test_turning_idle_growth_off_rates_every_game_again_and_is_in_the_history(three_tables, client):
    club = three_tables
    assert club.idle_growth is True
    check_league(club)

    response = client.post("/clubs/cafe/settings", settings_post(club, idle_growth="0"))

    club.refresh_from_db()
    assert (response.status_code, club.idle_growth) == (302, False)
    check_league(club)  # every game rated again without growth, as a rebuild gives them
    line = ClubChange.objects.filter(club=club, action="club_edited").latest("at")
    assert (line.before, line.after) == ({"idle_growth": True}, {"idle_growth": False})


def test_settings_left_out_keep_the_clubs_values(three_tables, client):
    client.post("/clubs/cafe/settings", settings_post(three_tables, ranked_games="30"))

    club = Club.objects.get(pk=three_tables.pk)
    assert club.rating_rules.to_data() == {
        "idle_growth": True,
        "idle_rate": 0.04,
        "provisional_games": 10,
        "provisional_sigma": 6.0,
        "ranked_games": 30,
        "ranked_days": 60,
    }


@pytest.mark.parametrize(
    ("field", "value"), [("ranked_days", "0"), ("provisional_sigma", "9"), ("idle_rate", "x")]
)
def test_settings_refuse_a_threshold_out_of_bounds_beside_it(three_tables, client, field, value):
    response = client.post("/clubs/cafe/settings", settings_post(three_tables, **{field: value}))

    club = Club.objects.get(pk=three_tables.pk)
    assert (response.status_code, bool(response.context["form"].errors[field])) == (422, True)
    assert club.rating_rules.to_data()[field] == getattr(three_tables, field)


def test_a_new_club_has_idle_growth_and_the_contracts_thresholds(admin):
    club = new_club(admin)

    assert club.rating_rules.to_data() == {
        "idle_growth": True,
        "idle_rate": 0.04,
        "provisional_games": 10,
        "provisional_sigma": 6.0,
        "ranked_games": 20,
        "ranked_days": 60,
    }


def test_standings_pdf_marks_a_provisional_rating(three_tables, client):
    import io

    response = client.get("/clubs/cafe/seasons/now/standings.pdf")

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert ("?" in text, "provisional rating" in text) == (True, True)


def test_api_gives_the_provisional_mark_the_range_and_why_each_game_moved(three_tables, client):
    emna = Member.objects.get(club=three_tables, name="Emna")

    standings = client.get("/api/v1/clubs/cafe/seasons/now/standings").json()
    player = client.get(f"/api/v1/clubs/cafe/players/{emna.pk}").json()

    marks = {row["player"]: row["rating_provisional"] for row in standings["rows"]}
    assert (marks["Emna"], marks["Amina"]) == (True, False)
    rating = player["rating"]
    assert (rating["provisional"], rating["low"], rating["high"]) == (
        True,
        rating["mu"] - 2 * rating["sigma"],
        rating["mu"] + 2 * rating["sigma"],
    )
    first = player["recent"][-1]  # his first game: no pause, from the first rating
    assert (first["days_away"], first["pause"], first["expected_place"]) == (0, 0.0, 2.5)
    assert player["recent"][0]["days_away"] == 1


def test_api_ratings_list_equals_the_pages_list_with_each_ones_reason(three_tables, client):
    page = client.get("/clubs/cafe/standings/").context

    listed = client.get("/api/v1/clubs/cafe/ratings").json()

    assert listed["day"] == timezone.now().astimezone(PARIS).date().isoformat()
    assert [(line["place"], line["player"], line["rating"]) for line in listed["ranked"]] == [
        (line.place, line.player, round(line.rating, 6)) for line in page["ratings_ranked"]
    ]
    assert [
        (line["player"], line["apart"], line["games"], line["days"]) for line in listed["apart"]
    ] == [
        (
            line.player,
            "games" if line.player in NEWCOMERS else "away",
            7 if line.player in NEWCOMERS else 25,
            1 if line.player in NEWCOMERS else 94,
        )
        for line in page["ratings_apart"]
    ]
    assert all(  # each figure rounded to six decimals apart
        math.isclose(line["rating"], line["mu"] - 3 * line["sigma"], abs_tol=1e-5)
        for line in listed["ranked"] + listed["apart"]
    )


def test_api_ratings_list_on_a_day_before_the_regulars_began_has_the_away_four_ranked(
    three_tables, client
):
    day = noon(50).date()

    listed = client.get(f"/api/v1/clubs/cafe/ratings?day={day.isoformat()}").json()

    assert (
        listed["day"],
        sorted(line["player"] for line in listed["ranked"]),
        listed["apart"],
    ) == (
        day.isoformat(),
        sorted(AWAY),
        [],
    )


@pytest.mark.parametrize("day", ["0", "2025-13-01", "5 March", "2025-3-5"])
def test_api_ratings_list_refuses_a_day_not_written_as_a_day(three_tables, client, day):
    response = client.get(f"/api/v1/clubs/cafe/ratings?day={day}")

    assert (response.status_code, response.json()["error"]["fields"][0]["name"]) == (422, "day")
