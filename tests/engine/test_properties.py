"""Properties of the engine, checked against oracles written here from the rules text.

The oracles work on card names ("JD") and plain lists, independently of the engine's
tables: an effective suit, a strength order, a trick winner, the legal cards, a hand's
points, the end of the game, the money, and the fewest transfers (by brute force).
"""

import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import UTC, timedelta, timezone
from decimal import Decimal

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    DECK,
    About,
    Card,
    Contract,
    FailedTaker,
    Hand,
    Record,
    Revoke,
    Rules,
    Suit,
    Trump,
    dumps,
    fewest_transfers,
    legal_cards,
    loads,
    parse_record,
    play_out,
    record_to_dict,
    score_game,
    settle,
)
from scoring.engine.names import name_key, skeleton

PROPERTY = settings(max_examples=200, deadline=None)

# --- oracles --------------------------------------------------------------------------

PARTNER = {"S": "C", "C": "S", "H": "D", "D": "H"}
PLAIN_ORDER = "9TJQKA"  # weakest first


def suit_of(card: str, trump: str) -> str:
    """The suit a card plays as: the other jack of the trump's colour is a trump."""
    rank, suit = card[0], card[1]
    if trump != "NT" and rank == "J" and suit == PARTNER[trump]:
        return trump
    return suit


def strength(card: str, trump: str) -> int:
    """Strength within the suit the card plays as."""
    rank, suit = card[0], card[1]
    if trump != "NT" and rank == "J":
        if suit == trump:
            return 101
        if suit == PARTNER[trump]:
            return 100
    return PLAIN_ORDER.index(rank)


def winning_index(trick: Sequence[str], trump: str) -> int:
    """The highest trump, else the highest card of the suit led."""
    led = suit_of(trick[0], trump)
    trumps = [i for i, card in enumerate(trick) if suit_of(card, trump) == trump]
    contenders = trumps or [i for i, card in enumerate(trick) if suit_of(card, trump) == led]
    return max(contenders, key=lambda i: strength(trick[i], trump))


def legal(hand: Sequence[str], led: str | None, trump: str) -> set[str]:
    if led is None:
        return set(hand)
    following = {card for card in hand if suit_of(card, trump) == led}
    return following or set(hand)


def seat_winners(tricks: Sequence[Sequence[str]], taker: int, trump: str) -> list[int]:
    winners, leader = [], taker
    for trick in tricks:
        leader = (leader + winning_index(trick, trump)) % 4
        winners.append(leader)
    return winners


def hand_points(taker: int, bid: int, tricks: Sequence[int], failed: str) -> list[int]:
    points = list(tricks)
    if tricks[taker] < bid:
        points[taker] = (tricks[taker] if failed == "tricks_minus_bid" else 0) - bid
    return points


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def fewest_possible(units: Sequence[int]) -> int:
    """Non-zero balances less the most disjoint zero-sum groups that partition them."""
    owing = [seat for seat in range(4) if units[seat]]
    most = max(
        len(partition)
        for partition in set_partitions(owing)
        if all(sum(units[seat] for seat in group) == 0 for group in partition)
    )
    return len(owing) - most


def apply(units: Sequence[int], transfers: Sequence[tuple[int, int, int]]) -> list[int]:
    left = list(units)
    for payer, payee, paid in transfers:
        left[payer] += paid
        left[payee] -= paid
    return left


# --- strategies -------------------------------------------------------------------------

TRUMPS = st.sampled_from(["S", "H", "D", "C", "NT"])
CARD_NAMES = [str(card) for card in DECK]


@st.composite
def tricks_counts(draw: st.DrawFn) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, 6), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 6 - cuts[2]]


@st.composite
def legal_play(draw: st.DrawFn) -> tuple[int, str, list[list[str]], list[int], list[str]]:
    """A random deal played out legally: (taker, trump, tricks, leaders, problems)."""
    deck = draw(st.permutations(CARD_NAMES))
    hands = [list(deck[6 * seat : 6 * seat + 6]) for seat in range(4)]
    trump = draw(TRUMPS)
    taker = draw(st.integers(0, 3))
    tricks, leaders, problems = [], [], []
    leader = taker
    for _ in range(6):
        trick: list[str] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            led = None if not trick else suit_of(trick[0], trump)
            allowed = legal(hands[seat], led, trump)
            engine_allowed = legal_cards(
                [Card.parse(card) for card in hands[seat]],
                None if led is None else Suit(led),
                Trump(trump),
            )
            if {str(card) for card in engine_allowed} != allowed:
                problems.append(
                    f"legal_cards {hands[seat]} on {led}: {sorted(map(str, engine_allowed))}"
                )
            card = draw(st.sampled_from(sorted(allowed)))
            hands[seat].remove(card)
            trick.append(card)
        tricks.append(trick)
        leaders.append(leader)
        leader = (leader + winning_index(trick, trump)) % 4
    return taker, trump, tricks, leaders, problems


def as_cards(tricks: Sequence[Sequence[str]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(Card.parse(card) for card in trick) for trick in tricks)


# --- play ------------------------------------------------------------------------------------


@PROPERTY
@given(legal_play())
def test_legal_play_out_has_no_revoke_and_the_strongest_card_wins(play):
    taker, trump, tricks, leaders, problems = play
    winners = seat_winners(tricks, taker, trump)

    result = play_out(taker, Trump(trump), as_cards(tricks))

    assert problems == []
    assert (
        result.revokes,
        list(result.winners),
        [trick.leader for trick in result.tricks],
        list(result.tricks_won),
    ) == ((), winners, leaders, [Counter(winners)[seat] for seat in range(4)])


@PROPERTY
@given(legal_play(), st.data())
def test_failing_to_follow_while_holding_the_suit_is_a_revoke(play, data):
    taker, trump, tricks, leaders, _ = play
    winners = seat_winners(tricks, taker, trump)
    # Swap a card of one player between two of his tricks so that at the first he
    # plays off-suit while he keeps the card of the suit led, and no winner changes.
    candidates = []
    for first in range(6):
        led = suit_of(tricks[first][0], trump)
        for position in range(1, 4):
            seat = (leaders[first] + position) % 4
            for later in range(first + 1, 6):
                other = (seat - leaders[later]) % 4
                kept, played = tricks[first][position], tricks[later][other]
                if suit_of(kept, trump) != led or suit_of(played, trump) == led:
                    continue
                swapped = [list(trick) for trick in tricks]
                swapped[first][position], swapped[later][other] = played, kept
                if seat_winners(swapped, taker, trump) == winners:
                    candidates.append((first, seat, swapped))
    assume(candidates)
    first, seat, swapped = data.draw(st.sampled_from(candidates))
    led = suit_of(swapped[first][0], trump)
    card = swapped[first][(seat - leaders[first]) % 4]
    held = [
        swapped[later][(seat - leaders[later]) % 4]
        for later in range(first + 1, 6)
        if suit_of(swapped[later][(seat - leaders[later]) % 4], trump) == led
    ]

    result = play_out(taker, Trump(trump), as_cards(swapped))

    assert [
        revoke for revoke in result.revokes if (revoke.trick, revoke.seat) == (first + 1, seat)
    ] == [Revoke(first + 1, seat, Card.parse(card), Suit(led), tuple(Card.parse(c) for c in held))]


# --- money ---------------------------------------------------------------------------------


@st.composite
def balanced_units(draw: st.DrawFn) -> list[int]:
    size = draw(st.sampled_from([2, 5, 40]))  # small values make groups cancel out often
    first = draw(st.lists(st.integers(-size, size), min_size=3, max_size=3))
    units = [*first, -sum(first)]
    return draw(st.permutations(units))


@PROPERTY
@given(balanced_units())
def test_fewest_transfers_settle_the_balances_in_the_fewest_payments(units):
    transfers = fewest_transfers(units)
    moves = [(transfer.payer, transfer.payee, transfer.units) for transfer in transfers]

    assert (
        apply(units, moves),
        len(transfers),
        all(units[payer] < 0 < units[payee] and paid > 0 for payer, payee, paid in moves),
    ) == ([0, 0, 0, 0], fewest_possible(units), True)


# --- games -------------------------------------------------------------------------------------

HAND_FACTS = st.one_of(
    st.none(),
    st.tuples(st.integers(0, 3), st.integers(3, 6), TRUMPS, tricks_counts()),
)


@st.composite
def game(draw: st.DrawFn) -> tuple[int, int, str, list[tuple[int, int, str, list[int]] | None]]:
    """(first_dealer, target, failed_taker, hands): hands stop at the one that wins."""
    first_dealer = draw(st.integers(0, 3))
    target = draw(st.integers(1, 30))
    failed = draw(st.sampled_from(["tricks_minus_bid", "minus_bid"]))
    facts = draw(st.lists(HAND_FACTS, max_size=15))
    totals = [0, 0, 0, 0]
    hands = []
    for fact in facts:
        hands.append(fact)
        if fact is not None:
            taker, bid, _, tricks = fact
            totals = [
                a + b for a, b in zip(totals, hand_points(taker, bid, tricks, failed), strict=True)
            ]
        top = max(totals)
        if top >= target and totals.count(top) == 1:
            break
    return first_dealer, target, failed, hands


def engine_hands(hands) -> list[Hand]:
    return [
        Hand(calls=(None,) * 4)
        if fact is None
        else Hand(Contract(fact[0], fact[1], Trump(fact[2])), tricks=tuple(fact[3]))
        for fact in hands
    ]


@PROPERTY
@given(game())
def test_totals_are_the_sum_of_each_hands_points(played):
    first_dealer, target, failed, hands = played
    points = [
        [0] * 4 if fact is None else hand_points(fact[0], fact[1], fact[3], failed)
        for fact in hands
    ]
    running, totals = [0] * 4, []
    for hand in points:
        running = [a + b for a, b in zip(running, hand, strict=True)]
        totals.append(running)

    result = score_game(
        engine_hands(hands), first_dealer=first_dealer, rules=Rules(target, FailedTaker(failed))
    )

    assert (
        [list(hand.points) for hand in result.hands],
        [list(hand.totals) for hand in result.hands],
        list(result.totals),
        [hand.dealer for hand in result.hands],
    ) == (points, totals, running, [(first_dealer + k) % 4 for k in range(len(hands))])


@PROPERTY
@given(game())
def test_settlement_sums_to_zero_and_settles_in_the_fewest_transfers(played):
    first_dealer, target, failed, hands = played
    result = score_game(
        engine_hands(hands), first_dealer=first_dealer, rules=Rules(target, FailedTaker(failed))
    )
    # The seed's money rules, from the hands themselves.
    units, boites = [0] * 4, [0] * 4
    totals = [0] * 4
    for fact in hands:
        if fact is None:
            continue
        taker, bid, _, tricks = fact
        totals = [
            a + b for a, b in zip(totals, hand_points(taker, bid, tricks, failed), strict=True)
        ]
        made = tricks[taker] >= bid
        boites[taker] += not made
        if bid == 6:
            sign = 1 if made else -1
            units = [u + (3 * sign if seat == taker else -sign) for seat, u in enumerate(units)]
    top = max(totals)
    if top >= target and totals.count(top) == 1:
        winner = totals.index(top)
        for seat in range(4):
            if seat != winner:
                units[seat] -= 1 + boites[seat]
                units[winner] += 1 + boites[seat]

    settlement = settle(result)
    moves = [(t.payer, t.payee, t.units) for t in settlement.transfers]

    assert (
        list(settlement.units),
        sum(settlement.units),
        apply(settlement.units, moves),
        len(moves),
    ) == (units, 0, [0, 0, 0, 0], fewest_possible(units))


# --- the record ---------------------------------------------------------------------------------

# Text as a record keeps it (engine/names.py): NFC, no control or invisible character; four
# names that differ, case aside, and do not look alike.
KEPT = st.characters(codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))
NAMES = st.lists(
    st.text(KEPT, min_size=1, max_size=10)
    .map(lambda text: unicodedata.normalize("NFC", text).strip())
    .filter(bool),
    min_size=4,
    max_size=4,
    unique_by=(name_key, skeleton),
)
PLACES = {"EUR": 2, "TND": 3, "JPY": 0, "USD": 2}
# Naive, UTC, and offsets with minutes and seconds: each must come back as it was.
ZONES = st.sampled_from(
    [None, UTC, timezone(timedelta(hours=1)), timezone(-timedelta(hours=3, minutes=30, seconds=7))]
)
DATE_TIMES = st.none() | st.datetimes(timezones=ZONES)
WORDS = st.none() | st.text(KEPT, max_size=20).map(lambda text: unicodedata.normalize("NFC", text))
ABOUT = st.builds(
    About,
    id=WORDS,
    place=WORDS,
    started_at=DATE_TIMES,
    finished_at=DATE_TIMES,
    abandoned=st.booleans(),
    club=WORDS,
    season=WORDS,
)


@st.composite
def auction(draw: st.DrawFn) -> list[int | None]:
    calls: list[int | None] = []
    highest = 2
    for _ in range(4):
        call = draw(st.one_of(st.none(), st.integers(highest + 1, 6))) if highest < 6 else None
        if call is not None:
            highest = call
        calls.append(call)
    return calls


@st.composite
def record(draw: st.DrawFn) -> Record:
    players = tuple(draw(NAMES))
    first_dealer = draw(st.integers(0, 3))
    currency = draw(st.sampled_from(sorted(PLACES)))
    stake = Decimal(draw(st.integers(0, 10**6))).scaleb(-PLACES[currency])
    failed = draw(st.sampled_from(["tricks_minus_bid", "minus_bid"]))
    rules = Rules(draw(st.integers(1, 30)), FailedTaker(failed), stake, currency)
    hands: list[Hand] = []
    totals = [0] * 4
    for index in range(draw(st.integers(0, 8))):
        dealer = (first_dealer + index) % 4
        kind = draw(st.sampled_from(["void", "calls", "direct"]))
        if kind == "void":
            hands.append(Hand(calls=(None,) * 4))
            continue
        calls = draw(auction()) if kind == "calls" else None
        if calls is not None:
            bids = [(position, call) for position, call in enumerate(calls) if call is not None]
            if not bids:
                hands.append(Hand(calls=tuple(calls)))
                continue
            position, bid = bids[-1]
            taker = (dealer + 1 + position) % 4
        else:
            taker, bid = draw(st.integers(0, 3)), draw(st.integers(3, 6))
        trump = draw(TRUMPS)
        given_as = draw(st.sampled_from(["tricks", "plays", "both"]))
        plays = None
        if given_as == "tricks":
            tricks = draw(tricks_counts())
        else:
            deck = draw(st.permutations(CARD_NAMES))
            card_tricks = [deck[4 * k : 4 * k + 4] for k in range(6)]
            plays = as_cards(card_tricks)
            won = Counter(seat_winners(card_tricks, taker, trump))
            tricks = [won[seat] for seat in range(4)]
        hands.append(
            Hand(
                Contract(taker, bid, Trump(trump)),
                tricks=None if given_as == "plays" else tuple(tricks),
                plays=plays,
                calls=None if calls is None else tuple(calls),
            )
        )
        totals = [
            a + b for a, b in zip(totals, hand_points(taker, bid, tricks, failed), strict=True)
        ]
        top = max(totals)
        if top >= rules.target and totals.count(top) == 1:
            break
    return Record(players, first_dealer, rules, tuple(hands), draw(ABOUT))


@PROPERTY
@given(record())
def test_record_serialise_then_parse_is_the_identity(original):
    assert (parse_record(record_to_dict(original)), loads(dumps(original))) == (original, original)
