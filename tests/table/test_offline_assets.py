"""Offline (issue 13): the service worker at the site's root, the shell it keeps, and the
mark by which it keeps only the pages of games this phone scores."""

import re

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.templatetags.static import static

from scoring.table.views.app import SHELL
from tests.table.service_worker import preamble

pytestmark = pytest.mark.django_db

# A name as CompressedManifestStaticFilesStorage links it, long cached: table.0123abcd4567.js
HASHED = re.compile(r"^/static/[\w/.-]+\.[0-9a-f]{12}\.(css|js|png|svg)$")


def test_service_worker_is_served_at_the_root_fresh_each_time(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "max-age=0" in response["Cache-Control"]


def test_service_worker_lists_the_shell_by_hashed_names(client):
    source = client.get("/sw.js").content.decode()
    shell = preamble(source, "SHELL")

    needed = ["css/boulmous.css", "django_htmx/htmx-2.min.js", "js/table.js", "js/offline.js"]
    assert all(static(name) in shell for name in needed)
    assert all(HASHED.match(url) for url in shell), shell
    assert len(shell) == len(set(shell)) <= len(SHELL)


def test_service_worker_version_follows_the_static_manifest(client):
    source = client.get("/sw.js").content.decode()
    version = preamble(source, "VERSION")
    again = preamble(client.get("/sw.js").content.decode(), "VERSION")

    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert version == again
    assert staticfiles_storage.manifest_hash  # what the version is made from
    assert "boulmous-shell-${VERSION}" in source


def test_service_worker_offline_page_links_the_hashed_stylesheet(client):
    page = preamble(client.get("/sw.js").content.decode(), "OFFLINE_PAGE")

    assert static("css/boulmous.css") in page
    assert "<script" not in page
    assert "No connection" in page


def test_game_page_marks_a_scorer_for_the_worker_and_not_a_watcher(client, watcher, game):
    scorer_page = client.get(f"/games/{game.public_id}/").content.decode()
    watcher_page = watcher.get(f"/games/{game.public_id}/").content.decode()

    assert "data-offline-scorer" in scorer_page
    assert "data-offline-scorer" not in watcher_page
    assert 'id="offline-strings"' not in watcher_page  # no offline code for a watcher


def test_every_page_of_a_phone_that_may_score_registers_the_worker_from_a_static_script(
    client, watcher, game
):
    later = f'<meta name="later-script" content="{static("js/offline.js")}">'
    for page in (client.get("/").content.decode(), client.get("/rules").content.decode()):
        assert later in page
        assert 'data-worker="/sw.js"' in page
    # A phone that holds no right has nothing to keep offline, nor a hand to queue.
    assert "offline.js" not in watcher.get("/").content.decode()
