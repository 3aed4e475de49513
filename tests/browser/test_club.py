"""A club on 360x640 phones: an admin creates it and invites a player by its link; the player,
made a scorer, plays two games by taps; the admin corrects a hand of the first; and the
season's standings and ratings follow each step.
"""

import datetime

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs.models import ClubResult, Member
from tests.browser.hands import (
    CLOSE_GAME,
    GAME,
    TEXT,
    VOID,
    enter,
    key,
    save_button,
    status,
)
from tests.browser.phone import PHONE_WIDTH, Taps, scroll_width

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
PLAYERS = ("Amina", "Bilal", "Chafik", "Dalila")


@pytest.fixture
def accounts(transactional_db):
    return [User.objects.create_user(name, password=PASSWORD) for name in ("amina", "bilal")]


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


def submit(page, name):
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def standings(page):
    """The season page's lines: player, games, wins, league points, points, rating."""
    rows = page.locator(".league-wrap table.league-table tbody tr")
    lines = []
    for index in range(rows.count()):
        row = rows.nth(index)
        cells = [text.strip() for text in row.locator("th, td").all_inner_texts()]
        lines.append((cells[1], int(cells[2]), int(cells[3]), int(cells[4]), int(cells[5])))
    return lines


def ratings(page):
    return page.locator(".league-wrap table.league-table tbody td.rating").all_inner_texts()


def play(page, deals):
    """Tap a whole game in, hand by hand, to its winner."""
    for number, deal in enumerate(deals, start=1):
        if deal is VOID:
            page.get_by_role("button", name=TEXT["en"]["void"], exact=True).click()
        else:
            enter(Taps(), page, deal)
            save_button(page, "en").click()
        if number < len(deals):
            expect(status(page)).to_have_text(TEXT["en"]["hand"].format(number + 1))
    expect(page.locator(".winner h1")).to_be_visible()


def start_game(page, slug):
    page.goto(f"/clubs/{slug}/")
    page.get_by_role("link", name="New game").click()
    for seat, name in enumerate(PLAYERS):
        page.locator(f"#id_player_{seat}").fill(name)
    key(page, "first_dealer", 0).click()
    submit(page, "Start the game")
    expect(status(page)).to_have_text(TEXT["en"]["hand"].format(1))
    return page.url


def test_club_from_creation_to_corrected_standings(phone, accounts):
    admin, player = phone("en"), phone("en")
    widths = []
    # The admin creates the club, whose invite link admits at once, and its season.
    log_in(admin, "amina")
    admin.goto("/clubs/new")
    admin.fill("#id_name", "Café du Port")
    admin.fill("#id_slug", "port")
    admin.fill("#id_your_name", "Amina")
    admin.locator("#id_invite_admits").check()
    submit(admin, "Create the club")
    today = datetime.date.today()
    admin.goto("/clubs/port/seasons/new")
    admin.fill("#id_name", "Autumn")
    admin.fill("#id_slug", "autumn")
    admin.fill("#id_first_day", (today - datetime.timedelta(days=30)).isoformat())
    admin.fill("#id_last_day", (today + datetime.timedelta(days=30)).isoformat())
    submit(admin, "Create the season")
    widths.append(scroll_width(admin))
    # The invite link, as the members page shows it, opened by Bilal's phone.
    admin.goto("/clubs/port/members")
    invite = admin.locator(".share-url a").inner_text()
    widths.append(scroll_width(admin))
    log_in(player, "bilal")
    player.goto(invite)
    player.fill("#id_name", "Bilal")
    submit(player, "Join the club")
    joined = Member.objects.get(club__slug="port", user__username="bilal")
    # The admin makes him a scorer.
    admin.goto("/clubs/port/members")
    admin.locator(f"#role-{joined.pk}").select_option("scorer")
    submit(admin, "Change Bilal")

    # Bilal plays two games, Chafik and Dalila sitting in as guests.
    first = start_game(player, "port")
    play(player, CLOSE_GAME)
    widths.append(scroll_width(player))
    start_game(player, "port")
    play(player, GAME)
    player.goto("/clubs/port/seasons/autumn/")
    played = standings(player)
    rated = ratings(player)
    widths.append(scroll_width(player))

    # The admin corrects hand 3 of the first game, which he did not start: Bilal wins it.
    admin.goto(first)
    admin.get_by_role("link", name="Edit hand 3", exact=True).click()
    key(admin, "tricks_0", 3).click()
    key(admin, "tricks_1", 3).click()
    admin.get_by_role("button", name=TEXT["en"]["save_change"], exact=True).click()
    expect(admin.locator(".winner h1")).to_have_text("Bilal wins!")
    edited = admin.locator(".history li").first.inner_text()
    player.goto("/clubs/port/seasons/autumn/")
    corrected = standings(player)
    widths.append(scroll_width(player))

    # Amina won the first game and Bilal the second; after the correction, Bilal both.
    # League points 3, 2, 1, 0: the first game ranks Amina, Bilal, Chafik, Dalila (21, 19,
    # 2, 0); the second Bilal, Chafik, Dalila, Amina (21, 4, 2, -1); corrected, the first
    # ranks Bilal, Amina, Chafik, Dalila (21, 14, 2, 0).
    assert played == [
        ("Bilal", 2, 1, 5, 40),
        ("Amina", 2, 1, 3, 20),
        ("Chafik", 2, 0, 3, 6),
        ("Dalila", 2, 0, 1, 2),
    ]
    assert corrected == [
        ("Bilal", 2, 2, 6, 42),
        ("Chafik", 2, 0, 3, 6),
        ("Amina", 2, 0, 2, 13),
        ("Dalila", 2, 0, 1, 2),
    ]
    assert ratings(player) != rated
    # Each rating marked provisional: two games each, fewer than ten (league.md).
    assert ratings(player) == [
        f"{row.mu - 3 * row.sigma:.1f}?"
        for row in [
            ClubResult.objects.filter(key=name.casefold()).order_by("-position").first()
            for name in ("Bilal", "Chafik", "Amina", "Dalila")
        ]
    ]
    assert edited.endswith("by amina")
    assert widths == [PHONE_WIDTH] * len(widths)
