"""A club night on three 360x640 phones: the organiser checks in nine players and draws two
rounds; two table phones, each opened from its table card's link, score their tables; the
organiser's page follows them live; the night's ranking comes out at the end.
"""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs import services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Member, Round
from scoring.clubs.nights import services as night_services
from scoring.engine import Rules
from tests.browser.hands import TEXT, Deal, enter, save_button, status
from tests.browser.phone import PHONE_WIDTH, Taps, scroll_width

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
NAMES = ("Amina", "Bilal", "Chafik", "Dalila", "Élodie", "Farid", "Hugo", "Inès", "Julien")
LIVE = 8_000
"""How long the organiser's page may take to show a table's change: one 5 s poll and more."""


@pytest.fixture
def club(transactional_db):
    """A club of nine members; Amina, its admin, organises the night."""
    user = User.objects.create_user("amina", password=PASSWORD)
    club = services.create_club(
        name="Café du Port",
        slug="port",
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=user.pk,
        admin_name="Amina",
    )
    for name in NAMES[1:]:
        member_services.add_member(club=club, name=name)
    return club


def play_to_the_winner(page, taker):
    """Four boulmous made by the seat ``taker``: 24 points, the game won at hand 4."""
    boulmous = Deal(taker, 6, "H", tuple(6 if seat == taker else 0 for seat in range(4)), (taker,))
    for number in range(1, 5):
        enter(Taps(), page, boulmous)
        save_button(page, "en").click()
        if number < 4:
            expect(status(page)).to_have_text(TEXT["en"]["hand"].format(number + 1))
    expect(page.locator(".winner h1")).to_be_visible()


def open_card(page, url):
    """A table phone scans its card: the scorer link, then the game page."""
    page.goto(url)
    with page.expect_navigation():
        page.get_by_role("button", name="Score on this phone").click()
    expect(status(page)).to_have_text(TEXT["en"]["hand"].format(1))


def table_states(page):
    return page.locator(".night-table .table-state").all_inner_texts()


def expected_ranking(winners):
    """The night's ranking computed here from the draw: at each table the winner has 24 and
    the three others 0, so ranks 1, 2, 2, 2 and league points 3, 2, 2, 2."""
    lines = {}
    for round_row in Round.objects.order_by("number"):
        for table, winner_seat in zip(round_row.tables, winners[round_row.number], strict=True):
            for seat, member_id in enumerate(table):
                name = Member.objects.get(pk=member_id).name
                games, wins, points, total = lines.get(name, (0, 0, 0, 0))
                won = seat == winner_seat
                lines[name] = (games + 1, wins + won, points + (3 if won else 2), total + 24 * won)
    ordered = sorted(
        lines.items(), key=lambda item: (-item[1][2], -item[1][1], -item[1][3], item[0])
    )
    return [(name, *line) for name, line in ordered]


def test_night_of_nine_players_over_two_rounds_on_three_phones(phone, club):
    organiser, first_table, second_table = phone("en"), phone("en"), phone("en")
    widths = []
    winners = {1: (0, 1), 2: (2, 3)}
    organiser.goto("/accounts/login/")
    organiser.fill("#id_username", "amina")
    organiser.fill("#id_password", PASSWORD)
    with organiser.expect_navigation():
        organiser.locator("main form button[type=submit]").click()
    organiser.goto("/clubs/port/nights/new")
    organiser.fill("#id_rounds", "2")
    with organiser.expect_navigation():
        organiser.locator("main form button[type=submit]").click()
    night_url = organiser.url
    for name in NAMES:
        organiser.locator("label.check", has_text=name).click()
    with organiser.expect_navigation():
        organiser.get_by_role("button", name="Save who is present").click()
    widths.append(scroll_width(organiser))

    sat_out = []
    for number in (1, 2):
        with organiser.expect_navigation():
            organiser.get_by_role("button", name=f"Draw round {number}").click()
        sat_out.append(organiser.locator(".sitting-out").inner_text())
        widths.append(scroll_width(organiser))
        organiser.get_by_role("link", name="Table cards (QR codes)").click()
        cards = organiser.locator(".card-url").all_inner_texts()
        organiser.goto(night_url)
        open_card(first_table, cards[0])
        open_card(second_table, cards[1])
        play_to_the_winner(first_table, winners[number][0])
        expect(organiser.locator(".night-table .table-state").first).to_have_text(
            "finished", timeout=LIVE
        )
        play_to_the_winner(second_table, winners[number][1])
        expect(organiser.locator(".round-status")).to_have_text(
            "Every table has finished.", timeout=LIVE
        )
        assert table_states(organiser) == ["finished", "finished"]
        widths.append(scroll_width(first_table))

    with organiser.expect_navigation():
        organiser.get_by_role("button", name="End the night").click()
    rows = organiser.locator("table tbody tr")
    ranking = [
        tuple(cell.strip() for cell in rows.nth(index).locator("th, td").all_inner_texts())
        for index in range(rows.count())
    ]
    widths.append(scroll_width(organiser))

    assert sat_out[0] != sat_out[1]
    assert [row[1:] for row in ranking] == [
        (name, str(games), str(wins), str(points), str(total))
        for name, games, wins, points, total in expected_ranking(winners)
    ]
    assert widths == [PHONE_WIDTH] * len(widths)


def test_check_in_count_follows_the_ticks_before_saving(phone, club):
    night = night_services.create_night(club=club, date=date(2026, 12, 4), place="", rounds=None)
    organiser = phone("fr")
    organiser.goto("/accounts/login/")
    organiser.fill("#id_username", "amina")
    organiser.fill("#id_password", PASSWORD)
    with organiser.expect_navigation():
        organiser.locator("main form button[type=submit]").click()
    organiser.goto(f"/clubs/port/nights/{night.pk}/")
    counter = organiser.locator("#check-in-title small")
    expect(counter).to_have_text("0 présent")

    for name in NAMES[:3]:
        organiser.locator("label.check", has_text=name).click()
    ticked = counter.inner_text()
    organiser.locator("label.check", has_text=NAMES[0]).click()

    assert (ticked, counter.inner_text()) == ("3 présents", "2 présents")
