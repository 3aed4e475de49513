"""A hand written: the one contract of the game page's forms (their JSON answer, which the
offline queue reads: static/js/offline.js) and of the API's writes (scoring/api/writes.py).

Both take a hand in the fields of ``HandForm`` (the page's form sends them; the API turns
its JSON into them with :func:`hand_data`), write it through :func:`record_hand` or
:func:`edit_hand` (the form's checks, then the one service: scoring/table/services.py),
and answer what the write did in the same words: a ``status`` (:data:`REFUSED` for a
write the game no longer allows), the ``hand``, the game's ``next_hand``
(:func:`hand_written`), the form's errors by field (:func:`form_errors`), and the same
sentences (:func:`refused_notice`, :func:`ends_early_message`). The page's JSON adds the
game's version, for the live view; the API adds the game itself.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.http import QueryDict
from django.utils.translation import gettext

from ..common.forms import rules_error
from ..common.rights import Actor
from . import services
from .forms import HandForm
from .state import GameState

REFUSED: dict[type[services.WriteRefused], tuple[str, int]] = {
    services.AlreadyRecorded: ("duplicate", 200),  # nothing wrong: the hand is there once
    services.TokenReused: ("duplicate", 200),  # a form's token: the form was sent before
    services.HandTaken: ("conflict", 409),
    services.GameWon: ("won", 409),
    services.GameClosed: ("closed", 409),
    services.NothingToRedo: ("nothing_to_redo", 409),
    # Not applied: proposed to the other seats, the hand being confirmed (issue 40.3).
    services.Proposed: ("proposed", 409),
    services.ConfirmedHand: ("confirmed", 409),
}
"""What a refused write answers, and its HTTP status, by the service's refusal; any other
(a hand that is not the last one undone) is a ``conflict``. The API says a reused token
otherwise (a 422 ``token_reused``): a script that reuses one made a mistake, a page sent
again by Back did not."""


def refused_as(refused: services.WriteRefused) -> tuple[str, int]:
    """The status word of a refused write, and its HTTP status."""
    return REFUSED.get(type(refused), ("conflict", 409))


def hand_written(state: GameState, status: str, hand: int | None) -> dict[str, Any]:
    """What a write of hand ``hand`` did: ``status`` (recorded, edited, undone, redone; or
    a refusal's word, ``ends_early``, ``invalid``), the hand, and the number the game's next
    hand records with (None once the game is over). ``state`` is the game as it now
    stands."""
    return {
        "status": status,
        "hand": hand,
        "next_hand": None if state.ending.over else state.next_number,
    }


def form_errors(form: HandForm) -> dict[str, list[str]]:
    """The form's errors by field (``__all__``: the hand as a whole), in its words."""
    return {name: [str(error) for error in errors] for name, errors in form.errors.items()}


def hand_data(number: int, facts: Mapping[str, Any]) -> QueryDict:
    """The hand form's fields, as the page's form sends them, from a hand's facts in JSON
    (the API's ``HandIn`` and ``EditIn``: scoring/api/schemas.py)."""
    data = QueryDict(mutable=True)
    data["number"] = str(number)
    for name in ("dealer", "taker", "bid", "trump", "token", "plays"):
        value = facts.get(name)
        if value is not None and value != "":
            data[name] = str(value)
    for seat, count in enumerate(facts.get("tricks", ())):
        if count is not None and count != "":
            data[f"tricks_{seat}"] = str(count)
    for position, call in enumerate(facts.get("calls", ())):
        data[f"call_{position}"] = call
    if facts.get("void"):
        data["void"] = "on"
    if facts.get("discard_after_end"):
        data["discard_after_end"] = "on"
    return data


@dataclass
class Written:
    """What a hand's write came to: the game after it (``state``); or the service's
    refusal (``refused``, with the game as it stands); or neither, and the form says why
    (its errors: the fields', or the engine's rule broken as the hand's); with ``early``,
    an edit that wins the game before its last hand, not applied."""

    form: HandForm
    state: GameState | None = None
    refused: services.WriteRefused | None = None
    early: services.EndsEarly | None = None


def record_hand(form: HandForm, public_id: str, by: Actor, seat: int | None = None) -> Written:
    """Hand ``form``'s number, recorded if the form holds a hand the game allows next;
    ``seat``: the seat the scorer's phone holds (it does not confirm its own hands)."""
    if not form.is_valid():
        return Written(form)

    def recorded() -> GameState:
        return services.record_hand(
            public_id=public_id,
            number=form.cleaned_data["number"],
            hand=form.cleaned_data["hand"],
            token=form.cleaned_data["token"],
            by=by,
            seat=seat,
        )

    try:
        try:
            state = recorded()
        except IntegrityError:
            # The same form's other send (a double tap) wrote its hand meanwhile, where the
            # game's row lock does not keep the two apart (SQLite's shared cache, in tests):
            # the table's unique keys refused this one. Once more, it is told which it was.
            state = recorded()
    except services.WriteRefused as refused:
        return Written(form, refused=refused)
    except services.RulesBroken as broken:
        form.add_error(None, rules_error(broken.error))
        return Written(form)
    return Written(form, state=state)


def edit_hand(
    form: HandForm,
    public_id: str,
    number: int,
    by: Actor,
    seat: int | None = None,
    *,
    referee: bool = False,
) -> Written:
    """Hand ``number`` changed to the form's, everything after it scored again; a hand
    already confirmed only by the ``referee``, another's correction being proposed
    (services.Proposed, the ``refused`` of what is returned)."""
    if not form.is_valid():
        return Written(form)
    try:
        state = services.edit_hand(
            public_id=public_id,
            number=number,
            hand=form.cleaned_data["hand"],
            discard_after_end=form.cleaned_data["discard_after_end"],
            by=by,
            seat=seat,
            referee=referee,
        )
    except services.WriteRefused as refused:
        return Written(form, refused=refused)
    except services.RulesBroken as broken:
        form.add_error(None, rules_error(broken.error))
        return Written(form)
    except services.EndsEarly as early:
        # Not applied silently: sent again with discard_after_end, it is.
        form.ends_at = early.won_at
        form.add_error(None, ends_early_message(early))
        return Written(form, early=early)
    return Written(form, state=state)


def refused_notice(refused: services.WriteRefused) -> str:
    """What the page, and the API, say of a refused write."""
    if isinstance(refused, services.AlreadyRecorded):
        return gettext(
            "This form was already sent: it recorded hand %(number)s, once. Here is the game."
        ) % {"number": refused.number}
    if isinstance(refused, services.Proposed):
        return gettext(
            "Hand %(number)s is confirmed: only the referee changes it now. Your correction "
            "is proposed to the other seats, and replaces it once a player of another seat "
            "confirms it."
        ) % {"number": refused.number}
    if isinstance(refused, services.ConfirmedHand):
        return gettext(
            "Hand %(number)s is confirmed: only the referee may undo it now. Correct it "
            "instead: your correction is proposed to the other seats."
        ) % {"number": refused.number}
    if isinstance(refused, services.GameClosed):
        return gettext("This game was abandoned: resume it to change it.")
    if isinstance(refused, services.NothingToRedo):
        return gettext("The game changed since the undo: that hand cannot come back.")
    if isinstance(refused, services.GameWon):
        return gettext("The game was won meanwhile: here is the game now.")
    if isinstance(refused, services.NotLastHand):
        return gettext(
            "Only the last hand can be undone: hand %(number)s is not the last (hand %(last)s "
            "is). Here is the game now."
        ) % {"number": refused.number, "last": len(refused.state.hands)}
    if isinstance(refused, services.HandTaken) and refused.number > len(refused.state.hands):
        return gettext(
            "Hand %(number)s was just changed by someone else: here is the game now."
        ) % {"number": refused.number}
    return gettext("Hand %(number)s was just recorded by someone else: here is the game now.") % {
        "number": getattr(refused, "number", "")
    }


def ends_early_message(early: services.EndsEarly) -> str:
    """What the edit form, and the API, say of an edit that ends the game before its end."""
    return gettext(
        "With this change the game is won at hand %(won)s, before the last "
        "hand recorded (%(last)s). Save it and discard the hands after hand "
        "%(won)s (they stay in the history), or change it again."
    ) % {"won": early.won_at, "last": early.last}
