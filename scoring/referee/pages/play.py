"""What the card-by-card page shows, laid out from the engine: no rules here."""

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext

from ...common.words import card_label, contract_words, isolate, red_card
from ...engine import (
    BOULMOUS,
    DECK,
    LOWEST_BID,
    SEATS,
    TRICKS_PER_HAND,
    Card,
    Contract,
    Hand,
    PlayInProgress,
    Suit,
    Trump,
    card_name,
    dealer_of,
    effective_suit,
    explain_revoke,
    explain_trick,
    format_cards,
    in_tricks,
    score_hand,
    seats_from,
    suit_name,
)
from ...table.face import GameState
from ..forms import PlayContractForm


@dataclass(frozen=True)
class Key:
    """One of the 24 cards, as a key to tap."""

    label: str
    name: str
    """``the jack of diamonds``: what a screen reader says."""
    code: str
    red: bool
    href: str | None
    """None once played, or when it is nobody's turn."""


@dataclass(frozen=True)
class Played:
    name: str
    label: str
    red: bool
    wins: bool


@dataclass(frozen=True)
class TrickLine:
    number: int
    cards: Sequence[Played]
    winner: str
    reason: str


@dataclass(frozen=True)
class PlaySheet:
    number: int
    taker: str
    contract: str
    to_play: str | None
    led: str
    current: Sequence[Played]
    tricks: Sequence[TrickLine]
    keys: Sequence[Sequence[Key]]
    back_href: str | None
    complete: bool
    tricks_won: Sequence[tuple[str, int]]
    outcome: str
    revokes: Sequence[str]
    plays: str
    dealer: int
    """The hand's dealer, for the save form (offline, the queue shows who dealt)."""
    choice: PlayContractForm
    """The contract's form, blank: for static/js/play.js, when a page kept offline is
    opened for a hand whose contract is not chosen yet."""
    script: dict[str, object]
    """What static/js/play.js needs to follow the play in the browser, offline too."""


def play_sheet(
    state: GameState, number: int, contract: Contract, play: PlayInProgress
) -> PlaySheet:
    names = state.names
    query = {"taker": contract.taker, "bid": contract.bid, "trump": contract.trump.value}

    def href(cards: Sequence[Card]) -> str:
        return "?" + urlencode({**query, "cards": format_cards(cards)})

    played = set(play.cards)
    keys = [
        [
            Key(
                label=card_label(card),
                name=card_name(card).translate(gettext),
                code=str(card),
                red=red_card(card),
                href=None if card in played or play.complete else href((*play.cards, card)),
            )
            for card in DECK
            if card.suit is suit
        ]
        for suit in Suit
    ]
    tricks = [
        _trick_line(number + 1, trick.leader, trick.cards, contract.trump, names)
        for number, trick in enumerate(play.tricks)
    ]
    current = [
        Played(names[seat], card_label(card), red_card(card), False)
        for seat, card in zip(seats_from(play.leader), play.current, strict=False)
    ]
    led = effective_suit(play.current[0], contract.trump).symbol if play.current else ""
    outcome, revokes, won = "", [], []
    if play.complete:
        hand = Hand(contract, plays=in_tricks(play.cards))
        assert hand.play is not None  # a complete play
        assert hand.tricks is not None
        score = score_hand(contract, hand.tricks, state.record.rules)
        won = list(zip(names, hand.tricks, strict=True))
        outcome = (
            gettext("%(name)s makes the contract: %(points)s points.")
            if score.made
            else gettext("%(name)s misses the contract (a boîte): %(points)s points.")
        ) % {"name": isolate(names[contract.taker]), "points": score.points[contract.taker]}
        revokes = [
            capfirst(
                explain_revoke(revoke, isolate(names[revoke.seat]), card_label).translate(gettext)
            )
            for revoke in hand.play.revokes
        ]
    return PlaySheet(
        number=number,
        taker=names[contract.taker],
        contract=contract_words(contract, names),
        to_play=None if play.to_play is None else names[play.to_play],
        led=led,
        current=current,
        tricks=tricks,
        keys=keys,
        back_href=href(play.cards[:-1]) if play.cards else None,
        complete=play.complete,
        tricks_won=won,
        outcome=outcome,
        revokes=revokes,
        plays=format_cards(play.cards),
        dealer=dealer_of(number - 1, state.game.first_dealer),
        choice=PlayContractForm(names=names),
        script=play_script(state, number, contract, play),
    )


def play_script(
    state: GameState, number: int, contract: Contract, play: PlayInProgress
) -> dict[str, object]:
    """The play, and every word the page says, for static/js/play.js.

    The browser follows the rules itself (taps work offline), but says nothing of its
    own: the cards' labels and names, the referee's reasons and the page's sentences are
    given here, in the user's language, as templates (``{card}`` for the engine's phrases,
    ``%(name)s`` for the page's). Its verdicts are checked against the engine's by a test.

    What depends on the contract is given for every contract too (``contracts``,
    ``outcomes_by_bid``): a copy of this page kept by the service worker, opened offline
    for another hand or contract, shows that one (static/js/play.js, from its address)."""
    names = state.names
    placeholders = ["%(name)s"] * SEATS
    outcomes_by_bid = {
        str(bid): _outcomes(state, Contract(0, bid, Trump.NO_TRUMP), placeholders)
        for bid in range(LOWEST_BID, BOULMOUS + 1)
    }
    return {
        "names": list(names),
        "number": number,
        "dealer": dealer_of(number - 1, state.game.first_dealer),
        "taker": contract.taker,
        "bid": contract.bid,
        "trump": contract.trump.value,
        "contract": contract_words(contract, names),
        "cards": [str(card) for card in play.cards],
        "game": reverse("game", args=[state.game.public_id]),
        "add": reverse("add_hand", args=[state.game.public_id]),
        "title": gettext("Hand %(number)s, card by card"),
        "outcomes": _outcomes(state, contract, names),
        # Every contract's words, and every bid's outcomes, the taker as %(name)s.
        "contracts": {
            f"{bid}{trump.value}": contract_words(Contract(0, bid, trump), placeholders)
            for bid in range(LOWEST_BID, BOULMOUS + 1)
            for trump in Trump
        },
        "outcomes_by_bid": outcomes_by_bid,
        "deck": [
            [str(card), card_label(card), card_name(card).translate(gettext)] for card in DECK
        ],
        "suits": {suit.value: suit_name(suit).translate(gettext) for suit in Suit},
        # The referee's reasons (scoring/engine/referee.py), word for word.
        "reasons": {
            "notrump": gettext(
                "{card} is the highest card of the suit led, {suit}: at no trump, "
                "each suit runs from the ace down to the nine."
            ),
            "plain": gettext(
                "{card} is the highest card of the suit led, {suit}, and nobody trumped."
            ),
            "jack": gettext("{card} is the highest card when {trump} are trump."),
            "jack2": gettext("{card} is the second-highest trump when {trump} are trump."),
            "trumps": gettext("{card} is the highest trump played; {trump} are trump."),
            "trump": gettext("{card} is a trump, {trump}, and no other trump was played."),
            "belongs": gettext("{card} belongs to the trump suit: {suit} were led."),
            "revoke": gettext(
                "{player} did not follow {suit} in trick {trick}: {player} played {card} "
                "while holding {held}."
            ).replace("{player}", isolate("{player}")),
        },
        # The page's own sentences (templates/referee/play.html).
        "words": {
            "to_play": _named(gettext("%(name)s to play")),
            "trick": gettext("Trick %(number)s"),
            "led": gettext("%(suit)s led"),
            "plays": _named(gettext("%(name)s plays %(card)s")),
            "wins": _named(gettext("Trick %(number)s: %(name)s wins.")),
            "deck": gettext("The 24 cards"),
            "complete": gettext("The play is complete"),
            "revoke_found": gettext("Revoke found"),
            "table_decides": gettext(
                "The table decides: keep the hand as played, or take back cards to correct it."
            ),
            "keep": gettext("Keep the hand as played"),
            "save": gettext("Save the hand"),
            "take_back": gettext("Take back the last card"),
            "back": gettext("Back to the game"),
            "tricks_played": gettext("Tricks played"),
        },
    }


def _named(sentence: str) -> str:
    """A sentence the page's script fills with a player's name (``%(name)s``), the name
    isolated in a right-to-left language as :func:`isolate` isolates it here."""
    return sentence.replace("%(name)s", isolate("%(name)s"))


def _outcomes(state: GameState, contract: Contract, names: Sequence[str]) -> list[str]:
    """What the complete page says of the contract, for each number of tricks the taker
    may take (0 to 6)."""
    outcomes = []
    for taken in range(TRICKS_PER_HAND + 1):
        tricks = [0] * SEATS
        tricks[contract.taker] = taken
        tricks[(contract.taker + 1) % SEATS] = TRICKS_PER_HAND - taken
        score = score_hand(contract, tricks, state.record.rules)
        outcomes.append(
            (
                gettext("%(name)s makes the contract: %(points)s points.")
                if score.made
                else gettext("%(name)s misses the contract (a boîte): %(points)s points.")
            )
            % {"name": isolate(names[contract.taker]), "points": score.points[contract.taker]}
        )
    return outcomes


def _trick_line(
    number: int, leader: int, cards: Sequence[Card], trump: Trump, names: Sequence[str]
) -> TrickLine:
    verdict = explain_trick(cards, trump)
    seats = seats_from(leader)
    reason = " ".join(
        capfirst(phrase.translate(gettext)) for phrase in (verdict.reason, *verdict.notes)
    )
    return TrickLine(
        number=number,
        cards=[
            Played(names[seat], card_label(card), red_card(card), index == verdict.winner)
            for index, (seat, card) in enumerate(zip(seats, cards, strict=False))
        ],
        winner=names[seats[verdict.winner]],
        reason=reason,
    )
