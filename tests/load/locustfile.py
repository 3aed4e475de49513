"""Load test (``make loadtest``, through tests/load/run.sh): phones at tables and people
watching games, against gunicorn on the loopback.

Each simulated user starts a game of its own (the new-game form, then its page), and then,
mostly reading: opens the page of a seeded game (weight 6), opens the home page (3), or
saves the next hand of its own game (2), as htmx does it: one POST whose answer is the
game's part of the page, which gives the next hand's number and dealer.

Environment:

- ``BOULMOUS_LOAD_IDS``: a file of public ids of seeded games, one a line (run.sh writes it).
- ``BOULMOUS_LOAD_WAIT``: the pause between two actions of a user, ``MIN,MAX`` seconds
  (``0.5,1.5`` unless given; ``0,0`` for no pause, to find the most the server serves).

The requests are named for tests/load/report.py: "game page", "home page", "save a hand".
Not a test for pytest: no test_ prefix, and tests/load/conftest.py keeps it out.
"""

import html
import logging
import os
import random
import re
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from locust import HttpUser, between, events, task

GAME_PAGE = "game page"
HOME_PAGE = "home page"
SAVE_HAND = "save a hand"
SCORER_COOKIE = "boulmous_scorer"

_NAMES = """
Amina Bilal Chafik Dalila Elyes Farah Ghassen Hela Imed Jihene Karim Leila Mehdi Nadia
Omar Rania Sami Tarek Wafa Yassine
"""
NAMES = _NAMES.split()
TRUMPS = ("S", "H", "D", "C", "NT")
TARGET = "999"
"""The highest target the form takes: a game started here does not end within a run."""

PUBLIC_IDS: list[str] = []
"""The seeded games' public ids, read once when the test starts."""


def _wait() -> tuple[float, float]:
    low, _, high = os.environ.get("BOULMOUS_LOAD_WAIT", "0.5,1.5").partition(",")
    return float(low), float(high or low)


@events.test_start.add_listener
def read_public_ids(environment: Any, **kwargs: Any) -> None:
    path = os.environ.get("BOULMOUS_LOAD_IDS", "")
    ids = Path(path).read_text().split() if path and Path(path).is_file() else []
    if not ids:
        logging.error("BOULMOUS_LOAD_IDS=%r: give a file of seeded games' public ids", path)
        environment.process_exit_code = 1
        if environment.runner is not None:
            environment.runner.quit()
        return
    PUBLIC_IDS[:] = ids


def hidden(page: str, name: str) -> str | None:
    """The value of the input named ``name`` in ``page``, if there is one."""
    tag = re.search(rf'<input\b[^>]*\bname="{re.escape(name)}"[^>]*>', page)
    if tag is None:
        return None
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return html.unescape(value.group(1)) if value else ""


class Phone(HttpUser):
    """A phone at a table that also watches other games."""

    wait_time = between(*_wait())

    def on_start(self) -> None:
        self.csrf = ""
        self.game = ""
        self.number = ""
        self.dealer = ""
        self.start_game()

    def start_game(self) -> None:
        """The new-game form, then its POST (a redirect to the game), then the game's page."""
        form = self.client.get("/games/new", name="new game form")
        csrf, token = hidden(form.text, "csrfmiddlewaretoken"), hidden(form.text, "token")
        if not csrf or not token:
            return
        names = random.sample(NAMES, 4)
        data = {f"player_{seat}": name for seat, name in enumerate(names)}
        data.update(
            csrfmiddlewaretoken=csrf,
            token=token,
            first_dealer="random",
            target=TARGET,
            failed_taker="tricks_minus_bid",
            stake="",
            currency="EUR",
        )
        with self.client.post(
            "/games/new", data, name="start a game", allow_redirects=False, catch_response=True
        ) as started:
            location = started.headers.get("Location", "")
            found = re.fullmatch(r"/games/([\w-]+)/", location)
            if started.status_code != 302 or found is None:
                started.failure(f"{started.status_code}, Location {location!r}")
                return
            self.keep_rights(started.raw.headers.getlist("Set-Cookie"))
        page = self.client.get(location, name="own game page")
        self.csrf, self.game = csrf, found.group(1)
        self.follow(page.text)

    def keep_rights(self, set_cookies: list[str]) -> None:
        """Keep the rights cookie as a browser does. Its value is quoted (it holds JSON), and
        requests drops every \\" from a quoted value, which breaks its signature: keep it
        unquoted instead, as Django reads either form."""
        for header in set_cookies:
            parsed: SimpleCookie = SimpleCookie()
            parsed.load(header)
            if SCORER_COOKIE in parsed:
                for cookie in self.client.cookies:
                    if cookie.name == SCORER_COOKIE:
                        cookie.value = parsed[SCORER_COOKIE].value

    def follow(self, page: str) -> None:
        """The next hand's number and dealer, as the page's hand form gives them."""
        self.number = hidden(page, "number") or ""
        self.dealer = hidden(page, "dealer") or ""

    @task(6)
    def game_page(self) -> None:
        self.client.get(f"/games/{random.choice(PUBLIC_IDS)}/", name=GAME_PAGE)

    @task(3)
    def home_page(self) -> None:
        self.client.get("/", name=HOME_PAGE)

    @task(2)
    def save_hand(self) -> None:
        if not self.number:  # the game could not start, or takes no more hands
            self.start_game()
            return
        data = {
            "csrfmiddlewaretoken": self.csrf,
            "number": self.number,
            "dealer": self.dealer,
            "token": str(uuid.uuid4()),
        }
        if random.random() < 0.1:
            data["void"] = "1"  # all passed
        else:
            cuts = sorted(random.randint(0, 6) for _ in range(3))
            tricks = (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1])  # the fourth left blank
            data.update(
                taker=str(random.randrange(4)),
                bid=str(random.choice((3, 3, 4, 4, 5, 6))),
                trump=random.choice(TRUMPS),
            )
            data.update({f"tricks_{seat}": str(count) for seat, count in enumerate(tricks)})
        with self.client.post(
            f"/games/{self.game}/hands",
            data,
            name=SAVE_HAND,
            headers={"HX-Request": "true"},
            allow_redirects=False,
            catch_response=True,
        ) as saved:
            if saved.status_code != 200:
                saved.failure(f"status {saved.status_code}")
                self.number = ""
                return
            self.follow(saved.text)
            if self.number != str(int(data["number"]) + 1):
                saved.failure(f"hand {data['number']} saved, then hand {self.number!r}")
