"""A whole game: dealer rotation, running totals, the end, boîtes and boulmous."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from .auction import SEATS, Call, Contract, auction_taker, check_seat, speaking_order
from .cards import Card, Trump
from .errors import RulesError, gettext_noop
from .hand import HandScore, check_tricks, score_hand
from .play import PlayOut, play_out
from .rules import Rules

_auction_taker = lru_cache(maxsize=4096)(auction_taker)
""":func:`~.auction.auction_taker` of each auction once: four calls of a few, a dealer and
the rules make a few thousand auctions, which an import of a club's games reads hundreds
of thousands of times."""


@dataclass(frozen=True, slots=True)
class Hand:
    """The facts of one deal: a void deal (no contract), or a contract and its result.

    The result is the tricks won by seat, or the six tricks as played (``plays``),
    or both, which must then agree.
    """

    contract: Contract | None = None
    tricks: tuple[int, ...] | None = None
    plays: tuple[tuple[Card, ...], ...] | None = None
    calls: tuple[Call, ...] | None = None
    play: PlayOut | None = field(init=False, default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.contract is None:
            if self.tricks is not None or self.plays is not None:
                raise RulesError(gettext_noop("a void deal has no tricks or plays"))
            if self.calls is None:
                object.__setattr__(self, "calls", (None,) * SEATS)
            elif any(call is not None for call in self.calls):
                raise RulesError(gettext_noop("a void deal is four passes"))
            return
        if self.plays is not None:
            play = play_out(self.contract.taker, self.contract.trump, self.plays)
            object.__setattr__(self, "play", play)
            if self.tricks is None:
                object.__setattr__(self, "tricks", play.tricks_won)
            elif tuple(self.tricks) != play.tricks_won:
                raise RulesError(
                    gettext_noop("tricks {tricks} disagree with the plays, which give {played}"),
                    tricks=list(self.tricks),
                    played=list(play.tricks_won),
                )
        if self.tricks is None:
            raise RulesError(gettext_noop("a contract needs its tricks or its plays"))
        object.__setattr__(self, "tricks", check_tricks(self.tricks))

    @property
    def is_void(self) -> bool:
        return self.contract is None

    def check_calls(self, dealer: int, rules: Rules) -> None:
        """The auction, when recorded, must give this hand's taker and bid, by ``rules``."""
        if self.calls is None:
            return
        taken = _auction_taker(tuple(self.calls), dealer, rules)
        contract = None if self.contract is None else (self.contract.taker, self.contract.bid)
        if taken != contract:
            raise RulesError(gettext_noop("the calls do not give this contract"))


@dataclass(frozen=True, slots=True)
class HandResult:
    number: int
    """1-based."""
    dealer: int
    hand: Hand
    score: HandScore | None
    """None for a void deal."""
    totals: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return (0,) * SEATS if self.score is None else self.score.points


class Ending(Enum):
    """Where a game stands: still being played, won, or stopped before anyone won."""

    PLAYING = "playing"
    WON = "won"
    ABANDONED = "abandoned"

    @property
    def over(self) -> bool:
        return self is not Ending.PLAYING


@dataclass(frozen=True, slots=True)
class GameResult:
    first_dealer: int
    rules: Rules
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def next_dealer(self) -> int | None:
        return None if self.finished else dealer_of(len(self.hands), self.first_dealer)

    @property
    def next_speaker(self) -> int | None:
        dealer = self.next_dealer
        return None if dealer is None else speaking_order(dealer)[0]

    @property
    def deal_passes_to(self) -> int:
        """Who deals next, or first in a rematch once the game is over: the deal passes left."""
        return dealer_of(len(self.hands), self.first_dealer)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total."""
        top = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == top)

    @property
    def leading(self) -> tuple[int, ...]:
        """The leaders, once someone has scored (at the start nobody leads)."""
        return self.leaders if any(self.totals) else ()

    @property
    def tied_at_top(self) -> tuple[int, ...]:
        """The seats tied at the top at or above the target: the game plays on."""
        leaders = self.leaders
        if len(leaders) > 1 and self.totals[leaders[0]] >= self.rules.target:
            return leaders
        return ()

    @property
    def ranks(self) -> tuple[int, ...]:
        return ranks(self.totals)

    def ending(self, *, abandoned: bool) -> Ending:
        """Won, else abandoned when the table stopped, else still being played."""
        if self.finished:
            return Ending.WON
        return Ending.ABANDONED if abandoned else Ending.PLAYING

    @property
    def boites(self) -> tuple[int, ...]:
        return self.taker_counts().boites

    def taker_counts(self) -> TakerCounts:
        """Each seat's own contracts and what they came to, counted over the hands at once
        (a club's league asks this of tens of thousands of games)."""
        contracts: tuple[list[tuple[int, str, bool]], ...] = tuple([] for _ in range(SEATS))
        boites = [0] * SEATS
        made = [0] * SEATS
        missed = [0] * SEATS
        for result in self.hands:
            score = result.score
            if score is None:  # a void deal
                continue
            contract = result.hand.contract
            assert contract is not None  # a hand scored has one
            taker, made_it = contract.taker, score.made
            contracts[taker].append((contract.bid, _TRUMP_CODES[contract.trump], made_it))
            boites[taker] += score.boite
            if contract.is_boulmous:
                (made if made_it else missed)[taker] += 1
        return TakerCounts(tuple(map(tuple, contracts)), tuple(boites), tuple(made), tuple(missed))


_TRUMP_CODES = {trump: trump.value for trump in Trump}
"""Each trump's code (``trump.value``, which is slow to ask of an enum member)."""


@dataclass(frozen=True, slots=True)
class TakerCounts:
    """What a game's contracts came to for each seat that took them, by seat."""

    contracts: tuple[tuple[tuple[int, str, bool], ...], ...]
    """The contracts he took: bid, trump and whether he made it."""
    boites: tuple[int, ...]
    """His boîtes: contracts missed, a missed boulmous included."""
    boulmous_made: tuple[int, ...]
    boulmous_missed: tuple[int, ...]


class GameOver(RulesError):
    """A hand recorded after the game was won."""

    def __init__(self, won_at: int) -> None:
        self.won_at = won_at
        super().__init__(gettext_noop("the game was already won at hand {won}"), won=won_at)


def dealer_of(index: int, first_dealer: int) -> int:
    """The dealer of hand ``index`` (0-based, void deals counted): the deal passes left."""
    return (first_dealer + index) % SEATS


def ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Each player's rank: 1 + the number of players strictly higher; ties share a rank."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def winner_of(totals: Sequence[int], target: int) -> int | None:
    """The player alone at the top with at least ``target``; a tie at the top plays on."""
    top = max(totals)
    if top < target:  # most hands: nobody has reached it yet
        return None
    leaders = [seat for seat, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None


def score_game(
    hands: Sequence[Hand],
    *,
    first_dealer: int = 0,
    rules: Rules | None = None,
    drop_after_end: bool = False,
) -> GameResult:
    """Score every hand in order; refuse a hand recorded after the game was won.

    With ``drop_after_end`` the hands after the winning one are left out instead,
    so a caller can offer to discard them: ``len(result.hands)`` says where it ended.
    """
    rules = rules or Rules()
    check_seat(first_dealer)
    totals = [0] * SEATS
    winner: int | None = None
    results: list[HandResult] = []
    for index, hand in enumerate(hands):
        number = index + 1
        if winner is not None:
            if drop_after_end:
                break
            raise GameOver(number - 1).at("hand {number}", number=number)
        dealer = dealer_of(index, first_dealer)
        try:
            hand.check_calls(dealer, rules)
        except RulesError as error:
            raise error.at("hand {number}", number=number) from None
        score = None
        if hand.contract is not None:
            assert hand.tricks is not None  # Hand guarantees it
            score = score_hand(hand.contract, hand.tricks, rules)
            totals = [total + points for total, points in zip(totals, score.points, strict=True)]
            # A void deal leaves the totals, and so the winner (none yet), as they were.
            winner = winner_of(totals, rules.target)
        results.append(HandResult(number, dealer, hand, score, tuple(totals)))
    return GameResult(first_dealer, rules, tuple(results), tuple(totals), winner)
