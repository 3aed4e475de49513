"""Issue 40's "Done when", in Chromium: four phones on 360x640 play a club game for money
under each confirmation rule, in English and Arabic.

The scorer's phone holds Amina's seat and taps the hands in; Bilal's, Chafik's and
Dalila's phones each open their seat's address and take it; the club's admin, Karim, is the
referee on his own phone. Under *each hand*: hand 1 waits for the three others on every
phone until Bilal confirms it; Chafik disputes hand 2 with a reason, every phone marks it,
Karim confirms it as it stands with his reason, which the players' phones show; hand 3 is
left, its minutes run out (its entry is moved back on the server's clock), and it is
confirmed by itself; Dalila confirms hand 4, which Bilal won with. Under *the whole game*:
Chafik disputes hand 1 and Karim decides it the same way; once Bilal has won, Bilal, Chafik
and Dalila sign the result on their phones. Then the four agree to the settlement (Amina on
the scorer's phone, with her seat's code, which signs the result for her under the whole
game): until the fourth agrees the season's page says the game is provisional and the
league has not counted it; then it is final and counted."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from scoring.clubs import services as club_services
from scoring.clubs.models import Club, ClubResult
from scoring.engine import Confirmation
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import Deal, enter
from tests.browser.phone import Taps, session_cookie
from tests.clubs.cafe import new_club
from tests.clubs.factories import account

pytestmark = pytest.mark.browser

NAMES = ("Amina", "Bilal", "Chafik", "Dalila")
WON = Deal(1, 5, "S", (0, 5, 1, 0))
"""Bilal bids five spades and makes them: 5 points a hand, the target (20) at hand 4."""


TEXT = {
    "en": {
        "waits": "Hand {} waits for Bilal, Chafik or Dalila",
        "why": "Bilal took four tricks, not five",
        "disputed": "Hand {} disputed by Chafik: Bilal took four tricks, not five",
        "because": "Recounted with the four of them: five",
        "decided": "The referee confirmed it as it stands: Recounted with the four of them: five",
        "by_itself": "Hand 3 confirmed by itself after 15 minutes",
        "signed": "Signed by Bilal, Chafik and Dalila; waiting for Amina.",
        "provisional": "1 game won this season is provisional: it counts once its result is final.",
        "agreed": "Agreed by Amina, Bilal, Chafik and Dalila at",
    },
    "ar": {
        "waits": "الجولة {} بانتظار Bilal، Chafik أو Dalila",
        "why": "أخذ Bilal أربع لفّات لا خمسًا",
        "disputed": "الجولة {} اعترض عليها Chafik: أخذ Bilal أربع لفّات لا خمسًا",
        "because": "أعدنا العدّ معهم الأربعة: خمس",
        "decided": "أكّدها المحكّم كما هي: أعدنا العدّ معهم الأربعة: خمس",
        "by_itself": "الجولة 3 أُكّدت تلقائيًا بعد 15 دقيقة",
        "signed": "وقّعها Bilal، Chafik وDalila؛ بانتظار Amina.",
        "provisional": "مباراة واحدة فُصل فيها هذا الموسم نتيجتها مؤقتة: تُحتسب حين تصبح نهائية.",
        # The names in the settlement's sentence are isolated (U+2068 … U+2069).
        "agreed": (
            "وافق على التسوية \u2068Amina\u2069، \u2068Bilal\u2069، \u2068Chafik\u2069 "
            "و\u2068Dalila\u2069 في الساعة"
        ),
    },
}


@pytest.fixture
def cafe_game(transactional_db, request):
    """A game of the Café des Sports (its admin Karim, a season around today), for
    0.50 EUR a stake, to 20 points, under the confirmation rule the test names; the
    seats' codes made: the club, its admin's account, the game, the codes by seat."""
    karim = account("karim")
    club = new_club(karim, admin_name="Karim")
    Club.objects.filter(pk=club.pk).update(target=20, confirmation=request.param)
    club.refresh_from_db()
    game = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None).game
    codes = [link.code for link in services.make_seat_links(public_id=game.public_id)]
    return club, karim, game, codes


def save_hand(scorer, number):
    """The scorer taps Bilal's five spades in and saves hand ``number``."""
    enter(Taps(), scorer, WON)
    scorer.locator("button.save").click()
    expect(scorer.locator(".scoreboard .total").nth(1)).to_have_text(str(5 * number))


def each_sees(phones, selector, text):
    for page in phones:
        expect(page.locator(selector)).to_contain_text(text)


def waits(phones, line):
    """Every phone shows one hand waiting, and for whom."""
    for page in phones:
        expect(page.locator(".waiting-hand")).to_have_count(1)
        expect(page.locator(".waiting-hand")).to_contain_text(line)


def dispute_and_decide(phones, referee, gid, number, said, *, whole):
    """Chafik disputes hand ``number`` with his reason (under the whole game, by its
    number); every phone marks it; the referee confirms it as it stands with his reason,
    which every phone then shows."""
    chafik = phones[2]
    chafik.locator("details.dispute summary").click()
    if whole:
        chafik.fill("#dispute-number", str(number))
    chafik.fill("#dispute-reason" if whole else f"#dispute-{number}", said["why"])
    chafik.locator("details.dispute button[type=submit]").click()
    each_sees(phones, ".disputed-hand.open", said["disputed"].format(number))

    referee.goto(f"/games/{gid}/hands/{number}/decide")
    referee.locator("form.hand [name=reason]").fill(said["because"])
    referee.locator("button[value=confirmed]").click()
    each_sees([referee, *phones], ".decision", said["decided"])
    for page in phones:
        expect(page.locator(".disputed-hand.open")).to_have_count(0)


def agree(page, gid):
    """The player agrees to the settlement on his own phone."""
    page.goto(f"/games/{gid}/settlement")
    page.locator(".agree button[type=submit]").click()
    expect(page.locator(".agree button[type=submit]")).to_have_count(0)


def season_says(page, club):
    """The season page's note of provisional results, and how many lines its standings
    count."""
    page.goto(f"/clubs/{club.slug}/seasons/now/")
    notes = page.locator(".provisional-results").all_inner_texts()
    return notes, page.locator(".league-wrap table.league-table tbody tr").count()


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("cafe_game", ["each_hand", "whole_game"], indirect=True)
def test_four_phones_play_a_club_game_to_a_final_result(phone, live_server, cafe_game, lang):
    club, karim, game, codes = cafe_game
    gid = game.public_id
    said = TEXT[lang]
    each_hand = game.rules.confirmation is Confirmation.EACH_HAND
    phones = []
    for seat, code in enumerate(codes):
        page = phone(lang, scorer=seat == 0)
        page.goto(f"/seat/{code}")
        page.locator("form.seat button[type=submit]").click()
        expect(page).to_have_url(f"{live_server.url}/games/{gid}/")
        phones.append(page)
    scorer, bilal, chafik, dalila = phones
    referee = phone(lang, scorer=False)
    referee.context.add_cookies([session_cookie(karim, live_server.url)])

    if each_hand:
        save_hand(scorer, 1)
        waits(phones, said["waits"].format(1))
        bilal.locator(".waiting-hand button").click()
        for page in phones:
            expect(page.locator(".waiting-hand")).to_have_count(0)

        save_hand(scorer, 2)
        dispute_and_decide(phones, referee, gid, 2, said, whole=False)

        save_hand(scorer, 3)
        entered = Hand.objects.get(game=game, number=3).entered_at
        Hand.objects.filter(game=game, number=3).update(entered_at=entered - timedelta(minutes=16))
        save_hand(scorer, 4)
        waits(phones, said["waits"].format(4))
        each_sees(phones, ".history", said["by_itself"])
        dalila.locator(".waiting-hand button").click()
        expect(dalila.locator(".waiting-hand")).to_have_count(0)
    else:
        save_hand(scorer, 1)
        dispute_and_decide(phones, referee, gid, 1, said, whole=True)
        for number in (2, 3, 4):
            save_hand(scorer, number)
        for page in (bilal, chafik, dalila):
            page.locator(".agreement form button.primary").click()
            expect(page.locator(".agreement form button.primary")).to_have_count(0)
        each_sees([dalila], ".signed", said["signed"])

    scorer.goto(f"/games/{gid}/settlement")
    scorer.fill("#agree-code-0", codes[0])
    scorer.press("#agree-code-0", "Enter")
    expect(scorer.locator("#agree-code-0")).to_have_count(0)
    agree(bilal, gid)
    agree(chafik, gid)
    before = season_says(referee, club), ClubResult.objects.filter(game=game).count()
    agree(dalila, gid)
    expect(dalila.locator(".agreed-settlement.final")).to_contain_text(said["agreed"])
    after = season_says(referee, club), ClubResult.objects.filter(game=game).count()

    assert (before, after) == ((([said["provisional"]], 0), 0), (([], 4), 4))
