"""What the browser tests share: the phone's size, a counting thumb, and page probes."""

PHONE_WIDTH = 360
TAP = 44
"""The least height, in CSS pixels, of anything a thumb taps."""


class Taps:
    """A thumb on the screen: every tap is counted."""

    def __init__(self):
        self.count = 0

    def tap(self, locator):
        locator.click()
        self.count += 1


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


def mark_document(page):
    """A marker that a navigation would lose, and an htmx swap keeps."""
    page.evaluate("window.sameDocument = true")


def same_document(page):
    return page.evaluate("window.sameDocument === true")
