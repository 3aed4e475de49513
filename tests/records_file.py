"""A club's records.jsonl of any size, as the demo club's games (``manage.py demo_club``:
random legal games played to 21, about 13 hands each): the import's bench, its kill test
and its browser test read it. Needs Django set up.

Written :data:`CHUNK` games at a time, each chunk's games after the last one's (a club's
export is in the order its games finished), so that the generator holds one chunk."""

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from datetime import date, timedelta
from pathlib import Path

SEED = 1
CHUNK = 20_000


def records_file(folder: Path, games: int, seed: int = SEED) -> tuple[Path, int]:
    """The demo club's first ``games`` games (of ``seed``) as a records.jsonl in ``folder``:
    one record a line, as the club's export writes them (compact JSON, players and text as
    they are); and the number of hands.

    Made once a day for each size and seed, and kept in the system's temporary folder
    under a name that holds a digest of the code that makes it (the engine, the demo
    club, this file); each caller gets a copy of its own. The kill test, the browser test
    and the bench each read the same 20,000 games, which take 20 s to make on a slow
    machine (200,000, the bench's, 3 minutes)."""
    today = date.today()
    root = Path(__file__).resolve().parents[1]
    sources = [
        *sorted((root / "scoring" / "engine").glob("*.py")),
        root / "scoring" / "management" / "commands" / "demo_club.py",
        Path(__file__).resolve(),
    ]
    digest = hashlib.sha256(b"".join(source.read_bytes() for source in sources)).hexdigest()
    name = f"boulmous-records-{games}-{seed}-{today}-{digest[:16]}"
    kept = Path(tempfile.gettempdir()) / name
    # One maker at a time: CI's sqlite and browser parts ask for the same file at once.
    with kept.with_suffix(".lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not kept.with_suffix(".jsonl").exists():
            partial = kept.with_suffix(f".{os.getpid()}.tmp")
            hands = _written(partial, games, seed, today)
            kept.with_suffix(".hands").write_text(str(hands))
            os.replace(partial, kept.with_suffix(".jsonl"))  # last: a reader sees it whole
    path = folder / f"records-{games}-{seed}.jsonl"
    shutil.copyfile(kept.with_suffix(".jsonl"), path)
    return path, int(kept.with_suffix(".hands").read_text())


def _written(path: Path, games: int, seed: int, today: date) -> int:
    """The records written to ``path``; the number of their hands."""
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    from scoring.engine.record import record_to_dict
    from scoring.management.commands.demo_club import TIME_ZONE, demo_records, season_days

    seasons = [
        SimpleNamespace(slug=f"season-{number}", first_day=first, last_day=last)
        for number, (first, last) in enumerate(season_days(today), 1)
    ]
    first_day = seasons[0].first_day
    days = (today - first_day).days
    chunks = max(1, -(-games // CHUNK))
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
    return hands
