"""Under the Content-Security-Policy, no page breaks a rule: every page, in each of its
states that its scripts reach, in English and in Arabic, with JavaScript on.

A violation is counted twice over: by a ``securitypolicyviolation`` listener that every
document gets before its own scripts run, and by Chromium's console, which reports each
refusal.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import mark_document, same_document
from tests.factories import NAMES

pytestmark = pytest.mark.browser

LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.effectiveDirective} ${event.blockedURI}`);
});
"""
PLAY = "taker=0&bid=3&trump=H"


class Watch:
    """A phone's page, counting CSP violations page by page."""

    def __init__(self, page):
        self.page = page
        self.console = []
        self.found = {}
        self.policy = {}
        page.add_init_script(LISTEN)
        page.on("console", self.heard)

    def heard(self, message):
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    def visit(self, name, address):
        """Open ``address`` as page ``name``, noting whether it came with the policy."""
        self.answered(name, self.page.goto(address))

    def answered(self, name, response):
        self.policy[name] = "content-security-policy" in response.headers

    def count(self, name):
        """What was refused since the last count: by the listener, and on the console."""
        listened = self.page.evaluate("window.cspViolations.splice(0)")
        self.found[name] = (len(listened), len(self.console))
        self.console.clear()


def tap(page, name, value):
    page.locator(f'input[name="{name}"][value="{value}"] + span').click()


PAGES = [
    "home",
    "new game",
    "game, start",
    "game, a hand saved in place",
    "edit hand",
    "card by card",
    "calculator",
    "rules",
    "settlement",
    "import",
    "404",
]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_no_page_violates_the_content_security_policy(phone, transactional_db, lang):
    watch = Watch(phone(lang))
    page = watch.page

    watch.visit("home", "/")
    watch.count("home")

    watch.visit("new game", "/games/new")
    page.locator("details.rules summary").click()
    for seat, name in enumerate(NAMES):
        page.locator(f"#id_player_{seat}").fill(name)
    tap(page, "first_dealer", 0)
    watch.count("new game")

    with page.expect_navigation() as started:
        page.locator("form.new-game button.save").click()
    watch.answered("game, start", started.value)
    game = re.search(r"/games/([^/]+)/", page.url).group(1)
    watch.count("game, start")

    mark_document(page)
    tap(page, "taker", 1)
    tap(page, "bid", 5)
    tap(page, "trump", "S")
    for seat, tricks in enumerate((0, 5, 1)):
        tap(page, f"tricks_{seat}", tricks)
    page.locator("#hand-form button.save").click()
    expect(page.locator('#hand-form input[name="number"]')).to_have_value("2")
    swapped = same_document(page)
    watch.policy["game, a hand saved in place"] = watch.policy["game, start"]
    watch.count("game, a hand saved in place")

    watch.visit("edit hand", f"/games/{game}/hands/1/edit")
    watch.count("edit hand")

    watch.visit("card by card", f"/games/{game}/hands/2/play?{PLAY}")
    page.locator(".deck a.key").first.click()
    expect(page.locator(".table-cards li")).to_have_count(1)
    watch.count("card by card")

    watch.visit("calculator", "/referee/trick")
    page.locator(".calc-trumps a.key").first.click()
    # The card tapped once htmx has shown the trump: tapped before, it is the deck's link of
    # the page without a trump, and the trump's answer replaces the card's.
    expect(page.locator(".calc-trumps a.key").first).to_have_attribute("aria-current", "true")
    page.locator(".calc-deck a.key").first.click()
    expect(page.locator(".calc-deck span.key.played")).to_have_count(1)
    watch.count("calculator")

    for name, address in [
        ("rules", f"/rules?game={game}"),
        ("settlement", f"/games/{game}/settlement"),
        ("import", "/games/import"),
        ("404", "/no/such/page"),
    ]:
        watch.visit(name, address)
        watch.count(name)

    assert watch.found == dict.fromkeys(PAGES, (0, 0))
    assert watch.policy == dict.fromkeys(PAGES, True)
    assert swapped is True


def test_a_refused_inline_script_is_counted(phone, transactional_db):
    watch = Watch(phone("en"))
    watch.visit("rules", "/rules")

    watch.page.evaluate(
        "document.body.append(Object.assign(document.createElement('script'),"
        " {textContent: 'window.ran = true'}))"
    )
    watch.page.wait_for_function("window.cspViolations.length > 0")
    ran = watch.page.evaluate("window.ran === true")
    watch.count("rules")

    assert (watch.found["rules"], watch.policy["rules"], ran) == ((1, 1), True, False)
