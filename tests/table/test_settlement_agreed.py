"""A signed settlement (issue 40.4): once a game played for money is over, each player
agrees to its settlement, on his own phone holding his seat or on the scorer's phone
passed round with his seat's short code; the settlement page, its print and its PDF say
who agreed and when, or who has not yet; a change of the hands since voids an agreement;
the result is final once the four have agreed (under a confirmation rule)."""

import io
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pypdf import PdfReader

from scoring.engine import Confirmation as Mode
from scoring.engine import Rules
from scoring.table import services
from scoring.table.confirming import agreement_of, final_as_written, settled
from scoring.table.models import Change, Confirmation, Game, Hand, SettlementAgreement
from scoring.table.state import load_game
from tests.factories import NAMES
from tests.table.agreement import confirm, hand_of, record, seat_phone

pytestmark = pytest.mark.django_db

WON = {"taker": 1, "bid": 5, "trump": "S", "tricks": (0, 5, 1)}
"""A hand Bilal makes at five: five of them win him the game (25 points)."""


def money_game(mode=Mode.WHOLE_GAME, stake="0.50"):
    rules = Rules(confirmation=mode, confirmation_minutes=15, stake=Decimal(stake), currency="EUR")
    return services.create_game(names=NAMES, rules=rules, first_dealer=0).game


def play_out(game, hands=5, seat=None):
    for number in range(1, hands + 1):
        record(game, number, seat=seat, **WON)


def agree(game, seat, **more):
    return services.agree_settlement(public_id=game.public_id, seat=seat, **more)


def won_game(mode=Mode.WHOLE_GAME, stake="0.50"):
    game = money_game(mode, stake)
    play_out(game)
    return game


def text_of(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


def live_code(game, seat):
    return services.make_seat_links(public_id=game.public_id)[seat].code


# --- Services -------------------------------------------------------------------------------


def test_agree_settlement_by_the_four_makes_the_result_final():
    game = won_game()

    for seat in range(4):
        state = agree(game, seat)

    agreement = agreement_of(state)
    assert (agreement.final, agreement.settlement.complete, final_as_written(state)) == (
        True,
        True,
        True,
    )


def test_agree_settlement_by_three_leaves_the_result_provisional():
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)
    agree_all_hands(game)

    for seat in range(3):
        state = agree(game, seat)

    agreement = agreement_of(state)
    assert (agreement.final, agreement.confirmed, agreement.settlement.waiting_for) == (
        False,
        True,
        (3,),
    )


def test_agree_settlement_twice_is_harmless():
    game = won_game()

    agree(game, 1)
    agree(game, 1)

    assert (
        SettlementAgreement.objects.count(),
        game.changes.filter(action=Change.Action.AGREED).count(),
    ) == (1, 1)


def test_agree_settlement_under_whole_game_signs_the_result_too():
    game = won_game(Mode.WHOLE_GAME)

    agree(game, 2)
    agree(game, 2)

    signed = agreement_of(load_game(game)).signed
    assert (sorted(signed.signed), Confirmation.objects.count()) == ([2], 1)


def test_agree_settlement_with_another_seats_code_is_refused():
    game = won_game()
    bilal = live_code(game, 1)

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 2, code=bilal)
    agree(game, 1, code=bilal)

    rows = list(SettlementAgreement.objects.values_list("seat", "passed"))
    assert (refused.value.why, rows) == ("not_his", [(1, True)])


def test_agree_settlement_with_a_revoked_code_is_refused():
    game = won_game()
    code = live_code(game, 1)
    services.revoke_seat_link(public_id=game.public_id, seat=1)

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 1, code=code)

    assert (refused.value.why, SettlementAgreement.objects.count()) == ("not_his", 0)


def test_agreement_before_a_change_of_the_hands_no_longer_counts():
    game = won_game()
    for seat in range(4):
        agree(game, seat)

    services.edit_hand(
        public_id=game.public_id,
        number=5,
        hand=hand_of(5, taker=1, bid=5, trump="S", tricks=(0, 6, 0)),
        discard_after_end=False,
        referee=True,  # confirmed hands: their referee corrects them (another's is proposed)
    )

    now = settled(load_game(game))
    assert (now.agreed, now.stale, final_as_written(load_game(game))) == (
        {},
        (0, 1, 2, 3),
        False,
    )


def test_agreement_of_a_settlement_changed_since_is_refused():
    game = won_game()
    seen = settled(load_game(game)).key
    services.edit_hand(
        public_id=game.public_id,
        number=5,
        hand=hand_of(5, taker=1, bid=5, trump="S", tricks=(0, 6, 0)),
        discard_after_end=False,
    )

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 0, content=seen)
    agree(game, 0, content=settled(load_game(game)).key)

    assert (refused.value.why, SettlementAgreement.objects.count()) == ("changed", 1)


def test_agree_settlement_while_a_hand_is_disputed_is_refused():
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)
    for number in range(1, 5):
        confirm(game, number, seat=2)
    services.dispute_hand(
        public_id=game.public_id, number=5, version=1, seat=2, reason="Bilal made four"
    )

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 1)

    assert (refused.value.why, refused.value.numbers) == ("disputed", (5,))


def test_agree_settlement_while_a_hand_waits_for_confirmation_is_refused():
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 1)

    assert (refused.value.why, refused.value.numbers) == ("waiting", (1, 2, 3, 4, 5))


def test_agree_settlement_while_the_game_is_played_is_refused():
    game = money_game()
    record(game, 1, **WON)

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 0)

    assert refused.value.why == "playing"


def test_agree_settlement_of_a_game_without_money_is_refused():
    game = won_game(stake="0")

    with pytest.raises(services.SettleRefused) as refused:
        agree(game, 0)

    assert refused.value.why == "free"


def test_game_without_confirmation_is_final_without_its_settlement_agreed():
    game = won_game(Mode.OFF)

    agree(game, 0)

    state = load_game(game)
    assert (final_as_written(state), sorted(settled(state).agreed)) == (True, [0])


def test_night_end_agrees_the_settlement_by_itself():
    game = won_game(Mode.EACH_HAND)
    agree_all_hands(game)
    agree(game, 0)

    agreement = services.confirm_waiting(public_id=game.public_id)

    assert (agreement.final, agreement.settlement.night_end is not None) == (True, True)


def agree_all_hands(game):
    for number in range(1, 6):
        confirm(game, number, seat=2)


def test_history_says_each_agreement_with_seat_phone_and_hands(client):
    game = won_game()
    agree(game, 0)
    agree(game, 1, code=live_code(game, 1))

    page = text_of(client.get(f"/games/{game.public_id}/"))

    assert "settlement agreed: Amina, on his phone (5 hands) by a player’s phone" in page
    assert "settlement agreed: Bilal, with his seat’s code on the scorer’s phone (5 hands)" in page


# --- The settlement page, its PDF -----------------------------------------------------------


def test_settlement_page_says_who_agreed_and_when():
    game = won_game()
    moment = datetime(2026, 12, 4, 21, 41, tzinfo=UTC)
    for seat in range(4):
        agree(game, seat)
    SettlementAgreement.objects.update(at=moment)

    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))

    assert "Agreed by Amina, Bilal, Chafik and Dalila at 9:41 PM." in page


def test_settlement_page_names_who_agreed_in_seat_order_whatever_order_they_agreed_in():
    game = won_game()
    for seat in (3, 1, 0, 2):
        agree(game, seat)

    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))

    assert "Agreed by Amina, Bilal, Chafik and Dalila at " in page


def test_settlement_page_says_who_has_not_yet_agreed():
    game = won_game()
    agree(game, 2)

    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))

    assert "Agreed by Chafik; not yet agreed by Amina, Bilal and Dalila." in page


def test_settlement_page_says_an_agreement_voided_by_a_change():
    game = won_game()
    agree(game, 2)
    services.edit_hand(
        public_id=game.public_id,
        number=5,
        hand=hand_of(5, taker=1, bid=5, trump="S", tricks=(0, 6, 0)),
        discard_after_end=False,
    )

    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))

    assert "Not yet agreed by Amina, Bilal, Chafik and Dalila." in page
    assert "The hands changed after Chafik agreed: that agreement no longer counts." in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Accepté par Amina, Bilal, Chafik et Dalila à 21:41."),
        (
            "ar",
            "وافق على التسوية \u2068Amina\u2069، \u2068Bilal\u2069، \u2068Chafik\u2069 "
            "و\u2068Dalila\u2069 في الساعة",
        ),
    ],
)
def test_settlement_page_says_the_agreement_in_french_and_arabic(language, said):
    game = won_game()
    for seat in range(4):
        agree(game, seat)
    SettlementAgreement.objects.update(at=datetime(2026, 12, 4, 21, 41, tzinfo=UTC))

    page = text_of(
        Client(headers={"accept-language": language}).get(f"/games/{game.public_id}/settlement")
    )

    assert said in page


def test_seat_holder_agrees_on_his_phone_by_a_plain_post_sent_twice():
    game = won_game()
    bilal = seat_phone(game, 1)

    before = bilal.get(f"/games/{game.public_id}/settlement").content.decode()
    key = settled(load_game(game)).key
    sent = bilal.post(f"/games/{game.public_id}/settlement/agree", {"key": key, "seat": 1})
    twice = bilal.post(f"/games/{game.public_id}/settlement/agree", {"key": key, "seat": 1})
    after = text_of(bilal.get(f"/games/{game.public_id}/settlement"))

    assert ("I agree to this settlement" in before, sent.status_code, twice.status_code) == (
        True,
        302,
        302,
    )
    assert ("Agreed by Bilal;" in after, "I agree to this settlement" in after) == (True, False)
    assert SettlementAgreement.objects.get().passed is False


def test_seat_holder_agreeing_for_another_seat_is_refused():
    game = won_game()
    bilal = seat_phone(game, 1)
    key = settled(load_game(game)).key

    refused = bilal.post(f"/games/{game.public_id}/settlement/agree", {"key": key, "seat": 2})

    assert (refused.status_code, SettlementAgreement.objects.count()) == (403, 0)
    assert "This phone holds another seat: each player agrees for his own." in text_of(refused)


def test_watcher_without_a_seat_cannot_agree():
    game = won_game()
    key = settled(load_game(game)).key

    refused = Client().post(f"/games/{game.public_id}/settlement/agree", {"key": key})

    assert (refused.status_code, SettlementAgreement.objects.count()) == (403, 0)


def test_scorer_phone_passed_round_agrees_with_each_seats_code(client):
    game = won_game()
    client.get(f"/games/{game.public_id}/")  # the phone that started it, which scores it
    page = text_of(client.get(f"/games/{game.public_id}/settlement"))
    key = settled(load_game(game)).key
    address = f"/games/{game.public_id}/settlement/agree-with-code"

    for seat in range(4):
        code = live_code(game, seat).lower()
        sent = client.post(address, {"key": key, "seat": seat, "code": f"{code[:3]}-{code[3:]}"})
        assert sent.status_code == 302
    after = text_of(client.get(f"/games/{game.public_id}/settlement"))

    assert "Amina: type your seat’s code to agree" in page
    assert "Agreed by Amina, Bilal, Chafik and Dalila at" in after
    assert SettlementAgreement.objects.filter(passed=True).count() == 4


def test_scorer_phone_with_another_seats_code_says_it_on_the_field(client):
    game = won_game()
    key = settled(load_game(game)).key

    refused = client.post(
        f"/games/{game.public_id}/settlement/agree-with-code",
        {"key": key, "seat": 2, "code": live_code(game, 1)},
    )

    html = refused.content.decode()
    assert (refused.status_code, SettlementAgreement.objects.count()) == (422, 0)
    assert 'id="agree-code-2" ' in html
    assert 'aria-invalid="true"' in html
    assert "This is not this seat’s code: each player types his own." in text_of(refused)


def test_agree_with_code_from_a_phone_that_does_not_score_is_refused():
    game = won_game()
    key = settled(load_game(game)).key

    refused = Client().post(
        f"/games/{game.public_id}/settlement/agree-with-code",
        {"key": key, "seat": 1, "code": live_code(game, 1)},
    )

    assert (refused.status_code, SettlementAgreement.objects.count()) == (403, 0)


def test_agree_while_a_hand_waits_is_a_409_that_says_why(client):
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)
    bilal = seat_phone(game, 1)
    key = settled(load_game(game)).key

    refused = bilal.post(f"/games/{game.public_id}/settlement/agree", {"key": key})

    assert refused.status_code == 409
    assert (
        "Hands 1, 2, 3, 4, 5 wait for confirmation: the settlement would not be final. "
        "Confirm them first." in text_of(refused)
    )


def test_settlement_pdf_says_who_agreed():
    game = won_game()
    for seat in range(4):
        agree(game, seat)

    pdf = Client().get(f"/games/{game.public_id}/settlement.pdf").content

    assert "Agreed by Amina, Bilal, Chafik and Dalila at" in pdf_text(pdf)


def pdf_text(pdf):
    pages = PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


def test_game_without_money_has_no_agreement_line():
    game = won_game(stake="0")

    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))

    assert "agreed" not in page.lower()


def settlement_queries(game, phone):
    with CaptureQueriesContext(connection) as queries:
        assert phone.get(f"/games/{game.public_id}/settlement").status_code == 200
    return len(queries)


@pytest.mark.parametrize("mode", [Mode.OFF, Mode.WHOLE_GAME])
def test_settlement_page_costs_one_query_more_for_a_game_played_for_money(mode):
    """A game played for no money costs what it did before 40.4 (the game with its summary,
    its seats, its hands; under a confirmation rule its confirmations, disputes and
    corrections proposed too); one played for money, one query more: its settlement's
    agreements."""
    free, money = won_game(mode, stake="0"), won_game(mode)
    for seat in range(4):
        agree(money, seat)

    counts = (settlement_queries(free, Client()), settlement_queries(money, Client()))

    assert counts == ((3, 4) if mode is Mode.OFF else (6, 7))


@pytest.mark.parametrize(
    ("language", "provisional", "final"),
    [
        ("en", "Provisional result", "Final result"),
        ("fr", "Résultat provisoire", "Résultat définitif"),
        ("ar", "نتيجة مؤقتة", "نتيجة نهائية"),
    ],
)
def test_game_page_marks_the_result_provisional_then_final(language, provisional, final):
    game = won_game()
    phone = Client(headers={"accept-language": language})
    for seat in range(3):
        agree(game, seat)

    before = text_of(phone.get(f"/games/{game.public_id}/"))
    agree(game, 3)
    after = text_of(phone.get(f"/games/{game.public_id}/"))

    assert (provisional in before, final in before) == (True, False)
    assert (provisional in after, final in after) == (False, True)


def test_game_page_without_confirmation_shows_no_mark():
    game = won_game(Mode.OFF)

    page = text_of(Client().get(f"/games/{game.public_id}/"))

    assert ("Provisional result" in page, "Final result" in page) == (False, False)


@pytest.mark.parametrize("language", ["fr", "ar"])
def test_settlement_pdf_says_who_agreed_in_french_and_arabic(language):
    game = won_game()
    agree(game, 1)
    phone = Client(headers={"accept-language": language})

    response = phone.get(f"/games/{game.public_id}/settlement.pdf")

    text = pdf_text(response.content)
    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    assert ("Bilal" in text, "Dalila" in text, ("Accepté par" in text) == (language == "fr")) == (
        True,
        True,
        True,
    )


def test_settlement_is_agreed_by_itself_when_its_minutes_run_out_and_the_history_says_so():
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)
    past = timezone.now() - timedelta(minutes=20)
    Hand.objects.filter(game=game).update(entered_at=past, recorded_at=past)
    Game.objects.filter(pk=game.pk).update(finished_at=past)

    agreement = agreement_of(load_game(game))
    page = text_of(Client().get(f"/games/{game.public_id}/settlement"))
    history = text_of(Client().get(f"/games/{game.public_id}/"))

    assert (agreement.final, agreement.settlement.by_itself) == (True, past + timedelta(minutes=15))
    assert "Agreed by itself at" in page
    assert "the time to agree ran out." in page
    assert "Settlement agreed by itself after 15 minutes" in history


def test_settlement_agreed_by_the_four_before_its_minutes_is_theirs():
    game = money_game(Mode.EACH_HAND)
    play_out(game, seat=0)
    agree_all_hands(game)
    for seat in range(4):
        agree(game, seat)
    later = timezone.now() + timedelta(minutes=20)

    assert agreement_of(load_game(game), now=later).settlement.by_itself is None


def test_agreement_due_is_when_the_settlement_is_agreed_by_itself_once_the_four_signed():
    game = won_game()
    for seat in range(4):
        services.sign_game(public_id=game.public_id, seat=seat)
    agree(game, 0)
    Hand.objects.filter(game=game).update(entered_at=timezone.now() - timedelta(minutes=9))
    state = load_game(game)
    ended = state.hands[-1].recorded_at  # the game's end: its last hand recorded

    agreement = agreement_of(state)
    for seat in (1, 2, 3):
        agree(game, seat)

    assert (agreement.signed.complete, agreement.due, agreement_of(load_game(game)).due) == (
        True,
        ended + timedelta(minutes=15),
        None,
    )
