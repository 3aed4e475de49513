"""A club's records.jsonl of any size, as the demo club's games (``manage.py demo_club``:
random legal games played to 21, about 13 hands each): the import's bench, its kill test
and its browser test read it. Needs Django set up."""

import json
from pathlib import Path

SEED = 1


def records_file(folder: Path, games: int, seed: int = SEED) -> tuple[Path, int]:
    """The demo club's first ``games`` games (of ``seed``) as a records.jsonl: one record a
    line, as the club's export writes them (compact JSON, players and text as they are);
    and the number of hands."""
    from datetime import date
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
    records = demo_records(
        games, seed, first_day, (today - first_day).days, ZoneInfo(TIME_ZONE), seasons
    )
    path = folder / f"records-{games}-{seed}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record_to_dict(record), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
    return path, sum(len(record.hands) for record in records)
