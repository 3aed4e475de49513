"""What clubs do when the table changes a game, subscribed once, when the app is ready
(scoring/apps.py): the table announces, and never calls clubs itself."""

from functools import partial
from typing import Any

from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse

from ..accounts.face import hooks as accounts_hooks
from ..common.rights import NOBODY, Actor
from ..engine.names import name_key
from ..table.face import Change, Dispute, Game, GameState, hooks
from . import access, history, mail, privacy
from .access import club_member
from .league.ratings import follow
from .league.results import club_game_of, event_of_game
from .models import ClubGame, Member
from .names import club_names, sees_full_names


def follow_game(sender: type[Game], *, state: GameState, action: str, **kwargs: Any) -> None:
    """A club game's results and ratings follow each change of it; a rematch of a club
    game is the club's too. A game just created or imported is no club's game yet: clubs
    that start or import one follow it themselves."""
    if action in (Change.Action.CREATED, Change.Action.IMPORTED):
        source = state.game.rematch_of_id
        if action == Change.Action.CREATED and source is not None:
            original = ClubGame.objects.filter(game=source).first()
            if original is not None:
                ClubGame.objects.create(game=state.game, club_id=original.club_id)
        return
    follow(state)
    kind = AGREEMENT_LINES.get(action)
    if kind is not None:
        agreement_line(state, kind)
    if action == Change.Action.DISPUTED and club_game_of(state.game) is not None:
        mail_admins(state)


def mail_admins(state: GameState) -> None:
    """A hand of a club game disputed: the club's admins who asked are mailed by a job
    queued once the dispute is written (its transaction committed), never inside the
    request (scoring/clubs/mail.py ``mail_dispute``). One query: the dispute just written."""
    disputes = Dispute.objects.filter(game=state.game).order_by("-at", "-id")
    dispute_id = disputes.values_list("pk", flat=True).first()
    if dispute_id is not None:
        transaction.on_commit(partial(mail.mail_dispute.enqueue, dispute_id))


AGREEMENT_LINES: dict[str, str] = {
    Change.Action.CONFIRMED: "hand_confirmed",
    Change.Action.SIGNED: "result_signed",
    Change.Action.DISPUTED: "hand_disputed",
    Change.Action.DECIDED: "dispute_decided",
    Change.Action.ACCEPTED: "correction_confirmed",
}
"""The changes of a club game's agreement the club's history says too (issue 40.5)."""


def agreement_line(state: GameState, kind: str) -> None:
    """A club game's confirmation, signature, dispute or decision, in the club's history as
    in the game's: the seat's player (a member, by his name now), the game, the hand, which
    phone, the reason and the decision, and who (the account). Two queries: the game's line
    just written, the member; none for a game that is no club's."""
    club_game = club_game_of(state.game)
    if club_game is None:
        return
    change = state.game.changes.order_by("-at", "-id").first()
    after = change.after if change is not None and isinstance(change.after, dict) else {}
    seat = after.get("seat")
    name = state.names[seat] if isinstance(seat, int) and 0 <= seat < len(state.names) else ""
    member = (
        Member.objects.filter(club_id=club_game.club_id, key=name_key(name)).first()
        if name
        else None
    )
    said: dict[str, Any] = {"game": ", ".join(state.names)}
    if change is not None and change.hand_number is not None:
        said["hand"] = change.hand_number
    said.update({key: after[key] for key in ("phone", "outcome", "reason") if key in after})
    if change is not None and change.by_device:
        said["device"] = change.by_device
    by = Actor(change.by_user_id, change.by_device) if change is not None else NOBODY
    history.log(club_game.club, by, kind, member or name, after=said)


def club_crumb(game: Game) -> hooks.Crumb | None:
    """A club game's page leads back to its club; an event's game, to its event."""
    club_game = club_game_of(game)
    if club_game is None:
        return None
    club = club_game.club
    event = event_of_game(game)
    if event is not None:
        return hooks.Crumb(reverse("event", args=[club.slug, event.pk]), event.name)
    return hooks.Crumb(reverse("club", args=[club.slug]), club.name)


def club_zone(game: Game) -> str | None:
    """A club game's times are its club's."""
    club_game = club_game_of(game)
    return None if club_game is None else club_game.club.time_zone


def public_names(
    request: HttpRequest, game: Game, names: tuple[str, ...]
) -> tuple[str, ...] | None:
    """A club game's players as the request sees them: as the club shows them to the
    public (scoring/clubs/names.py) unless the request is of the club."""
    club_game = club_game_of(game)
    if club_game is None or sees_full_names(club_member(request, club_game.club)):
        return None
    shown = club_names(club_game.club_id, public=True)
    return tuple(shown.get(name_key(name), name) for name in names)


def member_seat(game: Game, user_id: int) -> int | None:
    """The seat of a club game where the club's member linked to this account plays (one
    query, for a club game alone): he holds it through his account, with no seat's code."""
    club_game = club_game_of(game)
    if club_game is None:
        return None
    mine = Member.objects.filter(club_id=club_game.club_id, user_id=user_id)
    keys = set(mine.values_list("key", flat=True))
    names = game.summary.names if keys else []
    return next((seat for seat, name in enumerate(names) if name_key(name) in keys), None)


def subscribe() -> None:
    hooks.loaded_with_game.append("club_game__club")
    # A game of a night that ended takes no more changes (access.night_closed).
    hooks.loaded_with_game.append("club_game__round__night")
    # Whether an event's game counts in the season (league/results.py counts_in_season).
    hooks.loaded_with_game.append("club_game__round__night__event")
    hooks.loaded_with_game.append("event_final__event")
    hooks.game_changed.connect(follow_game, sender=Game, dispatch_uid="clubs.follow_game")
    hooks.crumbs.append(club_crumb)
    if club_zone not in hooks.time_zones:
        hooks.time_zones.append(club_zone)
    if public_names not in hooks.names_shown:
        hooks.names_shown.append(public_names)
    if member_seat not in hooks.seats_of_account:
        hooks.seats_of_account.append(member_seat)
    access.subscribe()
    # An account's data and deletion reach its memberships.
    if privacy.account_part not in accounts_hooks.data_parts:
        accounts_hooks.data_parts.append(privacy.account_part)
    if privacy.leave_clubs not in accounts_hooks.leaving:
        accounts_hooks.leaving.append(privacy.leave_clubs)
