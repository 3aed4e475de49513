"""The mail members ask for (issue 22.6): after each night its ranking and money, at a
season's end its standings; once each, in the member's language, with a link that stops it
without logging in."""

import io
import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail as django_mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone, translation

from scoring.clubs import mail, privacy
from scoring.clubs import services as club_services
from scoring.clubs.models import ClubResult, MailChoice, MailSent, Member, Night
from scoring.clubs.nights import services as night_services
from scoring.clubs.nights.pages import night_money
from scoring.common.words import say_day
from tests.clubs.factories import account, signed_in, with_role
from tests.clubs.mail_choice import opt_in, verified
from tests.clubs.night_money import (
    BOULMOUS_MADE,
    new_night,
    play_two_rounds,
    record,
    round_games,
    url,
)
from tests.jobs import queued, run_jobs

pytestmark = pytest.mark.django_db


def player_account(club, name):
    """The club's player ``name`` with an account and a verified address."""
    user = account(name.lower())
    Member.objects.filter(club=club, name=name).update(user=user)
    verified(user, f"{name.lower()}@example.org")
    return user


@pytest.fixture
def readers(club, amina):
    """Amina (English) and Bilal (French) want the night's mail; Chafik has an account and
    a verified address, but asked for nothing."""
    verified(amina, "amina@example.org")
    opt_in(amina, club, "en", nights=True)
    opt_in(player_account(club, "Bilal"), club, "fr", nights=True)
    player_account(club, "Chafik")
    return club


def play_a_round(organiser, night):
    organiser.post(url(night, "draw"))
    for game in round_games(night, 1):
        record(game, *[BOULMOUS_MADE] * 4)


def sent_to(address):
    return [message for message in django_mail.outbox if message.to == [address]]


def unsubscribe_link(message):
    return message.extra_headers["List-Unsubscribe"].strip("<>")


def send_night(night_id):
    """The night's job run, then the mails it queued: how many went out."""
    mail.mail_night.call(night_id)
    return run_jobs().count(mail.SENT)


def send_due():
    """The catch-up's jobs queued, then run: how many mails went out."""
    mail.queue_due()
    return run_jobs().count(mail.SENT)


def test_night_mail_queued_once_the_ending_request_commits(
    readers, organiser, django_capture_on_commit_callbacks
):
    night = new_night(readers)
    play_a_round(organiser, night)
    with django_capture_on_commit_callbacks() as callbacks:
        response = organiser.post(url(night, "end"))
    before = (len(queued()), len(django_mail.outbox))
    for callback in callbacks:
        callback()
    jobs = [job.task_path for job in queued()]
    run_jobs()

    assert (response.status_code, before, jobs) == (302, (0, 0), [mail.mail_night.module_path])
    assert sorted(message.to[0] for message in django_mail.outbox) == [
        "amina@example.org",
        "bilal@example.org",
    ]


@pytest.mark.django_db(transaction=True)
def test_night_mail_job_queued_by_the_ending_request(readers, organiser):
    night = new_night(readers)
    play_a_round(organiser, night)
    # Committed for real: the request queues the night's job, and sends nothing itself.
    response = organiser.post(url(night, "end"))
    during = len(django_mail.outbox)
    run_jobs()

    assert (response.status_code, during) == (302, 0)
    assert sorted(m.to[0] for m in django_mail.outbox) == [
        "amina@example.org",
        "bilal@example.org",
    ]


def test_night_mail_content_ranking_and_money(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    assert send_night(night.pk) == 2
    (message,) = sent_to("amina@example.org")
    text = message.body
    html = message.alternatives[0][0]
    assert message.alternatives[0][1] == "text/html"
    with translation.override("en"):
        money = night_money(readers, night)
        day = say_day(night.date)
    assert money is not None
    assert message.subject == f"Sfax: the ranking of the night of {day}"
    for payment in money.payments:
        line = f"{payment.payer} pays {payment.payee} {payment.amount}"
        assert (line in text, line in html) == (True, True)
    for balance in money.balances:
        assert (f"{balance.player}: {balance.amount}" in text) is True
    ranking = re.findall(r"^(\d+)\. (.+?): (\d+) league points?", text, flags=re.MULTILINE)
    # Ranked: whoever sat at a game of the night that was won (a round's game may be left
    # unfinished when the round closes, as the draw and the random play make it).
    ranked = ClubResult.objects.filter(game__club_game__round__night=night)
    assert ranking[0][0] == "1"
    assert sorted(name for _, name, _ in ranking) == sorted(
        set(ranked.values_list("name", flat=True))
    )
    assert f"http://testserver/clubs/sfax/nights/{night.pk}/ranking" in text
    assert unsubscribe_link(message) in text
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


@pytest.mark.parametrize(
    ("language", "subject", "heading", "direction"),
    [
        ("en", "Sfax: the ranking of the night of {day}", "The night's ranking", "ltr"),
        (
            "fr",
            "Sfax\u00a0: le classement de la soirée du {day}",
            "Le classement de la soirée",
            "ltr",
        ),
        ("ar", "\u2068Sfax\u2069: ترتيب أمسية {day}", "ترتيب الأمسية", "rtl"),
    ],
)
def test_night_mail_in_the_members_language(
    club, amina, organiser, language, subject, heading, direction
):
    verified(amina, "amina@example.org")
    opt_in(amina, club, language, nights=True)
    assert MailChoice.objects.get(member__user=amina).language == language
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    send_night(night.pk)
    (message,) = django_mail.outbox
    with translation.override(language):
        day = say_day(night.date)
        money = night_money(club, night)
    assert message.subject == subject.format(day=day)
    assert (heading in message.body) is True
    html = message.alternatives[0][0]
    assert (f'lang="{language}" dir="{direction}"' in html) is True
    assert money is not None
    assert (money.payments[0].amount in message.body) is True


def test_night_mail_not_sent_twice(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    assert send_night(night.pk) == 2
    assert send_night(night.pk) == 0
    assert send_due() == 0
    call_command("send_club_mail", stdout=io.StringIO())
    assert len(django_mail.outbox) == 2
    assert MailSent.objects.filter(night=night).count() == 2


def test_night_reopened_then_ended_again_is_mailed_again_as_a_correction(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    first = send_night(night.pk)
    organiser.post(url(night, "reopen"))
    while_open = send_night(night.pk)
    night_services.end_night(night_id=night.pk)
    again = send_night(night.pk)

    english, french = sent_to("amina@example.org"), sent_to("bilal@example.org")
    with translation.override("en"):
        day = say_day(night.date)
    assert (first, while_open, again, send_due()) == (2, 0, 2, 0)
    # Nothing is lost: the first mails' rows are kept beside the correction's.
    ends = MailSent.objects.filter(night=night).values_list("night_ended_at", flat=True)
    assert sorted(Counter(ends).values()) == [2, 2]
    assert [message.subject for message in english] == [
        f"Sfax: the ranking of the night of {day}",
        f"Correction: Sfax: the ranking of the night of {day}",
    ]
    assert french[1].subject == f"Correction\u00a0: {french[0].subject}"
    correction = (
        "Correction: the night was reopened and its games corrected. This ranking and this "
        "money replace those mailed before."
    )
    assert (correction in english[0].body, correction in english[1].body) == (False, True)
    assert correction in english[1].alternatives[0][0]


def test_queue_due_looks_no_more_at_nights_mailed(readers, organiser, django_assert_num_queries):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    send_night(night.pk)
    # The nights waited for, the disputes waited for, the first seasons' choice.
    with django_assert_num_queries(3):
        assert mail.queue_due() == 0


def test_night_mail_not_sent_to_those_who_did_not_ask(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    send_night(night.pk)
    assert sent_to("chafik@example.org") == []


def test_night_mail_not_sent_for_a_night_still_playing(readers, organiser):
    night = new_night(readers)
    play_a_round(organiser, night)
    assert send_night(night.pk) == 0
    assert send_due() == 0
    assert django_mail.outbox == []


def test_night_mail_not_sent_for_a_night_ended_before_the_choice(club, amina, organiser):
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    verified(amina, "amina@example.org")
    opt_in(amina, club, nights=True)
    assert send_due() == 0


def test_send_club_mail_queues_the_nights_due(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)  # ended in the test's transaction: not queued
    said = io.StringIO()
    call_command("send_club_mail", stdout=said)
    before = len(django_mail.outbox)
    run_jobs()
    assert (said.getvalue(), before, len(django_mail.outbox)) == ("2 mail(s) queued.\n", 0, 2)
    assert send_due() == 0


def test_season_mail_sent_once_when_its_last_day_is_over(club, amina, organiser):
    verified(amina, "amina@example.org")
    opt_in(amina, club, "fr", seasons=True)
    MailChoice.objects.update(chosen_at=datetime(2025, 1, 1, tzinfo=UTC))
    season = club_services.create_season(
        club=club,
        name="Printemps 2025",
        slug="printemps-2025",
        first_day=date(2025, 3, 1),
        last_day=date(2025, 5, 31),
        points=(3, 2, 1, 0),
    )
    today = timezone.now().astimezone(ZoneInfo("Africa/Tunis")).date()  # the club's
    club_services.create_season(
        club=club,
        name="En cours",
        slug="en-cours",
        first_day=today - timedelta(days=3),
        last_day=today,
        points=(3, 2, 1, 0),
    )
    night = new_night(club)
    play_two_rounds(club, organiser, night)
    # The night's games finished on its day, in the season.
    ClubResult.objects.update(finished_at=datetime(2025, 3, 7, 20, tzinfo=UTC))
    assert send_due() == 1
    assert send_due() == 0
    (message,) = django_mail.outbox
    assert message.subject == "Sfax\u00a0: le classement final de Printemps 2025"
    first = re.search(
        r"^1\. (\w+)\u00a0: (\d+) points de championnat", message.body, flags=re.MULTILINE
    )
    assert first is not None
    assert (first.group(1) in message.alternatives[0][0]) is True
    assert f"http://testserver/clubs/sfax/seasons/{season.slug}/" in message.body
    assert MailSent.objects.get().season == season


def test_unsubscribe_asks_then_stops_without_logging_in(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    send_night(night.pk)
    (message,) = sent_to("amina@example.org")
    link = unsubscribe_link(message).removeprefix("http://testserver")
    stranger = Client(enforce_csrf_checks=True)
    asked = stranger.get(link)
    assert asked.status_code == 200
    assert MailChoice.objects.get(member__name="Amina").nights is True
    done = stranger.post(link)
    assert done.status_code == 200
    assert MailChoice.objects.get(member__name="Amina").nights is False
    assert MailChoice.objects.get(member__name="Bilal").nights is True


def test_unsubscribe_one_click_post(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)
    send_night(night.pk)
    (message,) = sent_to("bilal@example.org")
    link = unsubscribe_link(message).removeprefix("http://testserver")
    response = Client(enforce_csrf_checks=True).post(link, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert MailChoice.objects.get(member__name="Bilal").nights is False
    night_two = new_night(readers)
    play_a_round(organiser, night_two)
    night_services.end_night(night_id=night_two.pk)
    send_night(night_two.pk)
    assert len(sent_to("bilal@example.org")) == 1


def test_unsubscribe_refused_when_tampered(readers):
    member = Member.objects.get(club=readers, name="Amina")
    token = mail.unsubscribe_token(member.pk, mail.NIGHTS)
    other = Member.objects.get(club=readers, name="Bilal")
    # Another member's id with Amina's signature.
    forged = ":".join(
        [mail.unsubscribe_token(other.pk, mail.NIGHTS).split(":", 1)[0], token.split(":", 1)[1]]
    )
    stranger = Client()
    for link in (
        f"/mail/unsubscribe/nights/{forged}",
        f"/mail/unsubscribe/nights/{token}x",
        f"/mail/unsubscribe/seasons/{token}",  # signed for the nights' mail only
        f"/mail/unsubscribe/other/{token}",
    ):
        assert stranger.post(link).status_code == 400
    assert list(MailChoice.objects.order_by("member__name").values_list("nights", flat=True)) == [
        True,
        True,
    ]


def test_club_mail_page_refused_to_a_stranger(readers):
    assert signed_in(account("zoubir")).get("/clubs/sfax/mail").status_code == 403
    assert Client().get("/clubs/sfax/mail").status_code == 302


def test_club_mail_page_refuses_without_a_verified_address(club, amina):
    browser = signed_in(amina)
    response = browser.post("/clubs/sfax/mail", {"nights": "on"})
    assert response.status_code == 422
    assert MailChoice.objects.count() == 0


def test_club_mail_page_shows_the_choice(readers, amina):
    page = signed_in(amina).get("/clubs/sfax/mail?saved=1")
    assert page.status_code == 200
    content = page.content.decode()
    assert ('name="nights" checked' in content, 'name="seasons" checked' in content) == (
        True,
        False,
    )


def test_mail_choice_goes_with_the_account_detached(readers, organiser):
    bilal = Member.objects.get(club=readers, name="Bilal")
    privacy.remove_member(club=readers, member_id=bilal.pk)
    night = new_night(readers, ("Amina", "Chafik", "Dalila", "Emna"))
    play_a_round(organiser, night)
    night_services.end_night(night_id=night.pk)
    send_night(night.pk)
    assert [message.to for message in django_mail.outbox] == [["amina@example.org"]]
    assert MailChoice.objects.filter(member=bilal).count() == 0


# --- A night with no game counted (issue 39 finding 5) ---------------------------------------


def test_nights_ended_with_no_game_counted_mail_nobody(readers, django_capture_on_commit_callbacks):
    """A scorer creating and ending nights with no game made the club mail every member who
    asked, each time: only a night with a counted game is mailed now."""
    scorer = signed_in(with_role(readers, "Sami", Member.Role.SCORER))
    for day in ("2025-03-07", "2025-03-08", "2025-03-09"):
        scorer.post("/clubs/sfax/nights/new", {"date": day, "place": "", "rounds": ""})
    abandoned = new_night(readers)
    scorer.post(url(abandoned, "draw"))  # a round drawn, then ended with its tables playing

    with django_capture_on_commit_callbacks(execute=True):
        answers = [
            scorer.post(url(night, "end"), {"confirm": "1", "choice": "settle"}).status_code
            for night in Night.objects.order_by("pk")
        ]

    assert (answers, django_mail.outbox, send_due()) == ([302] * 4, [], 0)
    assert MailSent.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "No game counted this night: no mail was sent to the members."),
        (
            "fr",
            "Aucune partie comptée pendant cette soirée\u00a0: aucun e-mail n’a été envoyé "
            "aux membres.",
        ),
        ("ar", "لم تُحتسب أي مباراة في هذه الأمسية: لم يُرسل أي بريد إلى الأعضاء."),
    ],
)
def test_night_ended_with_no_game_counted_says_no_mail_went(readers, organiser, language, said):
    night = new_night(readers)

    response = organiser.post(url(night, "end"), follow=True, HTTP_ACCEPT_LANGUAGE=language)

    assert (response.status_code, said in response.content.decode()) == (200, True)


def test_night_ended_with_a_game_counted_says_nothing_of_mail(readers, organiser):
    night = new_night(readers)
    play_two_rounds(readers, organiser, night)

    response = organiser.get(url(night))

    assert "no mail was sent" not in response.content.decode()
