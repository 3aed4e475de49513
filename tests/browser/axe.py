"""axe-core run on a page: WCAG 2.2 A and AA, and best practices."""

from axe_playwright_python.sync_playwright import Axe

AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    # Every rule still runs; only the violations' elements are gathered and sent back, not
    # those of every rule passed (most of the time a run took).
    "resultTypes": ["violations"],
}

AXE_SCRIPT = Axe().axe_script
"""axe-core's script, read once: a page that has it already is not sent it again."""


def violations(page):
    """axe's violations, each with the elements it names."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    response = page.evaluate("(options) => axe.run(document, options)", AXE_RULES)
    return [
        (violation["id"], [node["target"] for node in violation["nodes"]])
        for violation in response["violations"]
    ]


def report(page):
    """axe's violations and the page's h1 count."""
    return violations(page), page.locator("h1").count()
