"""The saturation phase of ``make loadtest`` (issue 21): each page asked as fast as gunicorn
answers, by wrk with 8 connections, and its rate as a share of /healthz's in the same run
(the cheapest answer that goes through the whole middleware stack and the database), so
that the figure says what the page costs on this machine, whatever else runs on it.

    saturation.py BASE_URL IDS_FILE SCORER_COOKIE

IDS_FILE: seeded games' public ids, one a line (the first ``LOAD_SATURATION_GAMES``, 100
unless given, are asked in turn); SCORER_COOKIE: ``name=value``, the rights cookie of a phone
that started those games (run.sh makes it). Each page is asked for ``LOAD_SATURATION_TIME``
(10s) after a warm-up (each game's page once, then 2 s of wrk): the steady state of pages
watched between two hands. /healthz is asked right before and right after each page, and
the page's share is its rate over their mean.
Prints the table (page, req/s, share, aim) and exits 1 when a share is missed, or when an
answer is not a 2xx.
"""

import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

CONNECTIONS = 8
THREADS = 2
AIMS = {
    "game page (watcher)": 0.40,
    "game page (scorer)": 0.30,
    "rules page": 0.80,
    "record.json": 0.60,
    "settlement": 0.30,
}
PAGES = {
    "game page (watcher)": ("/games/{id}/", False),
    "game page (scorer)": ("/games/{id}/", True),
    "rules page": ("/rules", False),
    "record.json": ("/games/{id}/record.json", False),
    "settlement": ("/games/{id}/settlement", False),
}

SCRIPT = """
local ids = {%(ids)s}
local path = [==[%(path)s]==]
local cookie = [==[%(cookie)s]==]
local i = 0
request = function()
  i = i + 1
  local id = ids[(i %% #ids) + 1]
  local headers = {}
  if cookie ~= "" then headers["Cookie"] = cookie end
  return wrk.format("GET", (path:gsub("{id}", id)), headers)
end
"""


def wrk(base: str, script: Path, seconds: str) -> tuple[float, int]:
    """Requests per second, and the answers that were not a 2xx or 3xx."""
    command = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}", "-s", str(script), base]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if rate is None:
        raise SystemExit(f"wrk said nothing of its rate:\n{out}")
    return float(rate.group(1)), int(bad.group(1)) if bad else 0


def warm(base: str, path: str, ids: list[str], cookie: str) -> None:
    """Each game's page asked once, so that the run measures pages kept, as a page is asked
    again and again between two hands (a miss is the first ask after each change)."""
    for public_id in ids:
        request = urllib.request.Request(base + path.replace("{id}", public_id))
        if cookie:
            request.add_header("Cookie", cookie)
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def main() -> int:
    base, ids_file, scorer_cookie = sys.argv[1:4]
    games = int(os.environ.get("LOAD_SATURATION_GAMES", "100"))
    seconds = os.environ.get("LOAD_SATURATION_TIME", "10s")
    ids = Path(ids_file).read_text().split()[:games]
    quoted = ", ".join(f'"{public_id}"' for public_id in ids)
    rates: dict[str, float] = {}
    failures: list[str] = []
    print(
        f"--- saturation: wrk, {CONNECTIONS} connections, {seconds} a page, "
        f"{len(ids)} games in turn (load average {load()} before)"
    )
    with tempfile.TemporaryDirectory() as folder:

        def run(name: str, path: str, cookie: str, *, warm_up: bool = True) -> float:
            script = Path(folder) / "page.lua"
            script.write_text(SCRIPT % {"ids": quoted, "path": path, "cookie": cookie})
            if warm_up:
                warm(base, path, ids, cookie)
                wrk(base, script, "2s")
            rate, bad = wrk(base, script, seconds)
            if bad:
                failures.append(f"{name}: {bad} answers not a 2xx or 3xx")
            return rate

        healthz: dict[str, tuple[float, float]] = {}
        for name, (path, as_scorer) in PAGES.items():
            # /healthz right before and right after each page: the machine's other work
            # changes by the minute, the share compares rates measured side by side.
            before = run("/healthz", "/healthz", "", warm_up=False)
            rates[name] = run(name, path, scorer_cookie if as_scorer else "")
            healthz[name] = (before, run("/healthz", "/healthz", "", warm_up=False))
    print(f"  {'page':22} {'req/s':>8} {'/healthz':>9} {'share':>6} {'aim':>7}")
    for name, rate in rates.items():
        before, after = healthz[name]
        share, aim = rate / ((before + after) / 2), AIMS[name]
        mark = "ok" if share >= aim else "MISSED"
        print(
            f"  {name:22} {rate:8.0f} {(before + after) / 2:9.0f} {share:6.2f} ≥ {aim:.2f} {mark}"
            f"   (/healthz {before:.0f} before, {after:.0f} after)"
        )
        if share < aim:
            failures.append(f"{name}: {share:.2f} of /healthz, under {aim:.2f}")
    print(f"  (load average {load()} after)")
    for failure in failures:
        print(f"  FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
