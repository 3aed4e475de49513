"""Names as people type them, compared alike everywhere."""

import unicodedata


def name_key(name: str) -> str:
    """A name as compared: NFC, then case-folded, in Python for every database alike
    (``lower()`` in SQL treats ``i`` and ``İ`` otherwise)."""
    return unicodedata.normalize("NFC", name).casefold()
