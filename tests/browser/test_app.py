"""Installable: Chromium, at a phone's size, finds the manifest and can install the app."""

import pytest

from tests.browser.phone import CHROMIUM, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# The manifest itself, and the page's link to it: tests/table/test_app.py.


def test_home_page_is_installable_in_chromium(browser, live_server, tmp_path):
    # Chromium refuses to install from a private window, which a plain context is:
    # its own profile in a folder makes it a normal window.
    context = browser.browser_type.launch_persistent_context(
        tmp_path,
        executable_path=str(CHROMIUM),
        headless=True,
        viewport=PHONE,
        args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/")

    errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    context.close()

    assert errors == {"installabilityErrors": []}
