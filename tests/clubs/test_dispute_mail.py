"""The club's admins who asked are mailed when a hand of a club game is disputed (issue
40.3): once the dispute is written and its request answered, never inside it; once each,
in the admin's language, with the referee's page to decide it and a link that stops it;
``send_club_mail`` sends those still due while the dispute is not decided."""

import re
import uuid

import pytest
from django.core import mail as django_mail
from django.test import Client

from scoring.accounts import services as account_services
from scoring.clubs import mail
from scoring.clubs import services as club_services
from scoring.clubs.models import Club, MailChoice, MailSent, Member
from scoring.table import services
from scoring.table.forms import HandForm
from scoring.table.models import Dispute
from tests.clubs.factories import signed_in, with_role
from tests.factories import hand_data
from tests.jobs import run_jobs

pytestmark = pytest.mark.django_db

NAMES = ("Amina", "Chafik", "Bilal", "Dalila")


def verified(user, address):
    account_services.change_email(user=user, address=address)
    account_services.verify_email(user_id=user.pk, address=address)


def opt_in(user, club, language="en", **choice):
    response = signed_in(user).post(
        f"/clubs/{club.slug}/mail",
        {key: "on" for key, wanted in choice.items() if wanted},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 302
    return MailChoice.objects.get(member__user=user)


def club_game(club):
    Club.objects.filter(pk=club.pk).update(confirmation="each_hand")
    club.refresh_from_db()
    game = club_services.start_club_game(club=club, names=NAMES, first_dealer=0, owner_id=None).game
    form = HandForm(hand_data(1), names=NAMES)
    assert form.is_valid(), form.errors
    services.record_hand(
        public_id=game.public_id, number=1, hand=form.cleaned_data["hand"], token=uuid.uuid4()
    )
    return game


def chafiks_phone(game):
    link = services.make_seat_links(public_id=game.public_id)[1]
    phone = Client()
    phone.post("/seat", {"code": link.code})
    return phone


def send_due():
    """The catch-up's jobs queued, then run: how many mails went out."""
    mail.queue_due()
    return run_jobs().count(mail.SENT)


def dispute(phone, game, reason="Bilal made 4"):
    return phone.post(f"/games/{game.public_id}/dispute", {"number": "1", "reason": reason})


@pytest.fixture
def referee(club, amina):
    """Amina, the club's admin, asked for the disputes' mail."""
    verified(amina, "amina@example.org")
    opt_in(amina, club, disputes=True)
    return amina


@pytest.mark.django_db(transaction=True)
def test_admin_who_asked_is_mailed_by_the_job_the_dispute_queued(club, referee):
    game = club_game(club)

    response = dispute(chafiks_phone(game), game)
    during = len(django_mail.outbox)
    run_jobs()

    assert (response.status_code, during) == (302, 0)
    assert [(message.to, message.subject) for message in django_mail.outbox] == [
        (["amina@example.org"], "Sfax: hand 1 disputed")
    ]
    body = django_mail.outbox[0].body
    assert "Chafik disputed hand 1 (Amina, Chafik, Bilal, Dalila):\nBilal made 4" in body
    assert f"/games/{game.public_id}/hands/1/decide" in body
    assert MailSent.objects.filter(dispute__game=game).count() == 1


def test_dispute_mail_waits_for_the_disputes_commit(
    club, referee, django_capture_on_commit_callbacks
):
    game = club_game(club)

    with django_capture_on_commit_callbacks() as callbacks:
        dispute(chafiks_phone(game), game)
    during = len(django_mail.outbox)
    for callback in callbacks:
        callback()
    run_jobs()

    assert (during, len(django_mail.outbox)) == (0, 1)


def test_dispute_mail_sent_once(club, referee):
    game = club_game(club)
    dispute(chafiks_phone(game), game)
    found = Dispute.objects.get(game=game)

    sent = []
    for _ in range(2):
        mail.mail_dispute.call(found.pk)
        sent.append(run_jobs().count(mail.SENT))
    sent.append(send_due())

    assert (sent, len(django_mail.outbox)) == ([1, 0, 0], 1)


def test_queue_due_sends_the_open_disputes_not_mailed_and_not_the_decided(club, referee):
    game = club_game(club)
    dispute(chafiks_phone(game), game)  # its mail waits for a commit the test never makes
    other = club_game(club)
    dispute(chafiks_phone(other), other)
    services.decide_dispute(public_id=other.public_id, number=1, reason="Recounted")

    assert (send_due(), [message.to for message in django_mail.outbox]) == (
        1,
        [["amina@example.org"]],
    )


def test_dispute_mail_not_sent_to_an_admin_who_did_not_ask_nor_to_a_member(club, amina):
    verified(amina, "amina@example.org")
    opt_in(amina, club, nights=True)
    bilal = with_role(club, "Youssef", Member.Role.MEMBER)
    verified(bilal, "youssef@example.org")
    opt_in(bilal, club, disputes=True)  # not offered to a member: not kept
    game = club_game(club)
    dispute(chafiks_phone(game), game)

    assert (send_due(), MailChoice.objects.get(member__user=bilal).disputes) == (0, False)


def test_dispute_mail_in_the_admins_language(club, amina):
    verified(amina, "amina@example.org")
    opt_in(amina, club, "fr", disputes=True)
    game = club_game(club)
    dispute(chafiks_phone(game), game)

    send_due()

    message = django_mail.outbox[0]
    assert message.subject == "Sfax\u00a0: donne 1 contestée"
    assert "Chafik a contesté la donne 1" in message.body


def test_mail_page_offers_the_disputes_mail_to_admins_alone(club, amina):
    verified(amina, "amina@example.org")
    member = with_role(club, "Youssef", Member.Role.MEMBER)
    verified(member, "youssef@example.org")

    offered = [
        'name="disputes"' in signed_in(user).get(f"/clubs/{club.slug}/mail").content.decode()
        for user in (amina, member)
    ]

    assert offered == [True, False]


def test_dispute_mail_stopped_by_its_link(club, referee):
    game = club_game(club)
    dispute(chafiks_phone(game), game)
    send_due()
    link = django_mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = re.sub(r"^https?://[^/]+", "", link)

    asked = Client().get(path).content.decode()
    done = Client().post(path)

    assert "when a hand is disputed?" in asked
    assert (done.status_code, MailChoice.objects.get(member__user=referee).disputes) == (
        200,
        False,
    )
