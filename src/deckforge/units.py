"""Lengths as written in sources (``"63.5mm"``, ``"2.5in"``, ``"10pt"``) to PDF points,
and the ranges the numbers of templates and profiles must lie in."""

from __future__ import annotations

import math
import re

MM = 72.0 / 25.4
INCH = 72.0
POINTS_PER_UNIT = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")

#: Trim sizes of the print trade's standard cards, in millimetres (width, height).
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini-american": (41.0, 63.0),
    "mini-euro": (44.0, 68.0),
    "tarot": (70.0, 120.0),
    "dixit": (80.0, 120.0),
    "square": (70.0, 70.0),
    "mini-square": (50.8, 50.8),
    "jumbo": (88.9, 127.0),
    "business": (50.8, 88.9),
}
#: Which way up a card is: ``landscape`` turns a trade size so that its width is the
#: longer side.
ORIENTATIONS = ("portrait", "landscape")


def card_size_mm(name: str, orientation: str | None = None) -> tuple[float, float]:
    """A trade size's trim (width, height) in millimetres, turned for ``orientation``.

    >>> card_size_mm("poker", "landscape")
    (88.9, 63.5)
    """
    w, h = CARD_SIZES_MM[name]
    if (orientation == "landscape") != (w > h) and w != h and orientation is not None:
        return h, w
    return w, h


#: Paper sizes in millimetres (portrait).
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
    "Tabloid": (279.4, 431.8),
}


def parse_length(value: str | float | int) -> float:
    """A length in points; bare numbers are points already.

    >>> round(parse_length("25.4mm"), 6)
    72.0
    """
    if isinstance(value, (int, float)):
        return float(value)
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(f"{value!r} is not a length (use mm, cm, in or pt, e.g. '3mm')")
    number, unit = match.groups()
    return float(number) * POINTS_PER_UNIT[unit]


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM


#: The range of each number a template or a profile gives, in points unless said, as
#: (least, most, what it is): checked where the number is worked out, with the message
#: at the line that set it (or made it so, through ``sizes:`` or an expression).
LIMITS: dict[str, tuple[float, float, str]] = {
    # A PDF page is at most 200 in (14,400 pt) a side: no length on a card is longer.
    "length": (-14400.0, 14400.0, "a length"),
    # From a small token to a large board, in print shops' sizes.
    "card": (mm(5), mm(1000), "a card's width or height"),
    # Shops ask for 2 to 6 mm; an inch is more than any asks.
    "bleed": (0.0, INCH, "the bleed"),
    # Also less than half the card's shorter side, so that the safe area is not empty.
    "safe": (0.0, 14400.0, "the safe inset"),
    # Half a point is unreadable even under a lens; 500 pt is a letter filling a poster.
    "font_size": (0.5, 500.0, "a font size"),
    "stroke_width": (0.0, INCH, "an outline's width"),
    # Also at most half the box's shorter side.
    "radius": (0.0, 14400.0, "a corner's radius"),
    # Each dash or space; together at least MIN_DASH_CYCLE.
    "dash": (0.0, INCH, "a dash's length"),
    # Ruled lines closer than a point cannot be written on (and see MAX_RULED_LINES).
    "gap": (1.0, 14400.0, "the gap between lines"),
    # Profiles: the paper's margin, the gap between cards, the gutter either side of a fold.
    "spacing": (0.0, mm(50), "a margin, gap or gutter"),
}
#: A dashed outline's dashes and spaces together, at the least (points).
MIN_DASH_CYCLE = 1.0
#: The most lines one ``lines`` element draws.
MAX_RULED_LINES = 1000


def out_of_range(value: float, limit: str) -> str | None:
    """What is wrong with a number (points) that must lie in :data:`LIMITS` ``[limit]``;
    None when it does."""
    least, most, what = LIMITS[limit]
    if least <= value <= most:
        return None
    if not math.isfinite(value):
        return f"{what} must be a finite number"
    low, high, shown = (limit_shown(number, limit) for number in (least, most, value))
    return f"{what} must be from {low} to {high}, not {shown}"


def limit_shown(points: float, limit: str) -> str:
    """A bound as people write it: millimetres for sizes on paper, points for the rest."""
    if limit in ("card", "bleed", "safe", "spacing"):
        return f"{to_mm(points):.6g}mm"
    return f"{points:.6g}pt"
