"""The engine's answers for static/js/rules.js to match: tests/data/js-vectors.json.

Every answer here is the engine's (``scoring.engine``, pure Python: nothing else is
imported), on cases drawn from a fixed seed, so that the file is the same at every run:
card order and trick winners under every trump, with their reasons in words; legal plays;
hands played card by card, complete or not, with their revokes in words; dealers and
speaking order; the fill-in of the last trick rows and the six-tricks rule; and the cards
a play's address may hold. tests/js/rules.test.mjs (``node --test tests/js/``) checks
rules.js against each one; tests/engine/test_js_vectors.py fails when this file is stale.

Regenerate with ``python tests/js/make_vectors.py`` (``make vectors``).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from scoring.engine import (  # noqa: E402
    DECK,
    SEATS,
    TRICKS_PER_HAND,
    Card,
    Contract,
    Hand,
    Phrase,
    Rank,
    Rules,
    RulesError,
    Suit,
    Trump,
    card_name,
    check_tricks,
    dealer_of,
    effective_suit,
    explain_revoke,
    explain_trick,
    fill_tricks,
    follow_play,
    in_tricks,
    legal_cards,
    parse_cards,
    play_out,
    score_game,
    speaking_order,
    suit_name,
    suit_order,
    trick_winner,
)

PATH = ROOT / "tests" / "data" / "js-vectors.json"
SEED = "boulmous-js-vectors-1"
NAMES = ("Amina", "Bilal", "Chafik", "Dalila")

# The engine's templates by the key static/js/rules.js gives its phrases (the same keys as
# the card-by-card page's words, scoring/pages/play.py play_script).
REASONS = {
    "notrump": (
        "{card} is the highest card of the suit led, {suit}: at no trump, "
        "each suit runs from the ace down to the nine."
    ),
    "plain": "{card} is the highest card of the suit led, {suit}, and nobody trumped.",
    "jack": "{card} is the highest card when {trump} are trump.",
    "jack2": "{card} is the second-highest trump when {trump} are trump.",
    "trumps": "{card} is the highest trump played; {trump} are trump.",
    "trump": "{card} is a trump, {trump}, and no other trump was played.",
    "belongs": "{card} belongs to the trump suit: {suit} were led.",
    "revoke": (
        "{player} did not follow {suit} in trick {trick}: {player} played {card} "
        "while holding {held}."
    ),
}
KEYS = {template: key for key, template in REASONS.items()}
TRICK_KEYS = {Trump.NO_TRUMP: {"notrump"}}
SUIT_KEYS = {"plain", "jack", "jack2", "trumps", "trump", "belongs"}

Case = dict[str, Any]


def code(card: Card) -> str:
    return str(card)


def codes(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def key_of(phrase: Phrase) -> str:
    """The key rules.js gives an engine phrase: its template's."""
    if phrase.template not in KEYS:
        raise AssertionError(f"a phrase of the engine's that REASONS lacks: {phrase.template!r}")
    return KEYS[phrase.template]


def said(phrases: Sequence[Phrase]) -> str:
    """As the card-by-card page says them: each a sentence, in English."""
    return " ".join(capfirst(phrase.translate()) for phrase in phrases)


def words() -> dict[str, object]:
    """The English words the node test says phrases in (a page gives its own language's)."""
    return {
        "reasons": REASONS,
        "suits": {suit.value: suit_name(suit).translate() for suit in Suit},
        "cards": {code(card): card_name(card).translate() for card in DECK},
        "labels": {code(card): card.label for card in DECK},
        "names": list(NAMES),
    }


# --- Cards ----------------------------------------------------------------------------


def suits() -> list[Case]:
    return [
        {
            "suit": suit.value,
            "partner": suit.partner.value,
            "red": suit.colour.value == "red",
            "symbol": suit.symbol,
        }
        for suit in Suit
    ]


def orders() -> list[Case]:
    """Every suit's cards in play, strongest first, by trump."""
    return [
        {
            "trump": trump.value,
            "orders": {suit.value: codes(suit_order(suit, trump)) for suit in Suit},
        }
        for trump in Trump
    ]


def trick_case(cards: Sequence[Card], trump: Trump) -> Case:
    """The winner, the key of the reason and of each note, and all said in English."""
    verdict = explain_trick(cards, trump)
    assert verdict.winner == trick_winner(cards, trump)
    return {
        "trump": trump.value,
        "cards": codes(cards),
        "winner": verdict.winner,
        "keys": [key_of(phrase) for phrase in (verdict.reason, *verdict.notes)],
        "said": said((verdict.reason, *verdict.notes)),
    }


def tricks(rng: random.Random) -> list[Case]:
    """Tricks of four cards (and some of one to three) under every trump: drawn at random,
    and with the jacks of the trump's colour among them, led or not."""
    cases: list[Case] = []
    jacks = [Card(Rank.JACK, suit) for suit in Suit]
    for trump in Trump:
        for _ in range(16):
            cases.append(trick_case(rng.sample(DECK, 4), trump))
        for jack in jacks:  # each jack led, and each jack played after the lead
            others = [card for card in DECK if card != jack]
            cases.append(trick_case([jack, *rng.sample(others, 3)], trump))
            lead, *rest = rng.sample(others, 3)
            cases.append(trick_case([lead, rest[0], jack, rest[1]], trump))
        # The two jacks of a colour (the trump's, else red) and another card, in every order.
        suit = Suit.HEARTS if trump.suit is None else trump.suit
        pair = [Card(Rank.JACK, suit), Card(Rank.JACK, suit.partner)]
        third, fourth = rng.sample([card for card in DECK if card not in pair], 2)
        for order in itertools.permutations([*pair, third]):
            cases.append(trick_case([*order, fourth], trump))
        for count in (1, 2, 3):
            cases.append(trick_case(rng.sample(DECK, count), trump))
        keys = {key for case in cases if case["trump"] == trump.value for key in case["keys"]}
        expected = TRICK_KEYS.get(trump, SUIT_KEYS)
        assert keys == expected, (trump, keys)  # every reason, under every trump
    return cases


def legal(rng: random.Random) -> list[Case]:
    """The cards of a hand that may be played to a trick, by the suit led."""
    cases: list[Case] = []
    for trump in Trump:
        for _ in range(12):
            hand = rng.sample(DECK, rng.randint(1, 6))
            led = rng.choice([None, *Suit])
            allowed = legal_cards(hand, led, trump)
            cases.append(
                {
                    "trump": trump.value,
                    "hand": codes(hand),
                    "led": None if led is None else led.value,
                    "legal": [code(card) for card in hand if card in allowed],
                }
            )
        if trump.suit is not None:  # the other jack of the colour alone follows a trump lead
            partner = Card(Rank.JACK, trump.suit.partner)
            plain = [card for card in DECK if effective_suit(card, trump) is not trump.suit]
            hand = [partner, *rng.sample([card for card in plain if card != partner], 4)]
            allowed = legal_cards(hand, trump.suit, trump)
            cases.append(
                {
                    "trump": trump.value,
                    "hand": codes(hand),
                    "led": trump.suit.value,
                    "legal": [code(card) for card in hand if card in allowed],
                }
            )
    return cases


# --- Hands played card by card --------------------------------------------------------


def deal(rng: random.Random, taker: int, trump: Trump, *, legal: bool) -> list[Card]:
    """A random deal played out: each player plays one of his six cards in turn, one that
    follows suit when he can (``legal``), or any (a revoke, now and then)."""
    cards = list(DECK)
    rng.shuffle(cards)
    hands = [set(cards[seat * 6 : seat * 6 + 6]) for seat in range(SEATS)]
    played: list[Card] = []
    leader = taker
    for _trick in range(TRICKS_PER_HAND):
        trick: list[Card] = []
        for index in range(SEATS):
            hand = hands[(leader + index) % SEATS]
            led = effective_suit(trick[0], trump) if trick else None
            choices = legal_cards(hand, led, trump) if legal else hand
            card = rng.choice(sorted(choices, key=lambda card: card.index))
            hand.remove(card)
            trick.append(card)
        leader = (leader + trick_winner(trick, trump)) % SEATS
        played.extend(trick)
    return played


def play_case(taker: int, trump: Trump, cards: Sequence[Card]) -> Case:
    """Who won each trick, who leads or plays next; once complete, the tricks won and the
    revokes, each said in English."""
    play = follow_play(taker, trump, cards)
    case: Case = {
        "taker": taker,
        "trump": trump.value,
        "cards": codes(cards),
        "winners": [trick.winner for trick in play.tricks],
        "current": codes(play.current),
        "leader": play.leader,
        "to_play": play.to_play,
        "complete": play.complete,
    }
    if play.complete:
        out = play_out(taker, trump, in_tricks(cards))
        assert out.winners == tuple(trick.winner for trick in play.tricks)
        case["won"] = list(out.tricks_won)
        case["revokes"] = [
            {
                "trick": revoke.trick,
                "seat": revoke.seat,
                "card": code(revoke.card),
                "led": revoke.led.value,
                "held": codes(revoke.held),
                "said": said([explain_revoke(revoke, NAMES[revoke.seat])]),
            }
            for revoke in out.revokes
        ]
    return case


def plays(rng: random.Random) -> list[Case]:
    """Whole deals under every trump, by the rules and with revokes, and plays under way."""
    cases: list[Case] = []
    for trump in Trump:
        for number in range(5):
            taker = rng.randrange(SEATS)
            cases.append(play_case(taker, trump, deal(rng, taker, trump, legal=number % 2 == 0)))
        for _ in range(3):
            taker = rng.randrange(SEATS)
            cards = deal(rng, taker, trump, legal=True)
            cases.append(play_case(taker, trump, cards[: rng.randint(0, len(cards) - 1)]))
    assert sum(bool(case.get("revokes")) for case in cases) >= 8
    return cases


def parsed(rng: random.Random) -> list[Case]:
    """The cards of a play's address, as the server reads them: null where it refuses."""
    texts = [
        "",
        "JD",
        "jd, ah",
        "10S,TS",
        "10s 9h\tKC",
        " AH ,, QD ",
        "JD,JD",
        "XX",
        "1S",
        "J",
        "JDX",
        "10",
        "9S,JD,10c,ah",
        ",".join(codes(rng.sample(DECK, 24))),
    ]
    cases: list[Case] = []
    for text in texts:
        try:
            cards = parse_cards(text)
            follow_play(0, Trump.HEARTS, cards)  # a card twice is no play
        except RulesError:
            cases.append({"text": text, "cards": None})
        else:
            cases.append({"text": text, "cards": codes(cards)})
    return cases


# --- The deal ---------------------------------------------------------------------------


def dealers() -> list[Case]:
    return [
        {"first": first, "index": index, "dealer": dealer_of(index, first)}
        for first in range(SEATS)
        for index in range(9)
    ]


def speaking() -> list[Case]:
    return [{"dealer": dealer, "order": list(speaking_order(dealer))} for dealer in range(SEATS)]


def games(rng: random.Random) -> list[Case]:
    """Games of void deals and hands played: each hand's dealer, the next dealer and the
    first to speak, as the game page says them."""
    cases: list[Case] = []
    for first in range(SEATS):
        hands: list[Hand] = []
        for _ in range(rng.randint(1, 7)):
            if rng.random() < 0.3:
                hands.append(Hand())
            else:
                taker = rng.randrange(SEATS)
                hands.append(Hand(Contract(taker, 3, Trump.NO_TRUMP), tricks=(2, 2, 1, 1)))
        result = score_game(hands, first_dealer=first, rules=Rules(target=1000))
        cases.append(
            {
                "first": first,
                "void": [hand.is_void for hand in hands],
                "dealers": [hand.dealer for hand in result.hands],
                "next_dealer": result.next_dealer,
                "next_speaker": result.next_speaker,
            }
        )
    return cases


# --- Tricks won ---------------------------------------------------------------------------


def fill_case(counts: Sequence[int | None]) -> Case:
    filled = fill_tricks(counts)
    try:
        check_tricks(list(filled))
    except RulesError:
        decided = False
    else:
        decided = True
    return {"counts": list(counts), "filled": list(filled), "decided": decided}


def fills(rng: random.Random) -> list[Case]:
    """The rows a form's taps leave to fill in, and whether they then make six."""
    values: list[int | None] = [None, *range(TRICKS_PER_HAND + 1)]
    cases = [fill_case((None,) * SEATS), fill_case((0,) * SEATS)]
    for seat in range(SEATS):  # one row left
        for _ in range(10):
            counts: list[int | None] = [rng.randint(0, 3) for _ in range(SEATS - 1)]
            counts.insert(seat, None)
            cases.append(fill_case(counts))
    for _ in range(20):  # none left
        cases.append(fill_case([rng.randint(0, 3) for _ in range(SEATS)]))
    for _ in range(60):
        cases.append(fill_case([rng.choice(values) for _ in range(SEATS)]))
    return cases


# --- The file -------------------------------------------------------------------------------


def build() -> dict[str, object]:
    rng = random.Random(SEED)
    return {
        "about": (
            "The engine's answers (scoring/engine) that static/js/rules.js must give: "
            "written by tests/js/make_vectors.py, never by hand."
        ),
        "words": words(),
        "suits": suits(),
        "orders": orders(),
        "tricks": tricks(rng),
        "legal": legal(rng),
        "plays": plays(rng),
        "parse": parsed(rng),
        "dealers": dealers(),
        "speaking": speaking(),
        "games": games(rng),
        "fill": fills(rng),
    }


def lines(value: object, indent: str = "") -> Iterator[str]:
    """JSON with one case on a line: small, and a change shows as the cases it changes."""
    dump = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, list) and value and isinstance(value[0], dict):
        yield "[\n"
        for index, item in enumerate(value):
            comma = "," if index < len(value) - 1 else ""
            yield f"{indent}  {json.dumps(item, ensure_ascii=False, separators=(',', ':'))}"
            yield f"{comma}\n"
        yield f"{indent}]"
    elif isinstance(value, Mapping) and not indent:
        yield "{\n"
        for index, (name, item) in enumerate(value.items()):
            yield f'  "{name}": '
            yield from lines(item, "  ")
            yield ",\n" if index < len(value) - 1 else "\n"
        yield "}\n"
    else:
        yield dump


def render(vectors: Mapping[str, object]) -> str:
    return "".join(lines(vectors))


def main() -> None:
    PATH.write_text(render(build()), encoding="utf-8")
    vectors = json.loads(PATH.read_text(encoding="utf-8"))
    counted = sum(len(cases) for cases in vectors.values() if isinstance(cases, list))
    print(f"{PATH.relative_to(ROOT)}: {counted} cases, {PATH.stat().st_size} bytes")


if __name__ == "__main__":
    main()
