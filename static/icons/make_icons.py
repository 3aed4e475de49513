"""Draw the app's PNG icons from static/favicon.svg with Chromium (the dev tools' Playwright).

    .venv/bin/python static/icons/make_icons.py

- icon-192.png, icon-512.png: the favicon as it is, rounded corners on transparency.
- maskable-512.png, apple-touch-icon.png (180): the felt to the edges (Android masks
  the icon to its own shape; iOS rounds the corners and shows transparency black). The
  spade already lies well within the safe zone, the central circle of 80% diameter.
Colours are cut to a palette (Pillow, installed with fpdf2): a few KB each.
"""

import base64
import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
SVG = base64.b64encode((HERE.parent / "favicon.svg").read_bytes()).decode()
FELT = "#0f5132"
ICONS = {  # name: (size, background behind the favicon's rounded corners)
    "icon-192.png": (192, "transparent"),
    "icon-512.png": (512, "transparent"),
    "maskable-512.png": (512, FELT),
    "apple-touch-icon.png": (180, FELT),
}


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for name, (size, background) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f'<body style="margin:0;background:{background}">'
                f'<img style="display:block;width:100%" src="data:image/svg+xml;base64,{SVG}">'
            )
            png = page.screenshot(omit_background=background == "transparent")
            page.close()
            image = Image.open(io.BytesIO(png)).quantize(64, method=Image.Quantize.FASTOCTREE)
            image.save(HERE / name, optimize=True)
            print(f"{name}: {size}x{size}, {(HERE / name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
