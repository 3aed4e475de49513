"""Engine figures: how long scoring a 30-hand record takes (``make bench``).

Prints medians over many runs; a figure, not a test.
"""

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring.engine import (
    DECK,
    SEATS,
    Trump,
    effective_suit,
    legal_cards,
    loads,
    score,
    trick_winner,
)

HANDS = 30
RUNS = 2000


def random_play(rng: random.Random, taker: int, trump: Trump) -> list[list[str]]:
    """Six legal tricks from a random deal, each player choosing at random."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [set(deck[seat * 6 : seat * 6 + 6]) for seat in range(SEATS)]
    leader, tricks = taker, []
    for _ in range(6):
        cards = []
        for offset in range(SEATS):
            seat = (leader + offset) % SEATS
            led = effective_suit(cards[0], trump) if cards else None
            card = rng.choice(sorted(legal_cards(hands[seat], led, trump), key=str))
            hands[seat].remove(card)
            cards.append(card)
        tricks.append([str(card) for card in cards])
        leader = (leader + trick_winner(cards, trump)) % SEATS
    return tricks


def record(trick_by_trick: bool, seed: int = 1) -> str:
    rng = random.Random(seed)
    hands = []
    for _ in range(HANDS):
        taker, bid, trump = rng.randrange(SEATS), rng.randint(3, 6), rng.choice(list(Trump))
        hand = {"taker": taker, "bid": bid, "trump": trump.value}
        if trick_by_trick:
            hand["plays"] = random_play(rng, taker, trump)
        else:
            split = sorted(rng.randint(0, 6) for _ in range(3))
            hand["tricks"] = [split[0], split[1] - split[0], split[2] - split[1], 6 - split[2]]
        hands.append(hand)
    return json.dumps(
        {
            "format": "boulmous/1",
            "players": ["Amina", "Bilal", "Chafik", "Dalila"],
            # A target out of reach, so that all 30 hands are played.
            "rules": {"target": 1000, "stake": "0.50"},
            "hands": hands,
        }
    )


def median_microseconds(action) -> float:
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        action()
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1000


def main() -> None:
    print(f"Engine, {HANDS}-hand records, median of {RUNS} runs")
    for label, trick_by_trick in (("tricks", False), ("trick-by-trick", True)):
        text = record(trick_by_trick)
        parsed = loads(text)
        score_only = median_microseconds(lambda parsed=parsed: score(parsed))
        whole = median_microseconds(lambda text=text: score(loads(text)))
        print(
            f"  {label:15} score {score_only:8.1f} µs   parse+validate+score {whole:8.1f} µs"
            f"   ({whole / HANDS:.1f} µs a hand)"
        )


if __name__ == "__main__":
    main()
