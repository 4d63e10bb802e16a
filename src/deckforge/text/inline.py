"""Inline icons in running text: their size, their place in a line, what they copy as.

An icon is set like a letter (:mod:`deckforge.text.fit`); this module says how big it
is, where its drawing goes in the advance it takes, and what text stands for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from deckforge.text.markup import OBJECT, Marked

#: OpenMoji draws each figure inside its square frame with a sixth of the frame free on
#: every side (units 12 to 60 of 72).
_ICON_MARGIN = 1 / 6
#: How inline icons are sized, in ems of the text around them: the figure area (the
#: frame less its margins) stands on the baseline and is ICON_HEIGHT tall, between the
#: cap height (0.714 em in Noto Sans) and the ascent (1.069 em), so that a figure looks
#: as tall as the capitals and ascenders beside it and never reaches into the line above.
ICON_HEIGHT = 0.85
#: The advance of an inline icon: its figure area and a little room on either side, so
#: that an icon set without spaces (``3:coin:``) does not touch its letters.
ICON_ADVANCE = ICON_HEIGHT + 0.12


@dataclass(frozen=True)
class InlineIcon:
    """An icon in a line, in visual order: its advance runs ``width`` from ``offset``
    (from the line's left edge, like a run's); the square frame its OpenMoji drawing
    fills is ``side`` long, its lower-left corner ``x`` from the line's left edge and
    ``y`` from the baseline (negative: below it). ``actual`` is what copying it gives
    back: the emoji it draws."""

    code: str
    offset: float
    width: float
    x: float
    y: float
    side: float
    actual: str


@lru_cache(maxsize=1024)
def icon_text(code: str) -> str:
    """The text an icon stands for: its emoji, or U+FFFC for OpenMoji's own icons (which
    Unicode has no character for, drawn from its private use area)."""
    chars = "".join(chr(int(part, 16)) for part in code.split("-"))
    return "\ufffc" if any(0xE000 <= ord(ch) <= 0xF8FF for ch in chars) else chars


def copied(logical: str, codes: tuple[str, ...]) -> str:
    """What copying a line gives back: each icon as its emoji."""
    if not codes:
        return logical
    parts = logical.split(OBJECT)
    return parts[0] + "".join(
        icon_text(code) + part for code, part in zip(codes, parts[1:], strict=True)
    )


def icon_codes(marked: Marked | None) -> dict[int, str]:
    """The hexcode of each icon of a line, by the index of its character."""
    if marked is None or not marked.icons:
        return {}
    where = [index for index, ch in enumerate(marked.text) if ch == OBJECT]
    return dict(zip(where, marked.icons, strict=True))


def inline_icon(code: str, offset: float, size: float) -> InlineIcon:
    """An icon at ``offset`` in a line of type ``size``, sized and placed by the rule of
    :data:`ICON_HEIGHT`: its frame centred in its advance, its drawing on the baseline."""
    side = size * ICON_HEIGHT / (1 - 2 * _ICON_MARGIN)
    advance = size * ICON_ADVANCE
    x = offset + (advance - side) / 2
    return InlineIcon(code, offset, advance, x, -side * _ICON_MARGIN, side, icon_text(code))
