"""An organiser's month on 360x640 phones (issue 19): a club created, a player invited and
accepted from the club page, a club game with a guest whose name was mistyped, a club night
of nine players over two rounds scored from the table cards, a correction found through the
games list, the guest's typo merged into the member he is, and the season edited.

After each step the season's standings.csv equals what this test computes on its own from
the club's records.jsonl: each game's ranks from its totals (the engine's), league points
3, 2, 1, 0, and OpenSkill's Plackett-Luce over the counted games in the order they finished
(../shared/specs/league.md). Screenshots of each step go to /tmp/month-*.png.
"""

import csv
import datetime
import io
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from openskill.models import PlackettLuce
from playwright.sync_api import expect

from scoring.engine import loads, score
from tests.browser.phone import PHONE_WIDTH, scroll_width
from tests.browser.test_club import log_in, play, submit
from tests.browser.test_night import open_card, play_to_the_winner
from tests.browser.test_table import GAME, TEXT, key

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
ZONE = "Europe/Paris"
POINTS = (3, 2, 1, 0)
MEMBERS = ("Chafik", "Dalila", "Élodie", "Farid", "Hugo", "Inès", "Omar")
NIGHT = ("Amina", "Bilal", *MEMBERS)
"""The nine at the club night: Amina (the admin), Bilal (invited) and the seven members."""


@pytest.fixture
def accounts(transactional_db):
    return [User.objects.create_user(name, password=PASSWORD) for name in ("amina", "bilal")]


def expected(page, season_first, season_last):
    """The season's standings computed here from records.jsonl, by player: games, wins,
    league points, points, rating mu and sigma to six places."""
    body = page.request.get("/clubs/port/records.jsonl").text()
    zone = ZoneInfo(ZONE)
    model = PlackettLuce()
    ratings = {}
    lines = {}
    for text in body.splitlines():
        if not text.strip():
            continue
        record = loads(text)
        totals = score(record)["totals"]
        ranks = [1 + sum(other > total for other in totals) for total in totals]
        teams = [[ratings.get(name) or model.rating()] for name in record.players]
        for name, team in zip(record.players, model.rate(teams, ranks=ranks), strict=True):
            ratings[name] = team[0]
        day = record.about.finished_at.astimezone(zone).date()
        if not season_first <= day <= season_last:
            continue
        for name, total, rank in zip(record.players, totals, ranks, strict=True):
            games, wins, league_points, points = lines.get(name, (0, 0, 0, 0))
            won = rank == 1
            lines[name] = (games + 1, wins + won, league_points + POINTS[rank - 1], points + total)
    return {
        name: (*line, f"{ratings[name].mu:.6f}", f"{ratings[name].sigma:.6f}")
        for name, line in lines.items()
    }


def standings_csv(page, season):
    """standings.csv as the club serves it, by player, in the same shape."""
    answer = page.request.get(f"/clubs/port/seasons/{season}/standings.csv")
    assert answer.status == 200
    rows = list(csv.DictReader(io.StringIO(answer.text())))
    return {
        row["player"]: (
            int(row["games"]),
            int(row["wins"]),
            int(row["league_points"]),
            int(row["points"]),
            row["rating_mu"],
            row["rating_sigma"],
        )
        for row in rows
    }


def check(page, season, first, last, shot):
    page.goto(f"/clubs/port/seasons/{season}/")
    page.screenshot(path=f"/tmp/month-{shot}.png", full_page=True)
    assert scroll_width(page) == PHONE_WIDTH
    shown = standings_csv(page, season)
    assert shown == expected(page, first, last)
    return shown


def test_organiser_month_keeps_standings_and_ratings_right(phone, accounts):
    admin, invited, first_table, second_table = (phone("en") for _ in range(4))
    today = datetime.datetime.now(ZoneInfo(ZONE)).date()
    first, last = today - datetime.timedelta(days=20), today + datetime.timedelta(days=10)

    # 1. The club and its season.
    log_in(admin, "amina")
    admin.goto("/clubs/new")
    admin.fill("#id_name", "Café du Port")
    admin.fill("#id_slug", "port")
    admin.fill("#id_your_name", "Amina")
    admin.locator("#id_time_zone").select_option(ZONE)
    submit(admin, "Create the club")
    admin.goto("/clubs/port/seasons/new")
    admin.fill("#id_name", "November")
    admin.fill("#id_slug", "november")
    admin.fill("#id_first_day", first.isoformat())
    admin.fill("#id_last_day", last.isoformat())
    submit(admin, "Create the season")

    # 2. The invite: Bilal asks to join; Amina accepts him from the club page.
    admin.goto("/clubs/port/members")
    invite = admin.locator(".share-url a").inner_text()
    for name in MEMBERS:
        admin.fill("#id_name", name)
        submit(admin, "Add")
        expect(admin.locator(".messages")).to_contain_text(name)
    log_in(invited, "bilal")
    invited.goto(invite)
    invited.fill("#id_name", "Bilal")
    submit(invited, "Join the club")
    admin.goto("/clubs/port/")
    admin.screenshot(path="/tmp/month-pending.png", full_page=True)
    submit(admin, "Accept")
    expect(admin.locator(".messages")).to_be_visible()

    # 3. A club game with a guest whose name Amina mistyped: "Omarr".
    admin.goto("/clubs/port/")
    admin.get_by_role("link", name="New game").click()
    for seat, name in enumerate(("Amina", "Bilal", "Chafik", "Omarr")):
        admin.locator(f"#id_player_{seat}").fill(name)
    key(admin, "first_dealer", 0).click()
    submit(admin, "Start the game")
    play(admin, GAME)  # Bilal wins
    check(admin, "november", first, last, "game")

    # 4. The club night: nine present, two rounds, each table scored from its card.
    admin.goto("/clubs/port/nights/new")
    admin.fill("#id_rounds", "2")
    submit(admin, "Create the night")
    night = admin.url
    for name in NIGHT:
        exactly = re.compile(rf"^\s*{re.escape(name)}\s*$")
        admin.locator("label.check").filter(has_text=exactly).click()
    submit(admin, "Save who is present")
    winners = {1: (0, 1), 2: (2, 3)}
    for number in (1, 2):
        submit(admin, f"Draw round {number}")
        admin.get_by_role("link", name="Table cards (QR codes)").click()
        cards = admin.locator(".card-url").all_inner_texts()
        admin.goto(night)
        open_card(first_table, cards[0])
        open_card(second_table, cards[1])
        play_to_the_winner(first_table, winners[number][0])
        play_to_the_winner(second_table, winners[number][1])
    admin.goto(night)
    submit(admin, "End the night")
    after_night = check(admin, "november", first, last, "night")
    assert sum(line[0] for line in after_night.values()) == 4 * 5

    # 5. A correction found through the games list: in Omarr's game, Chafik's trick of hand
    # 1 was Omarr's, which ties them at 3 behind Bilal: the ranks, so the ratings, change.
    admin.goto("/clubs/port/")
    admin.get_by_role("link", name="All the games, with filters").click()
    admin.fill("#id_q", "Omarr")
    submit(admin, "Show")
    rows = admin.locator(".club-game-list li")
    expect(rows).to_have_count(1)
    admin.screenshot(path="/tmp/month-games-list.png", full_page=True)
    rows.first.get_by_role("link", name="Correct a hand").click()
    admin.get_by_role("link", name="Edit hand 1", exact=True).click()
    key(admin, "tricks_2", 0).click()
    key(admin, "tricks_3", 1).click()
    admin.get_by_role("button", name=TEXT["en"]["save_change"], exact=True).click()
    expect(admin.locator(".history li").first).to_contain_text("by amina")
    corrected = check(admin, "november", first, last, "corrected")
    assert (corrected["Omarr"][:4], after_night["Omarr"][:4]) == ((1, 0, 2, 3), (1, 0, 1, 2))

    # 6. The guest "Omarr" merged into the member Omar, from the members page.
    admin.goto("/clubs/port/members")
    admin.get_by_role("link", name="Merge into another player Omarr", exact=True).click()
    admin.locator("#id_into").select_option(label="Omar")
    submit(admin, "See what follows")
    expect(admin.locator("#follows")).to_have_text("Omarr into Omar")
    admin.screenshot(path="/tmp/month-merge.png", full_page=True)
    merge = admin.get_by_role("button", name="Merge Omarr into Omar")
    assert merge.inner_text() == "Merge Omarr into Omar"  # as drawn, spaces kept
    submit(admin, "Merge Omarr into Omar")
    expect(admin.locator(".messages")).to_contain_text("Omar")
    merged = check(admin, "november", first, last, "merged")
    assert ("Omarr" in merged, merged["Omar"][0]) == (False, corrected["Omar"][0] + 1)

    # 7. The season edited: a new name and address, its first day a week later (every
    # game so far is today's, so the standings stay as they are, at the new address).
    admin.goto("/clubs/port/seasons/november/")
    admin.get_by_role("link", name="Change the season").click()
    admin.fill("#id_name", "November 2026")
    admin.fill("#id_slug", "november-2026")
    admin.fill("#id_first_day", (first + datetime.timedelta(days=7)).isoformat())
    submit(admin, "Save the season")
    expect(admin.locator(".messages")).to_be_visible()
    edited = check(admin, "november-2026", first + datetime.timedelta(days=7), last, "edited")
    assert edited == merged
    assert admin.request.get("/clubs/port/seasons/november/").url.endswith("/november-2026/")
