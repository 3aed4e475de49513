"""What the card-by-card page shows, laid out from the engine: no rules here."""

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext

from ..engine import (
    DECK,
    Card,
    Contract,
    Hand,
    PlayInProgress,
    Suit,
    Trump,
    card_name,
    effective_suit,
    explain_revoke,
    explain_trick,
    format_cards,
    in_tricks,
    score_hand,
    seats_from,
)
from ..models import Game
from ..state import GameState
from ..words import card_label, contract_words, red_card


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
        score = score_hand(contract, hand.tricks, state.record.rules.failed_taker)
        won = list(zip(names, hand.tricks, strict=True))
        outcome = (
            gettext("%(name)s makes the contract: %(points)s points.")
            if score.made
            else gettext("%(name)s misses the contract (a boîte): %(points)s points.")
        ) % {"name": names[contract.taker], "points": score.points[contract.taker]}
        revokes = [
            capfirst(explain_revoke(revoke, names[revoke.seat], card_label).translate(gettext))
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
    )


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


def replay_url(game: Game, number: int, hand: Hand) -> str | None:
    """The card-by-card page of a hand recorded card by card, to correct its play."""
    if hand.plays is None or hand.contract is None:
        return None
    contract = hand.contract
    query = {"taker": contract.taker, "bid": contract.bid, "trump": contract.trump.value}
    query["cards"] = format_cards([card for trick in hand.plays for card in trick])
    return reverse("play_hand", args=[game.public_id, number]) + "?" + urlencode(query)
