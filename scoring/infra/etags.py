"""An answer's version as its ETag, and whether a request's ``If-None-Match`` names it: a
game's live view, a night's tables, a club's calendar (each gives its own version)."""


def etag(version: str) -> str:
    """``version`` as an ETag: a game's (the live view), a night's (its tables), a calendar's."""
    return f'"{version}"'


def unchanged(if_none_match: str, version: str) -> bool:
    """Whether ``If-None-Match`` names ``version`` (weak or strong: GZip weakens the ETag
    of the 200 it compresses)."""
    tag = etag(version)
    return any(sent.strip().removeprefix("W/") == tag for sent in if_none_match.split(",") if sent)
