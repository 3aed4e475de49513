"""A season's standings on the club's own website (issue 22.4): a page on another origin (a
second local server, 127.0.0.1 where the app is localhost) pastes the season page's snippet;
the frame shows the standings when the club lists that origin, and Chromium refuses it
(frame-ancestors) when it does not. The same page reads standings.csv across sites (CORS)
only when allowed."""

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scoring.clubs.models import Club
from tests.clubs.league_games import GAME_A, new_club, play

pytestmark = pytest.mark.browser

READ_CSV = """
<script>
fetch(%s).then((answer) => answer.text())
  .then((text) => { document.body.dataset.csv = text.split("\\n")[0]; })
  .catch(() => { document.body.dataset.csv = "refused"; });
</script>
"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture
def club_site(tmp_path):
    """The club's own website: a second server, on another origin, serving ``tmp_path``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def season(transactional_db):
    from django.contrib.auth.models import User

    admin = User.objects.create_user("amina")
    club = new_club(admin, public=True)
    play(club, GAME_A)
    return club, admin


def snippet(browser, live_server, admin):
    """The frame as the season page gives it to the club's admin, to copy."""
    from django.test import Client

    client = Client()
    client.force_login(admin)
    context = browser.new_context(base_url=live_server.url)
    context.add_cookies(
        [
            {"name": name, "value": morsel.value, "url": live_server.url}
            for name, morsel in client.cookies.items()
        ]
    )
    page = context.new_page()
    page.goto("/clubs/cafe/seasons/now/")
    page.locator(".embed-snippet summary").click()
    code = page.locator("#embed-code").input_value()
    context.close()
    return code


def visit(browser, origin, folder, code, live_server):
    """The club's page with the snippet pasted in, and what Chromium said of it."""
    csv = f"{live_server.url}/clubs/cafe/seasons/now/standings.csv"
    (folder / "index.html").write_text(
        f"<!doctype html><title>Club</title><h1>Our club</h1>{code}{READ_CSV % repr(csv)}",
        encoding="utf-8",
    )
    context = browser.new_context()
    page = context.new_page()
    heard = []
    page.on("console", lambda message: heard.append(message.text))
    page.goto(f"{origin}/index.html")
    page.wait_for_function("document.body.dataset.csv !== undefined")
    page.wait_for_timeout(300)
    frame = page.frames[1]
    seen = (
        frame.locator(".league-table tbody tr").count(),
        page.evaluate("document.body.dataset.csv"),
        any("frame-ancestors" in text for text in heard),
    )
    context.close()
    return seen


def test_embed_on_an_allowed_origin_shows_the_standings(browser, live_server, season, club_site):
    club, admin = season
    origin, folder = club_site
    Club.objects.filter(pk=club.pk).update(embed_origins=[origin])
    code = snippet(browser, live_server, admin)

    rows, csv, refused = visit(browser, origin, folder, code, live_server)

    assert code.startswith(f'<iframe src="{live_server.url}/clubs/cafe/seasons/now/embed"')
    assert (rows, csv.split(",")[:2], refused) == (4, ["rank", "player"], False)


@pytest.mark.parametrize("listed", [[], ["https://club.example.org"]])
def test_embed_on_an_origin_not_allowed_refused(browser, live_server, season, club_site, listed):
    club, admin = season
    origin, folder = club_site
    Club.objects.filter(pk=club.pk).update(embed_origins=listed)
    code = snippet(browser, live_server, admin)

    assert visit(browser, origin, folder, code, live_server) == (0, "refused", True)


def test_embed_in_a_phones_page_fits_its_frame(browser, live_server, season, club_site):
    club, admin = season
    origin, folder = club_site
    Club.objects.filter(pk=club.pk).update(embed_origins=[origin])
    code = snippet(browser, live_server, admin)
    (folder / "index.html").write_text(
        f'<!doctype html><meta name="viewport" content="width=device-width">'
        f"<title>Club</title><h1>Our club</h1>{code}",
        encoding="utf-8",
    )
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{origin}/index.html")
    page.wait_for_selector("iframe")
    frame = page.frames[1]
    # The frame's stylesheet is what narrows the table: measure once it has loaded, not at the
    # first sight of the table in the DOM (a CI run under load measured it unstyled once).
    frame.wait_for_load_state("load")
    frame.wait_for_selector(".league-table")
    table, width = frame.evaluate(
        "[document.querySelector('.league-table').getBoundingClientRect().right,"
        " document.documentElement.clientWidth]"
    )
    shown = frame.locator(".league-table thead th:visible").count()
    every_column = frame.locator(".all-columns").is_visible()

    assert (table <= width < 390, every_column) == (True, True), (table, width, every_column)
    frame.locator(".all-columns").click()
    assert frame.locator(".league-table thead th:visible").count() > shown
    context.close()
