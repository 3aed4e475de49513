"""A season's handicap cup (issue 42.5; league.md, "The handicap cup"): a season setting; its
table on the season's page, print page, PDF and API, equal to an independent computation
from the club's games, after random writes too."""

import random
import re
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from scoring.clubs import edits
from scoring.clubs import services as club_services
from scoring.clubs.league.handicap import season_cup
from scoring.clubs.models import ClubResult, Season
from tests.clubs.league_check import imported, make_club, wins_for

pytestmark = pytest.mark.django_db

ZONE = "Europe/Paris"
SEATED = (("Amina", "Bilal", "Chafik", "Dalila"), ("Emna", "Farid", "Amina", "Bilal"))


def season_of(club, cup=True):
    return club_services.create_season(
        club=club,
        name="Spring",
        slug="spring",
        first_day=date(2026, 3, 1),
        last_day=date(2026, 5, 31),
        points=(5, 3, 1, 0),
        handicap_cup=cup,
    )


def games(club, rng, count):
    """``count`` games won by a seat ``rng`` picks, finished between a year before the season
    and its end (some on a month's first night, in the club's zone)."""
    made = []
    for number in range(count):
        day = date(2025, 2, 1) + timedelta(days=rng.randrange(0, 485))
        at = datetime(
            day.year, day.month, day.day, rng.choice((0, 12, 23)), 30, tzinfo=ZoneInfo(ZONE)
        )
        made.append(
            imported(club, rng.choice(SEATED), wins_for(rng.randrange(4)), at, f"g{number}")
        )
    return made


def independent(club, season):
    """The cup from the stored rows, computed here in decimals: ``{name: (games, points,
    cup)}``."""
    points = season.points
    mine = defaultdict(list)
    zone = ZoneInfo(ZONE)
    for name, finished_at, rank in ClubResult.objects.filter(club=club).values_list(
        "name", "finished_at", "rank"
    ):
        mine[name].append((finished_at.astimezone(zone).date(), points[rank - 1]))
    expected = {}
    with localcontext() as context:
        context.prec = 60
        for name, own in mine.items():
            total, count, taken = 0, 0, Decimal(0)
            for day, value in own:
                if not season.first_day <= day <= season.last_day:
                    continue
                first = day.replace(day=1)
                window = [v for d, v in own if first - timedelta(days=365) <= d < first]
                if len(window) >= 5:
                    h = Decimal(sum(window)) / len(window) - Decimal(sum(points)) / 4
                    taken += h.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
                total += value
                count += 1
            if count:
                expected[name] = (count, total, total - taken)
    return expected


def stored(club, season):
    return {row.player: (row.games, row.league_points, row.cup) for row in season_cup(club, season)}


def test_cup_equals_an_independent_computation_after_random_writes():
    club = make_club(time_zone=ZONE)
    season = season_of(club)
    rng = random.Random(42)
    made = games(club, rng, 40)
    assert stored(club, season) == independent(club, season)
    for step in range(6):
        game = rng.choice(made)
        if step % 2:
            edits.delete_club_game(club=club, public_id=game.public_id)
            made.remove(game)
        else:
            moved = datetime(2026, 3, 1, 0, 10, tzinfo=UTC) + timedelta(days=rng.randrange(90))
            edits.move_club_game(club=club, public_id=game.public_id, finished_at=moved)
        assert stored(club, season) == independent(club, season)
    lines = season_cup(club, season)
    order = [(-row.cup, -row.league_points) for row in lines]
    assert order == sorted(order)


def test_cup_handicap_fixed_on_the_first_of_the_month_in_the_club_s_zone():
    club = make_club(time_zone=ZONE)
    season = season_of(club)
    # Five wins for Amina in February (5 points each, mean 5 against 2.25: H = 2.75), the
    # last at 00:30 on 1 March in Paris (23:30 UTC on 28 February): a March game, not in
    # March's window.
    for number in range(4):
        at = datetime(2026, 2, 10 + number, 20, tzinfo=UTC)
        imported(club, SEATED[0], wins_for(0), at, f"feb{number}")
    imported(club, SEATED[0], wins_for(0), datetime(2026, 2, 28, 23, 30, tzinfo=UTC), "first")
    imported(club, SEATED[0], wins_for(0), datetime(2026, 4, 2, 20, tzinfo=UTC), "april")

    amina = next(row for row in season_cup(club, season) if row.player == "Amina")

    # March: 4 games in the window, H = 0; April: 5 games, mean 5 - 2.25 = 2.75.
    assert (amina.games, amina.league_points, amina.handicap, amina.cup, amina.current) == (
        2,
        10,
        Decimal("2.75"),
        Decimal("7.25"),
        Decimal("2.75"),
    )


def test_season_form_sets_the_cup_and_the_history_says_it(client):
    club = make_club(time_zone=ZONE)
    admin = Client()
    admin.force_login(club.members.get(name="Amina").user)
    form = admin.get("/clubs/sfax/seasons/new").content.decode()
    once = form.split('name="once" value="')[1].split('"')[0]
    data = {
        "name": "Spring",
        "slug": "spring",
        "first_day": "2026-03-01",
        "last_day": "2026-05-31",
        "handicap_cup": "on",
        "once": once,
        **{f"points_{rank}": value for rank, value in enumerate((3, 2, 1, 0))},
    }

    made = admin.post("/clubs/sfax/seasons/new", data)
    edited = admin.post("/clubs/sfax/seasons/spring/edit", {**data, "handicap_cup": ""})

    assert (made.status_code, edited.status_code) == (302, 302)
    assert Season.objects.get(slug="spring").handicap_cup is False
    line = club.changes.filter(action="season_edited").get()
    assert (line.before, line.after) == (
        {"id": line.before["id"], "handicap_cup": True},
        {"id": line.before["id"], "handicap_cup": False},
    )


@pytest.mark.parametrize("language", ["en", "fr", "ar"])
def test_cup_on_the_season_page_print_pdf_and_api(language):
    club = make_club(time_zone=ZONE)
    season = season_of(club)
    games(club, random.Random(5), 20)
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    lines = season_cup(club, season, public=True)

    page = browser.get("/clubs/sfax/seasons/spring/").content.decode()
    printed = browser.get("/clubs/sfax/seasons/spring/print").content.decode()
    pdf = browser.get("/clubs/sfax/seasons/spring/standings.pdf")
    api = browser.get("/api/v1/clubs/sfax/seasons/spring/standings").json()

    assert ('class="league-table cup-table"' in page, "cup-table" in printed) == (True, True)
    assert pdf.content[:5] == b"%PDF-"
    assert [(row["player"], row["cup"]) for row in api["handicap_cup"]] == [
        (row.player, str(row.cup)) for row in lines
    ]


def test_season_without_a_cup_shows_none():
    club = make_club(time_zone=ZONE)
    season_of(club, cup=False)
    games(club, random.Random(5), 6)

    page = Client().get("/clubs/sfax/seasons/spring/").content.decode()
    api = Client().get("/api/v1/clubs/sfax/seasons/spring/standings").json()

    assert ("cup-table" in page, api["handicap_cup"]) == (False, None)


def test_cup_costs_two_queries(django_assert_num_queries):
    club = make_club(time_zone=ZONE)
    season = season_of(club)
    games(club, random.Random(8), 12)

    with django_assert_num_queries(2):
        season_cup(club, season)


# --- Its formula's figures read left to right in Arabic (review 4) ---------------------------

FIGURE = re.compile(r"\d")


def explained(html):
    """The cup's sentence, as the page sends it."""
    return html.split('<p class="rating-note cup-explained">')[1].split("</p>")[0]


def bare_figures(sentence):
    """The figures of ``sentence`` outside a ``<bdi dir="ltr">``."""
    outside = re.sub(r'<bdi dir="ltr">[^<]*</bdi>', "", sentence)
    return FIGURE.findall(outside)


@pytest.mark.parametrize(
    ("language", "isolated"),
    [
        ("en", []),
        ("fr", []),
        ("ar", ["365", "2,25", "5", "3", "1", "0", "0", "5"]),
    ],
)
def test_cup_formula_figures_isolated_left_to_right_in_arabic(language, isolated):
    club = make_club(time_zone=ZONE)
    season_of(club)
    games(club, random.Random(5), 6)
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)

    for url in ("/clubs/sfax/seasons/spring/", "/clubs/sfax/seasons/spring/print"):
        sentence = explained(browser.get(url).content.decode())

        found = re.findall(r'<bdi dir="ltr">([^<]*)</bdi>', sentence)
        # In Arabic no figure is left outside; in French and English none needs isolating.
        assert (found, bool(bare_figures(sentence))) == (isolated, language != "ar")


def test_cup_formula_says_the_season_s_mean_and_points():
    club = make_club(time_zone=ZONE)
    season_of(club)
    games(club, random.Random(5), 6)

    sentence = explained(Client().get("/clubs/sfax/seasons/spring/").content.decode())

    assert sentence == (
        "Each game counts its league points less the player&#x27;s handicap for its month: his "
        "mean league points per game over the 365 days before the month&#x27;s first day, less "
        "2.25, the mean of the season&#x27;s league points (5,\u00a03,\u00a01,\u00a00), to two "
        "decimals; 0 "
        "until he has 5 games in that time. Money is never adjusted."
    )


# --- In the club's frame (review 5) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Handicap cup"), ("fr", "Coupe à handicap"), ("ar", "كأس الإعاقة")],
)
def test_cup_in_the_season_s_frame_as_the_public_sees_it(language, title):
    club = make_club(time_zone=ZONE)
    season = season_of(club)
    games(club, random.Random(5), 20)
    lines = season_cup(club, season, public=True)

    frame = Client(HTTP_ACCEPT_LANGUAGE=language).get("/clubs/sfax/seasons/spring/embed")

    html = frame.content.decode()
    table = html.split('class="league-table cup-table"')[1].split("</table>")[0]
    assert (frame.status_code, title in html, "<script" in html) == (200, True, False)
    assert re.findall(r'<th scope="row" class="player">([^<]*)</th>', table) == [
        line.player for line in lines
    ]
    assert "<a " not in table
    assert 'class="rating-note cup-explained"' in html


def test_season_without_a_cup_has_none_in_its_frame():
    club = make_club(time_zone=ZONE)
    season_of(club, cup=False)
    games(club, random.Random(5), 6)

    html = Client().get("/clubs/sfax/seasons/spring/embed").content.decode()

    assert ("cup-table" in html, "cup-explained" in html) == (False, False)
