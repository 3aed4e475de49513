"""What the browser tests share: where Chromium is, the phone's size, a counting thumb, page
probes, and signing in (by the login form, or by a session cookie)."""

from pathlib import Path

from django.conf import settings
from django.test import Client

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, the whole browser: what installs the app (test_app.py)."""
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
"""Debian's Chromium built as its headless shell (package chromium-headless-shell): the same
Blink and V8, without the browser's windows. The browser tests' pages cost it 42% of
the CPU the whole browser spends on them (the suite's Chromium: 124 CPU-seconds, not 297,
on a 0.20 s machine), which CI's ten minutes needed."""
BROWSER = HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
"""The browser the tests drive: the headless shell where it is installed (CI installs it)."""
PHONE = {"width": 360, "height": 640}
PHONE_WIDTH = PHONE["width"]
PASSWORD = "felt-and-trumps-21"
"""The password of the accounts the fixtures make."""
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
    """A marker that a navigation would lose, and an htmx swap keeps: set once the page has
    loaded, its scripts run (a tap before htmx is there is a plain link's, a navigation)."""
    page.wait_for_load_state("load")
    page.evaluate("window.sameDocument = true")


def same_document(page):
    return page.evaluate("window.sameDocument === true")


_VISIBLE_TEXTS = """
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (element.closest(".visually-hidden, [hidden], template, script, style")) continue;
    if (node.textContent.trim() && element.checkVisibility()) texts.push(node);
  }
  const box = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return range.getBoundingClientRect();
  };
"""

MISREAD_SIGNS = (
    "() => {"
    + _VISIBLE_TEXTS
    + r"""
  // A sign before a number or an amount (not a hyphen between two numbers), then what
  // follows it once direction marks and no-break spaces are passed over.
  const sign = /(^|[^\d\p{L}])([-+\u2212])[\p{Cf}\u00a0\u202f]*(?=[\d\p{Sc}])/gu;
  const misread = [];
  for (const node of texts) {
    for (const match of node.textContent.matchAll(sign)) {
      const at = match.index + match[1].length;
      const next = match.index + match[0].length;
      const [signBox, nextBox] = [box(node, at, at + 1), box(node, next, next + 1)];
      if (signBox.width && nextBox.width && Math.abs(signBox.top - nextBox.top) < 2
          && signBox.left > nextBox.left) misread.push(node.textContent.trim());
    }
  }
  return misread;
}"""
)


def misread_signs(page):
    """The texts on screen whose sign (a minus or a plus) is drawn after its number, as
    the bidi algorithm draws ``-2`` in a right-to-left line when nothing isolates it."""
    return page.evaluate(MISREAD_SIGNS)


CUT_AT_THEIR_START = """(names) => {
  // Each element that cuts its text (overflow hidden, an ellipsis) and shows one of these
  // names: does its box hold the name's first letter?
  const cut = [];
  for (const element of document.querySelectorAll("body *")) {
    const style = getComputedStyle(element);
    if (style.textOverflow !== "ellipsis" || !element.checkVisibility()) continue;
    const text = element.textContent.trim();
    if (!names.includes(text) || element.scrollWidth <= element.clientWidth) continue;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walker.nextNode() && !walker.currentNode.textContent.trim());
    const node = walker.currentNode;
    const first = node.textContent.search(/\\S/);
    const range = document.createRange();
    range.setStart(node, first);
    range.setEnd(node, first + 1);
    const letter = range.getBoundingClientRect();
    const shown = element.getBoundingClientRect();
    if (letter.left < shown.left - 0.5 || letter.right > shown.right + 0.5) cut.push(text);
  }
  return cut;
}"""


def names_cut_at_their_start(page, names):
    """The names, among ``names``, that an ellipsis cuts at their start: a Latin name in
    a right-to-left page overflows on its left, its first letters hidden."""
    return page.evaluate(CUT_AT_THEIR_START, list(names))


ISOLATED = """(text) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.includes(text)) continue;
    const parent = node.parentElement;
    const bidi = getComputedStyle(parent).unicodeBidi;
    found.push(node.textContent.trim() === text
      && ["isolate", "isolate-override", "plaintext"].includes(bidi));
  }
  return found;
}"""


def isolated(page, text):
    """For each text on the page that holds ``text``: is it ``text`` alone, in an element
    that the bidi algorithm isolates from its neighbours (a ``<bdi>``)?"""
    return page.evaluate(ISOLATED, text)


BROKEN_FIGURES = r"""() => {
  // A space that a line may break at, inside a figure: between groups of digits, or
  // between an amount and its currency.
  const breakable = /\d [\d\p{Sc}]|\p{Sc} \d/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent;
    if (breakable.test(text)) found.push(text.trim());
  }
  return found;
}"""


def breakable_figures(page):
    """The texts where a line could break inside a number or an amount (French writes
    ``1 234,50 €`` with no-break spaces)."""
    return page.evaluate(BROKEN_FIGURES)


def log_in(page, username):
    """Sign in as ``username`` by the login form, as a user does."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


def session_cookie(user, url):
    """The cookie of a browser signed in as ``user``, for the live server at ``url``."""
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": value, "url": url}
