"""The throttles as a script meets them: 200 wrong passwords for one account, then the right
one; and each throttled form posted past its figure. A script that prints, not a test.

It starts gunicorn as boulmous_site/gunicorn.py sets it up (3 workers, production settings,
the throttles in Redis: BENCH_REDIS_URL, redis://127.0.0.1:6379/5 unless given, which it
empties) over a fresh SQLite database, on a free port of the loopback, and talks to it as
nginx would (X-Forwarded-For). It prints the answers' statuses, counted in order, and how
many requests a minute it made; gunicorn is stopped on the way out, whatever happens.
Exits 1 when a throttle does not hold: more than 10 wrong passwords answered before the
429, the right one then let in, or a form answered past its figure (LIMITS in
scoring/infra/throttles.py) or refused before it.
"""

import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from http.cookies import SimpleCookie
from itertools import groupby
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
PASSWORD = "felt-and-trumps-21"
ADDRESS = "203.0.113.5"


class Browser:
    """One client with its cookies, coming through nginx from ``ADDRESS``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: SimpleCookie = SimpleCookie()

    def request(
        self, method: str, path: str, data: dict[str, str] | None = None
    ) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"X-Forwarded-For": ADDRESS, "Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v.value}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            token = self.cookies["csrftoken"].value if "csrftoken" in self.cookies else ""
            body = urlencode({**data, "csrfmiddlewaretoken": token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        for header in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(header)
        text = response.read().decode(errors="replace")
        connection.close()
        return response.status, text

    def post_form(self, path: str, data: dict[str, str]) -> int:
        if "csrftoken" not in self.cookies:
            self.request("GET", path)
        return self.request("POST", path, data)[0]


def runs(statuses: Iterable[int]) -> str:
    """Statuses in runs: 200, 200, 429 is said as two times 200, then once 429."""
    return ", then ".join(f"{len(list(group))} × {status}" for status, group in groupby(statuses))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def figures() -> dict[str, int]:
    """Each throttled form's figure, as scoring/infra/throttles.py declares it (read under
    DEBUG, in this process only: the server has its own settings)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boulmous_site.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from scoring.infra.throttles import LIMITS

    return {limit.name: limit.count for limit in LIMITS}


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="boulmous-throttles-"))
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "boulmous_site.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "REDIS_URL": REDIS_URL,
        "EMAIL_HOST": "localhost",  # production mails through SMTP (E002); nothing is sent
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "3",
    }
    python = [sys.executable, "manage.py"]
    subprocess.run([*python, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    make_user = (
        "import django; django.setup(); from django.contrib.auth.models import User; "
        "from django.core.cache import cache; cache.clear(); "
        f"User.objects.create_user('amina', 'amina@example.com', {PASSWORD!r})"
    )
    subprocess.run([sys.executable, "-c", make_user], cwd=ROOT, env=env, check=True)
    command = [str(GUNICORN), "-c", "boulmous_site/gunicorn.py", "boulmous_site.wsgi"]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        browser = Browser(port)
        start = time.monotonic()
        wrong = [
            browser.post_form("/accounts/login/", {"username": "amina", "password": "wrong"})
            for _ in range(200)
        ]
        minutes = (time.monotonic() - start) / 60
        right, page = browser.request(
            "POST",
            "/accounts/login/",
            {"username": "amina", "password": PASSWORD},
        )
        print(f"200 wrong passwords for one account: {runs(wrong)} ({200 / minutes:.0f} a minute)")
        retry = re.search(r"Try again in (\d+) minutes", page)
        print(f"then the right one: {right} ({retry.group(0) if retry else 'no retry said'})")
        missed = right != 429 or held(wrong, most=10) is False
        forms = {
            "sign-up": ("/accounts/signup/", {"username": "bilal"}),
            "password-reset": ("/accounts/password_reset/", {"email": "x@example.com"}),
            "game-import": ("/games/import", {"text": "{}"}),
        }
        for name, (path, data) in forms.items():
            browser = Browser(port)
            answers = [browser.post_form(path, data) for _ in range(100)]
            print(f"{name}, 100 posts: {runs(answers)}")
            missed |= held(answers, exactly=figures()[name]) is False
    finally:
        server.terminate()
        server.wait(timeout=40)
    if missed:
        print("a throttle did not hold")
    return 1 if missed else 0


def held(answers: list[int], *, most: int | None = None, exactly: int | None = None) -> bool:
    """Whether the answers are some not 429, then 429 only: at most ``most`` of them, or
    ``exactly`` that many."""
    before = next((index for index, status in enumerate(answers) if status == 429), len(answers))
    if any(status != 429 for status in answers[before:]):
        return False
    return before <= most if most is not None else before == exactly


if __name__ == "__main__":
    raise SystemExit(main())
