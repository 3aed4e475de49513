"""An organiser runs a championship on a 360x640 phone (issue 41's "Done when"): 2 nights of
3 rounds for 13 players, with a late entry (before half the rounds), a withdrawal, a pair
never seated together, a table that does not finish settled with totals and a reason, and
a final table; the room's screen open beside it in a 1920x1080 browser.

Every step of the organiser is a tap on the event's page (its forms and buttons, found by
their words in the page's language); the tables' games are recorded through the services
(tapping hands in is tested elsewhere). After each round:
- the round's seats never put the pair together, and the room's screen shows them once the
  round is published (never the draft before it);
- the ranking on the event's page equals the one this test computes on its own from the
  event's records (event.jsonl: each counted game's players, totals and round; the settled
  table's game, abandoned, counts with the totals the test typed) and the rounds' sit-outs, by the
  contract's points and order (../shared/specs/events.md), written here again, not read
  from the engine;
- the page is no wider than the phone.
Arabic runs the whole event (right to left, the most to break); French the first round's
steps."""

import datetime
import hashlib
import json
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext
from playwright.sync_api import expect

from scoring.clubs.models import Event, EventEntry, EventFinal, EventRound, Member
from scoring.engine import Contract, Hand, Trump, loads, score
from scoring.table import services as table_services
from scoring.table.models import Game, Summary
from tests.browser.phone import PHONE_WIDTH, scroll_width, session_cookie
from tests.clubs.factories import account, make_club
from tests.events.factories import PLAYERS

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
FOLLOWS = 15_000
"""A round published shows on the room's screen, which asks every 1.5 s: within 3 s is its
promise, which tests/browser/test_event_screen.py holds it to; this organiser's walk, the
longest of the browser tests, checks it follows, on a machine that CI's parts load."""
SCHEME = (3, 2, 1, 0)
SIT_OUT = Fraction(sum(SCHEME), 4)
"""The event's sit-out points: the mean of the scheme ("average")."""
ATTENDANCE = Fraction(3, 4)
LATE = "Nabil"
"""The late entrant: a guest entered by name before round 2."""
WITHDRAWN = "Karim"
"""Withdraws before round 3, checked in at the first night: never seated again."""
PAIR = ("Bilal", "Chafik")
"""Never seated together in this event."""
UNFINISHED = (2, 2)
"""Round 2's table 2 does not finish: the organiser settles it with these totals."""
SETTLED = (12, 30, 30, -5)
REASON = "Le café fermait à minuit"
STEPS = {2: "total points", 3: "opponents’ average", 4: "first places", 5: "head to head"}


def say(lang, message, **values):
    """``message`` as the page in ``lang`` says it, its placeholders filled."""
    with translation.override(lang):
        said = gettext(message)
    return said % values if values else said


def step_said(lang, step):
    """The words the ranking writes beside a player placed by ``step``."""
    with translation.override(lang):
        name = pgettext("tie-break", "the lot") if step == 6 else gettext(STEPS[step])
    return say(lang, "placed by %(step)s", step=name)


def press(page, lang, message, *, within=None, **values):
    """Tap the button that says ``message`` (in ``within``, else the page), and wait for the
    next page."""
    where = page.locator(within) if within else page
    with page.expect_navigation():
        where.get_by_role("button", name=say(lang, message, **values), exact=True).click()


def tick(page, within, names):
    """Tap each name's box in the check-list of ``within``."""
    for name in names:
        page.locator(f"{within} label.check").filter(has_text=name).click()


# The games, through the services: each table's winner and runner-up by its round and table.


def _hand(taker, bid, tricks, trump=Trump.HEARTS):
    return Hand(Contract(taker, bid, trump), tricks=tuple(tricks))


def _made(taker, second):
    """The taker bids 5 and makes 5 tricks, ``second`` the sixth."""
    return _hand(taker, 5, [5 if seat == taker else int(seat == second) for seat in range(4)])


def _failed(taker):
    """The taker bids 5 and makes 2: the others 2, 1 and 1."""
    others = iter((2, 1, 1))
    return _hand(
        taker, 5, [2 if seat == taker else next(others) for seat in range(4)], Trump.SPADES
    )


def record(game, number, hand):
    table_services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)


def status(game):
    return Summary.objects.values_list("status", flat=True).get(game=game)


def play(game, variety, *, hands=None):
    """The game played to its winner (or ``hands`` hands only): the shape of its result by
    ``variety`` (a failed contract first or not; who wins, who comes second)."""
    winner = variety % 4
    second = (winner + 1 + variety // 4) % 4 or (winner + 2) % 4
    second = second if second != winner else (winner + 3) % 4
    deals = [_failed((winner + 2) % 4)] if variety % 5 == 0 else []
    number = 0
    while status(game) == Summary.Status.PLAYING and (hands is None or number < hands):
        deal = deals[number] if number < len(deals) else _made(winner, second)
        number += 1
        record(game, number, deal)


def games_of(row):
    return list(Game.objects.filter(club_game__round=row.round).order_by("club_game__table"))


# The ranking, computed here from the records and the seatings (the contract's order).


def _decimal(text):
    """A number as a page writes it (``1,5``, ``-3``), as a Decimal."""
    return Decimal(text.replace("\u066b", ".").replace(",", ".").replace("\u2212", "-").strip())


def _three(value):
    """``value`` to three decimals, half to even."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)


def counted_games(body):
    """(round, players' names, totals) of each line of event.jsonl: the record's totals, or,
    for the table the organiser settled (its game abandoned), the totals typed for it."""
    games = []
    for line in body.splitlines():
        data = json.loads(line)
        number = data.pop("round")
        data.pop("event")
        if number in ("final", "consolation"):  # a final's game: no round's, not ranked
            continue
        totals = SETTLED if data.get("abandoned") else score(loads(json.dumps(data)))["totals"]
        games.append((number, tuple(data["players"]), tuple(totals)))
    return games


def table_ranks(totals):
    return [1 + sum(other > total for other in totals) for total in totals]


def expected_ranking(games, rounds, entrants, nights, seed):
    """Each entrant's line, in the ranking's order: name, league points, points, opponents,
    firsts, rounds, nightly points, eligible, and the step that placed him (None: the first).

    ``rounds``: (night, tables, sitting out) of each published round, by name; ``entrants``:
    name -> member id (the lot's)."""
    names = list(entrants)
    night_of = {number: night for number, (night, _, _) in enumerate(rounds, start=1)}
    nightly = {name: [Fraction(0)] * nights for name in names}
    seated = dict.fromkeys(names, 0)
    present = {name: set() for name in names}
    for night, tables, out in rounds:
        for name in [one for table in tables for one in table] + list(out):
            seated[name] += 1
            present[name].add(night)
        for name in out:
            nightly[name][night] += SIT_OUT
    points, firsts, played = dict.fromkeys(names, 0), dict.fromkeys(names, 0), {}
    for number, players, totals in games:
        ranks = table_ranks(totals)
        for name, total, rank in zip(players, totals, ranks, strict=True):
            nightly[name][night_of[number]] += SCHEME[rank - 1]
            points[name] += total
            firsts[name] += rank == 1
            played.setdefault(name, []).append(dict(zip(players, ranks, strict=True)))
    league = {name: sum(nightly[name]) for name in names}
    opponents = {}
    for name in names:
        tables = played.get(name, [])
        faced = sum(league[other] for table in tables for other in table if other != name)
        opponents[name] = _three(Fraction(faced) / (3 * len(tables))) if tables else Decimal(0)
    keys = {name: (league[name], points[name], opponents[name], firsts[name]) for name in names}
    head = {}
    for name in names:
        tied = {other for other in names if other != name and keys[other] == keys[name]}
        head[name] = sum(
            (table[other] > table[name]) - (table[other] < table[name])
            for table in played.get(name, [])
            for other in table
            if other in tied
        )
    lot = {name: hashlib.sha256(f"{seed}:{entrants[name]}".encode()).hexdigest() for name in names}
    full = {
        name: (
            -league[name],
            -points[name],
            -opponents[name],
            -firsts[name],
            -head[name],
            lot[name],
        )
        for name in names
    }
    order = sorted(names, key=lambda name: full[name])
    placed = {}
    for at, name in enumerate(order):
        shared = 0
        for other in order[max(at - 1, 0) : at + 2]:
            if other != name:
                same = next((step for step in range(6) if full[other][step] != full[name][step]), 6)
                shared = max(shared, same)
        placed[name] = shared + 1 if shared else None
    eligible = {name: Fraction(len(present[name]), nights) >= ATTENDANCE for name in names}
    listed = [name for name in order if eligible[name]] + [
        name for name in order if not eligible[name]
    ]
    return [
        (
            name,
            Decimal(league[name].numerator) / Decimal(league[name].denominator),
            points[name],
            opponents[name],
            firsts[name],
            seated[name],
            [Decimal(one.numerator) / Decimal(one.denominator) for one in nightly[name]],
            eligible[name],
            placed[name],
        )
        for name in listed
    ]


RANKING_ROWS = """() => [...document.querySelectorAll("table.event-ranking tbody tr")]
  .filter(row => row.querySelector("td"))
  .map(row => {
    const cells = [...row.querySelectorAll("td")].map(cell => cell.textContent.trim());
    const player = row.querySelector("th.player");
    const placed = player.querySelector(".decided-by");
    return {
      apart: row.closest("tbody").classList.contains("apart"),
      name: player.querySelector("a").textContent.trim(),
      placed: placed ? placed.textContent.trim() : "",
      cells,
      nights: [...row.querySelectorAll("td.nights")].map(cell => cell.textContent.split("·")
        .map(part => part.trim())).flat(),
    };
  })"""


def shown_ranking(page, lang):
    """The ranking the event's page shows, in the shape of :func:`expected_ranking`."""
    labels = {step_said(lang, step): step for step in range(2, 7)}
    return [
        (
            row["name"],
            _decimal(row["cells"][1]),
            int(_decimal(row["cells"][2])),
            _decimal(row["cells"][3]),
            int(row["cells"][4]),
            int(row["cells"][5]),
            [_decimal(one) for one in row["nights"]],
            not row["apart"],
            labels[row["placed"]] if row["placed"] else None,
        )
        for row in page.evaluate(RANKING_ROWS)
    ]


def computed(page, event):
    """The ranking this test computes from the event's records and its published rounds."""
    body = page.request.get(f"/clubs/sfax/events/{event.pk}/event.jsonl").text()
    names = dict(Member.objects.filter(club=event.club).values_list("pk", "name"))
    nights = list(event.nights.order_by("date", "id").values_list("pk", flat=True))
    rounds = [
        (
            nights.index(row.night_id),
            [[names[one] for one in table] for table in row.tables],
            [names[one] for one in row.sitting_out],
        )
        for row in EventRound.objects.filter(event=event, published_at__isnull=False).order_by(
            "number"
        )
    ]
    entrants = {
        names[one]: one
        for one in EventEntry.objects.filter(event=event).values_list("member_id", flat=True)
    }
    return expected_ranking(counted_games(body), rounds, entrants, len(nights), event.seed)


# The room's screen.


SEATS_SHOWN = """() => [...document.querySelectorAll(".panel-seats .screen-seat-list li")]
  .map(item => [item.querySelector(".name").textContent.trim(),
                item.querySelector(".seat-table").textContent.trim()])"""


def seats_of(row, names, lang):
    """Each player of a round with his table, as the screen says it."""
    seats = [
        [names[one], say(lang, "Table %(number)s", number=number)]
        for number, table in enumerate(row.tables, start=1)
        for one in table
    ]
    seats += [[names[one], say(lang, "sits out")] for one in row.sitting_out]
    return sorted(seats)


def screen_round(screen):
    return screen.locator("#screen-panels").get_attribute("data-round")


# The organiser's steps.


def create_event(admin, lang, today):
    admin.goto("/clubs/sfax/events/new")
    admin.fill("#id_name", "Coupe de Sfax")
    admin.fill("#id_rounds", "3")
    admin.locator("input[name=sit_out_points][value=average]").check()
    admin.fill("#id_min_attendance", "75")
    admin.locator("#id_final").select_option("final")
    admin.locator("#id_public").check()
    assert admin.locator("#id_date").input_value() == today.isoformat()
    press(admin, lang, "Create the event")
    return Event.objects.get(club__slug="sfax")


def add_night(admin, lang, day):
    admin.locator("#nights summary").click()
    admin.fill("#nights input[name=date]", day.isoformat())
    admin.fill("#nights input[name=rounds]", "3")
    press(admin, lang, "Add the night", within="#nights")


def enter(admin, lang, names=(), guests=""):
    if admin.locator("#entries details.enter").get_attribute("open") != "":
        admin.locator("#entries details.enter summary").click()
    tick(admin, "#entries", names)
    if guests:
        admin.fill("#entries textarea[name=guests]", guests)
    press(admin, lang, "Enter them", within="#entries")


def forbid(admin, lang, first, second):
    admin.locator("#pairs summary").click()
    admin.locator("#pairs select[name=first]").select_option(label=first)
    admin.locator("#pairs select[name=second]").select_option(label=second)
    press(admin, lang, "Never seat them together", within="#pairs")


def check_in(admin, lang, names):
    tick(admin, "#check-in", names)
    press(admin, lang, "Save who is present", within="#check-in")


SAME_IDS = """() => {
  const seen = new Set(), again = [];
  for (const element of document.querySelectorAll("[id]")) {
    if (seen.has(element.id)) again.push(element.id);
    seen.add(element.id);
  }
  return again;
}"""
"""The ids given twice on the page: a label names the first element of its id."""


def draw(admin, lang, number, method=None):
    if method is not None:
        admin.locator(f"#draw input[name=method][value={method}]").check()
    press(admin, lang, "Draw round %(number)s", number=number, within="#draw")
    expect(admin.locator("#draft")).to_be_visible()
    assert (admin.evaluate(SAME_IDS), scroll_width(admin)) == ([], PHONE_WIDTH)


def publish(admin, lang, number):
    press(
        admin,
        lang,
        "Publish round %(number)s: show the seats and start the tables",
        number=number,
        within="#draft",
    )


def settle(admin, lang, table, totals, reason):
    shown = admin.locator("#rounds details.event-round").first
    where = shown.locator("li.night-table").nth(table - 1)
    where.locator("details.settle summary").click()
    where.locator("input[name=how][value=entered]").check()
    for seat, total in enumerate(totals):
        where.locator(f"input[name=total_{seat}]").fill(str(total))
    where.locator("input[name=reason]").fill(reason)
    with admin.expect_navigation():
        where.get_by_role("button", name=say(lang, "Settle it"), exact=True).click()


def run_round(admin, screen, lang, event, number, names, here, method=None):
    """Round ``number`` drawn, then published, by taps; it seats (or sits out) exactly those
    ``here``; the screen checked to show the round before it while it is a draft, and its
    seats once published. Returns the round."""
    draw(admin, lang, number, method)
    if screen is not None:
        screen.reload()
        before = EventRound.objects.filter(event=event, number=number - 1).first()
        assert screen_round(screen) == ("" if before is None else str(number - 1))
        if before is not None:
            assert sorted(screen.evaluate(SEATS_SHOWN)) == seats_of(before, names, lang)
    publish(admin, lang, number)
    if screen is not None:
        expect(screen.locator("#screen-panels")).to_have_attribute(
            "data-round", str(number), timeout=FOLLOWS
        )
    row = EventRound.objects.get(event=event, number=number)
    seated = [names[one] for table in row.tables for one in table] + [
        names[one] for one in row.sitting_out
    ]
    assert sorted(seated) == sorted(here)
    if screen is not None:
        assert sorted(screen.evaluate(SEATS_SHOWN)) == seats_of(row, names, lang)
    pair = {names_id for names_id, name in names.items() if name in PAIR}
    assert [table for table in row.tables if pair <= set(table)] == []
    return row


def check_ranking(admin, event, lang, screen=None):
    """The event page's ranking is the one computed here, and so is the screen's order."""
    admin.goto(f"/clubs/sfax/events/{event.pk}/")
    ranking = computed(admin, event)
    assert (shown_ranking(admin, lang), scroll_width(admin)) == (ranking, PHONE_WIDTH)
    if screen is not None:
        expect(screen.locator(".panel-standings .screen-ranking .name")).to_have_text(
            [line[0] for line in ranking], timeout=FOLLOWS
        )


@pytest.fixture
def sfax(transactional_db):
    """Sfax, playing to 21, Amina its admin (account amina) among its thirteen players, and
    a fourteenth who does not enter (so that the entry form still lists a player beside
    the check-in's)."""
    amina = account("amina")
    return make_club(amina, target=21, public=True, players=(*PLAYERS, "Olfa")), amina


def open_screen(browser, live_server, event, lang):
    context = browser.new_context(
        viewport=SCREEN, base_url=live_server.url, extra_http_headers={"Accept-Language": lang}
    )
    page = context.new_page()
    page.goto(f"/clubs/sfax/events/{event.pk}/screen?lang={lang}&turn=120")
    return context, page


def test_organiser_runs_an_event_of_two_nights_to_its_final(phone, browser, live_server, sfax):
    lang = "ar"
    club, amina = sfax
    admin = phone(lang, scorer=False)
    admin.context.add_cookies([session_cookie(amina, live_server.url)])
    today = datetime.datetime.now(ZoneInfo(club.time_zone)).date()
    everyone = ("Amina", *PLAYERS)

    # The event, its second night, its thirteen players, a pair never together, the first
    # night's check-in.
    event = create_event(admin, lang, today)
    add_night(admin, lang, today + datetime.timedelta(days=7))
    enter(admin, lang, everyone)
    forbid(admin, lang, *PAIR)
    check_in(admin, lang, everyone)
    assert (admin.evaluate(SAME_IDS), scroll_width(admin)) == ([], PHONE_WIDTH)
    context, screen = open_screen(browser, live_server, event, lang)
    here = list(everyone)
    try:
        for number in range(1, 7):
            if number == 2:  # a late entrant, before half the rounds are drawn
                enter(admin, lang, guests=LATE)
                check_in(admin, lang, [LATE])
                here.append(LATE)
            if number == 3:  # one withdraws, checked in as he is
                with admin.expect_navigation():
                    admin.locator("#entries").get_by_role(
                        "button", name=f"{say(lang, 'Withdraw')} {WITHDRAWN}", exact=True
                    ).click()
                here.remove(WITHDRAWN)
            if number == 4:  # the second night: the others come
                check_in(admin, lang, here)
            names = dict(Member.objects.filter(club=club).values_list("pk", "name"))
            method = {4: "interval", 5: "no-repeat"}.get(number)
            row = run_round(admin, screen, lang, event, number, names, here, method)
            for table, game in enumerate(games_of(row), start=1):
                if (number, table) == UNFINISHED:
                    play(game, number + table, hands=2)
                else:
                    play(game, 3 * number + table)
            if number == UNFINISHED[0]:
                admin.goto(f"/clubs/sfax/events/{event.pk}/")
                settle(admin, lang, UNFINISHED[1], SETTLED, REASON)
                expect(admin.locator("#rounds")).to_contain_text(REASON)
            if number == 3:
                expect(admin.locator("#entries")).to_contain_text(
                    say(lang, "Entries are closed: half the rounds planned are drawn.")
                )
            check_ranking(admin, event, lang, screen)

        # The final: the four best-ranked eligible, best first, its table on the room's
        # screen as it plays; its standing by carried + final.
        ranking = computed(admin, event)
        press(admin, lang, "Draw the final", within="#final")
        final = EventFinal.objects.get(event=event)
        names = dict(Member.objects.filter(club=club).values_list("pk", "name"))
        best = [line[0] for line in ranking if line[7]][:4]
        assert [names[one] for one in final.players] == best
        finals = screen.locator(".panel-finals .final-final .name")
        expect(finals).to_have_text(best, timeout=FOLLOWS)
        play(final.game, 5)
        expect(screen.locator(".panel-finals .final-final")).to_have_class(
            "screen-table table-won final-final", timeout=FOLLOWS
        )
    finally:
        context.close()
    admin.reload()
    # event.jsonl ends with the final's game, which the ranking above left out.
    body = admin.request.get(f"/clubs/sfax/events/{event.pk}/event.jsonl").text()
    last = json.loads(body.splitlines()[-1])
    assert (last["round"], last["players"]) == ("final", best)
    totals = Summary.objects.get(game=final.game).totals
    league = {line[0]: line[1] for line in ranking}
    ranks = table_ranks(totals)
    standing = sorted(
        (
            (league[name] + SCHEME[rank - 1], -rank, -best.index(name), name)
            for name, rank in zip(best, ranks, strict=True)
        ),
        reverse=True,
    )
    shown = admin.evaluate(
        """() => [...document.querySelectorAll("table.final-standing tbody tr")].map(row =>
             [row.querySelector("th").firstChild.textContent.trim(),
              row.querySelectorAll("td")[3].textContent.trim()])"""
    )
    assert [(name, _decimal(total)) for name, total in shown] == [
        (name, total) for total, _, _, name in standing
    ]
    assert scroll_width(admin) == PHONE_WIDTH


def test_organisers_first_round_in_french(phone, live_server, sfax):
    """The event page's key steps in French (its widest words): the event made, its players
    entered, a pair declared, the check-in, a round drawn, two players swapped and it
    published, a table settled; the ranking then as computed here."""
    lang = "fr"
    club, amina = sfax
    admin = phone(lang, scorer=False)
    admin.context.add_cookies([session_cookie(amina, live_server.url)])
    today = datetime.datetime.now(ZoneInfo(club.time_zone)).date()
    everyone = ("Amina", *PLAYERS)
    names = dict(Member.objects.filter(club=club).values_list("pk", "name"))

    event = create_event(admin, lang, today)
    enter(admin, lang, everyone)
    forbid(admin, lang, *PAIR)
    check_in(admin, lang, everyone)
    draw(admin, lang, 1)
    drawn = EventRound.objects.get(event=event, number=1)
    first, second = names[drawn.tables[0][0]], names[drawn.tables[1][0]]
    admin.locator("#draft select[name=first]").select_option(label=first)
    admin.locator("#draft select[name=second]").select_option(label=second)
    press(admin, lang, "Swap them", within="#draft")
    publish(admin, lang, 1)
    row = EventRound.objects.get(event=event, number=1)
    assert (names[row.tables[0][0]], names[row.tables[1][0]], scroll_width(admin)) == (
        second,
        first,
        PHONE_WIDTH,
    )
    for table, game in enumerate(games_of(row), start=1):
        play(game, table, hands=2 if table == 1 else None)
    admin.reload()
    settle(admin, lang, 1, SETTLED, REASON)
    expect(admin.locator("#rounds")).to_contain_text(REASON)
    check_ranking(admin, event, lang)
