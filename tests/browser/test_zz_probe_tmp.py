import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_probe(phone, live_server, lang):
    page = phone(lang)
    page.goto("/referee/trick?trump=H")
    ys = [page.locator(".calc-deck").bounding_box()["y"]]
    for count, code in enumerate(["JD", "AD", "KD"], start=1):
        page.locator(f"#calc-card-{code}").click()
        expect(page.locator(".calc-played .slot:not(.empty)")).to_have_count(count)
        ys.append(page.locator(".calc-deck").bounding_box()["y"])
    print("YS", lang, ys); page.screenshot(path=f"/tmp/probe-calc-{lang}.png")
