"""What the API's tests make: the club Sfax of four members, its admin an account."""

from django.contrib.auth.models import User

from scoring.clubs import services as club_services
from scoring.clubs.members import services as member_services
from scoring.engine import Rules
from tests.factories import NAMES


def make_club(public=False, slug="sfax"):
    """The club Sfax (``slug``), Amina its admin (account admin-<slug>), and its admin."""
    admin = User.objects.create_user(f"admin-{slug}", password="x")
    club = club_services.create_club(
        name="Sfax",
        slug=slug,
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=public,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name=NAMES[0],
    )
    for name in NAMES[1:]:
        member_services.add_member(club=club, name=name)
    return club, admin
