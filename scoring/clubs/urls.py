from django.urls import path

from .events import screen_views
from .events import views as events
from .federation import urls as federation
from .imports import views as imports
from .league import views as league
from .members import views as members
from .nights import calendar_views as calendar
from .nights import views as nights
from .views import actions, club, edits, games, history, jobs, mail, privacy

urlpatterns = [
    # The admin actions that ask, then do: retired and back, deleted, anonymised, a season, a
    # night or a game deleted, declared in views/actions.py.
    *actions.urlpatterns,
    # Federations of clubs (issue 42.6): in federation/views.py.
    *federation.urlpatterns,
    # Clubs (issue 11): running a club, in views/club.py; its players in members/views.py.
    path("clubs/", club.clubs, name="clubs"),
    path("clubs/new", club.new_club, name="new_club"),
    path("clubs/<slug:club>/", club.club_page, name="club"),
    path("clubs/<slug:club>/settings", club.club_settings, name="club_settings"),
    path("clubs/<slug:club>/history", history.club_history, name="club_history"),
    path("clubs/<slug:club>/members", members.members, name="club_members"),
    path("clubs/<slug:club>/members/<int:member_id>/role", members.member_role, name="member_role"),
    path(
        "clubs/<slug:club>/members/<int:member_id>/claim", members.member_claim, name="member_claim"
    ),
    # Members (issue 19): renamed and merged, in members/views.py.
    path(
        "clubs/<slug:club>/members/<int:member_id>/rename",
        members.member_rename,
        name="member_rename",
    ),
    path(
        "clubs/<slug:club>/members/<int:member_id>/merge", members.member_merge, name="member_merge"
    ),
    # Privacy (issue 18): a member's data, his name in public.
    path(
        "clubs/<slug:club>/members/<int:member_id>/data.json",
        privacy.member_data,
        name="member_data",
    ),
    path(
        "clubs/<slug:club>/players/<int:member_id>/public-name",
        privacy.public_name,
        name="member_public_name",
    ),
    # Mail (issue 22.6): a member's choice, and the link that stops it, in views/mail.py.
    path("clubs/<slug:club>/mail", mail.club_mail, name="club_mail"),
    path("mail/unsubscribe/<slug:what>/<str:token>", mail.unsubscribe, name="mail_unsubscribe"),
    path("clubs/<slug:club>/invite/new", members.new_invite, name="club_new_invite"),
    path("clubs/<slug:club>/invite.svg", members.invite_qr, name="club_invite_qr"),
    path("clubs/<slug:club>/join/<slug:secret>", members.join_club, name="join_club"),
    path("clubs/<slug:club>/seasons/new", club.new_season, name="new_season"),
    path("clubs/<slug:club>/games/", games.club_games, name="club_games"),
    path("clubs/<slug:club>/games/new", club.new_club_game, name="new_club_game"),
    # Edit (issue 19), admins only: in views/edits.py.
    path("clubs/<slug:club>/games/<slug:gid>/date", edits.game_date, name="club_game_date"),
    path("clubs/<slug:club>/seasons/<slug:season>/edit", edits.edit_season, name="season_edit"),
    path("clubs/<slug:club>/nights/<int:night>/edit", edits.edit_night, name="night_edit"),
    path("clubs/<slug:club>/import", imports.import_records, name="club_import"),
    # A club's jobs (issue 43): an import's or the league's rebuild's page, in views/jobs.py.
    path("clubs/<slug:club>/jobs/<uuid:job>", jobs.club_job, name="club_job"),
    path("clubs/<slug:club>/rebuild", jobs.rebuild_league, name="club_rebuild_league"),
    # Club nights (issue 12): check-in, rounds, table sheets and cards, in nights/views.py.
    path("clubs/<slug:club>/nights/new", nights.new_night, name="new_night"),
    path("clubs/<slug:club>/nights/<int:night>/", nights.night, name="night"),
    # The nights in the calendar (issue 22.5): the club's feed, each night's file.
    path("clubs/<slug:club>/nights.ics", calendar.nights_ics, name="club_nights_ics"),
    path("clubs/<slug:club>/nights.ics/new-key", calendar.new_feed_key, name="club_feed_key"),
    path("clubs/<slug:club>/nights/<int:night>/night.ics", calendar.night_ics, name="night_ics"),
    path("clubs/<slug:club>/nights/<int:night>/checkin", nights.check_in, name="night_checkin"),
    path("clubs/<slug:club>/nights/<int:night>/draw", nights.draw, name="night_draw"),
    path("clubs/<slug:club>/nights/<int:night>/close", nights.close, name="night_close"),
    path("clubs/<slug:club>/nights/<int:night>/end", nights.end, name="night_end"),
    path("clubs/<slug:club>/nights/<int:night>/reopen", nights.reopen, name="night_reopen"),
    path(
        "clubs/<slug:club>/nights/<int:night>/rounds/<int:number>/sheet",
        nights.sheet,
        name="round_sheet",
    ),
    path(
        "clubs/<slug:club>/nights/<int:night>/rounds/<int:number>/cards",
        nights.cards,
        name="round_cards",
    ),
    path("clubs/<slug:club>/nights/<int:night>/ranking", nights.ranking, name="night_ranking"),
    # Results that travel (issue 22.3): the image a link pasted in a chat shows.
    path(
        "clubs/<slug:club>/nights/<int:night>/preview.png",
        nights.ranking_preview,
        name="night_preview",
    ),
    path(
        "clubs/<slug:club>/nights/<int:night>/ranking.csv",
        nights.ranking_csv,
        name="night_ranking_csv",
    ),
    path(
        "clubs/<slug:club>/nights/<int:night>/ranking.pdf",
        nights.ranking_pdf,
        name="night_ranking_pdf",
    ),
    # Events (issue 41): championships over rounds and nights, in events/views.py.
    path("clubs/<slug:club>/events/", events.events, name="events"),
    path("clubs/<slug:club>/events/new", events.new_event, name="new_event"),
    path("clubs/<slug:club>/events/<int:event>/", events.event, name="event"),
    path("clubs/<slug:club>/events/<int:event>/edit", events.edit_event, name="event_edit"),
    path("clubs/<slug:club>/events/<int:event>/nights", events.add_night, name="event_night"),
    path("clubs/<slug:club>/events/<int:event>/end", events.end_event, name="event_end"),
    path("clubs/<slug:club>/events/<int:event>/entries", events.enter, name="event_enter"),
    path(
        "clubs/<slug:club>/events/<int:event>/entries/<int:member_id>/withdraw",
        events.withdraw,
        name="event_withdraw",
    ),
    path("clubs/<slug:club>/events/<int:event>/checkin", events.check_in, name="event_checkin"),
    path("clubs/<slug:club>/events/<int:event>/pairs", events.forbid_pair, name="event_pair"),
    path(
        "clubs/<slug:club>/events/<int:event>/pairs/<int:pair>/remove",
        events.allow_pair,
        name="event_pair_remove",
    ),
    path("clubs/<slug:club>/events/<int:event>/draw", events.draw, name="event_draw"),
    path("clubs/<slug:club>/events/<int:event>/swap", events.swap, name="event_swap"),
    path("clubs/<slug:club>/events/<int:event>/publish", events.publish, name="event_publish"),
    path("clubs/<slug:club>/events/<int:event>/settle", events.settle, name="event_settle"),
    path("clubs/<slug:club>/events/<int:event>/final", events.final, name="event_final"),
    path(
        "clubs/<slug:club>/events/<int:event>/ranking.csv",
        events.ranking_file,
        name="event_ranking_csv",
    ),
    path(
        "clubs/<slug:club>/events/<int:event>/event.jsonl",
        events.records_file,
        name="event_records",
    ),
    path(
        "clubs/<slug:club>/events/<int:event>/ranking.pdf",
        events.ranking_pdf,
        name="event_ranking_pdf",
    ),
    path(
        "clubs/<slug:club>/events/<int:event>/prizes.csv",
        events.prizes_file,
        name="event_prizes_csv",
    ),
    path(
        "clubs/<slug:club>/events/<int:event>/screen",
        screen_views.event_screen,
        name="event_screen",
    ),
    path(
        "clubs/<slug:club>/events/<int:event>/screen/live",
        screen_views.event_screen_live,
        name="event_screen_live",
    ),
    # The league (issue 11): standings, players, records, in league/views.py.
    path("clubs/<slug:club>/standings/", league.all_time, name="all_time"),
    path("clubs/<slug:club>/seasons/<slug:season>/", league.season, name="season"),
    path(
        "clubs/<slug:club>/seasons/<slug:season>/preview.png",
        league.season_preview,
        name="season_preview",
    ),
    path(
        "clubs/<slug:club>/seasons/<slug:season>/standings.csv",
        league.standings_csv,
        name="standings_csv",
    ),
    # On the club's own website (issue 22.4): in a frame, for the origins it lists.
    path("clubs/<slug:club>/seasons/<slug:season>/embed", league.season_embed, name="season_embed"),
    path(
        "clubs/<slug:club>/seasons/<slug:season>/print",
        league.standings_print,
        name="standings_print",
    ),
    path(
        "clubs/<slug:club>/seasons/<slug:season>/standings.pdf",
        league.standings_pdf,
        name="standings_pdf",
    ),
    path("clubs/<slug:club>/players/<int:member_id>/", league.player, name="club_player"),
    path("clubs/<slug:club>/records.jsonl", league.records_jsonl, name="club_records"),
]
