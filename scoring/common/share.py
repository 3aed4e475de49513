"""Results that travel (issue 22.3): the short text a Share button sends, and what a link
pasted in a chat shows (Open Graph and Twitter card tags, a preview image: infra/preview.py),
for a game, a night's ranking and a season's standings, in the page's language.

One place says them all: the pages' Share button and meta tags, and the preview images, read
what these functions return. The figures come from the contexts (table, clubs), as lines
already ranked and named as the viewer sees them."""

from collections.abc import Sequence
from datetime import date, datetime
from typing import NamedTuple

from django.utils.translation import gettext, ngettext

from .words import isolate, say_day

TOP = 3
"""How many lines of a ranking the text says (the image shows :data:`preview.ROWS`)."""


class Ranked(NamedTuple):
    """A line of a ranking: its place, the player's name as shown, his league points."""

    rank: int
    name: str
    points: int


class Shared(NamedTuple):
    """What a page shares: its title (og:title), the text (og:description, the Share
    button's), and the address it is at (absolute)."""

    title: str
    text: str
    url: str

    @property
    def message(self) -> str:
        """The text with its link, as copied where the phone cannot share."""
        return f"{self.text} {self.url}"


def _joined(parts: Sequence[str], *, more: bool = False) -> str:
    separator = gettext(", ")  # Arabic: "، "
    return separator.join([*parts, "…"] if more else parts)


def points_said(points: int) -> str:
    """League points: ``5 pts``."""
    return ngettext("%(points)s pt", "%(points)s pts", points) % {"points": points}


def _ranking(lines: Sequence[Ranked]) -> str:
    said = [f"{line.rank}. {isolate(line.name)} {points_said(line.points)}" for line in lines[:TOP]]
    return _joined(said, more=len(lines) > TOP)


def _totals(names: Sequence[str], totals: Sequence[int]) -> list[tuple[str, int]]:
    """The players by their totals, highest first (seat order among equals)."""
    return sorted(zip(names, totals, strict=True), key=lambda one: -one[1])


def game_title(day: date | datetime) -> str:
    return gettext("Game of %(date)s") % {"date": say_day(day)}


def game_share(
    day: date | datetime,
    names: Sequence[str],
    totals: Sequence[int],
    winner: int | None,
    url: str,
) -> Shared:
    """``Game of Dec 4, 2026 — Karim wins: Karim 23, Leila 15, Bilal 9, Chafik 4``."""
    title = game_title(day)
    said = _joined([f"{isolate(name)} {total}" for name, total in _totals(names, totals)])
    if winner is None:
        text = gettext("%(title)s — %(totals)s") % {"title": title, "totals": said}
    else:
        text = gettext("%(title)s — %(name)s wins: %(totals)s") % {
            "title": title,
            "name": isolate(names[winner]),
            "totals": said,
        }
    return Shared(title, text, url)


def night_title(day: date | datetime) -> str:
    return gettext("Night of %(date)s") % {"date": say_day(day)}


def night_share(day: date | datetime, lines: Sequence[Ranked], url: str) -> Shared:
    """``Night of Dec 4, 2026 — 1. Karim 5 pts, 2. Leila 5 pts, 3. Bilal 3 pts, …``."""
    title = night_title(day)
    return Shared(title, f"{title} — {_ranking(lines)}" if lines else title, url)


def season_title(name: str) -> str:
    return gettext("Season %(name)s") % {"name": isolate(name)}


def season_share(name: str, lines: Sequence[Ranked], url: str) -> Shared:
    """``Season Autumn 2026 — 1. Karim 12 pts, 2. Leila 9 pts, 3. Bilal 7 pts, …``."""
    title = season_title(name)
    return Shared(title, f"{title} — {_ranking(lines)}" if lines else title, url)
