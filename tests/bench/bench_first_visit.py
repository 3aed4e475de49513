"""A first visit to a game page as a phone gets it from `make run` (``make bench``).

The server is `make run`'s: DEBUG on, the static files collected (into a temporary folder)
and served by WhiteNoise, runserver on a free port, a throwaway SQLite database. The phone is
Chromium at 360x640 with an empty cache: what it downloads is read from its own network log
(each response's body as sent, compressed as the server chose for what the browser asked),
every request the page makes counted until the network has been quiet for a second: the
page, its stylesheet, scripts and icon, the scripts it loads once loaded, the web app
manifest and the icon Chrome fetches from it, the service worker and what it caches.

A scorer's (the phone that started the game, one hand saved) at most 30 KB, a watcher's
(a phone that never saw the game) at most 20 KB, a seat holder's (a phone that took Bilal's
seat by its code) at most 22 KB (issue 40.7). Exits 1 when one is missed.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

AIM_KB = {"scorer": 30, "watcher": 20, "seat holder": 22}
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 640}
QUIET_MS = 1000
NAMES = ("Amina", "Bilal", "Chafik", "Dalila")


File = tuple[str, str, int]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{folder / 'visit.sqlite3'}",
        SECRET_KEY="bench-only-not-secret",
        STATIC_ROOT=str(folder / "static"),
        PYTHONPATH=str(ROOT),
    )
    return env


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
    )


def made_game(env: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A game of one hand, and the cookies of the phone that started it and of a phone that
    took Bilal's seat, by who holds them."""
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "boulmous_site.settings"
    import django

    django.setup()
    from scoring.common.rights import PhoneRights, cookie_value
    from scoring.engine import Contract, Hand, Rules, Trump
    from scoring.table import services

    game = services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game
    hand = Hand(Contract(1, 4, Trump.HEARTS), tricks=(1, 4, 0, 1))
    services.record_hand(public_id=game.public_id, number=1, hand=hand, token=None)
    seat = services.make_seat_links(public_id=game.public_id)[1]
    seated = PhoneRights()
    seated.take_seat(game.public_id, seat.pk)
    return str(game.public_id), {
        "scorer": cookie_value(PhoneRights({game.public_id: 0})),
        "seat holder": cookie_value(seated),
    }


def sent(url: str, headers: dict[str, str]) -> bytes:
    """The body ``url`` sends, as sent, to a request with the encodings in ``headers``."""
    asked = {"Accept-Encoding": headers.get("accept-encoding", "gzip, deflate, br")}
    with urllib.request.urlopen(urllib.request.Request(url, headers=asked), timeout=10) as got:
        return bytes(got.read())


MANIFEST_ICON = """async () => {
  // What Chrome's install check fetches: the manifest, and its largest (maskable) icon.
  const link = document.querySelector('link[rel="manifest"]');
  if (!link) return;
  const manifest = await (await fetch(link.href)).json();
  const icons = manifest.icons.filter((icon) => (icon.sizes || "any") !== "any");
  const maskable = icons.filter((icon) => (icon.purpose || "").includes("maskable"));
  const width = (icon) => parseInt(icon.sizes.split("x")[0], 10);
  const icon = (maskable.length ? maskable : icons).sort((a, b) => width(b) - width(a))[0];
  if (icon) await fetch(new URL(icon.src, link.href));
}"""


def visit(browser, base: str, url: str, cookie: str | None) -> tuple[list[File], list[File]]:
    """What a fresh phone downloads for ``url``: the page's own downloads, then the service
    worker's (the offline copy of the app's shell), each as address, encoding, bytes."""
    from scoring.common.rights import COOKIE

    context = browser.new_context(viewport=PHONE, base_url=base)
    if cookie:
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
    page = context.new_page()
    own: list[File] = []
    worker: list[File] = []
    last = [time.monotonic()]

    def finished(request) -> None:
        response = request.response()
        if response is None:
            return
        size = request.sizes()["responseBodySize"]
        if request.url.endswith("/sw.js") and not size:
            # The service worker's script, which Chromium's log gives no size: fetched
            # again as it was asked for.
            size = len(sent(request.url, request.all_headers()))
        if size == 0:  # from the browser's cache: nothing downloaded
            return
        encoding = response.headers.get("content-encoding", "none")
        # The worker's own script is the page's download (it registers it); what the
        # worker then fetches is the offline copy, listed apart.
        by_worker = getattr(request, "service_worker", None) and not request.url.endswith("/sw.js")
        into = worker if by_worker else own
        into.append((request.url.removeprefix(base), encoding, size))
        last[0] = time.monotonic()

    context.on("requestfinished", finished)
    page.goto(url, wait_until="load")
    page.evaluate(MANIFEST_ICON)
    while time.monotonic() - last[0] < QUIET_MS / 1000:
        page.wait_for_timeout(100)
    context.close()
    return own, worker


def main() -> None:
    from playwright.sync_api import sync_playwright

    missed = []
    with tempfile.TemporaryDirectory(prefix="boulmous-visit-") as name:
        folder = Path(name)
        env = environment(folder)
        manage(env, "migrate", "--no-input")
        manage(env, "collectstatic", "--no-input")
        public_id, cookies = made_game(env)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                )
                print("First visit to a game page, as a phone gets it from `make run`")
                for who in AIM_KB:
                    own, worker = visit(browser, base, f"/games/{public_id}/", cookies.get(who))
                    total = sum(size for _, _, size in own)
                    print(f"  a {who}:")
                    for address, encoding, size in own:
                        print(f"    {address[:58]:58} {encoding:5} {kb(size):>8}")
                    flag = ""
                    if total > AIM_KB[who] * 1024:
                        flag = ": MISSED"
                        missed.append(f"{who}'s first visit: {kb(total)}")
                    print(f"    {'in all':64} {kb(total):>8} (aim: ≤ {AIM_KB[who]} KB{flag})")
                    for address, encoding, size in worker:
                        print(
                            f"    {address[:58]:58} {encoding:5} {kb(size):>8}"
                            "  not counted: the service worker's offline copy"
                        )
                browser.close()
        finally:
            server.terminate()
            server.wait()
    if missed:
        print("Aims missed:\n  " + "\n  ".join(missed))
        sys.exit(1)


if __name__ == "__main__":
    main()
