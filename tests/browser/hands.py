"""The hand form as a thumb taps it (its keys, its buttons, its status line, the texts in
English and French), the deals of two games, and a card's label on the play page's keys:
what the browser tests at the table share."""

from typing import NamedTuple

from scoring.engine import Card

TEXT = {
    "en": {
        "new_game": "New game",
        "start": "Start the game",
        "save": "Save the hand",
        "void": "All passed",
        "save_change": "Save the change",
        "hand": "Hand {}",
        "first": "Hand 1 Amina deals · Bilal speaks first",
        "wins": "{} wins!",
        "no_trump": "Choose the trump, or no trump.",
        "over_six": "tricks add up to {}, not 6",
    },
    "fr": {
        "new_game": "Nouvelle partie",
        "start": "Commencer la partie",
        "save": "Enregistrer la donne",
        "void": "Tous passent",
        "save_change": "Enregistrer la correction",
        "hand": "Donne {}",
        "first": "Donne 1 Amina donne · Bilal parle en premier",
        "wins": "{} gagne\u202f!",
        "no_trump": "Choisissez l’atout, ou sans atout.",
        "over_six": "les levées font {} en tout, et non 6",
    },
}


class Deal(NamedTuple):
    """A contract hand as the table plays it; ``tapped`` are the trick rows tapped."""

    taker: int
    bid: int
    trump: str
    tricks: tuple[int, int, int, int]
    tapped: tuple[int, ...] = (0, 1, 2)


VOID = None


# Bilal (seat 1) reaches 21 at hand 6, after a void deal and a boîte by Amina.
GAME = [
    Deal(1, 5, "S", (0, 5, 1, 0)),
    VOID,
    Deal(0, 4, "H", (2, 1, 2, 1), tapped=(1, 2, 3)),
    Deal(1, 5, "NT", (1, 5, 0, 0)),
    Deal(1, 5, "D", (0, 5, 0, 1)),
    Deal(1, 5, "C", (0, 5, 1, 0)),
]


def key(page, name, value):
    """The key a player taps to give ``name`` the value ``value``."""
    return page.locator(f'input[name="{name}"][value="{value}"] + span')


def checked(page, name):
    """The value checked for ``name``, or None."""
    inputs = page.locator(f'input[name="{name}"]:checked')
    return inputs.get_attribute("value") if inputs.count() else None


def enter(taps, page, deal, *, trump=True):
    """Tap a contract hand in, without saving it."""
    taps.tap(key(page, "taker", deal.taker))
    taps.tap(key(page, "bid", deal.bid))
    if trump:
        taps.tap(key(page, "trump", deal.trump))
    for seat in deal.tapped:
        taps.tap(key(page, f"tricks_{seat}", deal.tricks[seat]))


def save_button(page, lang):
    return page.get_by_role("button", name=TEXT[lang]["save"], exact=True)


def status(page):
    return page.locator(".status strong")


# Amina reaches 21 at hand 7, Bilal 19. Hand 3 corrected to 3 tricks each for Amina
# and Bilal makes it Amina's boîte: Bilal then reaches 21 at hand 7, Amina 14.
CLOSE_GAME = [
    Deal(0, 4, "S", (4, 2, 0, 0)),
    Deal(1, 4, "H", (1, 4, 1, 0)),
    Deal(0, 5, "D", (5, 1, 0, 0)),
    Deal(1, 5, "C", (0, 5, 1, 0)),
    Deal(0, 5, "NT", (5, 1, 0, 0)),
    Deal(1, 4, "S", (2, 4, 0, 0)),
    Deal(0, 4, "H", (4, 2, 0, 0)),
]


FRENCH_RANKS = {"J": "V", "Q": "D", "K": "R"}  # valet, dame, roi


def label(code, lang="en"):
    text = Card.parse(code).label
    return FRENCH_RANKS.get(text[0], text[0]) + text[1:] if lang == "fr" else text
