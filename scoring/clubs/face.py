"""Clubs' face: all that other contexts (the API, the management commands) may use of
clubs. They import this module only, never clubs' views, pages or other modules
(pyproject.toml's import-linter contracts; docs/architecture.md, "Faces"): clubs may
arrange their own modules as they like, and only this file follows.

Something new another context needs is re-exported here, from the module that holds it
(never a view: what a view and another context share moves out of the view first).
"""

from .access import club_may, club_member
from .edits import moved_season
from .embed import allow_origin
from .events.facts import EventFacts, event_facts
from .events.pages import EventPage, event_lines, event_page, events_of, points_text, ranking_csv
from .events.prizes import Prizes, event_prizes
from .federation.access import federation_may
from .federation.access import sees_full_names as sees_federation_names
from .federation.pages import ranking_rows, ranking_values
from .federation.ranking import federation_ranking
from .history import CLUB_ACTIONS, lines, reading
from .history import PER_PAGE as HISTORY_PER_PAGE
from .imports.services import import_club_records
from .league.checked import rebuild_checked
from .league.handicap import cup_values, season_cup
from .league.pages import player_stats, standing_rows
from .league.ratings import rebuild as rebuild_league
from .league.standings import provisional_games, ratings_on, season_standings
from .mail import queue_due
from .members.services import add_member
from .models import Club, ClubResult, Event, EventRound, Federation, Member, Night, Season
from .names import NAMED_COLUMNS, Named, sees_full_names, shown_names
from .nights.pages import night_rounds
from .pages.games import dated, filtered, games_page
from .services import create_club, create_season

__all__ = [
    "CLUB_ACTIONS",
    "HISTORY_PER_PAGE",
    "NAMED_COLUMNS",
    "Club",
    "ClubResult",
    "Event",
    "EventFacts",
    "EventPage",
    "EventRound",
    "Federation",
    "Member",
    "Named",
    "Night",
    "Prizes",
    "Season",
    "add_member",
    "allow_origin",
    "club_may",
    "club_member",
    "create_club",
    "create_season",
    "cup_values",
    "dated",
    "event_facts",
    "event_lines",
    "event_page",
    "event_prizes",
    "events_of",
    "federation_may",
    "federation_ranking",
    "filtered",
    "games_page",
    "import_club_records",
    "lines",
    "moved_season",
    "night_rounds",
    "player_stats",
    "points_text",
    "provisional_games",
    "queue_due",
    "ranking_csv",
    "ranking_rows",
    "ranking_values",
    "ratings_on",
    "reading",
    "rebuild_checked",
    "rebuild_league",
    "season_cup",
    "season_standings",
    "sees_federation_names",
    "sees_full_names",
    "shown_names",
    "standing_rows",
]
