"""The preview image of a shared result (issue 22.3): a 1200x630 PNG, as Open Graph and
Twitter cards show it, drawn on the server with Pillow from the same lines as the page (a
ranking's top lines, a game's totals and its winner), in the page's language: Arabic is
shaped and laid right to left by libraqm (Pillow's RAQM layout), in DejaVu Sans, which the
PDFs use too.

An image is drawn once for each state of what it shows: its key (``pagecache.page_key``) is
made of its lines, the language and the deploy, so a new result is a new key, and the old one
is never asked again. Its ETag is that key: a phone or a chat's robot asking again with
``If-None-Match`` gets a 304."""

import hashlib
import io
import logging
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

from django.core.cache import cache as django_cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_bidi
from PIL import Image, ImageColor, ImageDraw, ImageFont
from redis.exceptions import RedisError

from .pagecache import CACHE_CONTROL, TIMEOUT, VARY, not_modified, page_key, unchanged

logger = logging.getLogger(__name__)

SIZE = (1200, 630)
"""Open Graph's and Twitter's large card."""
ROWS = 5
"""The lines of a ranking shown at most."""
FONTS = Path(__file__).resolve().parents[1] / "fonts"
BACKGROUND = "#0f5132"
"""The site's theme colour (base.html's theme-color)."""
INK = 255
"""White, the ink's full coverage (the image is drawn on one channel: draw_preview)."""
MUTED = 200
"""A light green, between the background and white."""
MARGIN = 72


class Preview(NamedTuple):
    """What an image shows: a title, a line under it, and rows of a name and its figure."""

    title: str
    subtitle: str
    rows: tuple[tuple[str, str], ...]


@cache
def _font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.RAQM)


def _fitted(text: str, font: ImageFont.FreeTypeFont, width: int, direction: str) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width``."""
    if font.getlength(text, direction=direction) <= width:
        return text
    while text and font.getlength(f"{text}…", direction=direction) > width:
        text = text[:-1]
    return f"{text.rstrip()}…"


def _palette() -> list[int]:
    """From the background (0) to white (255): the ink's coverage, as colours."""
    low = ImageColor.getrgb(BACKGROUND)
    return [round(part + (255 - part) * level / 255) for level in range(256) for part in low[:3]]


def draw_preview(preview: Preview, *, rtl: bool = False) -> bytes:
    """The PNG of ``preview``; ``rtl`` lays it from the right (Arabic). Drawn as the ink's
    coverage on one channel, coloured by a palette from the background to white: a PNG of
    256 colours, a third of a true-colour one's bytes, in a tenth of the time."""
    image = Image.new("L", SIZE, 0)
    pen = ImageDraw.Draw(image)
    direction = "rtl" if rtl else "ltr"
    width = SIZE[0] - 2 * MARGIN
    start, end = (SIZE[0] - MARGIN, MARGIN) if rtl else (MARGIN, SIZE[0] - MARGIN)
    start_anchor, end_anchor = ("rs", "ls") if rtl else ("ls", "rs")

    def text(
        x: int, y: int, said: str, font: ImageFont.FreeTypeFont, fill: int, anchor: str
    ) -> None:
        # A total alone is a number, read left to right in Arabic too: -3, never 3-.
        way = "ltr" if said.removeprefix("-").isdigit() else direction
        pen.text((x, y), said, font=font, fill=fill, anchor=anchor, direction=way)

    title = _font(64, bold=True)
    text(start, 130, _fitted(preview.title, title, width, direction), title, INK, start_anchor)
    subtitle = _font(36)
    said = _fitted(preview.subtitle, subtitle, width, direction)
    text(start, 190, said, subtitle, MUTED, start_anchor)
    row_font = _font(44)
    first = _font(44, bold=True)
    for index, (name, figure) in enumerate(preview.rows[:ROWS]):
        y = 272 + index * 62
        font = first if index == 0 else row_font
        figure_width = int(font.getlength(figure, direction=direction)) + 40
        fitted = _fitted(name, font, width - figure_width, direction)
        text(start, y, fitted, font, INK, start_anchor)
        text(end, y, figure, font, INK, end_anchor)
    brand = _font(30, bold=True)
    text(start, SIZE[1] - 40, "Boulmous", brand, MUTED, start_anchor)
    coloured = image.convert("P")
    coloured.putpalette(_palette())
    out = io.BytesIO()
    coloured.save(out, format="PNG")
    return out.getvalue()


def cached_bytes(key: str, draw: Callable[[], bytes]) -> bytes:
    """The bytes kept under ``key`` in the shared cache, else drawn and kept. A shared cache
    that does not answer (Redis down) costs the drawing, never the image."""
    try:
        kept = django_cache.get(key)
    except RedisError as error:
        logger.error("the page cache does not answer (%s): image drawn", error)
        return draw()
    if isinstance(kept, bytes):
        return kept
    drawn = draw()
    try:
        django_cache.set(key, drawn, TIMEOUT)
    except RedisError as error:
        logger.error("the page cache does not answer (%s): image not kept", error)
    return drawn


def preview_response(request: HttpRequest, kind: str, preview: Preview) -> HttpResponse:
    """The PNG of ``preview`` (a 304 when the phone has it), cached by what it shows."""
    rtl = get_language_bidi()
    key = page_key("preview", kind, rtl, preview)
    tag = '"' + hashlib.blake2b(key.encode(), digest_size=12).hexdigest() + '"'
    if unchanged(request, tag):
        return not_modified(tag)
    response = HttpResponse(
        cached_bytes(key, lambda: draw_preview(preview, rtl=rtl)), content_type="image/png"
    )
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, VARY)
    return response


def ranking_rows(lines: Sequence[tuple[int, str, str]]) -> tuple[tuple[str, str], ...]:
    """A ranking's top lines as the image shows them: ``1. Karim`` and its points."""
    return tuple((f"{rank}. {name}", figure) for rank, name, figure in lines[:ROWS])
