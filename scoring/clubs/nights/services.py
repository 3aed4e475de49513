"""Club nights (issue 12), each write one transaction: a night made, its players checked in,
its rounds drawn to tables and closed, the night ended and reopened."""

from collections.abc import Collection, Sequence
from datetime import date
from functools import partial

from django.db import transaction
from django.utils import timezone

from ...common.names import name_key
from ...common.rights import NOBODY, Actor
from ...engine import SEATS
from ...engine.draw import MAX_PLAYERS, MAX_ROUNDS, draw
from ...engine.draw import Round as DrawnRound
from ...table.face import (
    Game,
    Summary,
    abandon_game,
    confirm_waiting,
    make_scorer_link,
    open_disputes,
)
from .. import history, mail
from ..models import Attendance, Club, ClubGame, Member, Night, Round
from ..services import names_as_club_writes, start_club_game


class RoundPlaying(Exception):
    """Tables of the night's last round are still playing: the round is not over."""

    def __init__(self, round: Round, playing: int) -> None:
        self.round, self.playing = round, playing
        super().__init__(round.number, playing)


class RoundDisputed(Exception):
    """A game of the night has a hand disputed that the referee has not decided: the next
    round's draw waits for him (issue 40.3), so that nobody is drawn on a result in doubt."""

    def __init__(self, disputed: int) -> None:
        self.disputed = disputed
        super().__init__(disputed)


class NightOver(Exception):
    """The night has played its rounds, or was ended."""


class EventNight(Exception):
    """The night is an event's (issue 41): its rounds are drawn and published by the event's
    organisers, from the event's page (scoring/clubs/events/)."""


class TooFewPlayers(Exception):
    """Fewer than four players are present: no table can be drawn."""

    def __init__(self, present: int) -> None:
        self.present = present
        super().__init__(present)


class TooManyPlayers(Exception):
    """More players than a draw seats (the engine's ``MAX_PLAYERS``) would be, or are,
    present."""

    def __init__(self, present: int) -> None:
        self.present, self.most = present, MAX_PLAYERS
        super().__init__(present)


@transaction.atomic
def create_night(
    *, club: Club, date: date, place: str, rounds: int | None, by: Actor = NOBODY
) -> Night:
    """A club night: its date and place, and the rounds planned (none: until it stops)."""
    night = Night.objects.create(club=club, date=date, place=place, rounds=rounds)
    planned = {"date": date.isoformat(), "place": place, "rounds": rounds}
    history.log(club, by, "night_created", date.isoformat(), after=planned)
    return night


@transaction.atomic
def check_in(
    *,
    night_id: int,
    member_ids: Sequence[int],
    guests: Sequence[str],
    among: Collection[int] | None = None,
) -> Night:
    """Who is present now: the members tapped and the guests named; the others checked in
    before have left. Between rounds, so that arrivals and departures count at the next
    draw. No more than a draw seats (TooManyPlayers, and nothing changes).

    ``among``: the members this check-in speaks of (an event's entrants, its page's list):
    those of them not tapped have left, everyone else stays as he was. None: the whole
    club's."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is not None:
        raise NightOver(night)
    if len(guests) > MAX_PLAYERS:  # refused before a name is looked for
        raise TooManyPlayers(len(guests))
    known = set(
        Member.objects.filter(club=night.club, pk__in=member_ids).values_list("pk", flat=True)
    )
    named = names_as_club_writes(night.club, guests, Member.Role.GUEST) if guests else []
    known |= set(
        Member.objects.filter(club=night.club, key__in=[name_key(n) for n in named]).values_list(
            "pk", flat=True
        )
    )
    attendances = list(Attendance.objects.filter(night=night))
    staying = 0
    if among is not None:  # those it does not speak of stay as they were
        spoken = set(among) | known
        staying = sum(one.present for one in attendances if one.member_id not in spoken)
        attendances = [one for one in attendances if one.member_id in spoken]
    if len(known) + staying > MAX_PLAYERS:  # the guests just added go with the transaction
        raise TooManyPlayers(len(known) + staying)
    seen = set()
    for attendance in attendances:
        seen.add(attendance.member_id)
        present = attendance.member_id in known
        if attendance.present != present:
            attendance.present = present
            attendance.save(update_fields=["present"])
    Attendance.objects.bulk_create(
        Attendance(night=night, member_id=member_id) for member_id in sorted(known - seen)
    )
    return night


def drawn_rounds(night: Night) -> list[DrawnRound]:
    """The night's rounds as drawn, for the next draw to spread meetings over the night."""
    return [
        DrawnRound(tuple(tuple(table) for table in row.tables), tuple(row.sitting_out))
        for row in night.round_set.all()
    ]


def _close_if_over(night: Night) -> Round | None:
    """The night's last round, closed if every table has finished; RoundPlaying if not."""
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last
    playing = Summary.objects.filter(
        game__club_game__round=last, status=Summary.Status.PLAYING
    ).count()
    if playing:
        raise RoundPlaying(last, playing)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last


@transaction.atomic
def draw_round(*, night_id: int, owner_id: int | None, by: Actor = NOBODY) -> Round:
    """The next round: the players present drawn to tables of four (the engine's draw, over
    the rounds played that night), and each table's game started with its players seated
    in the drawn order, the club's rules, and a scorer link for the table's card."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.event_id is not None:
        raise EventNight(night)
    if night.ended_at is not None:
        raise NightOver(night)
    last = _close_if_over(night)
    played = last.number if last else 0
    disputed = open_disputes(Game.objects.filter(club_game__round__night=night)).count()
    if disputed:
        raise RoundDisputed(disputed)
    if night.rounds is not None and played >= night.rounds:
        raise NightOver(night)
    present = sorted(
        Attendance.objects.filter(night=night, present=True).values_list("member_id", flat=True)
    )
    if len(present) < SEATS:
        raise TooFewPlayers(len(present))
    if len(present) > MAX_PLAYERS:  # checked in before check-in had a cap
        raise TooManyPlayers(len(present))
    # Planning the rounds still to come spreads meetings over the whole night.
    ahead = min(night.rounds - played, MAX_ROUNDS) if night.rounds is not None else 1
    planned = draw(present, ahead, seed=night.seed, history=drawn_rounds(night))[0]
    row = Round.objects.create(
        night=night,
        number=played + 1,
        tables=[list(table) for table in planned.tables],
        sitting_out=list(planned.sitting_out),
    )
    names = dict(Member.objects.filter(pk__in=present).values_list("pk", "name"))
    for number, table in enumerate(planned.tables, start=1):
        state = start_club_game(
            club=night.club,
            names=[names[member_id] for member_id in table],
            first_dealer=0,  # the first drawn deals first, as the table sheet says
            owner_id=owner_id,
            by=by,
        )
        ClubGame.objects.filter(game=state.game).update(round=row, table=number)
        make_scorer_link(public_id=state.game.public_id)
    drawn = {"round": row.number, "tables": len(planned.tables)}
    history.log(night.club, by, "round_drawn", night.date.isoformat(), after=drawn)
    return row


@transaction.atomic
def close_round(*, night_id: int, by: Actor = NOBODY) -> Round | None:
    """The organiser closes the last round now: tables still playing are recorded as
    abandoned (settled as they stand, counting in no standings)."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    last, abandoned = _close_last_round(night, by)
    if last is not None and abandoned is not None:
        closed = {"round": last.number, "abandoned": abandoned}
        history.log(night.club, by, "round_closed", night.date.isoformat(), after=closed)
    return last


def _close_last_round(night: Night, by: Actor) -> tuple[Round | None, int | None]:
    """The night's last round closed, and how many of its tables were abandoned (None if
    there was no round to close)."""
    last = night.round_set.order_by("number").last()
    if last is None or last.closed_at is not None:
        return last, None
    playing = Game.objects.filter(club_game__round=last, summary__status=Summary.Status.PLAYING)
    abandoned = list(playing.values_list("public_id", flat=True))
    for public_id in abandoned:
        abandon_game(public_id=public_id, by=by)
    last.closed_at = timezone.now()
    last.save(update_fields=["closed_at"])
    return last, len(abandoned)


@transaction.atomic
def end_night(*, night_id: int, by: Actor = NOBODY) -> Night:
    """The night is over: its last round closed (tables still playing abandoned)."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    _, abandoned = _close_last_round(night, by)
    if night.ended_at is None:
        night.ended_at = timezone.now()
        night.save(update_fields=["ended_at"])
        # What still waits for confirmation is confirmed by itself (issue 40.2).
        confirming = Game.objects.filter(club_game__round__night=night).exclude(confirmation="off")
        for public_id in confirming.values_list("public_id", flat=True):
            confirm_waiting(public_id=public_id, by=by)
        ended = {"abandoned": abandoned or 0}
        history.log(night.club, by, "night_ended", night.date.isoformat(), after=ended)
        # The members who asked have its ranking mailed once it is for good: its job is
        # queued once this commits, and the worker sends it (scoring/clubs/mail.py).
        transaction.on_commit(partial(mail.mail_night.enqueue, night.pk))
    return night


@transaction.atomic
def reopen_night(*, night_id: int, by: Actor = NOBODY) -> Night:
    """An admin reopens a night that ended, to correct its games: they take changes again
    (clubs/access.py ``night_closed``), and its mail, already sent, goes out again as a
    correction when it ends again. Its abandoned games stay abandoned (an admin may resume
    one); its last round is open again, so that a game still playing at its next end is
    settled as it stands, as at the first."""
    night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
    if night.ended_at is None:
        return night
    history.log(
        night.club,
        by,
        "night_reopened",
        night.date.isoformat(),
        before={"id": night.pk, "ended_at": history.as_json(night.ended_at)},
    )
    night.ended_at, night.reopened_at = None, timezone.now()
    night.save(update_fields=["ended_at", "reopened_at"])
    # Its last round open again: a game resumed meanwhile is abandoned at the next end.
    last = night.round_set.order_by("number").last()
    if last is not None:
        last.closed_at = None
        last.save(update_fields=["closed_at"])
    # Due again at its next end, to every member who asked (mail.mail_night): a mail is
    # kept by the end it was sent for (MailSent.night_ended_at).
    return night
