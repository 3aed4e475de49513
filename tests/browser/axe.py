"""axe-core run on a page: WCAG 2.2 A and AA, and best practices."""

from axe_playwright_python.sync_playwright import Axe

AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    }
}


def violations(page):
    """axe's violations, each with the elements it names."""
    result = Axe().run(page, options=AXE_RULES)
    return [
        (violation["id"], [node["target"] for node in violation["nodes"]])
        for violation in result.response["violations"]
    ]


def report(page):
    """axe's violations and the page's h1 count."""
    return violations(page), page.locator("h1").count()
