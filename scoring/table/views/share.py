"""Sharing a game: a link to watch it, and links that hand its scoring to another phone; and
its result (issue 22.3): the Share button's text, the page's Open Graph tags, the preview
image (scoring/common/share.py, scoring/infra/preview.py)."""

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.rights import Action, Actor
from ...common.share import Shared, game_share, game_title
from ...common.words import isolate
from ...infra.preview import Preview, preview_response
from ...infra.qr import qr_code
from ...infra.throttles import SCORER_LINK_JOIN, throttled
from .. import services
from ..access import Access, with_game, writes_game
from ..forms import JoinForm
from ..models import Game, ScorerLink, Summary
from ..pages.game import game_clock
from .cached import names_part


@require_safe
@with_game(Action.SHARE_GAME)
def share(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """The watch link, and the scorer links: for those who may share the game's scoring."""
    watch = request.build_absolute_uri(reverse("game", args=[game.public_id]))
    links = [
        (link, url, qr_code(url, gettext("Scorer link")))
        for link in game.scorer_links.filter(revoked_at=None)
        for url in [request.build_absolute_uri(reverse("join", args=[game.public_id, link.secret]))]
    ]
    context = {
        "game": game,
        "watch": watch,
        "watch_qr": qr_code(watch, gettext("Watch link")),
        "links": links,
    }
    return render(request, "table/share.html", context)


def shared_game(
    request: HtmxHttpRequest,
    game: Game,
    names: tuple[str, ...],
    totals: tuple[int, ...],
    winner: int | None,
) -> Shared:
    """What the game page shares: its day, the totals and the winner, with its address. Said
    in the game's time zone (the page is drawn in it: pages.game.game_clock)."""
    url = request.build_absolute_uri(reverse("game", args=[game.public_id]))
    return game_share(game.created_at, names, totals, winner, url)


def preview_url(request: HtmxHttpRequest, game: Game, version: str) -> str:
    """The preview image's address, with the version it shows: a chat that keeps images by
    address asks again once the game has changed."""
    path = reverse("game_preview", args=[game.public_id])
    return request.build_absolute_uri(f"{path}?v={version}")


@require_safe
@with_game()
def preview(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """The game's preview image (1200x630 PNG): the winner, the day, the totals, names as
    the page shows them to this request; for whoever may watch the game, as its page."""
    try:
        summary = game.summary
    except Summary.DoesNotExist:
        raise Http404 from None
    names = names_part(request, game, summary, can_score=access.can_score)
    assert isinstance(names, tuple)
    with game_clock(game):
        day = game_title(game.created_at)
    ranked = sorted(zip(names, summary.totals, strict=True), key=lambda one: -one[1])
    winner = summary.winner
    if winner is not None:
        title, subtitle = gettext("%(name)s wins!") % {"name": isolate(names[winner])}, day
    else:
        title, subtitle = day, str(Summary.Status(summary.status).label)
    rows = tuple((name, str(total)) for name, total in ranked)
    return preview_response(request, "game", Preview(title, subtitle, rows))


@require_POST
@writes_game(Action.SHARE_GAME)
def new_link(request: HtmxHttpRequest, gid: str, by: Actor) -> HttpResponse:
    services.make_scorer_link(public_id=gid)
    return redirect("share", gid=gid)


@require_POST
@writes_game(Action.SHARE_GAME)
def revoke_link(request: HtmxHttpRequest, gid: str, by: Actor, link_id: int) -> HttpResponse:
    services.revoke_scorer_link(public_id=gid, link_id=link_id)
    return redirect("share", gid=gid)


@require_http_methods(["GET", "HEAD", "POST"])
@throttled(SCORER_LINK_JOIN)
def join(request: HtmxHttpRequest, gid: str, secret: str) -> HttpResponse:
    """A scorer link opened on a phone: it asks what the phone is called, once per phone
    (the name kept in its signed cookie, then only offered to change), then gives it the
    right to score the game, until the link is revoked."""
    link = (
        ScorerLink.objects.select_related("game")
        .filter(game__public_id=gid, secret=secret, revoked_at=None)
        .first()
    )
    if link is None:
        return render(request, "table/join.html", {"link": None}, status=404)
    phone = request.phone
    form = JoinForm(
        request.POST if request.method == "POST" else None, initial={"label": phone.label}
    )
    if request.method == "POST" and form.is_valid():
        phone.label = form.cleaned_data["label"] or phone.label
        phone.grant(gid, link.pk)
        response = redirect("game", gid=gid)
        rights.write(response, phone)
        return response
    context = {"link": link, "form": form, "known_label": phone.label}
    return render(request, "table/join.html", context)
