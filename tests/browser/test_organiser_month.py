"""An organiser's month on 360x640 phones, in French and in Arabic (issues 19 and 37): a club
created, seven players added and one invited and accepted, a club game with a guest whose
name was mistyped, a first night of nine players over two rounds scored from the table
cards (the organiser's page following the tables live, the night's ranking computed here
from the draw), a second night ended while a table still plays (settled as it stands, counted
nowhere, and its phone refused afterwards), a correction found through the games list, the
guest's typo merged into the member he is, and the season edited: first its name alone, as
the form comes up, then its first day.

Every button is found by its words in the page's language (the catalogue's, through
gettext), and every form is sent as the page draws it: the new night's date and the
season's days are never typed over (a French page drew them 04/12/2026, which the browser
dropped). After each step the season's standings.csv equals what this test computes on its
own from the club's records.jsonl: each won game's ranks from its totals (the engine's),
league points 3, 2, 1, 0, and OpenSkill's Plackett-Luce over the counted games in the order
they finished (../shared/specs/league.md); and the page is no wider than the phone.
"""

import csv
import datetime
import io
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext
from openskill.models import PlackettLuce
from playwright.sync_api import expect

from scoring.clubs.models import Member, Round
from scoring.engine import loads, score
from tests.browser.hands import GAME, VOID, Deal, enter, key, status
from tests.browser.phone import PHONE_WIDTH, Taps, scroll_width

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-trumps-21"
ZONE = {"fr": "Europe/Paris", "ar": "Africa/Tunis"}
POINTS = (3, 2, 1, 0)
MEMBERS = ("Chafik", "Dalila", "Élodie", "Farid", "Hugo", "Inès", "Omar")
NIGHT = ("Amina", "Bilal", *MEMBERS)
"""The nine at the first night: Amina (the admin), Bilal (invited) and the seven members."""
LIVE = 8_000
"""How long the organiser's page may take to show a table's change: one poll and more."""


@pytest.fixture
def accounts(transactional_db):
    return [User.objects.create_user(name, password=PASSWORD) for name in ("amina", "bilal")]


def say(lang, message, **values):
    """``message`` as the page in ``lang`` says it, its placeholders filled."""
    with translation.override(lang):
        said = gettext(message)
    return said % values if values else said


def press(page, lang, message, **values):
    """Press the button that says ``message`` in ``lang``, and wait for the next page."""
    with page.expect_navigation():
        page.get_by_role("button", name=say(lang, message, **values), exact=True).click()


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


def play(page, lang, deals):
    """Tap a whole game in, hand by hand, to its winner."""
    for number, deal in enumerate(deals, start=1):
        if deal is VOID:
            page.get_by_role("button", name=say(lang, "All passed"), exact=True).click()
        else:
            enter(Taps(), page, deal)
            page.get_by_role("button", name=say(lang, "Save the hand"), exact=True).click()
        if number < len(deals):
            expect(status(page)).to_contain_text(str(number + 1))
    expect(page.locator(".winner h1")).to_be_visible()


def night_ranking(winners):
    """The first night's ranking computed here from its draw: at each table the winner has
    24 and the three others 0, so ranks 1, 2, 2, 2 and league points 3, 2, 2, 2."""
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


def boulmous_by(seat):
    """A boulmous made by ``seat``: 6 points to him, nothing to the others."""
    return Deal(seat, 6, "H", tuple(6 if other == seat else 0 for other in range(4)), (seat,))


def open_card(page, lang, url):
    """A table phone scans its card: the scorer link, then the game page."""
    page.goto(url)
    press(page, lang, "Score on this phone")
    expect(status(page)).to_contain_text("1")


def expected(page, lang, season_first, season_last):
    """The season's standings computed here from records.jsonl, by player: games, wins,
    league points, points, rating mu and sigma to six places."""
    body = page.request.get("/clubs/port/records.jsonl").text()
    zone = ZoneInfo(ZONE[lang])
    model = PlackettLuce()
    ratings = {}
    lines = {}
    records = [loads(text) for text in body.splitlines() if text.strip()]
    won = [record for record in records if score(record)["winner"] is not None]
    won.sort(key=lambda record: record.about.finished_at)
    for record in won:
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
            lines[name] = (
                games + 1,
                wins + (rank == 1),
                league_points + POINTS[rank - 1],
                points + total,
            )
    return {
        name: (*line, f"{ratings[name].mu:.6f}", f"{ratings[name].sigma:.6f}")
        for name, line in lines.items()
    }


def standings_csv(page, season):
    """standings.csv as the club serves it, by player, in the same shape."""
    answer = page.request.get(f"/clubs/port/seasons/{season}/standings.csv")
    assert answer.status == 200
    return {
        row["player"]: (
            int(row["games"]),
            int(row["wins"]),
            int(row["league_points"]),
            int(row["points"]),
            row["rating_mu"],
            row["rating_sigma"],
        )
        for row in csv.DictReader(io.StringIO(answer.text()))
    }


def check(page, lang, season, first, last):
    page.goto(f"/clubs/port/seasons/{season}/")
    assert scroll_width(page) == PHONE_WIDTH
    shown = standings_csv(page, season)
    assert shown == expected(page, lang, first, last)
    return shown


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_organiser_month_keeps_standings_and_ratings_right(phone, accounts, lang):
    admin, invited, first_table, second_table = (phone(lang) for _ in range(4))
    zone = ZoneInfo(ZONE[lang])
    today = datetime.datetime.now(zone).date()
    first, last = today - datetime.timedelta(days=20), today + datetime.timedelta(days=10)

    # 1. The club and its season.
    log_in(admin, "amina")
    admin.goto("/clubs/new")
    admin.fill("#id_name", "Café du Port")
    admin.fill("#id_slug", "port")
    admin.fill("#id_your_name", "Amina")
    admin.locator("#id_time_zone").select_option(ZONE[lang])
    press(admin, lang, "Create the club")
    admin.goto("/clubs/port/seasons/new")
    admin.fill("#id_name", "Novembre")
    admin.fill("#id_slug", "novembre")
    admin.fill("#id_first_day", first.isoformat())
    admin.fill("#id_last_day", last.isoformat())
    press(admin, lang, "Create the season")
    expect(admin.locator(".messages")).to_contain_text("Novembre")

    # 2. Seven players added; Bilal asks to join by the invite; Amina accepts him.
    admin.goto("/clubs/port/members")
    invite = admin.locator(".share-url a").inner_text()
    for name in MEMBERS:
        admin.fill("#id_name", name)
        press(admin, lang, "Add")
        expect(admin.locator(".messages")).to_contain_text(name)
    log_in(invited, "bilal")
    invited.goto(invite)
    invited.fill("#id_name", "Bilal")
    press(invited, lang, "Join the club")
    admin.goto("/clubs/port/")
    press(admin, lang, "Accept")
    expect(admin.locator(".messages")).to_be_visible()
    assert scroll_width(admin) == PHONE_WIDTH

    # 3. A club game with a guest whose name Amina mistyped: "Omarr". Bilal wins.
    admin.goto("/clubs/port/")
    admin.get_by_role("link", name=say(lang, "New game"), exact=True).click()
    for seat, name in enumerate(("Amina", "Bilal", "Chafik", "Omarr")):
        admin.locator(f"#id_player_{seat}").fill(name)
    key(admin, "first_dealer", 0).click()
    press(admin, lang, "Start the game")
    play(admin, lang, GAME)
    check(admin, lang, "novembre", first, last)

    # 4. The first night, its date as the form draws it: nine present, two rounds, each
    # table scored from its card; every table finished, so it ends at once.
    admin.goto("/clubs/port/nights/new")
    admin.fill("#id_rounds", "2")
    press(admin, lang, "Create the night")
    night = admin.url
    for name in NIGHT:
        exactly = re.compile(rf"^\s*{re.escape(name)}\s*$")
        admin.locator("label.check").filter(has_text=exactly).click()
    press(admin, lang, "Save who is present")
    widths = [scroll_width(admin)]
    winners = {1: (0, 1), 2: (2, 3)}
    sat_out, table_states = [], []
    finished = say(lang, "finished")
    for number in (1, 2):
        press(admin, lang, "Draw round %(number)s", number=number)
        sat_out.append(admin.locator(".sitting-out").inner_text())
        widths.append(scroll_width(admin))
        admin.get_by_role("link", name=say(lang, "Table cards (QR codes)")).click()
        expect(admin.locator(".card-url")).to_have_count(2)  # the click does not wait for it
        cards = admin.locator(".card-url").all_inner_texts()
        widths.append(scroll_width(admin))
        admin.goto(night)
        open_card(first_table, lang, cards[0])
        open_card(second_table, lang, cards[1])
        # The organiser's page follows the tables live.
        play(first_table, lang, [boulmous_by(winners[number][0])] * 4)
        expect(admin.locator(".night-table .table-state").first).to_have_text(
            finished, timeout=LIVE
        )
        play(second_table, lang, [boulmous_by(winners[number][1])] * 4)
        expect(admin.locator(".round-status")).to_have_text(
            say(lang, "Every table has finished."), timeout=LIVE
        )
        table_states.append(admin.locator(".night-table .table-state").all_inner_texts())
        widths.append(scroll_width(first_table))
    admin.goto(night)
    press(admin, lang, "End the night")
    rows = admin.locator("table tbody tr")
    ranking = [
        tuple(cell.strip() for cell in rows.nth(index).locator("th, td").all_inner_texts())
        for index in range(rows.count())
    ]
    widths.append(scroll_width(admin))
    assert sat_out[0] != sat_out[1]
    assert [[state.strip() for state in states] for states in table_states] == [
        [finished, finished]
    ] * 2
    assert [row[1:] for row in ranking] == [
        (name, str(games), str(wins), str(points), str(total))
        for name, games, wins, points, total in night_ranking(winners)
    ]
    assert widths == [PHONE_WIDTH] * len(widths)
    after_night = check(admin, lang, "novembre", first, last)
    assert sum(line[0] for line in after_night.values()) == 4 * 5

    # 5. The second night: eight present, one round; table 1 finishes, table 2 has played
    # one hand when the night ends. Settled as it stands, it counts nowhere, and its phone
    # may no longer score it.
    admin.goto("/clubs/port/nights/new")
    admin.fill("#id_rounds", "1")
    press(admin, lang, "Create the night")
    second_night = admin.url
    assert second_night != night
    for name in NIGHT[:8]:
        exactly = re.compile(rf"^\s*{re.escape(name)}\s*$")
        admin.locator("label.check").filter(has_text=exactly).click()
    press(admin, lang, "Save who is present")
    press(admin, lang, "Draw round %(number)s", number=1)
    admin.get_by_role("link", name=say(lang, "Table cards (QR codes)")).click()
    expect(admin.locator(".card-url")).to_have_count(2)
    cards = admin.locator(".card-url").all_inner_texts()
    open_card(first_table, lang, cards[0])
    open_card(second_table, lang, cards[1])
    play(first_table, lang, [boulmous_by(0)] * 4)
    enter(Taps(), second_table, boulmous_by(1))
    second_table.get_by_role("button", name=say(lang, "Save the hand"), exact=True).click()
    expect(status(second_table)).to_contain_text("2")
    admin.goto(second_night)
    press(admin, lang, "End the night")
    assert scroll_width(admin) == PHONE_WIDTH
    press(admin, lang, "Settle them as they stand and end the night")
    admin.goto(second_night)
    states = admin.locator(".night-table .table-state").all_inner_texts()
    assert [state.strip() for state in states] == [say(lang, "finished"), say(lang, "abandoned")]
    second_table.reload()
    expect(second_table.get_by_role("button", name=say(lang, "Save the hand"))).to_have_count(0)
    closed = say(lang, "This night ended at %(time)s; its tables no longer score.")
    expect(second_table.locator("main")).to_contain_text(closed.split("%(time)s")[0].strip())
    after_second = check(admin, lang, "novembre", first, last)
    assert sum(line[0] for line in after_second.values()) == 4 * 6

    # 6. A correction found through the games list: in Omarr's game, Chafik's trick of hand
    # 1 was Omarr's, which ties them at 3 behind Bilal: the ranks, so the ratings, change.
    admin.goto("/clubs/port/games")
    admin.fill("#id_q", "Omarr")
    press(admin, lang, "Show")
    rows = admin.locator(".club-game-list li")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("link", name=say(lang, "Correct a hand")).click()
    admin.get_by_role("link", name=say(lang, "Edit hand %(number)s", number=1), exact=True).click()
    key(admin, "tricks_2", 0).click()
    key(admin, "tricks_3", 1).click()
    admin.get_by_role("button", name=say(lang, "Save the change"), exact=True).click()
    expect(admin.locator(".history li").first).to_contain_text("amina")
    corrected = check(admin, lang, "novembre", first, last)
    assert (corrected["Omarr"][:4], after_second["Omarr"][:4]) == ((1, 0, 2, 3), (1, 0, 1, 2))

    # 7. The guest "Omarr" merged into the member Omar, from the members page.
    admin.goto("/clubs/port/members")
    merge_link = f"{say(lang, 'Merge into another player')} Omarr"
    admin.get_by_role("link", name=merge_link, exact=True).click()
    admin.locator("#id_into").select_option(label="Omar")
    press(admin, lang, "See what follows")
    merge = admin.get_by_role("button", name=re.compile("Omarr"))
    as_said = say(
        lang, "Merge <bdi>%(gone)s</bdi> into <bdi>%(kept)s</bdi>", gone="Omarr", kept="Omar"
    )
    assert merge.inner_text() == re.sub("</?bdi>", "", as_said)  # as drawn, spaces kept
    with admin.expect_navigation():
        merge.click()
    expect(admin.locator(".messages")).to_contain_text("Omar")
    merged = check(admin, lang, "novembre", first, last)
    assert ("Omarr" in merged, merged["Omar"][0]) == (False, corrected["Omar"][0] + 1)

    # 8. The season edited as its form comes up: its name alone, then its first day a week
    # later (every game so far is today's, so the standings stay as they are).
    admin.goto("/clubs/port/seasons/novembre/")
    admin.get_by_role("link", name=say(lang, "Change the season")).click()
    admin.fill("#id_name", "Novembre 2026")
    press(admin, lang, "Save the season")
    expect(admin.locator(".messages")).to_be_visible()
    assert check(admin, lang, "novembre", first, last) == merged
    admin.goto("/clubs/port/seasons/novembre/")
    admin.get_by_role("link", name=say(lang, "Change the season")).click()
    assert admin.input_value("#id_first_day") == first.isoformat()
    admin.fill("#id_slug", "novembre-2026")
    admin.fill("#id_first_day", (first + datetime.timedelta(days=7)).isoformat())
    press(admin, lang, "Save the season")
    expect(admin.locator(".messages")).to_be_visible()
    later = first + datetime.timedelta(days=7)
    assert check(admin, lang, "novembre-2026", later, last) == merged
    assert admin.request.get("/clubs/port/seasons/novembre/").url.endswith("/novembre-2026/")
