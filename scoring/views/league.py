"""A club's league: season standings (page, CSV, print, PDF), players, records.jsonl.

(Being written: each view below is filled in by the league work of issue 11.)"""

from django.http import HttpRequest, HttpResponse


def _todo(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise NotImplementedError


season = standings_csv = standings_print = standings_pdf = player = records_jsonl = _todo
