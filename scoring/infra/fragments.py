"""``{% kept part part ... %}...{% endkept %}``: a piece of a page drawn once per process for
each value of its parts, in the current language and time zone (issue 21). For a piece that
depends on nothing but them, and is drawn again and again as a game goes on: a row of the
score sheet, the same from one hand to the next while the row itself stays the same; a line
of the history; the hand form's fields.

Kept in this process's memory, not in the shared cache: a page asks for dozens of pieces,
which one round trip each to Redis would cost more than drawing them. The key is the
parts themselves (a frozen dataclass is compared by all its fields), else their ``repr``,
so a piece is never stale: a change of anything it shows is another key. At most
:data:`LIMIT` pieces, the least recently used going first. A part that is
:data:`NOT_KEPT` (a form sent, whose values and errors are its own) has the piece drawn, and
not kept.
"""

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

LIMIT = 20_000
"""Pieces kept per process: a row is about 1 KB, so about 20 MB at most."""

NOT_KEPT = object()
"""A part that says the piece is not to be kept."""

register = template.Library()


class Kept:
    """The pieces drawn, by key, least recently used first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pieces: OrderedDict[Hashable, SafeString] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> SafeString | None:
        with self.lock:
            piece = self.pieces.get(key)
            if piece is not None:
                self.pieces.move_to_end(key)
            return piece

    def put(self, key: Hashable, piece: SafeString) -> None:
        with self.lock:
            self.pieces[key] = piece
            while len(self.pieces) > self.limit:
                self.pieces.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.pieces.clear()


KEPT = Kept(LIMIT)


class KeptNode(template.Node):
    def __init__(self, nodelist: NodeList, parts: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.parts = parts

    def render(self, context: Context) -> SafeString:
        parts = [part.resolve(context) for part in self.parts]
        if any(part is NOT_KEPT for part in parts):
            return mark_safe(self.nodelist.render(context))  # drawn by the template: escaped
        values = (get_language(), timezone.get_current_timezone_name(), *parts)
        key: Hashable
        try:
            hash(values)  # the parts themselves, compared on a lookup: exact, and quick
            key = values
        except TypeError:  # a part that cannot be hashed: its repr says it
            key = hashlib.blake2b(repr(values).encode(), digest_size=16).digest()
        piece = KEPT.get(key)
        if piece is None:
            piece = mark_safe(self.nodelist.render(context))  # drawn by the template: escaped
            KEPT.put(key, piece)
        return piece


@register.tag
def kept(parser: Parser, token: Token) -> KeptNode:
    """``{% kept "sheet-row" state.game.public_id row editable forloop.last %}``: the parts
    are everything the piece shows, but the language and the time zone."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("kept: say what the piece depends on")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist, [parser.compile_filter(bit) for bit in bits])
