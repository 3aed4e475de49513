"""The mail members ask for (issue 22.6): after each night its ranking and money, at a
season's end its standings. A member with an account chooses it per club (``choose``); each
mail goes out once per member and end of a night or season (a ``MailSent`` row, written in
the same transaction as the sending), in the language he chose it in, with a signed link
that stops it without logging in.

Each mail is a job (issue 43.4; docs/deploy.md, "The worker"): the transaction that ends a
night queues, once it commits, the night's job (``mail_night``), which queues one job per
member due (``send_one``); a night an admin reopened is mailed again, marked as a
correction, when it ends again (services.end_night). A job run twice sends once: the
``MailSent`` row and the sending share a transaction, and a job that finds the row sends
nothing. A mail server that refuses the mail or cannot be reached has it tried again 1, 5
and 30 minutes, then 6 hours later (scoring/infra/retries.py), then it is given up: each
such mail is a ``MailTry`` row, with the server's reason and when it is tried again, which
the club's admins see on the club's mail page.

An admin may ask for a mail when a hand of one of the club's games is disputed (issue
40.3), to decide it: queued the same way once the dispute's transaction commits
(``mail_dispute``). A season's standings go once its last day is over: ``queue_due``, run
by the daily job (scoring/management/daily.py) and by ``manage.py send_club_mail``, queues
every mail still due (seasons over, and nights and disputes whose jobs were lost), never
sending one itself."""

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django_tasks import task

from ..common.words import elide, isolate
from ..infra.retries import retry_at, worth_retrying
from ..table.face import Dispute
from .league.pages import counted_games, standing_rows
from .league.standings import night_standings, season_standings
from .models import Club, ClubResult, MailChoice, MailSent, MailTry, Member, Night, Season
from .nights.pages import night_money

logger = logging.getLogger(__name__)

NIGHTS = "nights"
SEASONS = "seasons"
DISPUTES = "disputes"
WHAT = (NIGHTS, SEASONS, DISPUTES)


def _salt(what: str) -> str:
    return f"boulmous.clubs.mail.unsubscribe.{what}"


def unsubscribe_token(member_id: int, what: str) -> str:
    """The signed part of the link that stops one kind of mail for one member: it never
    expires, and a token for the nights' mail does not stop the seasons'."""
    return signing.dumps(member_id, salt=_salt(what))


def read_token(token: str, what: str) -> int | None:
    """The member a token names, or None if this site did not sign it for ``what``."""
    if what not in WHAT:
        return None
    try:
        member_id = signing.loads(token, salt=_salt(what))
    except signing.BadSignature:
        return None
    return member_id if isinstance(member_id, int) else None


def address_of(member: Member) -> str | None:
    """The member's account's verified address: the only one mail goes to."""
    user = member.user
    found = getattr(user, "account_email", None) if user is not None else None
    return found.address if found is not None and found.verified else None


# The member's choice: one write path each.


@transaction.atomic
def choose(
    *,
    member_id: int,
    nights: bool,
    seasons: bool,
    language: str,
    origin: str,
    disputes: bool = False,
) -> MailChoice:
    """What the member wants mailed, from now on, in ``language``, with links to ``origin``;
    ``disputes``, an admin's alone (another member's is kept off)."""
    member = Member.objects.select_for_update().get(pk=member_id)
    disputes = disputes and member.role == Member.Role.ADMIN
    choice, created = MailChoice.objects.get_or_create(
        member=member,
        defaults={
            "nights": nights,
            "seasons": seasons,
            "disputes": disputes,
            "language": language,
            "origin": origin,
        },
    )
    if not created:
        # Newly asked for: from now on, not the nights, seasons and disputes before.
        asked = (nights, seasons, disputes)
        had = (choice.nights, choice.seasons, choice.disputes)
        if any(now and not before for now, before in zip(asked, had, strict=True)):
            choice.chosen_at = timezone.now()
        choice.nights, choice.seasons, choice.disputes = nights, seasons, disputes
        choice.language, choice.origin = language, origin
        choice.save()
    return choice


@transaction.atomic
def unsubscribe(*, member_id: int, what: str) -> None:
    """No more of this kind of mail for this member (nothing if he had none)."""
    MailChoice.objects.filter(member_id=member_id).update(**{what: False})


# The mails.


@dataclass(frozen=True)
class Mail:
    subject: str
    text: str
    html: str
    unsubscribe: str


def _links(choice: MailChoice, what: str, page: str) -> dict[str, str]:
    stop = reverse("mail_unsubscribe", args=[what, unsubscribe_token(choice.member_id, what)])
    return {"page": choice.origin + page, "unsubscribe": choice.origin + stop}


def night_mail(choice: MailChoice, night: Night) -> Mail:
    """The night's ranking and money, as the club's members see them, in the member's
    language; marked as a correction once an admin has reopened the night
    (services.reopen_night)."""
    club = night.club
    with translation.override(choice.language), timezone.override(club.time_zone):
        rows = standing_rows(club, night_standings(night, public=False))
        links = _links(choice, NIGHTS, reverse("night_ranking", args=[club.slug, night.pk]))
        context = {
            "club": club,
            "night": night,
            "rows": rows,
            "games": counted_games(rows),
            "money": night_money(club, night),
            "what": gettext("a mail after each night"),
            "correction": gettext(
                "Correction: the night was reopened and its games corrected. This ranking "
                "and this money replace those mailed before."
            )
            if night.reopened_at is not None
            else "",
            **links,
        }
        subject = gettext("%(club)s: the ranking of the night of %(date)s") % {
            "club": isolate(club.name),
            "date": render_to_string("clubs/mail/day.txt", {"day": night.date}).strip(),
        }
        if night.reopened_at is not None:
            subject = gettext("Correction: %(subject)s") % {"subject": subject}
        return Mail(
            subject,
            render_to_string("clubs/mail/night.txt", context),
            render_to_string("clubs/mail/night.html", context),
            links["unsubscribe"],
        )


def season_mail(choice: MailChoice, season: Season) -> Mail:
    """The season's standings, as the club's members see them, in the member's language."""
    club = season.club
    with translation.override(choice.language), timezone.override(club.time_zone):
        rows = standing_rows(club, season_standings(club, season, public=False))
        links = _links(choice, SEASONS, reverse("season", args=[club.slug, season.slug]))
        context = {
            "club": club,
            "season": season,
            "rows": rows,
            "games": counted_games(rows),
            "what": gettext("a mail at each season's end"),
            **links,
        }
        subject = elide(
            gettext("%(club)s: the final standings of %(season)s")
            % {"club": isolate(club.name), "season": isolate(season.name)},
            [season.name],
        )
        return Mail(
            subject,
            render_to_string("clubs/mail/season.txt", context),
            render_to_string("clubs/mail/season.html", context),
            links["unsubscribe"],
        )


def dispute_mail(choice: MailChoice, dispute: Dispute, club: Club) -> Mail:
    """A hand of a club game disputed, to an admin who asked, in his language: who disputed
    which hand of which game and why, and the referee's page to decide it."""
    with translation.override(choice.language), timezone.override(club.time_zone):
        names = dispute.game.summary.names
        decide = reverse("decide", args=[dispute.game.public_id, dispute.hand_number])
        links = _links(choice, DISPUTES, decide)
        context = {
            "club": club,
            "dispute": dispute,
            "name": names[dispute.seat] if dispute.seat < len(names) else "",
            "players": gettext(", ").join(isolate(name) for name in names),
            "what": gettext("a mail when a hand is disputed"),
            **links,
        }
        subject = gettext("%(club)s: hand %(number)s disputed") % {
            "club": isolate(club.name),
            "number": dispute.hand_number,
        }
        return Mail(
            subject,
            render_to_string("clubs/mail/dispute.txt", context),
            render_to_string("clubs/mail/dispute.html", context),
            links["unsubscribe"],
        )


def _send(mail: Mail, address: str) -> None:
    message = EmailMultiAlternatives(
        mail.subject,
        mail.text,
        to=[address],
        headers={
            # RFC 2369 and RFC 8058: the mail client's own button stops it, in one POST.
            "List-Unsubscribe": f"<{mail.unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(mail.html, "text/html")
    message.send()


def _choices(club_id: int, what: str, since: Q) -> QuerySet[MailChoice]:
    return (
        MailChoice.objects.filter(since, member__club=club_id, **{what: True})
        .select_related("member__user__account_email")
        .order_by("member_id")
    )


def _counted_games(night: OuterRef | int) -> Exists:
    return Exists(ClubResult.objects.filter(game__club_game__round__night=night))


def mailed(night: Night) -> bool:
    """Whether the night, once ended, is mailed: only if one of its games counted. A night
    made and ended with no game would mail every member who asked, for nothing, as often as
    a scorer liked."""
    return Night.objects.filter(_counted_games(night.pk), pk=night.pk).exists()


def season_over(season: Season, club: Club) -> bool:
    """The season's last day is over in the club's zone."""
    return season.last_day < timezone.now().astimezone(ZoneInfo(club.time_zone)).date()


# What is due: the mail of a night, a season or a dispute, to each member who asked.


@dataclass(frozen=True)
class _Due:
    """One mail's subject and the members who may have it: ``choices`` (their choice, for
    this mail), ``key`` (its ``MailSent`` and ``MailTry`` columns) and how it is made."""

    choices: QuerySet[MailChoice]
    sent: dict[str, Any]
    tried: dict[str, Any]
    make: Callable[[MailChoice], Mail]


def _night_due(night_id: int) -> _Due | None:
    night = Night.objects.select_related("club").filter(pk=night_id).first()
    if night is None or night.ended_at is None or not mailed(night):
        return None
    return _Due(
        _choices(night.club_id, NIGHTS, Q(chosen_at__lte=night.ended_at)),
        {"night": night, "night_ended_at": night.ended_at},
        {"night": night},
        partial(_night_mail_of, night=night),
    )


def _night_mail_of(choice: MailChoice, *, night: Night) -> Mail:
    return night_mail(choice, night)


def _season_due(season_id: int) -> _Due | None:
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None or not season_over(season, season.club):
        return None
    # Chosen by its last day (that day in UTC: an hour either way is of no matter).
    return _Due(
        _choices(season.club_id, SEASONS, Q(chosen_at__date__lte=season.last_day)),
        {"season": season},
        {"season": season},
        partial(_season_mail_of, season=season),
    )


def _season_mail_of(choice: MailChoice, *, season: Season) -> Mail:
    return season_mail(choice, season)


def _dispute_due(dispute_id: int) -> _Due | None:
    """A dispute not decided yet, of a club game: to the club's admins who asked before it
    was raised."""
    dispute = (
        Dispute.objects.select_related("game__summary", "game__club_game__club")
        .filter(pk=dispute_id, decision__isnull=True)
        .first()
    )
    club_game = getattr(dispute.game, "club_game", None) if dispute is not None else None
    if dispute is None or club_game is None:
        return None
    club = club_game.club
    choices = (
        MailChoice.objects.filter(
            member__club=club,
            member__role=Member.Role.ADMIN,
            disputes=True,
            chosen_at__lte=dispute.at,
        )
        .select_related("member__user__account_email")
        .order_by("member_id")
    )
    return _Due(
        choices,
        {"dispute": dispute},
        {"dispute": dispute},
        partial(_dispute_mail_of, dispute, club),
    )


def _dispute_mail_of(dispute: Dispute, club: Club, choice: MailChoice) -> Mail:
    return dispute_mail(choice, dispute, club)


_DUE: dict[str, Callable[[int], _Due | None]] = {
    NIGHTS: _night_due,
    SEASONS: _season_due,
    DISPUTES: _dispute_due,
}


# The jobs: one to find who is due, then one per mail.


def _queue(what: str, target_id: int) -> int:
    """One job per member due the mail of ``what`` ``target_id``, who has not had it and
    whose earlier tries (since this end of the night) are not waiting or given up; how many
    were queued."""
    due = _DUE[what](target_id)
    if due is None:
        return 0
    had = set(MailSent.objects.filter(**due.sent).values_list("member_id", flat=True))
    tries = MailTry.objects.filter(**due.tried)
    night = due.sent.get("night")
    if isinstance(night, Night) and night.ended_at is not None:
        tries = tries.filter(failed_at__gte=night.ended_at)
    had |= set(tries.values_list("member_id", flat=True))
    queued = 0
    for choice in due.choices:
        if choice.member_id not in had and address_of(choice.member) is not None:
            send_one.enqueue(choice.member_id, what, target_id)
            queued += 1
    return queued


@task()
def mail_night(night_id: int) -> int:
    """The night's mail, queued once the transaction that ended it commits: one job per
    member who asked for it before it ended, if one of its games counted."""
    return _queue(NIGHTS, night_id)


@task()
def mail_season(season_id: int) -> int:
    """The season's standings, once its last day is over: one job per member who asked."""
    return _queue(SEASONS, season_id)


@task()
def mail_dispute(dispute_id: int) -> int:
    """A dispute's mail, queued once its transaction commits: one job per admin who asked."""
    return _queue(DISPUTES, dispute_id)


SENT = "sent"
HAD = "had"
NOT_DUE = "not due"
RETRY = "retry"
FAILED = "failed"


@task()
def send_one(member_id: int, what: str, target_id: int, attempt: int = 1) -> str:
    """One mail to one member, once: its ``MailSent`` row and its sending in one
    transaction, so that a job run twice sends once, and a mail server that fails leaves
    no row. Refused or unreachable, it is tried again later (``_failed``). What happened:
    SENT, HAD (sent before), NOT_DUE (no longer asked for, or no address), RETRY or FAILED."""
    due = _DUE[what](target_id) if what in _DUE else None
    choice = due.choices.filter(member_id=member_id).first() if due is not None else None
    address = address_of(choice.member) if choice is not None else None
    if due is None or choice is None or address is None:
        return NOT_DUE
    try:
        with transaction.atomic():
            _, created = MailSent.objects.get_or_create(member_id=member_id, **due.sent)
            if created:
                _send(due.make(choice), address)
    except Exception as error:  # any backend's failure: tried again, or given up
        return _failed(error, member_id, what, target_id, attempt, due.tried)
    MailTry.objects.filter(member_id=member_id, **due.tried).delete()
    return SENT if created else HAD


def reason_of(error: BaseException) -> str:
    """What the mail server said, or why it could not be reached, in its own words."""
    if isinstance(error, smtplib.SMTPResponseException):
        said = error.smtp_error
        text = said.decode(errors="replace") if isinstance(said, bytes) else str(said)
        return f"{error.smtp_code} {text}"[:500]
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return "; ".join(
            f"{address}: {code} {said.decode(errors='replace')}"
            for address, (code, said) in error.recipients.items()
        )[:500]
    return (f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)[:500]


@transaction.atomic
def _failed(
    error: BaseException,
    member_id: int,
    what: str,
    target_id: int,
    attempt: int,
    tried: dict[str, Any],
) -> str:
    """The try's failure written, and the next try queued in the same transaction: a
    mail server's refusal is tried again after the back-off, any other failure (the job's
    own) is given up at once, and logged."""
    now = timezone.now()
    later = retry_at(attempt, now) if worth_retrying(error) else None
    if later is None:
        logger.error(
            "Gave up club mail (%s %s) to member %s after %s tries",
            what,
            target_id,
            member_id,
            attempt,
            exc_info=error,
        )
    MailTry.objects.update_or_create(
        member_id=member_id,
        **tried,
        defaults={
            "attempts": attempt,
            "reason": reason_of(error),
            "failed_at": now,
            "retry_at": later,
        },
    )
    if later is None:
        return FAILED
    send_one.using(run_after=later).enqueue(member_id, what, target_id, attempt + 1)
    return RETRY


def failures(club: Club) -> list[MailTry]:
    """The club's mail that did not go out: waiting for its next try, or given up; the
    latest first."""
    return list(
        MailTry.objects.filter(member__club=club)
        .select_related("member", "night", "season", "dispute__game")
        .order_by("-failed_at", "-pk")
    )


# What is still due: the catch-up, which only queues.


def _waiting(what: str, since: Q, **sent: OuterRef) -> Exists:
    """A member of the outer row's club who asked for ``what``, has a verified address, and
    has not had the outer row's mail: the rows still due, in one query however many."""
    had = MailSent.objects.filter(member=OuterRef("member"), **sent)
    return Exists(
        MailChoice.objects.filter(
            since,
            member__club=OuterRef("club"),
            member__user__account_email__verified_at__isnull=False,
            **{what: True},
        ).filter(~Exists(had))
    )


def queue_due() -> int:
    """A job for every mail still due: nights ended, disputes open and seasons over, for the
    members who asked for them since, not mailed yet, and not waiting for a try or given up;
    how many were queued. It sends nothing itself; a mail queued twice goes out once."""
    queued = 0
    nights = Night.objects.filter(
        _waiting(
            NIGHTS,
            Q(chosen_at__lte=OuterRef("ended_at")),
            night=OuterRef(OuterRef("pk")),
            night_ended_at=OuterRef(OuterRef("ended_at")),
        ),
        _counted_games(OuterRef("pk")),
        ended_at__isnull=False,
    )
    for night_id in nights.values_list("pk", flat=True).order_by("pk"):
        queued += _queue(NIGHTS, night_id)
    queued += _queue_disputes_due()
    first = MailChoice.objects.filter(seasons=True).aggregate(first=Min("chosen_at"))["first"]
    if first is None:
        return queued
    seasons = Season.objects.filter(
        _waiting(
            SEASONS,
            Q(chosen_at__date__lte=OuterRef("last_day")),
            season=OuterRef(OuterRef("pk")),
        ),
        # Over in every zone by tomorrow (_season_due asks the club's), chosen before.
        last_day__lt=timezone.now().date() + timedelta(days=1),
        last_day__gte=first.date() - timedelta(days=1),
    )
    for season_id in seasons.values_list("pk", flat=True).order_by("pk"):
        queued += _queue(SEASONS, season_id)
    return queued


def _queue_disputes_due() -> int:
    """The mails of the disputes still open (not decided) of club games, for the admins who
    asked before each was raised and have not had it: one query, and one per dispute due."""
    had = MailSent.objects.filter(member=OuterRef("member"), dispute=OuterRef(OuterRef("pk")))
    asked = MailChoice.objects.filter(
        member__club__club_games__game=OuterRef("game"),
        member__role=Member.Role.ADMIN,
        member__user__account_email__verified_at__isnull=False,
        chosen_at__lte=OuterRef("at"),
        disputes=True,
    ).filter(~Exists(had))
    due = Dispute.objects.filter(Exists(asked), decision__isnull=True)
    queued = 0
    for dispute_id in due.values_list("pk", flat=True).order_by("pk"):
        queued += _queue(DISPUTES, dispute_id)
    return queued
