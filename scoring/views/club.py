"""Running a club: its settings, members, invites, seasons, games and imported records.

(Being written: each view below is filled in by the club work of issue 11.)"""

from django.http import HttpRequest, HttpResponse


def _todo(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise NotImplementedError


clubs = new_club = club_page = club_settings = members = member_role = member_claim = _todo
new_invite = invite_qr = join_club = new_season = new_club_game = import_records = _todo
