"""What a page's inline SVG gives as its geometry, and which of it SVG cannot read."""

import re

_ELEMENT = re.compile(r"<(?:svg|line|circle|text|polyline|rect)\b[^>]*>")
_GEOMETRY = re.compile(r'\s(x|y|x1|x2|y1|y2|cx|cy|r|width|height|viewBox|points)="([^"]*)"')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def geometry(html: str) -> list[tuple[str, str]]:
    """Each geometry attribute of the page's SVG elements, as (name, value)."""
    return [pair for element in _ELEMENT.findall(html) for pair in _GEOMETRY.findall(element)]


def unreadable(html: str) -> list[tuple[str, str]]:
    """The geometry attributes whose value is not numbers as SVG writes them: ``12.5``, never
    ``12,5``; ``points`` pairs of two numbers, ``x,y``; ``viewBox`` four numbers."""
    refused = []
    for name, value in geometry(html):
        if name == "points":
            pairs = [pair.split(",") for pair in value.split()]
            parts = [part for pair in pairs for part in pair]
            readable = all(len(pair) == 2 for pair in pairs)
        else:
            parts = value.split() if name == "viewBox" else [value]
            readable = True
        if not (readable and parts and all(_NUMBER.fullmatch(part) for part in parts)):
            refused.append((name, value))
    return refused
