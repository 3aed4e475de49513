"""Races between phones at one table answer, and never crash.

Two requests are fired at once, many rounds over, each round on a fresh game, so
that the interleavings that once gave a 500 are hit. Every request ends in the
right result (302, 200) or in a clear 409 showing the game as it now stands, with
a notice saying why; never in a 500 or a deadlock. Afterwards the game loads and
its hands, history and players are consistent.

The threaded races need PostgreSQL (row locks, concurrent connections) and are
skipped on SQLite; the abandoned-game refusals at the end run on both.
"""

import re
import uuid
from collections import Counter
from html import unescape

import pytest
from django.db.models.functions import Lower
from django.test import Client
from django.test.utils import ContextList
from django.utils.html import escape

from scoring.engine import Confirmation, Contract, Ending, Hand, Rules, Trump
from scoring.table import services
from scoring.table.confirming import agreement_of, settled
from scoring.table.models import Change, Dispute, Game, Player, Seat, SeatLink
from scoring.table.models import Hand as HandRow
from scoring.table.state import load_game
from tests.clubs import races as club_races
from tests.factories import NAMES, hand_data, new_game_data
from tests.table.races import ROUNDS, at_once, racing, report

NOTICES = (
    r"This game was abandoned: resume it to change it\.",
    r"The game was won meanwhile: here is the game now\.",
    r"Hand \d+ was just changed by someone else: here is the game now\.",
    r"Hand \d+ was just recorded by someone else: here is the game now\.",
)
ABANDONED = "This game was abandoned: resume it to change it."


# --- Helpers ----------------------------------------------------------------------------


def contexts(response):
    context = response.context
    return list(context) if isinstance(context, ContextList) else [context]


def notice_of(response) -> str:
    """The notice a refusal shows: on its page, and in its context.

    The test client collects the templates rendered in any thread while its request
    runs, so a context counts only with the notice this response's own page shows.
    An htmx partial is not collected at all: its notice is read from the page alone.
    """
    content = response.content.decode()
    shown = [unescape(text) for text in re.findall(r'<p class="notice"[^>]*>(.*?)</p>', content)]
    assert len(shown) == 1, shown
    if not response.wsgi_request.htmx:
        assert shown[0] in {
            context["notice"] for context in contexts(response) if "notice" in context
        }
    return shown[0]


def assert_refused_with_the_game(response, game, hands: int) -> str:
    """A 409 with one of the refusal notices, showing ``game`` with its ``hands`` hands."""
    notice = notice_of(response)
    content = response.content.decode()
    assert response.status_code == 409
    assert any(re.fullmatch(pattern, notice) for pattern in NOTICES), notice
    assert 'class="scoreboard"' in content
    assert all(escape(name) in content for name in load_game(game).names)
    if not response.wsgi_request.htmx:
        shown = {
            (context["state"].game.public_id, len(context["state"].hands))
            for context in contexts(response)
            if "state" in context
        }
        assert shown == {(game.public_id, hands)}
    return notice


def engine_hand(taker, bid, trump, tricks) -> Hand:
    return Hand(Contract(taker=taker, bid=bid, trump=Trump(trump)), tricks=tricks)


def game_with(hands, rules=None) -> Game:
    """A new game (Amina deals first) with these engine hands recorded."""
    game = services.create_game(names=NAMES, rules=rules or Rules(), first_dealer=0).game
    for number, hand in enumerate(hands, start=1):
        services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
    return game


def reloaded(game):
    """The game as it now stands in the database: its hands, and its own row again."""
    return load_game(Game.objects.get(public_id=game.public_id))


def rows(game) -> list[tuple]:
    """The game's hands as stored: number, taker, bid, trump, tricks."""
    return list(
        HandRow.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "taker", "bid", "trump", "tricks")
    )


def history(game) -> list[tuple]:
    """The game's changes in the order they were written."""
    return list(
        Change.objects.filter(game=game).order_by("id").values_list("action", "hand_number")
    )


def url(game, suffix=""):
    return f"/games/{game.public_id}/{suffix}"


@pytest.mark.django_db
def test_at_once_request_that_raises_fails_the_test():
    def crash(client):
        raise RuntimeError("a 500")

    with pytest.raises(pytest.fail.Exception, match="RuntimeError: a 500"):
        at_once(lambda client: "answered", crash)


# --- Edit of the last hand vs its undo -----------------------------------------------------

BILAL_FOUR = engine_hand(1, 4, "H", (1, 4, 0, 1))
# Hand 2 as edited: Chafik takes 4 in spades; the fourth player's trick is left to the form.
EDITED_2 = {"taker": 2, "bid": 4, "trump": "S", "tricks": (1, 0, 4)}
EDITED_2_ROW = (2, 2, 4, "S", [1, 0, 4, 1])


@racing
@pytest.mark.django_db(transaction=True)
def test_edit_vs_undo_of_the_last_hand_both_apply_or_one_is_refused():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = game_with([BILAL_FOUR, BILAL_FOUR])
        first = rows(game)[0]

        edit, undo = at_once(
            lambda client, game=game: client.post(
                url(game, "hands/2/edit"), hand_data(2, **EDITED_2)
            ),
            lambda client, game=game: client.post(url(game, "hands/2/undo")),
        )

        statuses = (edit.status_code, undo.status_code)
        outcomes[statuses] += 1
        state, stored = reloaded(game), rows(game)
        assert statuses in {(302, 302), (409, 302), (302, 409)}, statuses
        assert [row.number for row in state.hands] == list(range(1, len(state.hands) + 1))
        assert stored[0] == first
        if statuses == (302, 302):  # the edit, then the undo of the edited hand
            assert (stored, history(game)[-2:]) == ([first], [("edited", 2), ("undone", 2)])
            undone = Change.objects.filter(game=game, action="undone").get().before
            assert (undone["taker"], undone["bid"], undone["tricks"]) == (2, 4, [1, 0, 4, 1])
        elif statuses == (409, 302):  # the undo, then the edit of a hand gone
            assert (stored, history(game)[-1]) == ([first], ("undone", 2))
            notice = assert_refused_with_the_game(edit, game, 1)
            assert notice == "Hand 2 was just changed by someone else: here is the game now."
        else:  # the undo refused: hand 2 stays, as edited
            assert stored == [first, EDITED_2_ROW]
            assert_refused_with_the_game(undo, game, 2)
    report(outcomes)


# --- Saving hand 2 vs an edit of hand 1 that wins the game -----------------------------------

# At 5 points: Bilal makes 4, nobody has won. Edited, he makes 5 alone at the top and wins.
WINNING_EDIT = {"taker": 1, "bid": 5, "trump": "H", "tricks": (0, 5, 1)}
# Chafik misses 5: nobody reaches 5 after hand 2.
HAND_2 = {"taker": 2, "bid": 5, "trump": "S", "tricks": (2, 0, 2)}
ENDS_EARLY = (
    "With this change the game is won at hand 1, before the last hand recorded (2). "
    "Save it and discard the hands after hand 1 (they stay in the history), or change it again."
)


@racing
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("discard", [False, True], ids=["keep", "discard"])
def test_save_vs_winning_edit_never_leaves_a_hand_after_the_win(discard):
    outcomes = Counter()
    edit_data = hand_data(1, **WINNING_EDIT)
    if discard:
        edit_data["discard_after_end"] = "on"
    for _ in range(ROUNDS // 2):
        game = game_with([BILAL_FOUR], Rules(target=5))

        save, edit = at_once(
            lambda client, game=game: client.post(url(game, "hands"), hand_data(2, **HAND_2)),
            lambda client, game=game: client.post(url(game, "hands/1/edit"), edit_data),
        )

        statuses = (save.status_code, edit.status_code)
        outcomes[statuses] += 1
        state = reloaded(game)  # a hand after the win would not even load
        assert len(state.result.hands) == len(state.hands)
        if statuses == (409, 302):  # the edit won first
            assert (len(state.hands), state.result.winner) == (1, 1)
            assert history(game)[-1] == ("edited", 1)
            notice = assert_refused_with_the_game(save, game, 1)
            assert notice == "The game was won meanwhile: here is the game now."
        elif discard:  # the save, then the edit discarding it
            assert statuses == (302, 302), statuses
            assert (len(state.hands), state.result.winner) == (1, 1)
            assert history(game)[-2:] == [("discarded", 2), ("edited", 1)]
        else:  # the save, then the edit asked to discard it
            assert statuses == (302, 422), statuses
            assert (len(state.hands), state.result.winner) == (2, None)
            assert rows(game)[0] == (1, 1, 4, "H", [1, 4, 0, 1])  # hand 1 as it was
            assert list(edit.context["form"].non_field_errors()) == [ENDS_EARLY]
            assert escape(ENDS_EARLY) in edit.content.decode()
    report(outcomes)


# --- Two new games creating the same new players -----------------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_new_games_creating_the_same_players_in_crossed_order_share_them():
    outcomes = Counter()
    for round_ in range(ROUNDS):
        names = [f"{name} {round_}" for name in ("Zed", "Yan", "Xo", "Wil")]
        crossed = names[::-1]
        if round_ % 2:  # the same players, whatever the case
            crossed = [name.upper() for name in crossed]
        forms = [
            new_game_data(**{f"player_{seat}": name for seat, name in enumerate(order)})
            for order in (names, crossed)
        ]

        responses = at_once(
            *(lambda client, form=form: client.post("/games/new", form) for form in forms)
        )

        statuses = tuple(response.status_code for response in responses)
        outcomes[statuses] += 1
        assert statuses == (302, 302)
        lowered = [name.lower() for name in names]
        players = Player.objects.annotate(lower=Lower("name")).filter(lower__in=lowered)
        assert sorted(player.lower for player in players) == sorted(lowered)
        for response, order in zip(responses, (names, crossed), strict=True):
            pk = response.headers["Location"].strip("/").split("/")[-1]
            seated = Seat.objects.filter(game__public_id=pk).order_by("position")
            assert [seat.player.name.lower() for seat in seated] == [n.lower() for n in order]
            assert {seat.player_id for seat in seated} == {player.pk for player in players}
    report(outcomes)


# --- Two phones saving the same hand, under htmx ---------------------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_add_hand_two_phones_at_once_under_htmx_record_one_and_refuse_the_other():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = game_with([])
        tokens = (uuid.uuid4(), uuid.uuid4())

        responses = at_once(
            *(
                lambda client, taker=taker, token=token, game=game: client.post(
                    url(game, "hands"),
                    hand_data(1, taker=taker, token=token),
                    HTTP_HX_REQUEST="true",
                )
                for taker, token in zip((0, 1), tokens, strict=True)
            )
        )

        statuses = tuple(response.status_code for response in responses)
        outcomes[statuses] += 1
        assert sorted(statuses) == [200, 409]
        _, refused = sorted(responses, key=lambda response: response.status_code)
        row = HandRow.objects.get(game=game)
        assert (row.taker, row.token) == (statuses.index(200), tokens[statuses.index(200)])
        notice = assert_refused_with_the_game(refused, game, 1)
        assert (notice, refused.headers["HX-Retarget"]) == (
            "Hand 1 was just recorded by someone else: here is the game now.",
            "#game",
        )
    report(outcomes)


# --- Seats on phones (issue 40.1) ---------------------------------------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_seat_codes_made_twice_at_once_give_one_code_a_seat():
    for _ in range(ROUNDS):
        game = game_with([])

        responses = at_once(
            *(lambda client, game=game: client.post(url(game, "seats/new")) for _ in range(2))
        )

        live = SeatLink.objects.filter(game=game, revoked_at=None)
        assert ([response.status_code for response in responses], live.count()) == ([302, 302], 4)


@racing
@pytest.mark.django_db(transaction=True)
def test_seat_taken_while_its_code_is_revoked_ends_revoked_and_said_in_order():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = game_with([])
        code = services.make_seat_links(public_id=game.public_id)[1].code

        taken, revoked = at_once(
            lambda client, code=code: client.post("/seat", {"code": code}),
            lambda client, game=game: client.post(url(game, "seats/1/revoke")),
        )

        outcomes[taken.status_code] += 1
        said = list(
            Change.objects.filter(game=game).order_by("pk").values_list("action", flat=True)
        )
        assert (taken.status_code in (302, 422), revoked.status_code) == (True, 302)
        assert said in (["created", "unseated"], ["created", "seated", "unseated"])
        assert SeatLink.objects.filter(game=game, seat=1, revoked_at=None).count() == 0
    report(outcomes)


# --- Abandon vs save ---------------------------------------------------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_abandon_vs_save_ends_abandoned_with_the_save_before_or_refused():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = game_with([BILAL_FOUR])

        abandon, save = at_once(
            lambda client, game=game: client.post(url(game, "abandon")),
            lambda client, game=game: client.post(url(game, "hands"), hand_data(2)),
        )

        statuses = (abandon.status_code, save.status_code)
        outcomes[statuses] += 1
        state = reloaded(game)
        assert statuses in {(302, 302), (302, 409)}, statuses
        assert (state.ending, len(state.hands)) == (
            Ending.ABANDONED,
            2 if save.status_code == 302 else 1,
        )
        if save.status_code == 302:  # the save, then the abandon
            assert history(game)[-2:] == [("recorded", 2), ("abandoned", None)]
        else:
            assert history(game)[-1] == ("abandoned", None)
            assert assert_refused_with_the_game(save, game, 1) == ABANDONED
    report(outcomes)


# --- An abandoned game takes no write until resumed (SQLite too) -----------------------------

WRITES = {
    "record": ("hands", hand_data(2)),
    "edit": ("hands/1/edit", hand_data(1, **EDITED_2)),
    "undo": ("hands/1/undo", {}),
}


@pytest.mark.parametrize("write", WRITES)
def test_write_to_abandoned_game_is_refused_until_resumed(client, game, write):
    path, data = WRITES[write]
    assert client.post(url(game, "hands"), hand_data(1)).status_code == 302
    assert client.post(url(game, "abandon")).status_code == 302
    before = (rows(game), history(game))

    refused = client.post(url(game, path), data)

    assert (refused.status_code, refused.context["notice"]) == (409, ABANDONED)
    assert (rows(game), history(game)) == before
    assert client.post(url(game, "resume")).status_code == 302
    assert client.post(url(game, path), data).status_code == 302
    assert history(game)[-2:] == [
        ("resumed", None),
        {"record": ("recorded", 2), "edit": ("edited", 1), "undo": ("undone", 1)}[write],
    ]


# --- A dispute and a confirmation of one hand (issue 40.3) -----------------------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_dispute_and_confirmation_of_a_hand_at_once_give_one_outcome():
    outcomes = Counter()
    for _ in range(ROUNDS):
        rules = Rules(confirmation=Confirmation.EACH_HAND)
        game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
        services.record_hand(
            public_id=game.public_id, number=1, hand=BILAL_FOUR, token=uuid.uuid4(), seat=1
        )

        def disputing(game=game):
            try:
                services.dispute_hand(
                    public_id=game.public_id, number=1, version=1, seat=2, reason="4 made"
                )
            except services.DisputeRefused as refused:
                return refused.why
            return "disputed"

        def confirming(game=game):
            services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=3)
            return "confirmed"

        answers = club_races.at_once(disputing, confirming)

        hand = agreement_of(load_game(game)).hands[0]
        rows = (Dispute.objects.filter(game=game).count(), game.confirmations.count())
        outcomes[(tuple(answers), rows)] += 1
        assert (hand.disputed, rows) in {(True, (1, 0)), (False, (0, 1))}
        assert answers in (["disputed", "confirmed"], ["confirmed", "confirmed"])
    report(outcomes)


def _confirming_game():
    rules = Rules(confirmation=Confirmation.EACH_HAND)
    game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
    services.record_hand(
        public_id=game.public_id, number=1, hand=BILAL_FOUR, token=uuid.uuid4(), seat=1
    )
    return game


# --- An agreement to the settlement and a correction at once (issue 40.4) --------------------


@racing
@pytest.mark.django_db(transaction=True)
def test_two_disputes_of_a_hand_at_once_give_one_dispute():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = _confirming_game()

        def disputing(seat, game=game):
            def send():
                services.dispute_hand(
                    public_id=game.public_id, number=1, version=1, seat=seat, reason="4 made"
                )
                return "disputed"

            return send

        answers = club_races.at_once(disputing(2), disputing(3))

        disputes = list(Dispute.objects.filter(game=game).values_list("seat", flat=True))
        lines = game.changes.filter(action=Change.Action.DISPUTED).count()
        outcomes[tuple(disputes)] += 1
        assert (answers, len(disputes), lines) == (["disputed", "disputed"], 1, 1)
        assert agreement_of(load_game(game)).hands[0].disputed_by == disputes[0]
    report(outcomes)


@racing
@pytest.mark.django_db(transaction=True)
def test_two_confirmations_of_a_hand_at_once_give_one():
    outcomes = Counter()
    for _ in range(ROUNDS):
        game = _confirming_game()

        def confirming(seat, game=game):
            def send():
                services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=seat)
                return "confirmed"

            return send

        answers = club_races.at_once(confirming(2), confirming(3))

        seats = list(game.confirmations.values_list("seat", flat=True))
        lines = game.changes.filter(action=Change.Action.CONFIRMED).count()
        outcomes[tuple(seats)] += 1
        assert (answers, len(seats), lines) == (["confirmed", "confirmed"], 1, 1)
        assert agreement_of(load_game(game)).hands[0].by == seats[0]
    report(outcomes)


@racing
@pytest.mark.django_db(transaction=True)
def test_one_confirmation_replayed_twice_at_once_with_its_token_is_written_once():
    for _ in range(ROUNDS):
        game = _confirming_game()
        token = uuid.uuid4()

        def replaying(game=game, token=token):
            services.confirm_hand(
                public_id=game.public_id, number=1, version=1, seat=2, token=token
            )
            return "confirmed"

        answers = club_races.at_once(replaying, replaying)

        assert (answers, game.confirmations.count()) == (["confirmed", "confirmed"], 1)


@racing
@pytest.mark.django_db(transaction=True)
def test_dispute_and_confirmation_of_a_seat_at_once_over_http_give_one_outcome():
    """As above, from two phones holding their seats by their codes, the queue's JSON."""
    outcomes = Counter()
    for _ in range(ROUNDS // 3):
        game = _confirming_game()
        links = services.make_seat_links(public_id=game.public_id)
        chafik, dalila = Client(), Client()
        chafik.post("/seat", {"code": links[2].code})
        dalila.post("/seat", {"code": links[3].code})
        json = {"HTTP_ACCEPT": "application/json"}
        gid = game.public_id

        def disputing(phone=chafik, gid=gid, json=json):
            sent = {"number": "1", "version": "1", "reason": "4 made"}
            return phone.post(f"/games/{gid}/dispute", sent, **json).json()["status"]

        def confirming(phone=dalila, gid=gid, json=json):
            sent = {"version": "1", "token": str(uuid.uuid4())}
            return phone.post(f"/games/{gid}/hands/1/confirm", sent, **json).json()["status"]

        answers = club_races.at_once(disputing, confirming)

        rows = (Dispute.objects.filter(game=game).count(), game.confirmations.count())
        outcomes[(tuple(answers), rows)] += 1
        assert rows in {(1, 0), (0, 1)}
        assert answers in (["disputed", "confirmed"], ["refused", "confirmed"])
    report(outcomes)


@racing
@pytest.mark.django_db(transaction=True)
def test_correction_confirmed_by_two_seats_at_once_replaces_the_hand_once():
    for _ in range(ROUNDS // 3):
        game = _confirming_game()
        services.confirm_hand(public_id=game.public_id, number=1, version=1, seat=2)
        corrected = Hand(Contract(1, 4, Trump.HEARTS), tricks=(0, 3, 2, 1))
        with pytest.raises(services.Proposed):
            services.edit_hand(
                public_id=game.public_id,
                number=1,
                hand=corrected,
                discard_after_end=False,
                seat=1,
            )

        def confirming(seat, game=game):
            def send():
                try:
                    services.confirm_proposal(public_id=game.public_id, number=1, seat=seat)
                except services.ConfirmRefused as refused:
                    return refused.why
                return "confirmed"

            return send

        answers = club_races.at_once(confirming(0), confirming(3))

        row = HandRow.objects.get(game=game, number=1)
        edits = game.changes.filter(action=Change.Action.EDITED).count()
        assert (row.version, row.tricks, edits) == (2, [0, 3, 2, 1], 1)
        assert sorted(answers) in (["confirmed", "no_proposal"], ["confirmed", "confirmed"])


@racing
@pytest.mark.django_db(transaction=True)
def test_settlement_agreement_and_a_correction_at_once_never_agree_to_the_corrected_one():
    outcomes = Counter()
    five = Hand(Contract(1, 5, Trump.SPADES), tricks=(0, 5, 1, 0))
    six = Hand(Contract(1, 5, Trump.SPADES), tricks=(0, 6, 0, 0))
    for _ in range(ROUNDS):
        rules = Rules(confirmation=Confirmation.WHOLE_GAME, stake="0.50", currency="EUR")
        game = services.create_game(names=NAMES, rules=rules, first_dealer=0).game
        for number in range(1, 6):
            services.record_hand(
                public_id=game.public_id, number=number, hand=five, token=uuid.uuid4()
            )
        seen = settled(load_game(game)).key

        def agreeing(game=game, seen=seen):
            try:
                services.agree_settlement(public_id=game.public_id, seat=2, content=seen)
            except services.SettleRefused as refused:
                return refused.why
            return "agreed"

        def correcting(game=game):
            services.edit_hand(  # its referee's: the hand may be confirmed
                public_id=game.public_id, number=5, hand=six, discard_after_end=False, referee=True
            )
            return "corrected"

        answers = club_races.at_once(agreeing, correcting)

        now = settled(load_game(game))
        outcomes[(tuple(answers), now.stale)] += 1
        assert (now.agreed, answers[1]) == ({}, "corrected")
        assert (answers[0], now.stale) in {("agreed", (2,)), ("changed", ())}
    report(outcomes)
