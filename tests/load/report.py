"""The load test's figures against its aims, from locust's CSV stats (tests/load/run.sh).

    python tests/load/report.py STATS_CSV [WORKERS]

Prints the hands saved per second, the median and 95th percentile of the game page and of
the home page, and each kind of request's rate; exits 1 if an aim is missed, a request
failed, or a figure is missing.
"""

import csv
import sys
from pathlib import Path

AIMS_MS = {"game page": 100, "home page": 50}
"""The 95th percentile each page must stay under, in milliseconds."""
SAVE = "save a hand"


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with Path(argv[1]).open(newline="") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    missing = [
        name
        for name in (*AIMS_MS, SAVE, "Aggregated")
        if name not in rows or not int(rows[name]["Request Count"])
    ]
    if missing:
        print(f"{argv[1]}: no figures for {', '.join(missing)}", file=sys.stderr)
        return 1
    ok = True
    workers = f", {argv[2]} gunicorn workers" if len(argv) == 3 else ""
    total = rows["Aggregated"]
    print(f"\nLoad figures ({float(total['Requests/s']):.1f} requests/s in all{workers})")
    for name, row in rows.items():
        if name == "Aggregated":
            continue
        failures = int(row["Failure Count"])
        ok = ok and not failures
        print(
            f"  {name:15} {float(row['Requests/s']):6.1f}/s  {row['Request Count']:>6} requests"
            f"  {failures} failed  p50 {row['50%']} ms  p95 {row['95%']} ms"
        )
    save = rows[SAVE]
    saved = float(save["Requests/s"]) - float(save["Failures/s"])
    print(f"  hands saved: {saved:.1f} per second")
    for name, aim in AIMS_MS.items():
        p50, p95 = int(rows[name]["50%"]), int(rows[name]["95%"])
        met = p95 < aim
        ok = ok and met
        verdict = "met" if met else "MISSED"
        print(f"  {name}: p50 {p50} ms, p95 {p95} ms (aim: p95 < {aim} ms): {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
