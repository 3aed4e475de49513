"""The models of every context, for Django's registry: one Django app, ``scoring``, whose
contexts (scoring/table, scoring/clubs, scoring/accounts) each declare their own models."""

from .accounts.models import AccountEmail, ApiToken
from .clubs.models import (
    Attendance,
    Club,
    ClubChange,
    ClubGame,
    ClubResult,
    Event,
    EventEntry,
    EventFinal,
    EventRound,
    ForbiddenPair,
    MailChoice,
    MailSent,
    MailTry,
    Member,
    Night,
    PlayerTotals,
    Round,
    Season,
    TableSettled,
    default_points,
    new_seed,
)
from .common.models import FormSent
from .infra.jobs import Job
from .infra.models import BackupRun
from .table.models import (
    Change,
    Game,
    Hand,
    Player,
    ScorerLink,
    Seat,
    Summary,
    new_public_id,
    new_record_id,
)

# Migrations 0001-0007 name these defaults here, where they were first declared.

__all__ = [
    "AccountEmail",
    "ApiToken",
    "Attendance",
    "BackupRun",
    "Change",
    "Club",
    "ClubChange",
    "ClubGame",
    "ClubResult",
    "Event",
    "EventEntry",
    "EventFinal",
    "EventRound",
    "ForbiddenPair",
    "FormSent",
    "Game",
    "Hand",
    "Job",
    "MailChoice",
    "MailSent",
    "MailTry",
    "Member",
    "Night",
    "Player",
    "PlayerTotals",
    "Round",
    "ScorerLink",
    "Season",
    "Seat",
    "Summary",
    "TableSettled",
    "default_points",
    "new_public_id",
    "new_record_id",
    "new_seed",
]
