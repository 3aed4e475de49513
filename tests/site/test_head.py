"""HEAD is answered wherever GET is (issue 18): every address of the site, found by walking
its URL resolver, answers a HEAD with the status and type a GET gets, and no body."""

from collections.abc import Callable
from datetime import date
from typing import NamedTuple

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.clubs import services as club_services
from scoring.clubs.models import Member
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game
from tests.conftest import ScorerClient
from tests.factories import NAMES


def url_names(patterns=None, namespace=""):
    """The names of every URL pattern the site has, included ones too."""
    names = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names += url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.append(namespace + pattern.name)
    return sorted(set(names))


ADDRESSES = url_names()
POST_ONLY = {
    "abandon",
    "add_hand",
    "api:hand",
    "api:record_hand",
    "api_token_revoke",
    "club_new_invite",
    "email_change",
    "email_resend",
    "logout",
    "member_claim",
    "member_public_name",
    "member_return",
    "member_role",
    "new_link",
    "night_checkin",
    "night_draw",
    "night_reopen",
    "redo_hand",
    "rematch",
    "resume",
    "revoke_link",
    "undo_hand",
}
"""The addresses that take a POST alone: a GET gets a 405 there, and so does a HEAD."""


class Site(NamedTuple):
    url: Callable[[str], str]
    admin: User
    game: Game


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """A club with a season, a night whose first round is drawn, and a club game of one
    hand, shared; the arguments of every address, by name; the club's admin and the game.
    Built once for the module's hundred tests, in a transaction rolled back after them
    (each test's own transaction is a savepoint inside it)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_site()
        transaction.set_rollback(True)


@pytest.fixture
def client(db, site):
    """The game's phone, which scores and shares it, logged in as the club's admin."""
    phone = ScorerClient([site.game.public_id])
    phone.force_login(site.admin)
    return phone


def build_site():
    admin = User.objects.create(username="amina")
    club = club_services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name="Amina",
    )
    season = club_services.create_season(
        club=club,
        name="Spring",
        slug="spring",
        first_day=date(2025, 3, 1),
        last_day=date(2025, 5, 31),
        points=(3, 2, 1, 0),
    )
    for name in NAMES[1:]:
        club_services.add_member(club=club, name=name)
    night = club_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=2)
    members = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    club_services.check_in(night_id=night.pk, member_ids=members, guests=[])
    club_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), (1, 4, 1, 0)),
        token=None,
    )
    link = services.make_scorer_link(public_id=game.public_id)
    arguments = {
        "gid": game.public_id,
        "number": 1,
        "link_id": link.pk,
        "club": club.slug,
        "season": season.slug,
        "night": night.pk,
        "member_id": members[0],
        "uidb64": "MQ",
        "token": "set-password",
        "what": "nights",
        "token_id": 1,
        # The read API's (in its namespace, "api:").
        "game_id": game.public_id,
        "player_id": members[0],
        "night_id": night.pk,
    }
    secrets = {"join": link.secret, "join_club": club.invite_secret}

    def url(name):
        namespace, _, short = name.rpartition(":")
        resolver = get_resolver()
        if namespace:
            resolver = resolver.namespace_dict[namespace][1]
        route = resolver.reverse_dict.getlist(short)[0][0][0][1]
        kwargs = {key: arguments[key] for key in route if key in arguments}
        if "secret" in route:
            kwargs["secret"] = secrets[name]
        return reverse(name, kwargs=kwargs)

    return Site(url, admin, game)


def test_resolver_walk_finds_every_address_and_the_post_only_ones():
    assert (len(ADDRESSES), set(ADDRESSES) >= POST_ONLY) == (114, True)


@pytest.mark.parametrize("name", ADDRESSES)
def test_head_answers_as_get_with_no_body(site, client, name):
    url = site.url(name)

    got = client.get(url)
    head = client.head(url)

    body = b"".join(head.streaming_content) if head.streaming else head.content
    assert (head.status_code, head.get("Content-Type"), body) == (
        got.status_code,
        got.get("Content-Type"),
        b"",
    )
    assert (got.status_code == 405) == (name in POST_ONLY)
