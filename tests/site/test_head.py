"""HEAD is answered wherever GET is (issue 18): every address of the site, found by walking
its URL resolver, answers a HEAD with the status and type a GET gets, and no body."""

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import NamedTuple

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import get_resolver

from scoring.clubs import jobs as club_jobs
from scoring.clubs import services as club_services
from scoring.clubs.events import services as event_services
from scoring.clubs.federation import services as federation_services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import Member
from scoring.clubs.nights import services as night_services
from scoring.common.rights import NOBODY
from scoring.engine import Contract, Hand, Rules, Trump
from scoring.table import services
from scoring.table.models import Game
from tests.conftest import ScorerClient
from tests.factories import NAMES, POST_ONLY, address, url_names


def reversible_names(resolver=None, namespace=""):
    """The names Django's own index of the URL conf reverses (its reverse dicts, a
    namespace's too): what the walk must find, however many addresses the site has."""
    resolver = get_resolver() if resolver is None else resolver
    names = {namespace + key for key in resolver.reverse_dict if isinstance(key, str)}
    for name, (_prefix, inner) in resolver.namespace_dict.items():
        names.update(reversible_names(inner, f"{namespace}{name}:"))
    return sorted(names)


ADDRESSES = url_names()


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
        member_services.add_member(club=club, name=name)
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="", rounds=2)
    members = list(Member.objects.filter(club=club).values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=members, guests=[])
    night_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    game = club_services.start_club_game(
        club=club, names=NAMES, first_dealer=0, owner_id=admin.pk
    ).game
    services.record_hand(
        public_id=game.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), (1, 4, 1, 0)),
        token=None,
    )
    federation = federation_services.create_federation(
        name="Sahel", slug="sahel", public=False, admin_user_id=admin.pk
    )
    federation_services.invite_club(federation=federation, club=club)
    federation_services.answer_invitation(club=club, federation=federation, accept=True)
    link = services.make_scorer_link(public_id=game.public_id)
    seat = services.make_seat_links(public_id=game.public_id)[0]
    event = event_services.create_event(
        club=club,
        settings={
            "name": "Coupe",
            "points": [3, 2, 1, 0],
            "sit_out_points": "0",
            "best_nights": None,
            "min_attendance": None,
            "hide_last_rounds": 0,
            "counts_in_season": True,
            "final": "none",
            "carry_over": "1",
            "entry_fee": Decimal(0),
            "fee_currency": "EUR",
            "prize_kind": "share",
            "prizes": [],
            "public": False,
        },
        rules=Rules(),
        night=(date(2025, 3, 14), "", 2),
    )
    event_services.enter(event_id=event.pk, member_ids=members, guests=[])
    pair = event_services.forbid_pair(
        club=club, event_id=event.pk, first_id=members[0], second_id=members[1]
    )
    job = club_jobs.queue_rebuild(club=club, by=NOBODY, language="en")
    arguments = {
        "job": job.public,
        "gid": game.public_id,
        "number": 1,
        "link_id": link.pk,
        "seat": 0,
        "club": club.slug,
        "season": season.slug,
        "night": night.pk,
        "federation": federation.slug,
        "admin_id": admin.pk,
        "member_id": members[0],
        "uidb64": "MQ",
        "token": "set-password",
        "what": "nights",
        "token_id": 1,
        "event": event.pk,
        "pair": pair.pk,
        # The read API's (in its namespace, "api:").
        "game_id": game.public_id,
        "player_id": members[0],
        "night_id": night.pk,
        "event_id": event.pk,
    }
    secrets = {"join": link.secret, "join_club": club.invite_secret, "seat": seat.code}

    return Site(lambda name: address(name, arguments, secrets), admin, game)


def test_resolver_walk_finds_every_address_and_the_post_only_ones():
    assert (ADDRESSES, set(ADDRESSES) >= POST_ONLY) == (reversible_names(), True)


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
