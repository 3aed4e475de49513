"""Between the database's facts and the engine's game record."""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from .engine import FailedTaker, Record, Rules, decimals, hand_from_dict
from .models import Game, Hand


def rules_of(game: Game) -> Rules:
    # The column keeps four decimals; the rules want the currency's own.
    stake = Decimal(game.stake).quantize(Decimal(1).scaleb(-decimals(game.currency)))
    return Rules(
        target=game.target,
        failed_taker=FailedTaker(game.failed_taker),
        stake=stake,
        currency=game.currency,
    )


def hand_dict(hand: Hand) -> dict[str, Any]:
    """A stored hand in the game record's form."""
    if not hand.trump:
        return {"calls": ["pass"] * 4}
    data: dict[str, Any] = (
        {"calls": hand.calls} if hand.calls else {"taker": hand.taker, "bid": hand.bid}
    )
    data["trump"] = hand.trump
    if hand.plays:
        data["plays"] = hand.plays
    else:
        data["tricks"] = hand.tricks
    return data


def record_of(game: Game, names: Sequence[str], hands: Sequence[Hand]) -> Record:
    """The game as an engine record; every hand is checked again by the engine."""
    return Record(
        players=tuple(names),
        first_dealer=game.first_dealer,
        rules=rules_of(game),
        hands=tuple(
            hand_from_dict(hand_dict(hand), dealer=(game.first_dealer + index) % 4)
            for index, hand in enumerate(hands)
        ),
    )
