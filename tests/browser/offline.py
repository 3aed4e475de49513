"""What the offline tests share: three deals saved with the network off, the wait for the
service worker to keep a game's page, and the hands as another phone records them and as
the database holds them."""

from scoring.engine import Contract, Trump
from scoring.engine import Hand as EngineHand
from scoring.table import services
from scoring.table.models import Hand
from tests.browser.hands import Deal

# Amina deals hand 1, Bilal hand 2, Chafik hand 3, Dalila hand 4: the deal passes left.
OFFLINE = [
    Deal(1, 5, "S", (0, 5, 1, 0)),
    Deal(0, 4, "H", (2, 1, 2, 1), tapped=(1, 2, 3)),
    Deal(2, 3, "C", (1, 1, 3, 1)),
]


# The page's own check that the worker runs and keeps this page: evaluated as a function
# (a string expression would be eval, which the Content-Security-Policy refuses).
KEPT = """
async () => {
  if (!navigator.serviceWorker.controller) return false;
  const cache = await caches.open("boulmous-pages-1");
  return Boolean(await cache.match(location.pathname));
}
"""


def open_kept(page, game):
    """The game's page, once the service worker runs and keeps a copy of it."""
    page.goto(f"/games/{game.public_id}/")
    for _ in range(150):
        if page.evaluate(KEPT):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not keep the game's page")


def recorded(game):
    """The hands in the database: number, taker, bid, trump, tricks."""
    return [
        (hand.number, hand.taker, hand.bid, hand.trump, hand.tricks)
        for hand in Hand.objects.filter(game=game).order_by("number", "pk")
    ]


def record(game, number, deal):
    """Hand ``number`` recorded by another phone, online."""
    contract = Contract(deal.taker, deal.bid, Trump(deal.trump))
    hand = EngineHand(contract, tricks=deal.tricks)
    services.record_hand(public_id=game.public_id, number=number, hand=hand, token=None)
