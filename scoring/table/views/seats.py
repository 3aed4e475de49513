"""Seats on phones (issue 40.1): each seat of a game has a QR code and a short code; the
phone of the player who scans his, or types it, holds that seat and watches the game as
that seat's player, until the game's owner revokes the code. A seat holder does not score:
a scorer link does that (views/share.py)."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.rights import Action, Actor
from ...infra.qr import qr_code
from ...infra.throttles import SEAT_TAKE, throttled
from .. import services
from ..access import Access, phone_of, seat_held, with_game, writes_game
from ..forms import ConfirmForm, SeatForm, seat_code
from ..models import Game, SeatLink
from ..pages.game import game_clock
from ..state import load_game
from .cached import names_part
from .table import agreement_answer


@require_safe
@with_game(Action.SHARE_GAME)
def seats(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """Each seat's player, QR code and short code, and whether a phone took it: for those
    who may share the game's scoring."""
    names = names_part(request, game, game.summary, can_score=access.can_score)
    assert isinstance(names, tuple)
    live = {link.seat: link for link in game.seat_links.filter(revoked_at=None)}
    rows: list[tuple[int, object, SeatLink | None, str, str | None]] = []
    for seat, name in enumerate(names):
        link = live.get(seat)
        if link is None:
            rows.append((seat, name, None, "", None))
            continue
        url = request.build_absolute_uri(reverse("seat", args=[link.code]))
        label = gettext("%(name)s’s seat") % {"name": name}
        rows.append((seat, name, link, url, qr_code(url, label)))
    context = {
        "game": game,
        "rows": rows,
        "missing": len(live) < len(names),
        "typed_at": request.build_absolute_uri(reverse("take_seat")),
    }
    with game_clock(game):  # when each seat was taken, said in the game's time zone
        return render(request, "table/seats.html", context)


@require_POST
@writes_game(Action.SHARE_GAME)
def new_seat_links(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    services.make_seat_links(public_id=gid)
    return redirect("seats", gid=gid)


@require_POST
@writes_game(Action.SHARE_GAME)
def revoke_seat(request: HtmxHttpRequest, gid: str, by: Actor, seat: int) -> HttpResponse:
    services.revoke_seat_link(public_id=gid, seat=seat, by=by)
    return redirect("seats", gid=gid)


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(SEAT_TAKE)
def take_seat(request: HtmxHttpRequest, secret: str = "") -> HttpResponse:
    """A seat's code, typed (``/seat``) or read from its QR code (``/seat/<code>``, which
    asks before it takes): taken, this phone holds the seat and lands on the game. Sent
    twice, the seat is held once; a code that is no live seat's is said on the field."""
    typed = request.POST if request.method == "POST" else None
    form = SeatForm(typed, initial={"code": secret})
    if typed is not None and form.is_valid():
        assert form.link is not None
        return _taken(request, form.link)
    link = None
    if secret and typed is None:
        link = (
            SeatLink.objects.select_related("game__summary")
            .filter(code=seat_code(secret), revoked_at=None)
            .first()
        )
    name = "" if link is None else _name_of(request, link)
    context = {"form": form, "link": link, "name": name, "secret": secret}
    status = 404 if secret and typed is None and link is None else 200
    return render(request, "table/seat.html", context, status=422 if form.errors else status)


def _name_of(request: HtmxHttpRequest, link: SeatLink) -> str:
    """The seat's player as this phone, which does not score the game, may see him."""
    names = names_part(request, link.game, link.game.summary, can_score=False)
    assert isinstance(names, tuple)
    return str(names[link.seat])


def _taken(request: HtmxHttpRequest, link: SeatLink) -> HttpResponse:
    gid = link.game.public_id
    phone = request.phone
    response = redirect("game", gid=gid)
    if phone.seats.get(gid) == link.pk:
        return response  # held already: the same form sent twice
    if services.take_seat(link_id=link.pk, by=request.actor) is None:
        return redirect("take_seat")
    phone.take_seat(gid, link.pk)
    rights.write(response, phone)
    return response


def _refusal_words(refused: services.ConfirmRefused) -> str:
    match refused.why:
        case "changed":
            return gettext(
                "Hand %(number)s was changed since you saw it: here it is as it now stands. "
                "Confirm it again if it is right."
            ) % {"number": refused.number}
        case "own":
            return gettext(
                "Your seat entered hand %(number)s: a player of another seat confirms it."
            ) % {"number": refused.number}
        case "gone":
            return gettext("Hand %(number)s is no longer in the game.") % {"number": refused.number}
        case "playing":
            return gettext("The result is signed once the game is over.")
        case "no_proposal":
            return gettext("No correction of hand %(number)s waits to be confirmed.") % {
                "number": refused.number
            }
        case "own_proposal":
            return gettext(
                "Your seat proposed this correction of hand %(number)s: a player of another "
                "seat confirms it."
            ) % {"number": refused.number}
        case "unfit":
            return gettext(
                "This correction of hand %(number)s no longer fits the game as it is "
                "recorded: it cannot replace the hand."
            ) % {"number": refused.number}
        case _:
            return gettext("This game’s rules ask for no confirmation.")


@require_POST
@writes_game(Action.CONFIRM_GAME)
def confirm_hand(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    """The player of the seat this phone holds confirms hand ``number`` as his page showed
    it. Sent twice (or replayed by the phone's queue: its token), confirmed once; a hand
    changed since is refused, and shown anew. In JSON to a request that asks for it."""
    held = seat_held(request, gid)
    form = ConfirmForm(request.POST)
    if held is None or not form.is_valid():
        state = load_game(get_object_or_404(Game, public_id=gid))
        words = gettext("This confirmation could not be read.")
        return agreement_answer(request, state, "invalid", 400, words, number)
    try:
        state = services.confirm_hand(
            public_id=gid,
            number=number,
            version=form.cleaned_data["version"],
            seat=held[0],
            by=by,
            phone=phone_of(request, gid, held[1]),
            token=form.cleaned_data["token"],
        )
    except services.ConfirmRefused as refused:
        words = _refusal_words(refused)
        return agreement_answer(request, refused.state, "refused", 409, words, number)
    return agreement_answer(request, state, "confirmed", number=number)


@require_POST
@writes_game(Action.CONFIRM_GAME)
def sign_game(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    """The player of the seat this phone holds signs the game's result. Sent twice, signed
    once."""
    held = seat_held(request, gid)
    if held is None:
        raise Http404
    try:
        state = services.sign_game(
            public_id=gid, seat=held[0], by=by, phone=phone_of(request, gid, held[1])
        )
    except services.ConfirmRefused as refused:
        words = _refusal_words(refused)
        return agreement_answer(request, refused.state, "refused", 409, words)
    return agreement_answer(request, state, "signed")


@require_POST
@writes_game(Action.CONFIRM_GAME)
def confirm_proposal(request: HtmxHttpRequest, gid: str, by: Actor, number: int) -> HttpResponse:
    """The player of the seat this phone holds confirms the correction proposed of a
    confirmed hand: it replaces the hand. Sent twice, once; the seat that proposed it is
    refused and told why."""
    held = seat_held(request, gid)
    if held is None:
        raise Http404
    try:
        state = services.confirm_proposal(
            public_id=gid,
            number=number,
            seat=held[0],
            by=by,
            phone=phone_of(request, gid, held[1]),
        )
    except services.ConfirmRefused as refused:
        words = _refusal_words(refused)
        return agreement_answer(request, refused.state, "refused", 409, words, number)
    except services.Closed as closed:
        return agreement_answer(request, closed.state, "refused", 409, closed.why.message, number)
    return agreement_answer(request, state, "confirmed", number=number)
