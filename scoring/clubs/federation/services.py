"""A federation's writes, each one transaction: a federation made, set or deleted, an admin
added or removed, a club invited, the invitation accepted or declined by the club's admin,
a club leaving. Each change of a club's place in a federation is a line of that club's
history, naming who made it; a federation's own changes (its settings, its admins, its
deletion) are no club's."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ...common.rights import NOBODY, Actor
from .. import history
from ..models import Club, Federation, FederationClub


class FederationRefused(Exception):
    """A change the federation's state does not allow now; ``why`` says it, in English."""

    def __init__(self, why: str) -> None:
        self.why = why
        super().__init__(why)


@transaction.atomic
def create_federation(*, name: str, slug: str, public: bool, admin_user_id: int) -> Federation:
    """A new federation, whose first admin is the account that makes it."""
    federation = Federation.objects.create(name=name, slug=slug, public=public)
    federation.admins.add(admin_user_id)
    return federation


@transaction.atomic
def update_federation(*, federation_id: int, name: str, public: bool) -> Federation:
    federation = Federation.objects.select_for_update().get(pk=federation_id)
    federation.name = name
    federation.public = public
    federation.save(update_fields=["name", "public"])
    return federation


@transaction.atomic
def add_admin(*, federation_id: int, user_id: int) -> Federation:
    """Another account made an admin of the federation; refused if it is one already."""
    federation = Federation.objects.select_for_update().get(pk=federation_id)
    get_user_model().objects.get(pk=user_id)  # deleted meanwhile: DoesNotExist
    if federation.admins.filter(pk=user_id).exists():
        raise FederationRefused("already an admin")
    federation.admins.add(user_id)
    return federation


@transaction.atomic
def remove_admin(*, federation_id: int, user_id: int) -> Federation:
    """An account no longer an admin of the federation; refused if it is none (removed
    already: sent twice, nothing more changes) or the last one (a federation always has an
    admin)."""
    federation = Federation.objects.select_for_update().get(pk=federation_id)
    admins = set(federation.admins.values_list("pk", flat=True))
    if user_id not in admins:
        raise FederationRefused("not an admin")
    if admins == {user_id}:
        raise FederationRefused("last admin")
    federation.admins.remove(user_id)
    return federation


@transaction.atomic
def delete_federation(*, federation_id: int) -> str:
    """The federation deleted, with its invitations waiting and the rows of the clubs that
    left it; refused while a club is a member (it leaves first, by its admin). Its name is
    returned; the member clubs' history keeps their lines."""
    federation = Federation.objects.select_for_update().get(pk=federation_id)
    rows = list(FederationClub.objects.select_for_update().filter(federation=federation))
    if any(row.joined_at is not None and row.left_at is None for row in rows):
        raise FederationRefused("has clubs")
    name = federation.name
    federation.delete()
    return name


def _row(federation: Federation, club: Club) -> FederationClub | None:
    """The pair's row, locked, after the club's row (every write of a club locks it first)."""
    Club.objects.select_for_update().get(pk=club.pk)
    return (
        FederationClub.objects.select_for_update().filter(federation=federation, club=club).first()
    )


@transaction.atomic
def invite_club(*, federation: Federation, club: Club, by: Actor = NOBODY) -> FederationClub:
    """The club invited to the federation (again, if it left or declined); refused if it is
    invited or a member already."""
    row = _row(federation, club)
    now = timezone.now()
    if row is None:
        row = FederationClub.objects.create(federation=federation, club=club, invited_at=now)
    elif row.left_at is None:
        raise FederationRefused(
            "already a member" if row.joined_at is not None else "already invited"
        )
    else:
        row.invited_at, row.joined_at, row.left_at = now, None, None
        row.save(update_fields=["invited_at", "joined_at", "left_at"])
    history.log(
        club, by, "federation_invited", federation.name, after={"federation": federation.slug}
    )
    return row


@transaction.atomic
def answer_invitation(
    *, club: Club, federation: Federation, accept: bool, by: Actor = NOBODY
) -> FederationClub:
    """The club's admin accepts the invitation (the club joins) or declines it; refused if
    the club is not invited (answered already, or never asked)."""
    row = _row(federation, club)
    if row is None or row.joined_at is not None or row.left_at is not None:
        raise FederationRefused("not invited")
    now = timezone.now()
    if accept:
        row.joined_at = now
    else:
        row.left_at = now
    row.save(update_fields=["joined_at", "left_at"])
    action = "federation_joined" if accept else "federation_declined"
    history.log(club, by, action, federation.name, after={"federation": federation.slug})
    return row


@transaction.atomic
def leave_federation(*, club: Club, federation: Federation, by: Actor = NOBODY) -> FederationClub:
    """The club leaves the federation: its nights no longer count in its ranking; refused
    if it is no member."""
    row = _row(federation, club)
    if row is None or row.joined_at is None or row.left_at is not None:
        raise FederationRefused("not a member")
    row.left_at = timezone.now()
    row.save(update_fields=["left_at"])
    history.log(
        club, by, "federation_left", federation.name, before={"federation": federation.slug}
    )
    return row
