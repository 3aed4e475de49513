"""Mail as jobs (issue 43.4): a mail server that refuses has each mail tried again 1, 5 and
30 minutes, then 6 hours later, then given up; a job run twice sends once; the club's
admins see the mail that did not go out, with the server's reason and the next try."""

import smtplib
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail as django_mail
from django.core.mail.backends.base import BaseEmailBackend

from scoring.accounts import verification
from scoring.clubs import mail
from scoring.clubs.models import MailSent, MailTry, Member
from scoring.infra.retries import BACKOFF, retry_at
from tests.clubs.factories import signed_in, with_role
from tests.clubs.mail_choice import opt_in, verified
from tests.clubs.night_money import new_night, play_two_rounds
from tests.jobs import queued, run_jobs, run_next

pytestmark = pytest.mark.django_db

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


class Refusing(BaseEmailBackend):
    """A mail server that answers 451 to every mail: the test's, not ours."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPDataError(451, b"4.3.0 Try again later")


class Broken(BaseEmailBackend):
    """A fault that no later try mends."""

    def send_messages(self, email_messages):
        raise ValueError("no template")


REFUSING = f"{__name__}.Refusing"
BROKEN = f"{__name__}.Broken"


@pytest.fixture
def night_ended(club, amina, organiser):
    """Amina alone asked for the nights' mail; a night with games counted has ended."""
    verified(amina, "amina@example.org")
    opt_in(amina, club, nights=True)
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    return night


def test_retry_at_backs_off_1_5_30_minutes_then_6_hours_then_gives_up():
    failed_at = datetime(2026, 12, 5, 23, 50, tzinfo=UTC)
    waits = [retry_at(attempt, failed_at) for attempt in range(1, 6)]
    assert waits == [
        failed_at + timedelta(minutes=1),
        failed_at + timedelta(minutes=5),
        failed_at + timedelta(minutes=30),
        failed_at + timedelta(hours=6),
        None,
    ]


def test_mail_refused_is_tried_again_with_back_off_then_given_up(night_ended, settings):
    settings.EMAIL_BACKEND = REFUSING
    mail.mail_night.call(night_ended.pk)
    tries = []
    while run_next(later=True) is not None:
        tried = MailTry.objects.get()
        (waiting,) = queued(mail.send_one.module_path) or [None]
        tries.append(
            (
                tried.attempts,
                tried.retry_at - tried.failed_at if tried.retry_at else None,
                waiting.run_after == tried.retry_at if waiting else None,
            )
        )

    tried = MailTry.objects.get()
    assert tries == [
        (1, BACKOFF[0], True),
        (2, BACKOFF[1], True),
        (3, BACKOFF[2], True),
        (4, BACKOFF[3], True),
        (5, None, None),
    ]
    assert (tried.reason, tried.retry_at, MailSent.objects.count()) == (
        "451 4.3.0 Try again later",
        None,
        0,
    )
    # Given up: the catch-up queues it no more, even once the server is back.
    settings.EMAIL_BACKEND = LOCMEM
    assert (mail.queue_due(), django_mail.outbox) == (0, [])


def test_mail_refused_once_then_sent_once_and_its_failure_cleared(night_ended, settings):
    settings.EMAIL_BACKEND = REFUSING
    mail.mail_night.call(night_ended.pk)
    first = run_jobs()
    settings.EMAIL_BACKEND = LOCMEM
    second = run_jobs(later=True)

    assert (first, second) == ([mail.RETRY], [mail.SENT])
    assert (len(django_mail.outbox), MailTry.objects.count(), MailSent.objects.count()) == (
        1,
        0,
        1,
    )


def test_mail_job_run_twice_sends_once(night_ended):
    amina = Member.objects.get(club=night_ended.club, name="Amina")
    for _ in range(2):
        mail.send_one.enqueue(amina.pk, mail.NIGHTS, night_ended.pk)

    assert run_jobs() == [mail.SENT, mail.HAD]
    assert (len(django_mail.outbox), MailSent.objects.count()) == (1, 1)


def test_mail_failing_for_another_reason_is_given_up_at_once(night_ended, settings):
    settings.EMAIL_BACKEND = BROKEN
    mail.mail_night.call(night_ended.pk)

    assert run_jobs(later=True) == [mail.FAILED]
    tried = MailTry.objects.get()
    assert (tried.attempts, tried.retry_at, tried.reason) == (1, None, "ValueError: no template")


def test_mail_not_asked_for_any_more_is_not_sent_by_its_retry(night_ended, settings):
    settings.EMAIL_BACKEND = REFUSING
    mail.mail_night.call(night_ended.pk)
    run_jobs()
    mail.unsubscribe(member_id=MailTry.objects.get().member_id, what=mail.NIGHTS)
    settings.EMAIL_BACKEND = LOCMEM

    assert (run_jobs(later=True), django_mail.outbox) == ([mail.NOT_DUE], [])


@pytest.mark.parametrize(
    ("language", "heading", "next_try"),
    [
        ("en", "Mail not delivered", "Tried again on"),
        ("fr", "E-mails non remis", "Nouvel essai le"),
        ("ar", "بريد لم يُسلَّم", "محاولة جديدة في"),
    ],
)
def test_club_mail_page_lists_the_failures_to_admins_alone(
    night_ended, settings, amina, language, heading, next_try
):
    settings.EMAIL_BACKEND = REFUSING
    mail.mail_night.call(night_ended.pk)
    run_jobs()
    member = with_role(night_ended.club, "Youssef", Member.Role.MEMBER)
    verified(member, "youssef@example.org")

    seen = [
        signed_in(user).get("/clubs/sfax/mail", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for user in (amina, member)
    ]

    assert [heading in page for page in seen] == [True, False]
    assert [next_try in page for page in seen] == [True, False]
    assert ("451 4.3.0 Try again later" in seen[0]) is True


def test_club_mail_page_says_a_mail_given_up(night_ended, settings, amina):
    settings.EMAIL_BACKEND = BROKEN
    mail.mail_night.call(night_ended.pk)
    run_jobs()

    page = signed_in(amina).get("/clubs/sfax/mail").content.decode()

    assert ("Given up." in page, "Failed 1 time, last on" in page) == (True, True)


def test_account_mail_refused_is_tried_again_then_given_up(db, settings):
    settings.EMAIL_BACKEND = REFUSING
    verification.send_account_mail.enqueue("Verify", "The link", "amina@example.org")
    tries = []
    while (job := next(iter(queued()), None)) is not None:
        tries.append(job.args_kwargs["args"][4:])
        run_next(later=True)

    # Each next try queued with its number, the fifth the last.
    assert tries == [[], [2], [3], [4], [5]]
    assert django_mail.outbox == []


def test_account_mail_sent_once_the_server_takes_it(db, settings):
    settings.EMAIL_BACKEND = REFUSING
    verification.send_account_mail.enqueue("Verify", "The link", "amina@example.org")
    first = run_jobs()
    settings.EMAIL_BACKEND = LOCMEM

    assert (first, run_jobs(later=True)) == ([verification.RETRY], [verification.SENT])
    assert [message.subject for message in django_mail.outbox] == ["Verify"]
