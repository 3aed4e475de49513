"""The club's mail page with the mail not delivered (issue 43.4) on a 360 px phone, in
English, French and Arabic: the admin reads each failure, the server's long words broken
to fit, with no sideways scroll (conftest.py ``long_club``: one waiting, one given up)."""

import pytest

from tests.browser.phone import PHONE, PHONE_WIDTH, scroll_width, session_cookie

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("lang", "heading"),
    [("en", "Mail not delivered"), ("fr", "E-mails non remis"), ("ar", "بريد لم يُسلَّم")],
)
def test_mail_failures_fit_the_phone(browser, live_server, long_club, lang, heading):
    context = browser.new_context(
        viewport=PHONE,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        base_url=live_server.url,
    )
    context.add_cookies([session_cookie(long_club["admin"], live_server.url)])
    page = context.new_page()
    page.goto(f"/clubs/{long_club['arguments']['club']}/mail")

    shown = (
        page.locator("#mail-failures").inner_text(),
        page.locator(".mail-failures-list li").count(),
        scroll_width(page),
    )
    context.close()
    assert shown == (heading, 2, PHONE_WIDTH)
