"""A federation's admin pages, a club leaving it, and the handicap cup in the season's frame
on a 360 px phone, in English, French and Arabic (issue 42's review), over the long club
(conftest.py ``long_club``: a long federation name, long Latin names, a season with a
cup): no page wider than the screen nor any axe violation on it; on an Arabic page the
cup's formula drawn with each figure left to right, apart from the words around it, and
the season's points on one line in the page's order."""

import pytest

from tests.browser.axe import violations
from tests.browser.phone import PHONE, PHONE_WIDTH, scroll_width, session_cookie

pytestmark = pytest.mark.browser

PAGES = (
    "/clubs/medina/federations/sahel/leave",
    "/federations/sahel/admins",
    "/federations/sahel/admins/{admin}/remove",
    "/federations/sahel/delete",
    "/clubs/medina/seasons/hiver/embed",
    "/clubs/medina/seasons/hiver/",
)

FIGURES_APART = """() => {
  const sentence = document.querySelector(".cup-explained");
  const figures = [...sentence.querySelectorAll("bdi")];
  // The season's points, between the sentence's parentheses: each figure where it is drawn.
  const points = [];
  let inside = false;
  const walker = document.createTreeWalker(sentence, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.textContent.length; i++) {
      const character = node.textContent[i];
      if (character === "(") inside = true;
      if (character === ")") inside = false;
      if (!inside || !/[0-9]/.test(character)) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      points.push([character, box.x, box.y]);
    }
  }
  return {
    figures: figures.map(bdi => [bdi.textContent, getComputedStyle(bdi).direction,
                                 getComputedStyle(bdi).unicodeBidi]),
    bare: [...sentence.childNodes].filter(node => node.nodeType === Node.TEXT_NODE)
      .some(node => /[0-9]/.test(node.textContent)),
    points,
  };
}"""
"""The cup's sentence: its isolated figures (text, direction, bidi), whether a figure is
left outside them, and where the season's points are drawn."""


def drawn(points):
    """The season's points as a reader reads them: on how many lines, and from the side the
    page starts (left to right, or right to left)."""
    lines = {round(y) for _, _, y in points}
    ltr = [figure for figure, _, _ in sorted(points, key=lambda point: point[1])]
    return len(lines), ltr


def visit(browser, live_server, club, lang):
    context = browser.new_context(
        viewport=PHONE,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        base_url=live_server.url,
    )
    context.add_cookies([session_cookie(club["admin"], live_server.url)])
    page = context.new_page()
    widths, cups, found = {}, [], {}
    for url in PAGES:
        address = url.format(admin=club["admin"].pk)
        response = page.goto(address)
        assert response.status == 200, address
        widths[address] = scroll_width(page)
        found[address] = violations(page)
        if page.locator(".cup-explained").count():
            cups.append(page.evaluate(FIGURES_APART))
    context.close()
    return widths, cups, found


ARABIC_FIGURES = [
    [figure, "ltr", "isolate"] for figure in ("365", "1,50", "3", "2", "1", "0", "0", "5")
]
"""The cup's formula on an Arabic page: each figure in a ``<bdi dir="ltr">``, none left out."""


@pytest.mark.parametrize(
    ("lang", "figures", "points"),
    [
        ("en", [], ["3", "2", "1", "0"]),
        ("fr", [], ["3", "2", "1", "0"]),
        # Right to left, as the season's line above the standings lists them.
        ("ar", ARABIC_FIGURES, ["0", "1", "2", "3"]),
    ],
)
def test_federation_pages_and_the_cup_s_frame_fit_a_phone(
    browser, live_server, long_club, lang, figures, points
):
    widths, cups, found = visit(browser, live_server, long_club, lang)

    assert {page: width for page, width in widths.items() if width > PHONE_WIDTH} == {}
    assert {page: problems for page, problems in found.items() if problems} == {}
    # The frame and the season's page both show the cup; in Arabic its figures read left
    # to right, apart from the words (English and French need nothing around them).
    assert [cup["figures"] for cup in cups] == [figures, figures]
    assert [cup["bare"] for cup in cups] == [not figures, not figures]
    # The season's points on one line, in the page's order.
    assert [drawn(cup["points"]) for cup in cups] == [(1, points), (1, points)]
