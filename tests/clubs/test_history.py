"""The club's history: each line says what changed, about whom, when in the club's zone,
and by which account; only the club's admins see it."""

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.clubs import edits, history, privacy, services
from scoring.clubs import urls as club_urls
from scoring.clubs.events import services as event_services
from scoring.clubs.federation import services as federation_services
from scoring.clubs.imports import services as import_services
from scoring.clubs.members import care as member_care
from scoring.clubs.members import services as member_services
from scoring.clubs.models import ClubChange, Event, EventRound, ForbiddenPair, Member, Night
from scoring.clubs.nights import services as night_services
from scoring.common.rights import NOBODY, Actor
from scoring.engine import Contract, Hand, Rules, Trump, loads
from scoring.table import services as table_services
from scoring.table.models import Summary
from tests.clubs.factories import club_data, record_line
from tests.clubs.league_games import new_club
from tests.factories import run_jobs


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_user("amina", password="x")


def test_log_unknown_action_refused(admin):
    club = new_club(admin)
    with pytest.raises(ValueError, match="'renamed': declare it"):
        history.log(club, NOBODY, "renamed", "Omar")
    assert ClubChange.objects.filter(action="renamed").count() == 0


def test_history_page_lists_changes_newest_first_in_club_zone(admin, client):
    club = new_club(admin)
    first = history.log(club, Actor(user_id=admin.pk), "member_renamed", "Omarr")
    second = history.log(club, NOBODY, "season_edited", "2020")
    ClubChange.objects.filter(pk=first.pk).update(at=datetime(2020, 12, 31, 23, 30, tzinfo=UTC))
    ClubChange.objects.filter(pk=second.pk).update(at=datetime(2021, 1, 2, 8, 0, tzinfo=UTC))
    client.force_login(admin)

    html = client.get(f"/clubs/{club.slug}/history").content.decode().split("club-history")[1]

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


# Every write of a club, from its URL conf: one line of the history each, naming who made it.


@dataclass
class Sfax:
    """The club Sfax: Amina its admin (account amina); Bilal, a member without games;
    Chafik, claimed by the account chafik; Dalila, Emna and Farid, who played a game with
    Amina; a season of 2025; a night of 7 March 2025, the five of them checked in."""

    club: object
    amina: object
    bilal: Member
    chafik: Member
    dalila: Member
    farid: Member
    game: str
    night: Night


@pytest.fixture
def sfax(db):
    User = get_user_model()
    amina = User.objects.create(username="amina")
    club = services.create_club(
        name="Sfax",
        slug="sfax",
        time_zone="Africa/Tunis",
        rules=Rules(target=3),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=amina.pk,
        admin_name="Amina",
    )
    added = {
        name: member_services.add_member(club=club, name=name)
        for name in ("Bilal", "Chafik", "Dalila", "Emna", "Farid")
    }
    member_services.join_club(
        club=club,
        user_id=User.objects.create(username="chafik").pk,
        member_id=added["Chafik"].pk,
        name="",
    )
    services.create_season(
        club=club,
        name="2025",
        slug="s2025",
        first_day=date(2025, 1, 1),
        last_day=date(2025, 12, 31),
        points=(3, 2, 1, 0),
    )
    state = services.start_club_game(
        club=club, names=["Amina", "Dalila", "Emna", "Farid"], first_dealer=0, owner_id=None
    )
    table_services.record_hand(
        public_id=state.game.public_id,
        number=1,
        hand=Hand(Contract(0, 3, Trump.HEARTS), tricks=(3, 1, 1, 1)),
        token=None,
    )
    night = night_services.create_night(club=club, date=date(2025, 3, 7), place="Café", rounds=None)
    night_services.check_in(
        night_id=night.pk,
        member_ids=[one.pk for one in Member.objects.filter(club=club)],
        guests=[],
    )
    return Sfax(
        club,
        amina,
        added["Bilal"],
        added["Chafik"],
        added["Dalila"],
        added["Farid"],
        state.game.public_id,
        night,
    )


SEASON = {
    "name": "2026",
    "slug": "s2026",
    "first_day": "2026-01-01",
    "last_day": "2026-12-31",
    **{f"points_{rank}": points for rank, points in enumerate((3, 2, 1, 0))},
}


def with_event(world):
    """An event of the club, its first night's three rounds, its four players checked in."""
    event = event_services.create_event(
        club=world.club,
        settings={
            "name": "Coupe",
            "points": [3, 2, 1, 0],
            "sit_out_points": "0",
            "best_nights": None,
            "min_attendance": None,
            "hide_last_rounds": 0,
            "counts_in_season": True,
            "final": "final",
            "carry_over": "1",
            "entry_fee": Decimal(0),
            "fee_currency": "EUR",
            "prizes": [],
            "prize_kind": "share",
            "public": False,
        },
        rules=Rules(target=3),
    )
    night = event_services.add_night(event_id=event.pk, date=date(2025, 3, 8), place="", rounds=1)
    players = [world.bilal.pk, world.chafik.pk, world.dalila.pk, world.farid.pk]
    event_services.enter(event_id=event.pk, member_ids=players, guests=[])
    night_services.check_in(night_id=night.pk, member_ids=players, guests=[])


def event_drafted(world):
    with_event(world)
    event = Event.objects.get()
    event_services.draw_round(event_id=event.pk, number=1, method="random")


def event_published(world):
    event_drafted(world)
    event = Event.objects.get()
    event_services.publish(event_id=event.pk, number=1, key=event_key(world), owner_id=None)


def event_played(world):
    event_published(world)
    event = Event.objects.get()
    event_services.settle_table(
        event_id=event.pk, number=1, table=1, totals=[9, 3, 2, 1], reason="time"
    )


def event_pair(world):
    with_event(world)
    event_services.forbid_pair(
        club=world.club, event_id=None, first_id=world.bilal.pk, second_id=world.farid.pk
    )


def event_key(world):
    return event_services.draft_key(EventRound.objects.get())


def event_of(world, **more):
    return {"club": "sfax", "event": Event.objects.get().pk, **more}


def federation_of(admin):
    return federation_services.create_federation(
        name="Sahel", slug="sahel", public=False, admin_user_id=admin.pk
    )


def invited(world, accept=False):
    """Sfax invited to the federation Sahel, run by another account; joined if ``accept``."""
    federation = federation_of(get_user_model().objects.create(username="sahel"))
    federation_services.invite_club(federation=federation, club=world.club)
    if accept:
        federation_services.answer_invitation(club=world.club, federation=federation, accept=True)


def drawn(world):
    night_services.draw_round(night_id=world.night.pk, owner_id=None)


def retired(world):
    member_care.retire_member(club=world.club, member_id=world.farid.pk, by=NOBODY)


def ended(world):
    night_services.end_night(night_id=world.night.pk, by=NOBODY)


@dataclass(frozen=True)
class Write:
    """A write of the club as its form posts it: the line it leaves, the address's
    arguments, the data, who sends it (the admin, else a new account), and what is made
    first."""

    kind: str
    kwargs: Callable[[Sfax], dict[str, object]]
    data: Callable[[Sfax], dict[str, object]] = lambda world: {}
    by_admin: bool = True
    before: Callable[[Sfax], None] = lambda world: None
    job: bool = False
    """Done by a job (issue 43): the line is written once the worker ran it."""


IMPORTED = record_line("x1", players=("Amina", "Dalila", "Emna", "Omar"))
CLUB = lambda world: {"club": "sfax"}  # noqa: E731
WRITES = {
    "new_club": Write("club_created", lambda world: {}, lambda world: club_data(slug="tunis")),
    "club_settings": Write("club_edited", CLUB, lambda world: club_data(name="Sfax Club")),
    "club_members": Write(
        "member_added", CLUB, lambda world: {"name": "Yasmine", "role": "member"}
    ),
    "member_role": Write(
        "role_changed",
        lambda world: {"club": "sfax", "member_id": world.bilal.pk},
        lambda world: {"role": "scorer"},
    ),
    "member_claim": Write(
        "claim_accepted",
        lambda world: {"club": "sfax", "member_id": world.chafik.pk},
        lambda world: {"decision": "accept"},
    ),
    "member_rename": Write(
        "member_renamed",
        lambda world: {"club": "sfax", "member_id": world.bilal.pk},
        lambda world: {"name": "Bilel"},
    ),
    "member_merge": Write(
        "members_merged",
        lambda world: {"club": "sfax", "member_id": world.bilal.pk},
        lambda world: {"into": world.dalila.pk},
    ),
    "member_retire": Write(
        "member_retired", lambda world: {"club": "sfax", "member_id": world.farid.pk}
    ),
    "member_return": Write(
        "member_returned",
        lambda world: {"club": "sfax", "member_id": world.farid.pk},
        before=retired,
    ),
    "member_feed_key": Write(
        "feed_key_changed",
        lambda world: {
            "club": "sfax",
            "member_id": Member.objects.get(club=world.club, name="Amina").pk,
        },
    ),
    "member_delete": Write(
        "member_removed", lambda world: {"club": "sfax", "member_id": world.bilal.pk}
    ),
    "member_remove": Write(
        "member_anonymised",
        lambda world: {"club": "sfax", "member_id": world.bilal.pk},
        lambda world: {"name": "Bilal"},
    ),
    "member_public_name": Write(
        "public_name_set",
        lambda world: {"club": "sfax", "member_id": world.bilal.pk},
        lambda world: {"shown": "short"},
    ),
    "club_new_invite": Write("invite_renewed", CLUB),
    "join_club": Write(
        "claim_made",
        lambda world: {"club": "sfax", "secret": world.club.invite_secret},
        lambda world: {"name": "Yasmine"},
        by_admin=False,
    ),
    "new_season": Write("season_created", CLUB, lambda world: SEASON),
    "season_edit": Write(
        "season_edited",
        lambda world: {"club": "sfax", "season": "s2025"},
        lambda world: {**SEASON, "first_day": "2025-01-01", "last_day": "2025-12-31"},
    ),
    "season_delete": Write("season_deleted", lambda world: {"club": "sfax", "season": "s2025"}),
    "club_game_delete": Write("game_deleted", lambda world: {"club": "sfax", "gid": world.game}),
    "club_import": Write(
        "records_imported",
        CLUB,
        lambda world: {
            "file": SimpleUploadedFile(
                "records.jsonl",
                record_line("x1", players=("Amina", "Dalila", "Emna", "Omar")).encode(),
            )
        },
        job=True,
    ),
    "club_rebuild_league": Write("league_rebuilt", CLUB, job=True),
    "new_night": Write(
        "night_created", CLUB, lambda world: {"date": "2025-03-14", "place": "Café", "rounds": ""}
    ),
    "night_edit": Write(
        "night_edited",
        lambda world: {"club": "sfax", "night": world.night.pk},
        lambda world: {"date": "2025-03-08", "place": "Café", "rounds": ""},
    ),
    "night_delete": Write("night_deleted", lambda world: {"club": "sfax", "night": world.night.pk}),
    "club_undo": Write("change_undone", CLUB, before=retired),
    "night_reopen": Write(
        "night_reopened", lambda world: {"club": "sfax", "night": world.night.pk}, before=ended
    ),
    "club_game_date": Write(
        "game_moved",
        lambda world: {"club": "sfax", "gid": world.game},
        lambda world: {
            "finished_at": "2025-03-08T21:30",
            "previewed": "2025-03-08T21:30",
            "confirm": "1",
        },
    ),
    "night_draw": Write("round_drawn", lambda world: {"club": "sfax", "night": world.night.pk}),
    "night_close": Write(
        "round_closed",
        lambda world: {"club": "sfax", "night": world.night.pk},
        lambda world: {"confirm": "1"},
        before=drawn,
    ),
    "night_end": Write(
        "night_ended",
        lambda world: {"club": "sfax", "night": world.night.pk},
        lambda world: {"confirm": "1"},
        before=drawn,
    ),
    "new_event": Write(
        "event_created",
        CLUB,
        lambda world: {
            "name": "Coupe",
            "date": "2025-03-08",
            "place": "",
            "rounds": 2,
            "target": 3,
            "failed_taker": "tricks_minus_bid",
            "currency": "EUR",
            "confirmation": "off",
            "confirmation_minutes": 15,
            **{f"points_{rank}": points for rank, points in enumerate((3, 2, 1, 0))},
            "sit_out_points": "0",
            "hide_last_rounds": 0,
            "final": "none",
            "carry_over": "1",
            "entry_fee": "0",
            "prize_kind": "share",
        },
    ),
    "event_edit": Write(
        "event_edited",
        event_of,
        lambda world: {
            "name": "Coupe d'été",
            "target": 3,
            "failed_taker": "tricks_minus_bid",
            "currency": "EUR",
            "confirmation": "off",
            "confirmation_minutes": 15,
            **{f"points_{rank}": points for rank, points in enumerate((3, 2, 1, 0))},
            "sit_out_points": "0",
            "hide_last_rounds": 0,
            "final": "final",
            "carry_over": "1",
            "entry_fee": "0",
            "prize_kind": "share",
        },
        before=with_event,
    ),
    "event_night": Write(
        "event_night_added",
        event_of,
        lambda world: {"date": "2025-03-15", "place": "", "rounds": 2},
        before=with_event,
    ),
    "event_end": Write("event_ended", event_of, before=with_event),
    "event_delete": Write("event_deleted", event_of, before=with_event),
    "event_enter": Write(
        "entrants_added",
        event_of,
        lambda world: {"present": [Member.objects.get(club=world.club, name="Amina").pk]},
        before=with_event,
    ),
    "event_withdraw": Write(
        "entrant_withdrawn",
        lambda world: event_of(world, member_id=world.bilal.pk),
        before=with_event,
    ),
    "event_pair": Write(
        "pair_forbidden",
        event_of,
        lambda world: {"first": world.bilal.pk, "second": world.chafik.pk, "scope": "event"},
        before=with_event,
    ),
    "event_pair_remove": Write(
        "pair_allowed",
        lambda world: event_of(world, pair=ForbiddenPair.objects.get().pk),
        before=event_pair,
    ),
    "event_draw": Write(
        "event_round_drawn",
        event_of,
        lambda world: {"number": 1, "method": "random"},
        before=with_event,
    ),
    "event_swap": Write(
        "round_swapped",
        event_of,
        lambda world: {
            "number": 1,
            "key": event_key(world),
            "first": world.bilal.pk,
            "second": world.chafik.pk,
        },
        before=event_drafted,
    ),
    "event_publish": Write(
        "round_published",
        event_of,
        lambda world: {"number": 1, "key": event_key(world)},
        before=event_drafted,
    ),
    "event_settle": Write(
        "table_settled",
        event_of,
        lambda world: {"number": 1, "table": 1, "how": "stands"},
        before=event_published,
    ),
    "event_final": Write("final_drawn", event_of, before=event_played),
    "federation_invite": Write(
        "federation_invited",
        lambda world: {"federation": "sahel"},
        lambda world: {"club": "sfax"},
        before=lambda world: federation_of(world.amina),
    ),
    "club_federation_answer": Write(
        "federation_joined",
        lambda world: {"club": "sfax", "federation": "sahel"},
        lambda world: {"answer": "accept"},
        before=lambda world: invited(world),
    ),
    "club_federation_leave": Write(
        "federation_left",
        lambda world: {"club": "sfax", "federation": "sahel"},
        before=lambda world: invited(world, accept=True),
    ),
}
"""Every form of the club's URL conf that writes, and the line of the history it leaves."""

NOT_IN_HISTORY = {
    "new_federation": "a federation, no club's: the account that makes it is its admin",
    "federation_settings": "a federation's name and whether it is public, no club's",
    "federation_admins": "a federation's admin added, no club's",
    "federation_admin_remove": "a federation's admin removed, no club's",
    "federation_delete": "a federation deleted once no club is a member: no club's",
    "night_checkin": "who is present: ticked over and over through a night, kept by the night",
    "new_club_game": "a game: the table's own history names who started it and every hand",
    "club_mail": "a member's own choice of mail, not a change of the club",
    "mail_unsubscribe": "a member's own choice of mail, by the link in it",
    "club_feed_key": "a member's own calendar link, changed: his, not a change of the club",
    "event_checkin": "who is present at an event's night: kept by the night, as its check-in",
    "club_job": "a job cancelled or tried again: the job's own line says what it did",
}
"""The forms of the club's URL conf that write and leave no line, and why."""

ARGUMENT = {
    "club": "sfax",
    "member_id": 1,
    "season": "s",
    "night": 1,
    "number": 1,
    "event": 1,
    "pair": 1,
}


def posted_forms():
    """The names of the club's addresses that take a POST (the others answer 405)."""
    admin = Client()
    admin.force_login(get_user_model().objects.create(username="admin"))
    names = set()
    for pattern in club_urls.urlpatterns:
        route = str(pattern.pattern)
        path = "/" + re.sub(
            r"<(?:\w+:)?(\w+)>", lambda part: str(ARGUMENT.get(part[1], "x")), route
        )
        if admin.post(path).status_code != 405:
            names.add(pattern.name)
    return names


def test_every_form_of_the_club_that_writes_is_declared_here(db):
    assert posted_forms() == set(WRITES) | set(NOT_IN_HISTORY)


def test_every_kind_written_here_is_declared_once_and_fits_its_column():
    kinds = {write.kind for write in WRITES.values()}
    assert kinds - set(history.CLUB_ACTIONS) == set()
    assert [kind for kind in history.CLUB_ACTIONS if len(kind) > 20] == []


@pytest.mark.parametrize("name", sorted(WRITES))
def test_club_write_leaves_one_history_line_naming_who_made_it(sfax, name):
    write = WRITES[name]
    write.before(sfax)
    sender = sfax.amina if write.by_admin else get_user_model().objects.create(username="yasmine")
    client = Client()
    client.force_login(sender)
    last = ClubChange.objects.order_by("-pk").values_list("pk", flat=True).first()

    response = client.post(reverse(name, kwargs=write.kwargs(sfax)), write.data(sfax))
    if write.job:
        run_jobs()

    lines = ClubChange.objects.filter(pk__gt=last)
    assert response.status_code == 302
    assert list(lines.values_list("action", "by_user__username")) == [
        (write.kind, sender.get_username())
    ]


WRITE_SERVICES = (
    services,
    event_services,
    federation_services,
    member_services,
    member_care,
    import_services,
    night_services,
    edits,
    privacy,
)
"""The modules of the club's writes."""

NO_ACTOR = {
    "create_federation": "no club's: the account that makes it is its admin, admin_user_id",
    "update_federation": "no club's: a federation's own settings",
    "add_admin": "no club's: a federation's admins",
    "remove_admin": "no club's: a federation's admins",
    "delete_federation": "no club's: a federation with no member club",
    "create_club": "the account that makes it is its first admin, admin_user_id",
    "join_club": "the account that joins, user_id",
    "check_in": "who is present (NOT_IN_HISTORY)",
    "leave_clubs": "an account deleted: the account's own, whose lines stay naming no one",
}


def test_every_write_service_of_the_club_is_told_who_makes_it():
    """Each transaction of the club's services takes ``by``, the actor its line names."""
    untold = [
        name
        for module in WRITE_SERVICES
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
        and hasattr(function, "__wrapped__")
        and not name.startswith("_")
        and "by" not in inspect.signature(function).parameters
        and name not in NO_ACTOR
    ]
    assert untold == []


def test_docs_list_every_kind_of_the_history_with_its_words():
    docs = (Path(__file__).parents[2] / "docs" / "league.md").read_text(encoding="utf-8")
    section = docs.split("### The club's history")[1].split("\n### ")[0]

    assert [
        kind
        for kind, action in history.CLUB_ACTIONS.items()
        if f"`{kind}`" not in section or str(action.words) not in section
    ] == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "role: <bdi>member</bdi> → <bdi>scorer</bdi>"),
        ("fr", "rôle\u00a0: <bdi>membre</bdi> → <bdi>marqueur</bdi>"),
        ("ar", "الدور: <bdi>عضو</bdi> ← <bdi>مسجّل النقاط</bdi>"),
    ],
)
def test_history_page_says_what_changed_before_and_after(sfax, language, said):
    member_services.set_role(club=sfax.club, member_id=sfax.bilal.pk, role="scorer", by=NOBODY)
    client = Client()
    client.force_login(sfax.amina)

    html = client.get("/clubs/sfax/history", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert said in html


def test_history_page_shows_one_kind_when_asked(sfax):
    client = Client()
    client.force_login(sfax.amina)

    html = client.get("/clubs/sfax/history?kind=member_added").content.decode()

    lines = html.split('class="club-history"')[1].split("</ol>")[0]
    assert (lines.count("<strong>player added</strong>"), "<strong>season made" in lines) == (
        5,
        False,
    )


def test_one_game_imported_into_the_club_leaves_its_line(sfax):
    record = loads(record_line("x2", players=("Amina", "Dalila", "Emna", "Farid")))

    import_services.import_club_game(club=sfax.club, record=record, by=Actor(user_id=sfax.amina.pk))

    line = ClubChange.objects.order_by("-pk").first()
    assert (line.action, line.after, line.by_user_id) == (
        "records_imported",
        {"games": 1},
        sfax.amina.pk,
    )


def test_history_page_says_a_stake_changed_as_the_language_writes_it(sfax):
    club = sfax.club
    services.update_club(
        club_id=club.pk,
        name=club.name,
        time_zone=club.time_zone,
        rules=Rules(target=3, stake=Decimal("1.5")),
        points=club.points,
        public=club.public,
        invite_admits=club.invite_admits,
        by=Actor(user_id=sfax.amina.pk),
    )
    client = Client()
    client.force_login(sfax.amina)

    html = client.get("/clubs/sfax/history", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "mise\u00a0: <bdi>0</bdi> → <bdi>1,5</bdi>" in html


# The last change undone: a member's rename, role, retirement or return, while it is last.


def undo(sfax, method="post"):
    client = Client()
    client.force_login(sfax.amina)
    return getattr(client, method)("/clubs/sfax/history/undo")


def test_undo_puts_a_rename_back_in_every_game_and_says_so(sfax):
    member_care.rename_member(club=sfax.club, member_id=sfax.dalila.pk, name="Dalia", by=NOBODY)

    response = undo(sfax)

    line = ClubChange.objects.order_by("-pk").first()
    assert (response.status_code, response["Location"]) == (302, "/clubs/sfax/history")
    assert Member.objects.get(pk=sfax.dalila.pk).name == "Dalila"
    assert Summary.objects.get(game__public_id=sfax.game).names[1] == "Dalila"
    assert (line.action, line.subject, line.before, line.after) == (
        "change_undone",
        "Dalila",
        {"name": "Dalia"},
        {"undone": "member_renamed", "name": "Dalila"},
    )


def test_undo_looks_past_the_lines_of_a_club_games_table_agreeing(sfax):
    member_care.rename_member(club=sfax.club, member_id=sfax.dalila.pk, name="Dalia", by=NOBODY)
    for kind in sorted(history.TABLE_KINDS):
        history.log(sfax.club, NOBODY, kind, sfax.bilal)

    response = undo(sfax)

    assert (response.status_code, Member.objects.get(pk=sfax.dalila.pk).name) == (302, "Dalila")


def test_undo_gives_a_role_back(sfax):
    member_services.set_role(club=sfax.club, member_id=sfax.bilal.pk, role="scorer", by=NOBODY)

    undo(sfax)

    assert Member.objects.get(pk=sfax.bilal.pk).role == "member"


def test_undo_of_a_retirement_brings_the_player_back(sfax):
    retired(sfax)

    undo(sfax)

    assert Member.objects.get(pk=sfax.farid.pk).retired_at is None


def test_undo_page_names_the_change_and_what_it_changed(sfax):
    member_care.rename_member(club=sfax.club, member_id=sfax.dalila.pk, name="Dalia", by=NOBODY)

    html = undo(sfax, "get").content.decode()

    # Named as he is now; the names before and after, as the rename set them.
    assert "<strong>player renamed</strong>: <bdi>Dalia</bdi>" in html
    assert "name: <bdi>Dalila</bdi> → <bdi>Dalia</bdi>" in html


def test_undo_of_a_change_that_cannot_be_undone_is_refused_and_changes_nothing(sfax):
    services.create_season(
        club=sfax.club,
        name="2026",
        slug="s2026",
        first_day=date(2026, 1, 1),
        last_day=date(2026, 12, 31),
        points=(3, 2, 1, 0),
    )
    lines = ClubChange.objects.count()

    page = undo(sfax, "get").content.decode()
    response = undo(sfax)

    assert "This change cannot be undone here" in page
    assert (response.status_code, ClubChange.objects.count()) == (409, lines)


def test_undo_is_not_undone_in_turn(sfax):
    retired(sfax)
    undo(sfax)

    response = undo(sfax)

    assert (response.status_code, Member.objects.get(pk=sfax.farid.pk).retired_at) == (409, None)


def test_undo_of_a_change_no_longer_the_last_is_refused(sfax):
    retired(sfax)
    change = member_care.last_change(sfax.club)
    member_services.set_role(club=sfax.club, member_id=sfax.bilal.pk, role="scorer", by=NOBODY)

    with pytest.raises(member_care.NotUndoable):
        member_care.undo_last_change(club=sfax.club, change_id=change.pk, by=NOBODY)


def test_undo_that_leaves_the_club_no_admin_is_refused(sfax):
    chafik = sfax.chafik.pk
    account = get_user_model().objects.get(username="chafik")
    Member.objects.filter(pk=chafik).update(user=account, claimed_by=None)
    member_services.set_role(club=sfax.club, member_id=chafik, role="admin", by=NOBODY)
    member_care.retire_member(club=sfax.club, member_id=chafik, by=NOBODY)
    amina = Member.objects.get(club=sfax.club, name="Amina").pk
    member_services.set_role(club=sfax.club, member_id=amina, role="member", by=NOBODY)
    member_care.bring_back(club=sfax.club, member_id=chafik, by=NOBODY)
    lines = ClubChange.objects.count()
    client = Client()
    client.force_login(account)

    response = client.post("/clubs/sfax/history/undo")

    assert (response.status_code, ClubChange.objects.count()) == (409, lines)
    assert "Chafik is the club&#x27;s only admin with an account" in response.content.decode()
    assert Member.objects.get(pk=chafik).retired_at is None


def test_undo_is_for_admins_only(sfax):
    retired(sfax)
    client = Client()
    client.force_login(get_user_model().objects.get(username="chafik"))

    assert client.post("/clubs/sfax/history/undo").status_code == 403


# Names follow the member (issue 39, item 2): a line keeps him by id, and says his name now.


def history_lines(client, club="sfax"):
    """The history page's lines, as it says each: its kind's words, its subject, and the
    player a merge kept."""
    return [
        (line.words, line.subject, line.into)
        for line in client.get(f"/clubs/{club}/history").context["changes"]
    ]


def admin_client(sfax):
    client = Client()
    client.force_login(sfax.amina)
    return client


def test_line_written_before_a_rename_names_him_as_he_is_now(sfax):
    member_services.set_role(club=sfax.club, member_id=sfax.bilal.pk, role="scorer", by=NOBODY)
    member_care.rename_member(club=sfax.club, member_id=sfax.bilal.pk, name="Bilal B.", by=NOBODY)
    client = admin_client(sfax)

    page = history_lines(client)[:2]
    api = client.get("/api/v1/clubs/sfax/changes").json()["changes"][:2]
    stored = ClubChange.objects.filter(club=sfax.club).order_by("-pk")[:2]

    assert page == [("player renamed", "Bilal B.", None), ("role changed", "Bilal B.", None)]
    assert [line["subject"] for line in api] == ["Bilal B.", "Bilal B."]
    # Stored as he was named then, by id: the rename's names say what changed.
    assert [(line.subject, line.member_id, line.before) for line in stored] == [
        ("Bilal", sfax.bilal.pk, {"name": "Bilal"}),
        ("Bilal", sfax.bilal.pk, {"role": "member"}),
    ]


def test_deleted_game_line_names_its_players_as_they_are_now_its_record_as_then(sfax):
    edits.delete_club_game(club=sfax.club, public_id=sfax.game, by=NOBODY)
    member_care.rename_member(club=sfax.club, member_id=sfax.dalila.pk, name="Dalia", by=NOBODY)

    (deleted,) = [line for line in history_lines(admin_client(sfax)) if line[0] == "game deleted"]
    line = ClubChange.objects.get(club=sfax.club, action="game_deleted")

    assert deleted == ("game deleted", "Amina 3 · Dalia 1 · Emna 1 · Farid 1", None)
    assert (line.subject, line.before["players"]) == (
        "Amina 3 · Dalila 1 · Emna 1 · Farid 1",
        ["Amina", "Dalila", "Emna", "Farid"],
    )


def test_merge_line_and_the_merged_players_lines_name_the_player_kept_as_he_is_now(sfax):
    omarr = member_services.add_member(club=sfax.club, name="Omarr")
    omar = member_services.add_member(club=sfax.club, name="Omar")
    member_care.merge_members(club=sfax.club, gone_id=omarr.pk, kept_id=omar.pk, by=NOBODY)
    member_care.rename_member(club=sfax.club, member_id=omar.pk, name="Omar B.", by=NOBODY)

    lines = history_lines(admin_client(sfax))[:4]

    assert lines == [
        ("player renamed", "Omar B.", None),
        ("players merged", "Omarr", "Omar B."),
        ("player added", "Omar B.", None),
        ("player added", "Omar B.", None),  # Omarr's, who is Omar
    ]


def test_deleted_member_lines_say_the_name_he_had_last(sfax):
    omar = member_services.add_member(club=sfax.club, name="Omar")
    member_care.rename_member(club=sfax.club, member_id=omar.pk, name="Omar B.", by=NOBODY)
    member_care.delete_member(club=sfax.club, member_id=omar.pk, by=NOBODY)
    # Another player takes the name he had: the lines stay his.
    member_services.add_member(club=sfax.club, name="Omar")

    lines = history_lines(admin_client(sfax))[:4]

    assert lines == [
        ("player added", "Omar", None),
        ("player removed", "Omar B.", None),
        ("player renamed", "Omar B.", None),
        ("player added", "Omar B.", None),
    ]


def test_history_page_costs_the_same_queries_for_4_lines_and_20(sfax):
    club = services.create_club(
        name="Kef",
        slug="kef",
        time_zone="Africa/Tunis",
        rules=Rules(target=3),
        points=(3, 2, 1, 0),
        public=False,
        invite_admits=False,
        admin_user_id=sfax.amina.pk,
        admin_name="Amina",
    )
    client = admin_client(sfax)
    counts = []
    for sets in (1, 5):  # each set, 4 lines: 2 players added, a game's line, a rename
        ClubChange.objects.filter(club=club).delete()
        for number in range(sets):
            one = member_services.add_member(club=club, name=f"Joueur {sets} {number}")
            two = member_services.add_member(club=club, name=f"Autre {sets} {number}")
            history.log(
                club, NOBODY, "game_moved", f"{one.name}, {two.name}", members=[one.pk, two.pk]
            )
            name = f"J {sets} {number}"
            member_care.rename_member(club=club, member_id=one.pk, name=name, by=NOBODY)
        with CaptureQueriesContext(connection) as queries:
            shown = history_lines(client, "kef")
        counts.append(len(queries))
        assert [subject for _, subject, _ in shown[:4]] == [
            f"J {sets} {sets - 1}",
            f"J {sets} {sets - 1}, Autre {sets} {sets - 1}",
            f"Autre {sets} {sets - 1}",
            f"J {sets} {sets - 1}",
        ]
        assert len(shown) == 4 * sets

    assert counts[0] == counts[1]


def test_migration_finds_each_stored_line_the_members_its_service_now_keeps(sfax):
    club, by = sfax.club, NOBODY
    member_services.set_role(club=club, member_id=sfax.bilal.pk, role="scorer", by=by)
    member_care.rename_member(club=club, member_id=sfax.bilal.pk, name="Bilal B.", by=by)
    member_services.add_member(club=club, name="Bilal")  # the name he left, another's now
    omarr = member_services.add_member(club=club, name="Omarr")
    member_care.merge_members(club=club, gone_id=omarr.pk, kept_id=sfax.chafik.pk, by=by)
    edits.delete_club_game(club=club, public_id=sfax.game, by=by)
    edits.delete_night(club=club, night_id=sfax.night.pk, by=by)
    member_care.rename_member(club=club, member_id=sfax.dalila.pk, name="Dalia", by=by)
    zied = member_services.add_member(club=club, name="Zied")
    member_care.delete_member(club=club, member_id=zied.pk, by=by)
    privacy.remove_member(club=club, member_id=sfax.farid.pk, by=by)
    kept = list(ClubChange.objects.order_by("pk").values_list("action", "member", "members"))
    ClubChange.objects.update(member=None, members=None)

    migration = importlib.import_module("scoring.migrations.0030_history_members")
    migration.link_members(django_apps, None)

    found = list(ClubChange.objects.order_by("pk").values_list("action", "member", "members"))
    assert found == kept
    # Every line about or naming a member but the deleted player's two.
    assert len([one for one in kept if one[1] is not None or one[2] is not None]) == 15
