"""A night's ranking and a season's standings as they travel (issue 22.3): the Share
button's text and the Open Graph tags (scoring/common/share.py), and the preview image
(scoring/infra/preview.py), drawn from the same rows as the page."""

import hashlib
from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import ngettext

from ...common.share import Ranked, Shared, night_share, points_said, season_share
from ...infra.preview import Preview, ranking_rows
from ..league.pages import StandingRow, counted_games
from ..models import Club, Night, Season


def ranked(rows: Sequence[StandingRow]) -> list[Ranked]:
    return [Ranked(row.rank, row.player, row.counts["league_points"]) for row in rows]


def _subtitle(club: Club, rows: Sequence[StandingRow], place: str = "") -> str:
    games = counted_games(rows)
    counted = ngettext("%(counter)s game", "%(counter)s games", games) % {"counter": games}
    return " · ".join(part for part in (club.name, place, counted) if part)


def _image(shared: Shared, subtitle: str, rows: Sequence[StandingRow]) -> Preview:
    lines = [(row.rank, row.player, points_said(row.counts["league_points"])) for row in rows]
    return Preview(shared.title, subtitle, ranking_rows(lines))


def night_shared(
    request: HttpRequest, club: Club, night: Night, rows: Sequence[StandingRow]
) -> tuple[Shared, Preview]:
    url = request.build_absolute_uri(reverse("night_ranking", args=[club.slug, night.pk]))
    shared = night_share(night.date, ranked(rows), url)
    return shared, _image(shared, _subtitle(club, rows, night.place), rows)


def season_shared(
    request: HttpRequest, club: Club, season: Season, rows: Sequence[StandingRow]
) -> tuple[Shared, Preview]:
    url = request.build_absolute_uri(reverse("season", args=[club.slug, season.slug]))
    shared = season_share(season.name, ranked(rows), url)
    return shared, _image(shared, _subtitle(club, rows), rows)


def share_context(
    request: HttpRequest, club: Club, shared: Shared, preview: Preview, image: str
) -> dict[str, Any]:
    """The page's Share button, and for a club whose standings are public (a chat's robot
    may see them), its Open Graph tags: the preview's address says the version it shows (a
    digest of what it draws), so that a chat keeping images by address asks again."""
    version = hashlib.blake2b(repr(preview).encode(), digest_size=8).hexdigest()
    return {
        "shared": shared,
        "preview_url": request.build_absolute_uri(f"{image}?v={version}"),
        "share_meta": club.public,
    }
