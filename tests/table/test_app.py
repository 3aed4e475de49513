"""Installable: the web app manifest, its icons, and the page's links to them."""

import io
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static"
# A name as CompressedManifestStaticFilesStorage links it, long cached: icon-192.0123abcd4567.png
HASHED = r"/static/[\w/-]+\.[0-9a-f]{12}\.(png|svg)"


class HeadLinks(HTMLParser):
    """The page's <link> addresses by rel, and its <meta> contents by name."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, str] = {}
        self.metas: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "link":
            self.links[found["rel"]] = found["href"]
        elif tag == "meta" and "name" in found:
            self.metas[found["name"]] = found["content"]


def head(client):
    parser = HeadLinks()
    parser.feed(client.get("/").content.decode())
    return parser


def static_file(client, url):
    """A static file as WhiteNoise serves it: status, content type and body."""
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.status_code == 200 else b""
    response.close()
    return response.status_code, response.headers["Content-Type"], body


def image_sizes(content_type, body):
    """An icon's size as a manifest writes it: "192x192", or "any" for a vector image."""
    if content_type == "image/svg+xml":
        return "any"
    width, height = Image.open(io.BytesIO(body)).size
    return f"{width}x{height}"


def test_manifest_answers_with_the_manifest_content_type(client):
    response = client.get("/manifest.webmanifest")

    assert (response.status_code, response.headers["Content-Type"]) == (
        200,
        "application/manifest+json",
    )


def test_manifest_is_cached_for_a_day(client):
    response = client.get("/manifest.webmanifest")

    assert response.headers["Cache-Control"] == "max-age=86400"


def test_manifest_describes_a_standalone_app_in_the_site_colours(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    described = {key: manifest[key] for key in ("name", "start_url", "scope", "display")}
    colours = (manifest["theme_color"], manifest["background_color"])
    assert (described, colours) == (
        {"name": "Boulmous", "start_url": "/", "scope": "/", "display": "standalone"},
        ("#0f5132", "#fbfaf7"),
    )


def test_manifest_names_png_icons_of_192_and_512_one_maskable_and_the_svg(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    icons = sorted((i["sizes"], i["type"], i.get("purpose", "any")) for i in manifest["icons"])
    assert icons == [
        ("192x192", "image/png", "any"),
        ("512x512", "image/png", "any"),
        ("512x512", "image/png", "maskable"),
        ("any", "image/svg+xml", "any"),
    ]


def test_manifest_icons_are_served_with_their_type_and_size(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    served, declared = [], []
    for icon in manifest["icons"]:
        status, content_type, body = static_file(client, icon["src"])
        served.append((status, content_type, image_sizes(content_type, body)))
        declared.append((200, icon["type"], icon["sizes"]))
    assert served == declared


def test_manifest_names_the_hashed_icons_in_production(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    hashed = [re.fullmatch(HASHED, icon["src"]) is not None for icon in manifest["icons"]]
    assert hashed == [True, True, True, True]


def test_base_page_links_the_manifest_theme_colour_and_apple_touch_icon(client):
    page = head(client)

    linked = (page.links["manifest"], page.metas["theme-color"])
    status, content_type, body = static_file(client, page.links["apple-touch-icon"])
    apple = (status, content_type, Image.open(io.BytesIO(body)).size)
    assert (linked, apple) == (
        ("/manifest.webmanifest", "#0f5132"),
        (200, "image/png", (180, 180)),
    )


def test_maskable_icon_is_full_bleed_with_the_spade_in_the_safe_zone():
    image = Image.open(STATIC / "icons" / "maskable-512.png").convert("RGBA")
    width, height = image.size

    opaque = all(image.getpixel(corner)[3] == 255 for corner in [(0, 0), (width - 1, height - 1)])
    spade = [
        math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2)
        for y in range(height)
        for x in range(width)
        if sum(image.getpixel((x, y))[:3]) > 3 * 128
    ]
    assert (opaque, max(spade) <= 0.4 * width) == (True, True)
