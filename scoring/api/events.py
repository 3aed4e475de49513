"""A club's events (issue 41, item 7): the list, and an event with its nights, its published
rounds (never a draft) and their tables, its ranking with every tie-break value, its
finals' standings and its money. Read from the facts the event's page reads
(scoring/clubs/events/ through the clubs' face), with the same rights: a public event
answers anyone, a private one whoever may read the club (:func:`.access.readable_club`);
the rounds it hides from players are left out unless the request may organise it."""

from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest
from django.urls import reverse
from ninja import Router

from ..clubs.face import (
    NAMED_COLUMNS,
    Club,
    Event,
    Member,
    Named,
    club_may,
    club_member,
    event_facts,
    event_prizes,
    points_text,
    sees_full_names,
    shown_names,
)
from ..common.rights import Action
from . import errors
from .access import readable_club
from .schemas import ERRORS, EventOut, EventsOut, Number, Slug

router = Router(tags=["events"])


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"api:{name}", kwargs=kwargs)


@router.get(
    "/clubs/{club}/events",
    response={200: EventsOut, **ERRORS},
    url_name="events",
    operation_id="events",
)
def events(request: HttpRequest, club: Slug) -> dict[str, Any]:
    """The club's events, newest first, with their entrants and published rounds counted:
    all of them for whoever may read the club, its public ones for anyone else."""
    found = Club.objects.filter(slug=club).first()
    if found is None:
        raise errors.not_found(errors.NO_CLUB)
    member = club_member(request, found)
    shown = Event.objects.filter(club=found)
    if not club_may(Action.SEE_CLUB, found, member):
        shown = shown.filter(public=True)
    shown = shown.annotate(
        entrants=Count("entries", distinct=True),
        published=Count("rounds", filter=Q(rounds__published_at__isnull=False), distinct=True),
    )
    return {
        "club": found.slug,
        "events": [
            {
                "id": one.pk,
                "name": one.name,
                "public": one.public,
                "entrants": one.entrants,
                "rounds_published": one.published,
                "ended_at": one.ended_at,
                "url": _url("event", club=found.slug, event_id=one.pk),
            }
            for one in shown
        ],
    }


def _readable_event(request: HttpRequest, slug: str, event_id: int) -> tuple[Event, Member | None]:
    """The event, if this request may read it: a public one answers anyone; a private one
    as its club does (401 signed out, 403 for an account that is no member)."""
    found = Event.objects.select_related("club").filter(club__slug=slug, pk=event_id).first()
    if found is None:
        if not Club.objects.filter(slug=slug).exists():
            raise errors.not_found(errors.NO_CLUB)
        raise errors.not_found(errors.NO_EVENT)
    if found.public:
        return found, club_member(request, found.club)
    _, member = readable_club(request, slug)
    return found, member


@router.get(
    "/clubs/{club}/events/{event_id}",
    response={200: EventOut, **ERRORS},
    url_name="event",
    operation_id="event",
)
def event(request: HttpRequest, club: Slug, event_id: Number) -> dict[str, Any]:
    """An event: its settings and nights, its published rounds with their tables, its
    ranking with each tie-break value, its finals and its money, in a fixed number of
    queries whatever its size."""
    found, member = _readable_event(request, club, event_id)
    organiser = club_may(Action.ORGANISE_EVENT, found.club, member)
    facts = event_facts(found)
    rows = [
        Named(*row) for row in Member.objects.filter(club=found.club_id).values_list(*NAMED_COLUMNS)
    ]
    shown = shown_names(rows, public=not sees_full_names(member))
    names = {row.pk: shown[row.key] for row in rows}

    def name(member_id: int) -> str:
        return names.get(member_id, "?")

    up_to = facts.shown_up_to(organiser)
    lines = facts.ranking(up_to_round=up_to)
    prizes = event_prizes(facts, lines)
    by_round: dict[int, list[Any]] = {}
    for table in facts.tables:
        by_round.setdefault(table.round, []).append(table)
    return {
        "club": found.club.slug,
        "id": found.pk,
        "name": found.name,
        "public": found.public,
        "ended_at": found.ended_at,
        "points": list(found.points),
        "sit_out_points": found.sit_out_points,
        "best_nights": found.best_nights,
        "min_attendance": None if found.min_attendance is None else str(found.min_attendance),
        "hide_last_rounds": found.hide_last_rounds,
        "hidden_from": None if up_to is None else up_to + 1,
        "final": found.final,
        "carry_over": found.carry_over,
        "nights": [
            {
                "id": night.pk,
                "date": night.date,
                "place": night.place,
                "rounds_planned": night.rounds,
            }
            for night in facts.nights
        ],
        "rounds": [
            {
                "number": one.number,
                "night": one.night_id,
                "method": one.method,
                "version": one.version,
                "published_at": one.published_at,
                "tables": [
                    {
                        "number": table.table,
                        "game": table.public_id,
                        "players": [name(player) for player in table.players],
                        "status": "settled" if table.settled is not None else table.status,
                        "hands": table.hands,
                        "totals": None if table.totals is None else list(table.totals),
                        "settled_reason": None if table.settled is None else table.settled.reason,
                    }
                    for table in by_round.get(one.number, [])
                ],
                "sitting_out": [name(player) for player in one.sitting_out],
            }
            for one in facts.published
            if up_to is None or one.number <= up_to
        ],
        "ranking": [
            {
                "rank": line.rank,
                "player": name(line.entrant),
                "rounds": line.rounds,
                "league_points": points_text(line.league_points),
                "points": line.points,
                "opponents": f"{line.opponents:.3f}",
                "firsts": line.firsts,
                "nights": line.nights,
                "eligible": line.eligible,
                "reason": line.reason,
                "decided_by": line.decided_by,
                "night_points": [points_text(points) for points in line.night_points],
                "counted_nights": list(line.counted_nights),
            }
            for line in lines
        ],
        "finals": [
            {
                "kind": kind,
                "standing": [
                    {
                        "place": line.place,
                        "player": name(line.entrant),
                        "carried": points_text(line.carried),
                        "final": line.final,
                        "total": points_text(line.total),
                        "decided_by": line.decided_by,
                    }
                    for line in standing
                ],
            }
            for kind, standing in prizes.finals
        ],
        "money": {
            "entry_fee": str(prizes.fee.normalize()) if prizes.fee else "0",
            "currency": prizes.currency,
            "pool": str(prizes.pool),
            "prize_kind": found.prize_kind,
            "prize_list": [str(value) for value in found.prizes],
            "prizes": [
                {
                    "place": one.place,
                    "player": name(one.member_id),
                    "amount": None if one.amount is None else str(one.amount),
                }
                for one in prizes.places
            ],
        },
        "links": {
            "page": reverse("event", args=[found.club.slug, found.pk]),
            "ranking_csv": reverse("event_ranking_csv", args=[found.club.slug, found.pk]),
            "ranking_pdf": reverse("event_ranking_pdf", args=[found.club.slug, found.pk]),
            "prizes_csv": reverse("event_prizes_csv", args=[found.club.slug, found.pk]),
            "records": reverse("event_records", args=[found.club.slug, found.pk]),
        },
    }
