"""Lengths as written in sources (``"63.5mm"``, ``"2.5in"``, ``"10pt"``) to PDF points."""

from __future__ import annotations

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
}

#: Paper sizes in millimetres (portrait).
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
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
