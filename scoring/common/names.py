"""Names as people type them, compared alike everywhere.

The rule is the engine's (``scoring/engine/names.py``), so that a name typed in a form, read
from a game record or from a club's records is kept the same way: NFC, no control or
invisible character, and never two names of one game or one club that look alike; and every
list of names is in one order, the Unicode Collation Algorithm's (``sorted_by_name``), never
the database's (which orders by code point, or by its own collation).
"""

from ..engine.names import (
    check_name,
    check_text,
    collation_key,
    look_alike,
    name_key,
    skeleton,
    sorted_by_name,
)

__all__ = [
    "check_name",
    "check_text",
    "collation_key",
    "look_alike",
    "name_key",
    "skeleton",
    "sorted_by_name",
]
