import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Boulmous, scored and refereed"), ("fr", "Le Boulmous, compté et arbitré")],
)
def test_home_page_follows_browser_language(client, language, expected):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert expected in response.content.decode()


def test_home_page_shows_heart_trumps_in_order(client):
    response = client.get("/")

    labels = [card.label for card in response.context["heart_trumps"]]
    assert labels == ["J♥", "J♦", "A♥", "K♥", "Q♥", "10♥", "9♥"]


def test_home_page_refuses_post(client):
    response = client.post("/")

    assert response.status_code == 405


def test_language_switch_sets_french(client):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/"}, follow=True)

    assert "Le Boulmous, compté et arbitré" in response.content.decode()


def test_healthz_answers_ok(client):
    response = client.get("/healthz")

    assert response.json() == {"status": "ok"}


def test_static_files_are_served_compressed(client):
    page = client.get("/").content.decode()
    css = page.split('href="/static/css/')[1].split('"')[0]

    response = client.get(f"/static/css/{css}", HTTP_ACCEPT_ENCODING="gzip")
    response.close()

    assert (response.status_code, response.headers.get("Content-Encoding")) == (200, "gzip")
