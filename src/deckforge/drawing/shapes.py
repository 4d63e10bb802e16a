"""Vector symbols that tell player colours apart without colour vision."""

from __future__ import annotations

import math

from deckforge.drawing.ops import RGB, Circle, Polygon

#: The symbols of player colours, each told apart from the others by its outline alone.
SYMBOLS = ("circle", "square", "diamond", "triangle", "hexagon", "star", "cross", "heart")
#: The ways a block arrow points.
ARROWS = ("left", "right")


def _regular(cx: float, cy: float, r: float, n: int, start: float) -> tuple:
    return tuple(
        (
            cx + r * math.cos(start + 2 * math.pi * i / n),
            cy + r * math.sin(start + 2 * math.pi * i / n),
        )
        for i in range(n)
    )


def symbol(
    name: str,
    cx: float,
    cy: float,
    size: float,
    fill: RGB,
    stroke: RGB | None = None,
    line_width: float = 0.8,
):
    """A symbol centred at (cx, cy) fitting a square of side ``size``."""
    r = size / 2
    if name == "circle":
        return Circle(cx, cy, r * 0.92, fill=fill, stroke=stroke, line_width=line_width)
    if name == "square":
        points = _regular(cx, cy, r * 1.15, 4, math.pi / 4)
    elif name == "diamond":
        points = _regular(cx, cy, r, 4, math.pi / 2)
    elif name == "triangle":
        points = _regular(cx, cy - r * 0.18, r * 1.1, 3, math.pi / 2)
    elif name == "hexagon":
        points = _regular(cx, cy, r, 6, 0)
    elif name == "star":
        outer = _regular(cx, cy, r, 5, math.pi / 2)
        inner = _regular(cx, cy, r * 0.42, 5, math.pi / 2 + math.pi / 5)
        points = tuple(p for pair in zip(outer, inner, strict=True) for p in pair)
    elif name == "cross":
        a, b = r * 0.95, r * 0.34
        points = (
            (cx - b, cy + a),
            (cx + b, cy + a),
            (cx + b, cy + b),
            (cx + a, cy + b),
            (cx + a, cy - b),
            (cx + b, cy - b),
            (cx + b, cy - a),
            (cx - b, cy - a),
            (cx - b, cy - b),
            (cx - a, cy - b),
            (cx - a, cy + b),
            (cx - b, cy + b),
        )
    elif name == "heart":
        points = tuple(
            (
                cx + r * 0.06 * 16 * math.sin(t) ** 3,
                cy
                + r
                * 0.06
                * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
                + r * 0.1,
            )
            for t in (2 * math.pi * i / 48 for i in range(48))
        )
    else:
        raise ValueError(f"unknown symbol {name!r}")
    return Polygon(points, fill=fill, stroke=stroke, line_width=line_width)


def arrow(x: float, y: float, w: float, h: float, pointing: str, fill: RGB) -> Polygon:
    """A block arrow filling the box, pointing 'left' or 'right'."""
    head = w * 0.45
    shaft = h * 0.38
    cy = y + h / 2
    pts = [
        (x, cy),
        (x + head, y + h),
        (x + head, cy + shaft / 2),
        (x + w, cy + shaft / 2),
        (x + w, cy - shaft / 2),
        (x + head, cy - shaft / 2),
        (x + head, y),
    ]
    if pointing == "right":
        pts = [(2 * x + w - px, py) for px, py in pts]
    return Polygon(tuple(pts), fill=fill)
