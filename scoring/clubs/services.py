"""Every write of the club itself, each one transaction, as the table's writes are: the club
and its settings, its seasons, its games; and what the writes of its members, nights and
imports share: the club's row locked, new players, the names as the club writes them."""

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction

from ..common.names import look_alike, name_key
from ..common.rights import NOBODY, Actor
from ..engine import Rules
from ..engine.trust import RATING_SETTINGS, RatingRules
from ..table.face import GameState, create_game, rules_columns
from . import history
from .league.ratings import rerate_from
from .models import Club, ClubGame, Member, Season


class NameTaken(Exception):
    """Another player of the club already goes by this name."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)


class NameLooksLike(Exception):
    """A new player's name looks like another player's of the club (or like another new
    one): their confusable skeletons are the same (:func:`~scoring.common.names.look_alike`),
    ``Amina`` and ``Amina`` spelt with a Cyrillic A. ``line`` is the record it comes from,
    in an import."""

    def __init__(self, name: str, like: str, line: int | None = None) -> None:
        self.name, self.like, self.line = name, like, line
        super().__init__(name, like, line)


class SeasonOverlaps(Exception):
    """The days given overlap those of the season ``other``: a game would count in both."""

    def __init__(self, other: Season) -> None:
        self.other = other
        super().__init__(other.name)


def new_member(club: Club, name: str, **fields: Any) -> Member:
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, name=name, key=name_key(name), **fields)
    except IntegrityError:
        raise NameTaken(name) from None


def new_members(club: Club, names: Sequence[str], **fields: Any) -> list[Member]:
    """New players of the club, none looking like a player it has or like another of them
    (:class:`NameLooksLike`); a name it has already is :class:`NameTaken`.

    The club is locked first, so that two players who look alike cannot join it at once."""
    lock_club(club)
    alike = look_alike(names, Member.objects.filter(club=club).values_list("name", flat=True))
    if alike is not None:
        raise NameLooksLike(*alike)
    return [new_member(club, name, **fields) for name in names]


@transaction.atomic
def create_club(
    *,
    name: str,
    slug: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
    admin_user_id: int,
    admin_name: str,
) -> Club:
    """A new club, whose first admin is the account that creates it, under ``admin_name``."""
    club = Club.objects.create(
        name=name,
        slug=slug,
        time_zone=time_zone,
        **rules_columns(rules),
        points=list(points),
        public=public,
        invite_admits=invite_admits,
    )
    new_member(club, admin_name, role=Member.Role.ADMIN, user_id=admin_user_id)
    history.log(club, Actor(user_id=admin_user_id), "club_created", name)
    return club


@transaction.atomic
def update_club(
    *,
    club_id: int,
    name: str,
    time_zone: str,
    rules: Rules,
    points: Sequence[int],
    public: bool,
    invite_admits: bool,
    embed_origins: Sequence[str] | None = None,
    colour: str | None = None,
    rating_rules: RatingRules | None = None,
    by: Actor = NOBODY,
) -> Club:
    """The club's settings; games already played keep the rules they were played with. What
    changed goes to the club's history, before and after. The standings follow at once:
    they add up the results by the club's league points as they are, and a game counts in
    the season of its day in the club's time zone as it is."""
    club = Club.objects.select_for_update().get(pk=club_id)
    before = settings_of(club)
    club.name, club.time_zone, club.public, club.invite_admits = (
        name,
        time_zone,
        public,
        invite_admits,
    )
    for name, value in rules_columns(rules).items():
        setattr(club, name, value)
    club.points = list(points)
    if embed_origins is not None:  # the origins checked (clubs/embed.py), else as they are
        club.embed_origins = list(embed_origins)
    if colour is not None:
        club.colour = colour
    if rating_rules is not None:
        for name, value in rating_rules.to_data().items():
            setattr(club, name, value)
    club.save()
    # The ratings grow with the days between games in the club's zone: a change of either
    # rates every counted game again, as a full rebuild would (league.md).
    growth_was = before["idle_rate"] if before["idle_growth"] else None
    days_moved = club.idle_growth and before["time_zone"] != club.time_zone
    if club.rating_rules.growth != growth_was or days_moved:
        rerate_from(club, 0)
    was, now = history.changed(before, settings_of(club))
    if was:
        history.log(club, by, "club_edited", club.name, before=was, after=now)
    return club


SETTINGS = (
    "name",
    "time_zone",
    *rules_columns(Rules()),
    "points",
    "public",
    "invite_admits",
    "embed_origins",
    "colour",
    *(setting.name for setting in RATING_SETTINGS),
)
"""The club's settings, as its history names them."""


def settings_of(club: Club) -> dict[str, Any]:
    """The club's settings as its history keeps them."""
    values = {name: getattr(club, name) for name in SETTINGS}
    values["stake"] = Decimal(values["stake"])  # 0 until read back from the database
    return {name: history.as_json(value) for name, value in values.items()}


def lock_club(club: Club) -> Club:
    """The club's row, locked: its members' roles and accounts change one write at a time
    (two admins demoting each other at once leave one admin; one account joining twice at
    once joins once). Locked first, before any member, by every such write."""
    return Club.objects.select_for_update().get(pk=club.pk)


def only_admin(club: Club, member: Member) -> bool:
    """Whether the member is the club's only admin with an account: the club keeps one."""
    if member.role != Member.Role.ADMIN or member.user_id is None:
        return False
    others = Member.objects.filter(club=club, role=Member.Role.ADMIN, user__isnull=False)
    return not others.exclude(pk=member.pk).exists()


@transaction.atomic
def create_season(
    *,
    club: Club,
    name: str,
    slug: str,
    first_day: date,
    last_day: date,
    points: Sequence[int],
    handicap_cup: bool = False,
    by: Actor = NOBODY,
) -> Season:
    """A season; its days may not overlap another's, so that a game counts in one at most."""
    Club.objects.select_for_update().get(pk=club.pk)
    other = club.seasons.filter(first_day__lte=last_day, last_day__gte=first_day).first()
    if other is not None:
        raise SeasonOverlaps(other)
    season = Season.objects.create(
        club=club,
        name=name,
        slug=slug,
        first_day=first_day,
        last_day=last_day,
        points=list(points),
        handicap_cup=handicap_cup,
    )
    days = {"first_day": first_day.isoformat(), "last_day": last_day.isoformat()}
    made = {**days, "points": list(points), **({"handicap_cup": True} if handicap_cup else {})}
    history.log(club, by, "season_created", name, after=made)
    return season


def names_as_club_writes(club: Club, names: Sequence[str], role: str) -> list[str]:
    """The names as the club writes them; the names it does not know yet join it in
    ``role``, unless one looks like another player's (:class:`NameLooksLike`)."""
    known = {
        member.key: member.name
        for member in Member.objects.filter(club=club, key__in=[name_key(n) for n in names])
    }
    new: dict[str, str] = {}
    for name in names:
        if name_key(name) not in known:
            new.setdefault(name_key(name), name)
    if new:
        for member in new_members(club, list(new.values()), role=role):
            known[member.key] = member.name
    return [known[name_key(name)] for name in names]


@transaction.atomic
def start_club_game(
    *,
    club: Club,
    names: Sequence[str],
    first_dealer: int | None,
    owner_id: int | None,
    by: Actor = NOBODY,
    rules: Rules | None = None,
) -> GameState:
    """A club game with the club's rules (or those given: an event's), members by their
    names, anyone else as a guest."""
    state = create_game(
        names=names_as_club_writes(club, names, Member.Role.GUEST),
        rules=club.rules if rules is None else rules,
        first_dealer=first_dealer,
        place=club.name,
        owner_id=owner_id,
        club_label=club.name,
        by=by,
    )
    ClubGame.objects.get_or_create(game=state.game, defaults={"club": club})
    return state
