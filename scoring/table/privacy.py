"""What the table keeps about an account, for its owner's download (docs/privacy.md): the
games it started, the history lines it made, and those games' scorer links. Subscribed to
accounts' hooks by the app (scoring/apps.py): the table does not import accounts."""

from datetime import timedelta
from typing import Any

from django.db.models import F

from ..engine import record_to_dict
from .models import Change, Game, ScorerLink, Summary
from .state import exported, load_games


def account_part(user_id: int) -> dict[str, Any]:
    """The account's sections kept by the table, in five queries whatever their size."""
    owned = load_games(Game.objects.filter(owner_id=user_id).order_by("created_at", "id"))
    changes = (
        Change.objects.filter(by_user_id=user_id)
        .order_by("at", "id")
        .values_list("game__public_id", "at", "action", "hand_number", "by_device")
    )
    links = (
        ScorerLink.objects.filter(game__owner_id=user_id)
        .order_by("created_at", "id")
        .values_list("game__public_id", "created_at", "revoked_at")
    )
    return {
        "games_owned": [
            {
                "game": state.game.public_id,
                "created_at": state.game.created_at.isoformat(),
                "record": record_to_dict(exported(state)),
            }
            for state in owned
        ],
        "changes_made": [
            {
                "game": game,
                "at": at.isoformat(),
                "action": action,
                "hand": hand,
                "device": device,
            }
            for game, at, action, hand, device in changes
        ],
        "scorer_links": [
            {
                "game": game,
                "created_at": created.isoformat(),
                "revoked_at": revoked.isoformat() if revoked else None,
            }
            for game, created, revoked in links
        ],
    }


def account_leaves(user_id: int, anonymous: bool) -> None:
    """The games whose history names the account are drawn anew without it: their version
    moves on by a microsecond (their order in lists stays), so no page kept in the cache
    (scoring/infra/pagecache.py), and no page open on a phone, keeps showing his name.
    Inside the deletion's transaction: the history then names no account."""
    made = Change.objects.filter(by_user_id=user_id).values("game_id")
    later = F("changed_at") + timedelta(microseconds=1)
    Summary.objects.filter(game__in=made).update(changed_at=later)
