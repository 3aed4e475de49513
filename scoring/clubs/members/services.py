"""Who is in the club, each write one transaction: a player added by an admin, a role set,
an account joining through the invite link or claiming a player, an admin's word on a
claim, and the invite link renewed."""

from django.db import transaction

from ...common.rights import NOBODY, Actor
from .. import history
from ..models import Club, Member
from ..services import lock_club, new_members


@transaction.atomic
def add_member(
    *, club: Club, name: str, role: str = Member.Role.MEMBER, by: Actor = NOBODY
) -> Member:
    """A player of the club who may never touch the app: a name, and a role."""
    member = new_members(club, [name], role=role)[0]
    history.log(club, by, "member_added", member, after={"role": member.role})
    return member


@transaction.atomic
def set_role(*, club: Club, member_id: int, role: str, by: Actor = NOBODY) -> Member:
    """A member's role. The club keeps at least one admin with an account."""
    club = lock_club(club)
    member = Member.objects.select_for_update().get(club=club, pk=member_id)
    if member.role == Member.Role.ADMIN and role != Member.Role.ADMIN:
        admins = Member.objects.filter(club=club, role=Member.Role.ADMIN, user__isnull=False)
        if not admins.exclude(pk=member.pk).exists():
            return member
    if member.role == role:
        return member
    was, member.role = member.role, role
    member.save(update_fields=["role"])
    history.log(club, by, "role_changed", member, before={"role": was}, after={"role": role})
    return member


ADMITTED_AT_ONCE = frozenset({Member.Role.MEMBER, Member.Role.GUEST})
"""The players an invite link that admits at once lets an account be: one the club made a
scorer or an admin waits for an admin's word, whoever has the link."""


@transaction.atomic
def join_club(*, club: Club, user_id: int, member_id: int | None, name: str) -> Member:
    """An account comes through the invite link, as a player the club already has (a claim on
    his name and his games) or under a new name. If the link admits at once he is in, as a
    member; else, or for a player who is a scorer or an admin of the club, the claim waits
    for an admin. A guest who joins becomes a member. An account that joined, or claims a
    player, already (the form sent twice, at once or not) gets that membership or claim."""
    club = lock_club(club)
    existing = Member.objects.filter(club=club, user_id=user_id).first()
    if existing is None:
        existing = Member.objects.filter(club=club, claimed_by_id=user_id).first()
    if existing is not None:
        return existing
    if member_id is not None:
        member = Member.objects.select_for_update().get(
            club=club, pk=member_id, user=None, claimed_by=None
        )
    else:
        member = new_members(club, [name])[0]
    if club.invite_admits and member.role in ADMITTED_AT_ONCE:
        member.user_id, member.claimed_by_id = user_id, None
        member.role = Member.Role.MEMBER
        action = "member_joined"
    else:
        member.claimed_by_id = user_id
        action = "claim_made"
    member.save()
    history.log(club, Actor(user_id=user_id), action, member, after={"new": member_id is None})
    return member


@transaction.atomic
def confirm_claim(*, club: Club, member_id: int, accept: bool, by: Actor = NOBODY) -> Member:
    """An admin says whether the account that claims this player is him: accepted, it is
    the player, in the role the club gave him (a guest becomes a member)."""
    club = lock_club(club)
    member = (
        Member.objects.select_for_update(of=("self",))
        .select_related("claimed_by")
        .get(club=club, pk=member_id)
    )
    if member.claimed_by is None:
        return member
    account = member.claimed_by.get_username()
    accepted = accept and not Member.objects.filter(club=club, user=member.claimed_by).exists()
    if accepted:
        member.user_id = member.claimed_by_id
        if member.role == Member.Role.GUEST:
            member.role = Member.Role.MEMBER
    member.claimed_by_id = None
    member.save()
    action = "claim_accepted" if accepted else "claim_refused"
    history.log(club, by, action, member, after={"account": account})
    return member


@transaction.atomic
def new_invite(*, club: Club, by: Actor = NOBODY) -> Club:
    """A new invite link; the old one stops working."""
    club.invite_secret = Club._meta.get_field("invite_secret").get_default()
    club.save(update_fields=["invite_secret"])
    history.log(club, by, "invite_renewed", "")
    return club
