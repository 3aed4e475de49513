"""A link as a QR code, for a phone to open from another's screen: a game's watch and scorer
links, a club's invite, a night's tables."""

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_code(url: str, title: str) -> SafeString:
    """``url`` as a QR code, an inline SVG that a phone's camera reads from the screen."""
    svg = segno.make(url, error="m").svg_inline(scale=4, title=title, border=2, omitsize=True)
    return mark_safe(svg)  # segno writes the SVG; the title is escaped by it
