"""Privacy on a 360x640 phone, in English and Arabic: deleting one's account by taps, and a
member choosing to be shown to the public by his first name and initial; each page passes
axe and keeps to the phone's width.

A failing test leaves screenshots of its pages (tests/browser/conftest.py).
"""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.clubs.models import Member
from tests.browser.axe import report
from tests.browser.phone import PASSWORD, PHONE_WIDTH, log_in, scroll_width
from tests.clubs.cafe import PLAYERS

pytestmark = pytest.mark.browser


def seen(page, name):
    """axe's findings, the h1 count and the page's width."""
    return (*report(page), scroll_width(page))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_delete_account_by_taps_anonymous_name(phone, live_server, cafe, lang):
    page = phone(lang)
    log_in(page, "amina")
    page.goto("/accounts/")
    account = seen(page, f"account-{lang}")

    page.locator("a[href='/accounts/delete/']").first.click()
    asked = seen(page, f"delete-{lang}")
    page.locator("input[name=names][value=anonymous]").check()
    page.fill("#id_password", "not-my-password")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    refused = seen(page, f"delete-refused-{lang}")
    expect(page.get_by_role("alert")).to_be_visible()
    page.locator("input[name=names][value=anonymous]").check()
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    done = seen(page, f"deleted-{lang}")

    expect(page).to_have_url(f"{live_server.url}/accounts/deleted/")
    assert {"account": account, "asked": asked, "refused": refused, "done": done} == dict.fromkeys(
        ["account", "asked", "refused", "done"], ([], 1, PHONE_WIDTH)
    )
    assert User.objects.filter(username="amina").exists() is False
    assert Member.objects.get(club=cafe, role="admin", user=None).name == "Player 1"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_member_chooses_first_name_and_initial_by_taps(phone, cafe, lang):
    player = Member.objects.get(club=cafe, name=PLAYERS[0])
    page = phone(lang)
    log_in(page, "amina")
    page.goto(f"/clubs/cafe/players/{player.pk}/")
    offered = seen(page, f"public-name-{lang}")

    page.locator("input[name=shown][value=short]").check()
    with page.expect_navigation():
        page.locator("section.public-name button[type=submit]").click()
    stranger = phone(lang, scorer=False)
    stranger.goto("/clubs/cafe/seasons/now/")
    public = seen(stranger, f"public-season-{lang}")
    public_text = stranger.locator("main").inner_text()
    page.goto("/clubs/cafe/seasons/now/")

    assert (offered, public) == (([], 1, PHONE_WIDTH), ([], 1, PHONE_WIDTH))
    assert ("Amina B." in public_text, "Amina Belhaj" in public_text) == (True, False)
    assert "Amina Belhaj" in page.locator("main").inner_text()
    player.refresh_from_db()
    assert player.short_in_public is True
