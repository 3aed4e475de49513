"""Sharing a game: a link to watch it, and links that hand its scoring to another phone."""

import segno
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common import rights
from ...common.http import HtmxHttpRequest
from ...common.rights import Action, Actor
from ...common.throttles import SCORER_LINK_JOIN, throttled
from .. import services
from ..access import Access, with_game, writes_game
from ..forms import JoinForm
from ..models import Game, ScorerLink


def qr_code(url: str, title: str) -> SafeString:
    """``url`` as a QR code, an inline SVG that a phone's camera reads from the screen."""
    svg = segno.make(url, error="m").svg_inline(scale=4, title=title, border=2, omitsize=True)
    return mark_safe(svg)  # segno writes the SVG; the title is escaped by it


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
    """A scorer link opened on a phone: it asks what the phone is called, then gives it the
    right to score the game, until the link is revoked."""
    link = (
        ScorerLink.objects.select_related("game")
        .filter(game__public_id=gid, secret=secret, revoked_at=None)
        .first()
    )
    if link is None:
        return render(request, "table/join.html", {"link": None}, status=404)
    phone = request.phone
    form = JoinForm(request.POST or None, initial={"label": phone.label})
    if request.method == "POST" and form.is_valid():
        phone.label = form.cleaned_data["label"] or phone.label
        phone.grant(gid, link.pk)
        response = redirect("game", gid=gid)
        rights.write(response, phone)
        return response
    return render(request, "table/join.html", {"link": link, "form": form})
