"""The hand form's JavaScript fills the trick rows exactly as the engine's fill_tricks does."""

import random
import re

import pytest

from scoring.engine import Rules, fill_tricks
from scoring.table import services
from tests.factories import NAMES

pytestmark = pytest.mark.browser


def checked(page):
    """The trick count checked in each row, or None."""
    return page.evaluate(
        """() => [...document.querySelectorAll("fieldset.tricks .trick-row")].map((row) => {
             const input = row.querySelector("input:checked");
             return input ? Number(input.value) : null;
           })"""
    )


def tap_sequences(count, seed=7):
    """Random taps on the trick rows: (seat, tricks) pairs, a seat tapped again now and then."""
    rng = random.Random(seed)
    return [
        [(rng.randrange(4), rng.randint(0, 6)) for _ in range(rng.randint(1, 5))]
        for _ in range(count)
    ]


@pytest.mark.django_db(transaction=True)
def test_hand_form_javascript_fills_tricks_as_the_engine_does(phone):
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    page = phone()
    page.goto(f"/games/{game.public_id}/")
    seen, expected = [], []

    for taps in tap_sequences(20):
        page.reload()
        tapped = [None] * 4
        for seat, count in taps:
            row = page.locator("fieldset.tricks .trick-row").nth(seat)
            row.locator("label", has_text=re.compile(rf"^{count}$")).click()
            tapped[seat] = count
            seen.append(checked(page))
            expected.append(list(fill_tricks(tapped)))

    assert seen == expected
