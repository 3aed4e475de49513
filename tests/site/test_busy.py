"""SQLite's one writer busy (a club's import holds it): a write that waited past the
connection's timeout gets the 503 page, which says nothing changed and when to try again,
in the reader's language, not the 500 page (scoring/infra/busy.py)."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import OperationalError
from django.http import HttpResponse
from django.utils import translation

from scoring.infra.busy import RETRY_SECONDS, DatabaseBusy

pytestmark = pytest.mark.django_db


def answer(rf, error):
    request = rf.post("/games/abc/hands")
    request.user = AnonymousUser()
    return DatabaseBusy(lambda request: HttpResponse()).process_exception(request, error)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "The server is busy A long task (a club’s import) is writing to the database: "
            "nothing was changed. Try again in 10 seconds.",
        ),
        (
            "fr",
            "Le serveur est occupé Une longue tâche (l’import d’un club) écrit dans la base "
            "de données\u00a0: rien n’a été modifié. Réessayez dans 10 secondes.",
        ),
        (
            "ar",
            "الخادم مشغول مهمة طويلة (استيراد نادٍ) تكتب في قاعدة البيانات: لم يتغيّر شيء. "
            "أعد المحاولة بعد 10 ثوانٍ.",
        ),
    ],
)
def test_database_locked_is_a_503_page_that_says_nothing_changed(rf, language, words):
    with translation.override(language):
        response = answer(rf, OperationalError("database is locked"))

    main = response.content.decode().split("<main", 1)[1].split("</main>")[0]
    text = re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", main.split(">", 1)[1])).strip()
    assert (response.status_code, response["Retry-After"], words in text) == (
        503,
        str(RETRY_SECONDS),
        True,
    )


def test_other_database_errors_are_left_to_the_500_page(rf):
    assert answer(rf, OperationalError("no such table: scoring_game")) is None
    assert answer(rf, ValueError("database is locked")) is None
