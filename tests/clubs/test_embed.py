"""A season's standings on the club's own website (issue 22.4): the origins an admin lists,
checked strictly and logged; the embed page's frame headers; CORS on standings.csv and the
API's reads of the club, for those origins only."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from scoring.clubs.embed import clean_origin, clean_origins
from scoring.clubs.models import Club, ClubChange
from scoring.engine import Rules
from scoring.table import services as table_services
from tests.clubs.factories import settings_form, signed_in, with_role
from tests.clubs.league_games import GAME_A, new_club, play
from tests.factories import NAMES

SITE = "https://club.example.org"
OTHER = "https://elsewhere.example.net"
EMBED = "/clubs/cafe/seasons/now/embed"


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_user("amina")


@pytest.fixture
def public(admin, client):
    """The public Café des Sports, one game won this season, its admin signed in."""
    club = new_club(admin, public=True)
    play(club, GAME_A)
    client.force_login(admin)
    return club


def listed(club, *origins):
    Club.objects.filter(pk=club.pk).update(embed_origins=list(origins))


def problem(text):
    try:
        clean_origin(text)
    except ValidationError as error:
        return error.code
    return None


# --- origins -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://example.org", "https://example.org"),
        ("  HTTPS://Example.ORG  ", "https://example.org"),
        ("https://example.org:443", "https://example.org"),
        ("https://example.org:8443", "https://example.org:8443"),
        ("https://café.example", "https://xn--caf-dma.example"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:80", "http://[::1]"),
        ("https://[2001:DB8::0001]", "https://[2001:db8::1]"),
        ("https://203.0.113.7", "https://203.0.113.7"),
    ],
)
def test_origin_good_written_as_browsers_send_it(text, origin):
    assert clean_origin(text) == origin


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("example.org", "origin"),
        ("", "origin"),
        ("https://", "origin"),
        ("https://user@example.org", "origin"),
        ("https://*.example.org", "origin_host"),
        ("https://exa_mple.org", "origin_host"),
        ("https://-example.org", "origin_host"),
        ("https://example..org", "origin_host"),
        ("https://999.1.1.1", "origin_host"),
        ("https://[::g]", "origin"),
        ("https://[12345::]", "origin_host"),
        ("https://example.org/", "origin_path"),
        ("https://example.org/standings", "origin_path"),
        ("https://example.org?x=1", "origin_path"),
        ("https://example.org#top", "origin_path"),
        ("http://example.org", "origin_scheme"),
        ("ftp://example.org", "origin_scheme"),
        ("javascript://example.org", "origin_scheme"),
        ("https://example.org:0", "origin_port"),
        ("https://example.org:65536", "origin_port"),
        ("https://example.org:", "origin_path"),
    ],
)
def test_origin_bad_refused_with_its_reason(text, code):
    assert problem(text) == code


def test_origins_several_one_a_line_or_by_commas_each_once():
    text = "https://a.example\nhttps://B.example, https://a.example:443  http://localhost:8000"

    assert clean_origins(text) == [
        "https://a.example",
        "https://b.example",
        "http://localhost:8000",
    ]


def test_origins_too_many_refused():
    with pytest.raises(ValidationError) as refused:
        clean_origins(" ".join(f"https://{number}.example" for number in range(21)))

    assert [one.code for one in refused.value.error_list] == ["origins_many"]


def test_club_settings_origins_saved_and_logged_before_and_after(public, client):
    response = client.post(
        "/clubs/cafe/settings",
        settings_form(name="Café des Sports", embed_origins=f"{SITE}\nhttp://localhost:8000"),
    )
    public.refresh_from_db()

    assert (response.status_code, public.embed_origins) == (302, [SITE, "http://localhost:8000"])
    change = ClubChange.objects.get(club=public, action="club_edited")
    assert (change.before["embed_origins"], change.after["embed_origins"]) == (
        [],
        [SITE, "http://localhost:8000"],
    )


def test_club_settings_bad_origin_said_on_the_field_nothing_saved(public, client):
    response = client.post(
        "/clubs/cafe/settings",
        settings_form(name="Café des Sports", embed_origins=f"{SITE}\nhttp://example.org/page"),
    )
    public.refresh_from_db()

    assert (response.status_code, public.embed_origins) == (422, [])
    assert response.context["form"].errors["embed_origins"] == [
        "“http://example.org/page”: an origin has no path; write only the scheme, the host "
        "and the port, such as https://example.org."
    ]


def test_club_settings_field_shows_the_origins_one_a_line(public, client):
    listed(public, SITE, "http://localhost:8000")

    page = client.get("/clubs/cafe/settings").content.decode()

    assert f">\n{SITE}\nhttp://localhost:8000</textarea>" in page


def test_club_settings_origins_only_for_admins(public, client):
    scorer = signed_in(with_role(public, "Hedi", "scorer"))

    response = scorer.post("/clubs/cafe/settings", settings_form(embed_origins=SITE))
    public.refresh_from_db()

    assert (response.status_code, public.embed_origins) == (403, [])


# --- the embed page ----------------------------------------------------------------------


def frames(response):
    csp = response["Content-Security-Policy"]
    ancestors = [part for part in csp.split("; ") if part.startswith("frame-ancestors")]
    return ancestors, response.get("X-Frame-Options")


def test_embed_origins_listed_may_frame_it(public, client):
    listed(public, SITE, "http://localhost:8000")

    response = client.get(EMBED)

    assert response.status_code == 200
    assert frames(response) == (
        ["frame-ancestors https://club.example.org http://localhost:8000"],
        None,
    )
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_embed_no_origin_listed_frames_refused(public, client):
    response = client.get(EMBED)

    assert frames(response) == (["frame-ancestors 'none'"], None)


def test_embed_shows_the_standings_without_script(public, client):
    page = client.get(EMBED).content.decode()

    assert ("<script" in page, "league-table" in page, "css/embed." in page) == (
        False,
        True,
        True,
    )
    assert page.count('<th scope="row" class="player">') == 4


def test_embed_other_pages_still_refuse_frames(public, client):
    listed(public, SITE)

    response = client.get("/clubs/cafe/seasons/now/")

    assert frames(response) == (["frame-ancestors 'none'"], "DENY")


def test_embed_private_club_not_found_even_for_its_admin(admin, client):
    new_club(admin, public=False)
    client.force_login(admin)

    assert (client.get(EMBED).status_code, Client().get(EMBED).status_code) == (404, 404)


def test_embed_unknown_season_not_found(public, client):
    assert client.get("/clubs/cafe/seasons/later/embed").status_code == 404


def test_embed_translated(public, client):
    page = client.get(EMBED, headers={"accept-language": "fr"}).content.decode()

    assert ('lang="fr"' in page, "Joueur" in page) == (True, True)


def test_season_page_snippet_for_admin_with_the_frame(public, client):
    page = client.get("/clubs/cafe/seasons/now/").content.decode()

    assert "&lt;iframe src=&quot;http://testserver/clubs/cafe/seasons/now/embed&quot;" in page
    assert "No website may show it yet" in page


def test_season_page_snippet_for_the_public_once_origins_listed(public):
    hidden = Client().get("/clubs/cafe/seasons/now/").content.decode()
    listed(public, SITE)
    shown = Client().get("/clubs/cafe/seasons/now/").content.decode()

    assert ("embed-code" in hidden, "embed-code" in shown) == (False, True)


# --- CORS --------------------------------------------------------------------------------


def cors(response):
    return response.get("Access-Control-Allow-Origin"), response.get("Vary", "")


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/cafe/seasons/now/standings.csv",
        "/api/v1/clubs/cafe",
        "/api/v1/clubs/cafe/seasons/now/standings",
        "/api/v1/clubs/cafe/games",
        "/api/v1/clubs/cafe/nights",
    ],
)
def test_cors_origin_listed_echoed(public, url):
    listed(public, SITE, "http://localhost:8000")

    allowed = Client().get(url, headers={"origin": SITE})
    other = Client().get(url, headers={"origin": "https://elsewhere.example"})
    none = Client().get(url)

    assert allowed.status_code == 200
    assert cors(allowed)[0] == SITE
    assert "Origin" in cors(allowed)[1]
    assert (cors(other)[0], "Origin" in cors(other)[1]) == (None, True)
    assert (cors(none)[0], "Origin" in cors(none)[1]) == (None, True)


def test_cors_no_origin_listed_none_echoed(public):
    response = Client().get("/api/v1/clubs/cafe", headers={"origin": SITE})

    assert cors(response)[0] is None


def test_cors_private_club_never_echoed_even_listed(admin, client):
    club = new_club(admin, public=False)
    listed(club, SITE)
    client.force_login(admin)

    csv = client.get("/clubs/cafe/seasons/now/standings.csv", headers={"origin": SITE})
    api = client.get("/api/v1/clubs/cafe", headers={"origin": SITE})

    assert (csv.status_code, cors(csv)[0], api.status_code, cors(api)[0]) == (200, None, 200, None)


def test_cors_head_as_get(public):
    listed(public, SITE)

    response = Client().head("/api/v1/clubs/cafe", headers={"origin": SITE})

    assert (response.status_code, cors(response)[0]) == (200, SITE)


def test_cors_on_a_club_game_for_its_clubs_origins_only(public):
    listed(public, SITE)
    game = public.club_games.first().game
    alone = table_services.create_game(names=NAMES, rules=Rules(), first_dealer=0).game

    of_club = Client().get(f"/api/v1/games/{game.public_id}", headers={"origin": SITE})
    elsewhere = Client().get(f"/api/v1/games/{game.public_id}", headers={"origin": OTHER})
    outside = Client().get(f"/api/v1/games/{alone.public_id}", headers={"origin": SITE})

    assert [(one.status_code, cors(one)[0]) for one in (of_club, elsewhere, outside)] == [
        (200, SITE),
        (200, None),
        (200, None),
    ]


def test_club_page_snippet_of_the_season_in_play(public, client):
    for_admin = client.get("/clubs/cafe/").content.decode()
    hidden = Client().get("/clubs/cafe/").content.decode()
    listed(public, SITE)
    shown = Client().get("/clubs/cafe/").content.decode()

    frame = "&lt;iframe src=&quot;http://testserver/clubs/cafe/seasons/now/embed&quot;"
    assert (frame in for_admin, "embed-code" in hidden, frame in shown) == (True, False, True)


def test_club_colour_chosen_logged_and_drawn_in_the_frame(public, client):
    response = client.post(
        "/clubs/cafe/settings", settings_form(name="Café des Sports", colour="#B22222")
    )
    public.refresh_from_db()
    change = ClubChange.objects.get(club=public, action="club_edited")
    frame = Client().get("/clubs/cafe/seasons/now/embed").content.decode()

    assert (response.status_code, public.colour) == (302, "#b22222")
    assert (change.before["colour"], change.after["colour"]) == ("#0f5132", "#b22222")
    assert 'style="--club: #b22222"' in frame


def test_club_colour_not_a_colour_said_on_the_field_nothing_saved(public, client):
    response = client.post(
        "/clubs/cafe/settings",
        settings_form(name="Café des Sports", colour='red" onload="x'),
    )
    public.refresh_from_db()

    assert (response.status_code, public.colour) == (422, "#0f5132")
    assert response.context["form"].errors["colour"] == ["Choose a colour such as #0f5132."]


def test_club_colour_left_out_kept(public, client):
    Club.objects.filter(pk=public.pk).update(colour="#123456")

    client.post("/clubs/cafe/settings", settings_form(name="Café des Sports"))
    public.refresh_from_db()

    assert public.colour == "#123456"
