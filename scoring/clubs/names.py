"""The one rule for the name a club's player is shown by, to whom.

A member may ask to be shown to the public by his first name and initial (``Amina B.``,
:func:`~scoring.engine.names.first_name_and_initial`). The public is whoever is not of the
club: someone signed out, an account that is no member of it (or only a guest), and every
export anyone may download (standings.csv, records.jsonl). The club's members, signed in,
see full names everywhere.

Two public names may then be the same (``Amina Belhaj`` and ``Amina Bouzid``, or a player
whose full name is ``Amina B.``): each short name that meets a name already shown gets the
smallest number that sets it apart, ``Amina B. (2)``, in the order the players joined the
club. A full name is never changed, so that only those who asked are shown otherwise.
"""

from collections.abc import Iterable
from typing import NamedTuple

from ..engine.names import first_name_and_initial, name_key
from .models import Member


class Named(NamedTuple):
    """What the rule reads of a member."""

    pk: int
    key: str
    name: str
    short_in_public: bool


NAMED_COLUMNS = Named._fields
"""The member columns to read (``values_list(*NAMED_COLUMNS)``)."""


def sees_full_names(member: Member | None) -> bool:
    """Whether a request whose member in the club is ``member`` is of the club."""
    return member is not None and member.role != Member.Role.GUEST


def shown_names(members: Iterable[Named], *, public: bool) -> dict[str, str]:
    """Each of the club's members (all of them: a clash is with any other) by key: the name
    shown, to the public if ``public``, else to the club's members."""
    every = sorted(members, key=lambda member: member.pk)
    if not public:
        return {member.key: member.name for member in every}
    taken = {member.key for member in every if not member.short_in_public}
    shown = {member.key: member.name for member in every if not member.short_in_public}
    for member in every:
        if not member.short_in_public:
            continue
        base = name = first_name_and_initial(member.name)
        number = 2
        while name_key(name) in taken:
            name, number = f"{base} ({number})", number + 1
        taken.add(name_key(name))
        shown[member.key] = name
    return shown


def club_names(club_id: int, *, public: bool) -> dict[str, str]:
    """The club's shown names by key, in one query."""
    rows = Member.objects.filter(club=club_id).values_list(*NAMED_COLUMNS)
    return shown_names((Named(*row) for row in rows), public=public)
