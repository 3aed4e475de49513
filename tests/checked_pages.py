"""The pages and states of the game and the club that tests/browser/test_accessibility.py
runs axe on, and whose h1 tests/site/test_headings.py counts: each with the data it shows
made here."""

from contextlib import suppress
from datetime import timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from scoring.clubs import history as club_history
from scoring.clubs import jobs as club_jobs
from scoring.clubs import services as club_services
from scoring.clubs.federation import services as federation_services
from scoring.clubs.mail import unsubscribe_token
from scoring.clubs.members import services as member_services
from scoring.clubs.nights import services as night_services
from scoring.common.rights import Actor
from scoring.engine import Confirmation, Contract, Hand, Rules, Trump
from scoring.table import services
from tests.factories import NAMES
from tests.golden import REVOKED

PLAY = "taker=0&bid=3&trump=H"
ADMIN = ("amina", "felt-and-trumps-21")
"""The username and password of the club's admin."""
WATCH = "watch"
"""A page's first step that says it is seen by another phone, which may only watch."""


def game_pages():
    """A game with money and two hands, the second a boulmous, and a game just begun; every
    page and state of theirs: (name, address, what to do there first: a selector to click,
    or WATCH)."""
    played = services.create_game(
        names=NAMES, rules=Rules(stake=Decimal("0.50")), first_dealer=0, place="Café"
    ).game
    for number, hand in enumerate(
        [
            Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
            Hand(Contract(2, 6, Trump.SPADES), tricks=(0, 0, 6, 0)),
        ],
        start=1,
    ):
        services.record_hand(public_id=played.public_id, number=number, hand=hand, token=None)
    fresh = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    link = services.make_scorer_link(public_id=played.public_id)
    seat = services.make_seat_links(public_id=played.public_id)[1]
    argued = services.create_game(
        names=NAMES, rules=Rules(confirmation=Confirmation.EACH_HAND), first_dealer=0
    ).game
    services.record_hand(
        public_id=argued.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
    )
    services.dispute_hand(
        public_id=argued.public_id, number=1, version=1, seat=2, reason="Bilal made five tricks"
    )
    corrected = services.create_game(
        names=NAMES, rules=Rules(confirmation=Confirmation.EACH_HAND), first_dealer=0
    ).game
    services.record_hand(
        public_id=corrected.public_id,
        number=1,
        hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1)),
        token=None,
        seat=1,
    )
    services.confirm_hand(public_id=corrected.public_id, number=1, version=1, seat=2)
    with suppress(services.Proposed):  # confirmed: the correction waits for another seat
        services.edit_hand(
            public_id=corrected.public_id,
            number=1,
            hand=Hand(Contract(1, 4, Trump.HEARTS), tricks=(0, 3, 2, 1)),
            discard_after_end=False,
            seat=1,
        )
    # A game won for money under the whole game: Bilal agreed to its settlement, the others
    # agree on the scorer's phone, passed round, with their seats' codes (issue 40.4).
    settled = services.create_game(
        names=NAMES,
        rules=Rules(stake=Decimal("0.50"), confirmation=Confirmation.WHOLE_GAME),
        first_dealer=0,
    ).game
    for number in range(1, 5):
        hand = Hand(Contract(1, 6, Trump.HEARTS), tricks=(0, 6, 0, 0))
        services.record_hand(public_id=settled.public_id, number=number, hand=hand, token=None)
    services.agree_settlement(public_id=settled.public_id, seat=1)
    cards = REVOKED.split(",")
    return [
        ("home", "/", None),
        ("new game, rules open", "/games/new", "details.rules summary"),
        ("editing a hand", f"/games/{played.public_id}/hands/2/edit", None),
        ("card by card, start", f"/games/{fresh.public_id}/hands/1/play?{PLAY}", None),
        (
            "card by card, mid-trick",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={','.join(cards[:6])}",
            None,
        ),
        (
            "card by card, complete with a revoke",
            f"/games/{fresh.public_id}/hands/1/play?{PLAY}&cards={REVOKED}",
            None,
        ),
        ("calculator", "/referee/trick?trump=H&cards=JD,AH,9C,JH", None),
        ("rules", f"/rules?game={played.public_id}", None),
        ("settlement", f"/games/{played.public_id}/settlement", None),
        ("settlement to agree, passed round", f"/games/{settled.public_id}/settlement", None),
        ("import", "/games/import", None),
        ("share", f"/games/{played.public_id}/share", None),
        ("scorer link opened", f"/games/{played.public_id}/score/{link.secret}", None),
        ("seats", f"/games/{played.public_id}/seats", None),
        ("seat's code opened", f"/seat/{seat.code}", None),
        ("a seat's code typed", "/seat", None),
        ("a game watched", f"/games/{played.public_id}/", WATCH),
        ("referee's page", f"/games/{argued.public_id}/hands/1/decide", None),
        ("a correction proposed", f"/games/{corrected.public_id}/", None),
    ]


def club_pages():
    """A public club with a season, a finished game, a night with a drawn round; its admin
    (ADMIN), and every page of the club as he sees it: (name, address)."""
    admin = User.objects.create_user(ADMIN[0], password=ADMIN[1])
    club = club_services.create_club(
        name="Café du Port",
        slug="port",
        time_zone="Africa/Tunis",
        rules=Rules(stake=Decimal("0.50")),
        points=(3, 2, 1, 0),
        public=True,
        invite_admits=False,
        admin_user_id=admin.pk,
        admin_name=NAMES[0],
    )
    today = timezone.localdate()
    club_services.create_season(
        club=club,
        name="Autumn",
        slug="autumn",
        first_day=today - timedelta(days=30),
        last_day=today + timedelta(days=30),
        points=(3, 2, 1, 0),
        handicap_cup=True,
    )
    state = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=admin.pk)
    for number in range(1, 5):
        hand = Hand(Contract(1, 6, Trump.HEARTS), tricks=(0, 6, 0, 0))
        services.record_hand(public_id=state.game.public_id, number=number, hand=hand, token=None)
    night = night_services.create_night(club=club, date=today, place="", rounds=2)
    ids = list(club.members.values_list("pk", flat=True))
    night_services.check_in(night_id=night.pk, member_ids=ids, guests=["Élodie"])
    night_services.draw_round(night_id=night.pk, owner_id=admin.pk)
    member = club.members.get(name="Bilal")
    other = club.members.get(name=NAMES[2])  # sat with Bilal: a merge refused
    guest = member_services.add_member(club=club, name="Bilall")
    idle = member_services.add_member(club=club, name="Zied")
    # A join waiting for an admin: on the club page and the members page.
    newcomer = User.objects.create_user("nour")
    member_services.join_club(club=club, user_id=newcomer.pk, member_id=None, name="Nour")
    club_history.log(club, Actor(user_id=admin.pk), "member_renamed", "Omarr")
    # A federation the club joined, and one that invites it (issue 42.6).
    for slug, joins in (("sahel", True), ("cap-bon", False)):
        federation = federation_services.create_federation(
            name=slug.title(), slug=slug, public=False, admin_user_id=admin.pk
        )
        federation_services.invite_club(federation=federation, club=club)
        if joins:
            federation_services.answer_invitation(club=club, federation=federation, accept=True)
    # The league's rebuild asked for, waiting for the worker (issue 43): its page.
    job = club_jobs.queue_rebuild(club=club, by=Actor(user_id=admin.pk), language="en")
    base = "/clubs/port"
    nights = f"{base}/nights/{night.pk}"
    return admin, [
        ("clubs", "/clubs/"),
        ("new club", "/clubs/new"),
        ("club", f"{base}/"),
        ("games, filtered", f"{base}/games/?q=a&status=won"),
        ("invite link replaced", f"{base}/join/not-the-link"),
        ("settings", f"{base}/settings"),
        ("history", f"{base}/history"),
        ("members", f"{base}/members"),
        ("member remove", f"{base}/members/{member.pk}/remove"),
        ("member rename", f"{base}/members/{member.pk}/rename"),
        ("member merge, what follows", f"{base}/members/{guest.pk}/merge?into={member.pk}"),
        ("member merge, refused", f"{base}/members/{member.pk}/merge?into={other.pk}"),
        ("member retire", f"{base}/members/{member.pk}/retire"),
        ("member delete", f"{base}/members/{idle.pk}/delete"),
        ("new season", f"{base}/seasons/new"),
        ("new club game", f"{base}/games/new"),
        ("club import", f"{base}/import"),
        ("club job", f"{base}/jobs/{job.public}"),
        ("join", f"{base}/join/{club.invite_secret}"),
        ("season", f"{base}/seasons/autumn/"),
        ("season edit", f"{base}/seasons/autumn/edit"),
        ("season delete", f"{base}/seasons/autumn/delete"),
        ("game delete", f"{base}/games/{state.game.public_id}/delete"),
        ("all-time standings", f"{base}/standings/"),
        ("standings print", f"{base}/seasons/autumn/print"),
        ("player", f"{base}/players/{member.pk}/"),
        ("new night", f"{base}/nights/new"),
        ("night", f"{nights}/"),
        ("night edit", f"{nights}/edit"),
        ("night delete", f"{nights}/delete"),
        ("close the round, asked", f"{nights}/close"),
        ("end the night, asked", f"{nights}/end"),
        ("table sheet", f"{nights}/rounds/1/sheet"),
        ("table cards", f"{nights}/rounds/1/cards"),
        ("night ranking", f"{nights}/ranking"),
        ("mail from the club", f"{base}/mail"),
        ("mail, stop asked", f"/mail/unsubscribe/nights/{unsubscribe_token(member.pk, 'nights')}"),
        ("season framed on a website", f"{base}/seasons/autumn/embed"),
        ("club federations", f"{base}/federations/"),
        ("federations", "/federations/"),
        ("new federation", "/federations/new"),
        ("federation", "/federations/sahel/"),
        ("federation settings", "/federations/sahel/settings"),
        ("federation left, asked", f"{base}/federations/sahel/leave"),
        ("federation admins", "/federations/sahel/admins"),
        ("federation admin removed, refused", f"/federations/sahel/admins/{admin.pk}/remove"),
        ("federation deleted, refused", "/federations/sahel/delete"),
        ("federation deleted, asked", "/federations/cap-bon/delete"),
    ]


def page_template(response):
    """The template a page was drawn from: the first rendered (base.html and the widgets
    come after it)."""
    return response.templates[0].name
