"""The mail members ask for (issue 22.6): after each night its ranking and money, at a
season's end its standings. A member with an account chooses it per club (``choose``); each
mail goes out once per member and end of a night or season (a ``MailSent`` row, written in
the same transaction as the sending, so a mail that fails is tried again), in the language he chose
it in, with a signed link that stops it without logging in.

A night's mail goes out once the transaction that ends the night commits, and once more,
marked as a correction, when a night an admin reopened ends again
(services.end_night) and, in a request, once its answer has been sent (``request_finished``:
the organiser's phone never waits for the mail server); ``manage.py send_club_mail`` sends
whatever is still due: nights ended and seasons over, since the member chose it, and not
yet mailed (a worker killed before it sent them, a mail server that failed).

An admin may ask for a mail when a hand of one of the club's games is disputed (issue
40.3), to decide it: sent the same way, once the dispute's transaction commits and, in a
request, once its answer is sent (``send_dispute_soon``), never inside the request;
``send_club_mail`` sends those still due (a dispute not decided yet)."""

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from zoneinfo import ZoneInfo

from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.core.signals import request_finished, request_started
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from ..common.words import elide, isolate
from ..table.face import Dispute
from .league.pages import counted_games, standing_rows
from .league.standings import night_standings, season_standings
from .models import Club, ClubResult, MailChoice, MailSent, Member, Night, Season
from .nights.pages import night_money

logger = logging.getLogger(__name__)

NIGHTS = "nights"
SEASONS = "seasons"
DISPUTES = "disputes"
WHAT = (NIGHTS, SEASONS, DISPUTES)


class _Answering(threading.local):
    """Whether this thread is answering a request, and the nights to mail once it has."""

    def __init__(self) -> None:
        self.now = False
        self.nights: list[int] = []
        self.disputes: list[int] = []


_answering = _Answering()


def _started(**kwargs: object) -> None:
    _answering.now, _answering.nights, _answering.disputes = True, [], []


def _finished(**kwargs: object) -> None:
    nights, _answering.now, _answering.nights = _answering.nights, False, []
    disputes, _answering.disputes = _answering.disputes, []
    for night_id in nights:
        try:
            send_night(night_id)
        except Exception:  # the answer is sent: logged, and send_club_mail sends it later
            logger.exception("Failed to send the mail of night %s", night_id)
    for dispute_id in disputes:
        try:
            send_dispute(dispute_id)
        except Exception:  # logged, and send_club_mail sends it later
            logger.exception("Failed to send the mail of dispute %s", dispute_id)


request_started.connect(_started, dispatch_uid="boulmous-club-mail-started")
request_finished.connect(_finished, dispatch_uid="boulmous-club-mail-finished")


def send_night_soon(night_id: int) -> None:
    """The night's mail, after the request's answer if this is a request, else now."""
    if _answering.now:
        _answering.nights.append(night_id)
    else:
        send_night(night_id)


def send_dispute_soon(dispute_id: int) -> None:
    """The dispute's mail to the admins who asked, after the request's answer if this is a
    request, else now."""
    if _answering.now:
        _answering.disputes.append(dispute_id)
    else:
        send_dispute(dispute_id)


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


def send_dispute(dispute_id: int) -> int:
    """The dispute's mail to each admin of its game's club who asked for it before it was
    raised, and has not had it, while the referee has not decided it; how many went out."""
    dispute = (
        Dispute.objects.select_related("game__summary", "game__club_game__club")
        .filter(pk=dispute_id, decision__isnull=True)
        .first()
    )
    club_game = getattr(dispute.game, "club_game", None) if dispute is not None else None
    if dispute is None or club_game is None:
        return 0
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
    sent = 0
    for choice in choices:
        sent += _deliver(choice, partial(dispute_mail, choice, dispute, club), dispute=dispute)
    return sent


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


def _choices(club_id: int, what: str, since: Q) -> Iterable[MailChoice]:
    return (
        MailChoice.objects.filter(since, member__club=club_id, **{what: True})
        .select_related("member__user__account_email")
        .order_by("member_id")
    )


def _deliver(
    choice: MailChoice,
    make: Callable[[], Mail],
    *,
    night: Night | None = None,
    season: Season | None = None,
    dispute: Dispute | None = None,
) -> bool:
    """One mail to one member, once: its row and its sending in one transaction, so a mail
    server that fails leaves it due. False if it was sent before, or cannot be."""
    address = address_of(choice.member)
    if address is None:
        return False
    try:
        with transaction.atomic():
            _, created = MailSent.objects.get_or_create(
                member_id=choice.member_id,
                night=night,
                night_ended_at=night.ended_at if night else None,
                season=season,
                dispute=dispute,
            )
            if created:
                _send(make(), address)
    except Exception:  # any backend's failure: logged, and due again
        logger.exception(
            "Failed to send club mail (%s) to member %s",
            night or season or dispute,
            choice.member_id,
        )
        return False
    return created


def _counted_games(night: OuterRef | int) -> Exists:
    return Exists(ClubResult.objects.filter(game__club_game__round__night=night))


def mailed(night: Night) -> bool:
    """Whether the night, once ended, is mailed: only if one of its games counted. A night
    made and ended with no game would mail every member who asked, for nothing, as often as
    a scorer liked."""
    return Night.objects.filter(_counted_games(night.pk), pk=night.pk).exists()


def send_night(night_id: int) -> int:
    """The night's mail to each member of its club who asked for it since before the night
    ended, and has not had it, if one of its games counted; how many went out."""
    night = Night.objects.select_related("club").get(pk=night_id)
    if night.ended_at is None or not mailed(night):
        return 0
    since = Q(chosen_at__lte=night.ended_at)
    sent = 0
    for choice in _choices(night.club_id, NIGHTS, since):
        sent += _deliver(choice, partial(night_mail, choice, night), night=night)
    return sent


def season_over(season: Season, club: Club) -> bool:
    """The season's last day is over in the club's zone."""
    return season.last_day < timezone.now().astimezone(ZoneInfo(club.time_zone)).date()


def send_season(season_id: int) -> int:
    """The season's standings to each member who asked for them by its last day, once
    that day is over; how many went out."""
    season = Season.objects.select_related("club").get(pk=season_id)
    if not season_over(season, season.club):
        return 0
    # Chosen by its last day (that day in UTC: an hour either way is of no matter).
    since = Q(chosen_at__date__lte=season.last_day)
    sent = 0
    for choice in _choices(season.club_id, SEASONS, since):
        sent += _deliver(choice, partial(season_mail, choice, season), season=season)
    return sent


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


def send_due() -> int:
    """Every mail still due: nights ended, disputes open and seasons over, for the members
    who asked for them since, and not mailed yet. Run again, it sends nothing more (and
    looks only at the nights, disputes and seasons some member still waits for)."""
    sent = 0
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
        sent += send_night(night_id)
    sent += _send_disputes_due()
    first = MailChoice.objects.filter(seasons=True).aggregate(first=Min("chosen_at"))["first"]
    if first is None:
        return sent
    seasons = Season.objects.filter(
        _waiting(
            SEASONS,
            Q(chosen_at__date__lte=OuterRef("last_day")),
            season=OuterRef(OuterRef("pk")),
        ),
        # Over in every zone by tomorrow (send_season asks the club's), chosen before.
        last_day__lt=timezone.now().date() + timedelta(days=1),
        last_day__gte=first.date() - timedelta(days=1),
    )
    for season_id in seasons.values_list("pk", flat=True).order_by("pk"):
        sent += send_season(season_id)
    return sent


def _send_disputes_due() -> int:
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
    sent = 0
    for dispute_id in due.values_list("pk", flat=True).order_by("pk"):
        sent += send_dispute(dispute_id)
    return sent
