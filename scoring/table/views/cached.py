"""What a game's cached pages depend on (scoring/infra/pagecache.py): the key parts of a
game as this request sees it, read with the game (its summary comes in the same query)."""

from dataclasses import dataclass

from django.http import HttpRequest
from django.utils import timezone

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from ...infra.pagecache import account_shown
from .. import waiting
from ..access import held_seat, lost_right, may
from ..hooks import crumb_of, names_for, zone_of
from ..models import Game, Summary
from ..pages.game import version_of


def names_part(request: HttpRequest, game: Game, summary: Summary, *, can_score: bool) -> object:
    """The players' names as this request sees them: as typed for a scorer, else as the hooks
    say (a club's public names, which change without the game: a member renamed)."""
    names = tuple(summary.names)
    return names if can_score else names_for(request, game, names)


def record_shown(request: HttpRequest, game: Game, *, can_score: bool) -> tuple[object, ...] | None:
    """What a game's record.json shows that may differ from one request to another: the
    game's version and the names shown (no word of the site's, no time in a zone, nothing
    of the other phones'). None for a game with no summary: drawn as before."""
    try:
        summary = game.summary
    except Summary.DoesNotExist:
        return None
    names = names_part(request, game, summary, can_score=can_score)
    return (game.public_id, version_of(summary.changed_at), names)


@dataclass(frozen=True)
class Shown:
    """A game as this request sees it: what its pages' keys are made of, and what the
    viewer may do there beyond scoring (asked once, for the key and the page)."""

    parts: tuple[object, ...]
    can_share: bool
    can_rematch: bool
    seat: int | None = None
    """The seat a watcher holds (access.held_seat): its page says so."""


def game_shown(
    request: HtmxHttpRequest, game: Game, *, can_score: bool, with_seat: bool = False
) -> Shown | None:
    """What a game's page shows that may differ from one request, or one moment, to another:
    the game's version, the names shown, what the viewer may do there (score, share, start
    the rematch), the time zone its times are said in, the account shown in the header,
    what the page leads back to, and (``with_seat``: the game page) the seat a watcher
    holds. None for a game with no summary: drawn as before."""
    shown = record_shown(request, game, can_score=can_score)
    if shown is None:
        return None
    summary, gid = game.summary, game.public_id
    can_share = can_score and may(request, Action.SHARE_GAME, gid, game)
    can_rematch = (
        can_score
        and summary.status == Summary.Status.WON
        and may(request, Action.REMATCH_GAME, gid, game)
    )
    refused = None if can_score else lost_right(request, gid, game)
    seat = None if can_score or not with_seat else held_seat(request, gid, game)
    reports = waiting.waiting(gid)  # one cache read for both parts below
    parts = (
        *shown,  # the game's version and the names shown, as record.json's key
        (can_score, can_share, can_rematch),
        zone_of(game) or timezone.get_current_timezone_name(),
        account_shown(request),
        crumb_of(game),
        # What the other phones hold waiting to be sent, as this phone is told it, and why
        # this phone may no longer score: both drawn on the game page, neither in the summary.
        waiting.stamp(gid, reports),
        tuple((one.name, one.count) for one in waiting.others(request, gid, reports)),
        refused.reason if refused is not None else None,
        seat,
        # A hand waiting is confirmed by itself when its minutes run out, with no change
        # written: a game that confirms keeps its page a minute at most.
        None if game.confirmation == "off" else timezone.now().strftime("%Y%m%d%H%M"),
    )
    return Shown(parts, can_share, can_rematch, seat)
