"""A club's records.jsonl of any size, as the demo club's games (``manage.py demo_club``:
random legal games played to 21, about 13 hands each): the import's bench, its kill test
and its browser test read it. Needs Django set up.

Written :data:`CHUNK` games at a time, each chunk's games after the last one's (a club's
export is in the order its games finished), so that the generator holds one chunk."""

import json
from datetime import date, timedelta
from pathlib import Path

SEED = 1
CHUNK = 20_000


def records_file(folder: Path, games: int, seed: int = SEED) -> tuple[Path, int]:
    """The demo club's first ``games`` games (of ``seed``) as a records.jsonl: one record a
    line, as the club's export writes them (compact JSON, players and text as they are);
    and the number of hands."""
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    from scoring.engine.record import record_to_dict
    from scoring.management.commands.demo_club import TIME_ZONE, demo_records, season_days

    today = date.today()
    seasons = [
        SimpleNamespace(slug=f"season-{number}", first_day=first, last_day=last)
        for number, (first, last) in enumerate(season_days(today), 1)
    ]
    first_day = seasons[0].first_day
    days = (today - first_day).days
    chunks = max(1, -(-games // CHUNK))
    path = folder / f"records-{games}-{seed}.jsonl"
    hands = 0
    with path.open("w", encoding="utf-8") as out:
        for chunk in range(chunks):
            count = min(CHUNK, games - chunk * CHUNK)
            start = first_day + timedelta(days=chunk * days // chunks)
            span = max(1, days // chunks)
            # The first chunk is seed's own games: a file of up to CHUNK games is the same
            # whatever CHUNK; the others' ids are their chunk's seed's.
            records = demo_records(
                count,
                seed if chunk == 0 else seed * 1000 + chunk,
                start if chunks > 1 else first_day,
                span if chunks > 1 else days,
                ZoneInfo(TIME_ZONE),
                seasons,
            )
            for record in records:
                out.write(
                    json.dumps(record_to_dict(record), ensure_ascii=False, separators=(",", ":"))
                )
                out.write("\n")
                hands += len(record.hands)
    return path, hands
