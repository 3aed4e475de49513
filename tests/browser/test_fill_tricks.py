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


@pytest.mark.django_db(transaction=True)
def test_trick_rows_fill_in_from_the_taps_after_a_refused_save(phone):
    """Chafik 4♥, Amina 4, Bilal 4: refused (the tricks make 8); then Amina 1, Bilal 0 and
    Chafik 4 fill Dalila's row with the 1 they leave, and the hand is saved."""
    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    page = phone()
    page.goto(f"/games/{game.public_id}/")

    def tap(name, value):
        page.locator(f'#entry input[name="{name}"][value="{value}"] + span').click()

    for name, value in [("taker", 2), ("bid", 4), ("trump", "H"), ("tricks_0", 4), ("tricks_1", 4)]:
        tap(name, value)
    page.locator("#entry button.save").click()
    page.locator("#entry .tricks .field-errors").wait_for()
    for seat, count in [(0, 1), (1, 0), (2, 4)]:
        tap(f"tricks_{seat}", count)
    after = checked(page)
    page.locator("#entry button.save").click()
    page.locator(".last-hand").wait_for()

    assert after == [1, 0, 4, 1]
    assert page.locator(".scoreboard .total").all_inner_texts() == ["1", "0", "4", "1"]
