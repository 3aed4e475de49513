"""The page cache's figures (issue 21, ``make bench``): a game page of 60 hands drawn from
the cache, for a watcher and for the phone that scores it, against drawing it anew; saving
a hand under htmx at 60 hands; and the bytes the cache keeps per page variant. Exits 1 when
an aim is missed.

Server time in process (median CPU time of the process, and wall-clock time, through
Django's test client and the whole middleware stack: on a machine shared with other work the
CPU time is the server's own cost, the wall-clock time grows with the load), with the
cache as production has it when REDIS_URL is given (else this process's memory). The
database: SQLite in a throwaway folder in memory (/dev/shm where there is one), so that
the figure is the server's time and not the fsync of this machine's disk. A figure, not a
test: no test asserts a time.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import bench_site  # noqa: E402

try:
    Path("/proc/loadavg").read_text()
    LOAD = lambda: Path("/proc/loadavg").read_text().split()[0]  # noqa: E731
except OSError:
    LOAD = lambda: "?"  # noqa: E731


def cpu_ms(action, runs: int = bench_site.RUNS) -> tuple[float, float]:
    """The median CPU time of this process per run, and the median wall-clock time: on a
    machine shared with other work, the CPU time is the server's own cost."""
    cpu, wall = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter_ns(), time.process_time_ns()
        action()
        cpu.append(time.process_time_ns() - started_cpu)
        wall.append(time.perf_counter_ns() - started)
    return statistics.median(cpu) / 1e6, statistics.median(wall) / 1e6


HANDS = 60
AIM_HIT_MS = 10.0
AIM_SAVE_MS = 15.0


def main() -> int:
    started = time.perf_counter()
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="boulmous-bench-cache-", dir=base) as folder:
        bench_site.setup_django(Path(folder))
        where = f"SQLite in {folder}"
        from django.conf import settings
        from django.core.cache import cache
        from django.test import Client

        backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
        print(f"Page cache, {where}, cache: {backend}; median of {bench_site.RUNS} runs")
        scorer = Client(HTTP_HOST="localhost", HTTP_ACCEPT_ENCODING="gzip")
        figures = bench_site.Figures(scorer, HANDS)
        watcher = Client(HTTP_HOST="localhost", HTTP_ACCEPT_ENCODING="gzip")
        url = figures.page_url
        watcher.get(url)  # its CSRF cookie, as a phone has after its first page

        def watch() -> None:
            assert watcher.get(url).status_code == 200

        from scoring.infra.fragments import KEPT
        from scoring.infra.pagecache import LOCAL

        def drawn_cold() -> None:
            cache.clear()
            LOCAL.clear()
            KEPT.clear()
            assert watcher.get(url).status_code == 200

        def drawn_anew() -> None:
            cache.clear()
            LOCAL.clear()
            assert watcher.get(url).status_code == 200

        def save_then_forget() -> tuple[float, float]:
            timings = []
            for _ in range(bench_site.RUNS):
                timings.append(cpu_ms(lambda: figures.save(htmx=True), runs=1))
                figures.forget()
            return (
                statistics.median(cpu for cpu, _ in timings),
                statistics.median(wall for _, wall in timings),
            )

        figures.save(htmx=True)  # the pieces of the page kept, as after the page was seen
        figures.forget()
        rows = [
            ("GET game page, watcher, drawn cold", cpu_ms(drawn_cold), None),
            ("GET game page, watcher, drawn anew", cpu_ms(drawn_anew), None),
            ("GET game page, watcher, from cache", cpu_ms(watch), AIM_HIT_MS),
            ("GET game page, scorer, from cache", cpu_ms(figures.page), AIM_HIT_MS),
            ("POST hand (htmx: 200)", save_then_forget(), AIM_SAVE_MS),
        ]
        missed = []
        print(f"\nGame of {HANDS} hands (load average {LOAD()})")
        print(f"  {'request':40} {'CPU':>9} {'wall':>9}  aim (CPU)")
        for label, (cpu, wall), aim in rows:
            mark = "" if aim is None else f"< {aim:.0f} ms " + ("ok" if cpu < aim else "MISSED")
            print(f"  {label:40} {cpu:6.1f} ms {wall:6.1f} ms  {mark}")
            if aim is not None and cpu >= aim:
                missed.append(label)
        print(
            "  drawn cold: nothing kept; drawn anew: a new version, the rows and history lines"
            " kept in the process ({% kept %})"
        )

        print("\nBytes kept per page variant (the value as the cache stores it, pickled)")
        for label, path, client, headers in (
            ("game page, watcher", url, watcher, {}),
            ("game page, scorer", url, scorer, {}),
            ("game page, scorer, htmx", url, scorer, {"HTTP_HX_REQUEST": "true"}),
            ("settlement", f"{url}settlement", watcher, {}),
            ("record.json", f"{url}record.json", watcher, {}),
            ("rules page", "/rules", watcher, {}),
        ):
            cache.clear()
            LOCAL.clear()
            assert client.get(path, **headers).status_code == 200
            kept = [value for key, value in getattr(cache, "_cache", {}).items() if ":page:" in key]
            if len(kept) != 1:
                print("  (sizes: with the local memory cache only, no REDIS_URL)")
                break
            print(f"  {label:40} {len(kept[0]) / 1024:6.1f} KB")
    print(f"\n({time.perf_counter() - started:.1f} s)")
    for label in missed:
        print(f"MISSED: {label}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
