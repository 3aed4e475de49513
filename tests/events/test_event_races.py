"""Two organisers drawing the same round at once (issue 41, item 8): one draws it, the other
is refused and shown it, and the event has one round. Fired many rounds over, each on a
fresh club, on PostgreSQL (row locks, concurrent connections); skipped on SQLite."""

from collections import Counter
from datetime import date

import pytest
from django.contrib.auth.models import User

from scoring.clubs.events import services
from scoring.clubs.members import services as member_services
from scoring.clubs.models import EventRound, Member
from scoring.clubs.nights import services as night_services
from scoring.common.rights import Actor
from tests.clubs.races import ROUNDS, at_once, new_club, racing, report, signed_in
from tests.events.factories import SETTINGS


@racing
@pytest.mark.django_db(transaction=True)
def test_one_round_drawn_twice_at_once_is_drawn_once_and_the_other_shown_it():
    outcomes = Counter()
    for round_ in range(ROUNDS):
        club, amina = new_club(round_)
        bilal = User.objects.create(username=f"bilal{round_}")
        member_services.add_member(club=club, name="Bilal")
        Member.objects.filter(club=club, name="Bilal").update(user=bilal, role="admin")
        for name in ("Chafik", "Dalila", "Emna"):
            member_services.add_member(club=club, name=name)
        players = list(Member.objects.filter(club=club).values_list("pk", flat=True))
        event = services.create_event(
            club=club,
            settings=SETTINGS,
            rules=club.rules,
            night=(date(2026, 3, 6), "", 3),
            by=Actor(user_id=amina.pk),
        )
        services.enter(event_id=event.pk, member_ids=players, guests=[])
        night_services.check_in(night_id=event.nights.get().pk, member_ids=players, guests=[])
        path = f"/clubs/{club.slug}/events/{event.pk}/draw"
        data = {"number": 1, "method": "random"}

        responses = at_once(
            *(
                lambda browser=browser, path=path, data=data: browser.post(path, data)
                for browser in (signed_in(amina), signed_in(bilal))
            )
        )

        statuses = sorted(response.status_code for response in responses)
        outcomes[tuple(statuses)] += 1
        refused = next(response for response in responses if response.status_code != 302)
        assert (statuses, EventRound.objects.filter(event=event).count()) == ([302, 409], 1)
        assert "Round 1 was just drawn, changed or published by another organiser" in (
            refused.content.decode()
        )
    report(outcomes)
