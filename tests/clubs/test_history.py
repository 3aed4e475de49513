"""The club's history: each line says what changed, about whom, when in the club's zone,
and by which account; only the club's admins see it."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from scoring.clubs import history
from scoring.clubs.models import ClubChange, Member
from scoring.common.rights import NOBODY, Actor
from tests.clubs.test_league_pages import new_club


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_user("amina", password="x")


def test_log_unknown_action_refused(admin):
    club = new_club(admin)
    with pytest.raises(ValueError, match="'renamed': declare it"):
        history.log(club, NOBODY, "renamed", "Omar")
    assert ClubChange.objects.count() == 0


def test_history_page_lists_changes_newest_first_in_club_zone(admin, client):
    club = new_club(admin)
    first = history.log(club, Actor(user_id=admin.pk), "member_renamed", "Omarr")
    second = history.log(club, NOBODY, "season_edited", "2020")
    ClubChange.objects.filter(pk=first.pk).update(at=datetime(2020, 12, 31, 23, 30, tzinfo=UTC))
    ClubChange.objects.filter(pk=second.pk).update(at=datetime(2021, 1, 2, 8, 0, tzinfo=UTC))
    client.force_login(admin)

    html = client.get(f"/clubs/{club.slug}/history").content.decode()

    assert html.index("season changed") < html.index("player renamed")
    # 23:30 UTC on 31 December is 00:30 on 1 January in Paris.
    assert 'datetime="2021-01-01T00:30:00+01:00"' in html
    assert "by <bdi>amina</bdi>" in html
    assert "by no account" in html


def test_history_page_refused_to_members(admin, client):
    club = new_club(admin)
    user = get_user_model().objects.create_user("bilal", password="x")
    Member.objects.create(club=club, name="Bilal", key="bilal", user=user)
    client.force_login(user)

    assert client.get(f"/clubs/{club.slug}/history").status_code == 403
