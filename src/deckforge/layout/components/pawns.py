"""Fold-up pawns: front and back panels either side of a fold, with base tabs.

As many pieces as fit the profile's paper go on each page, in a grid centred on it,
above a band that holds the set's label; more pieces go on more pages. The first piece
is at the top left, or at the top right in a right-to-left edition, and rows fill in
the edition's reading direction. Each piece's
outline is its cut line and stays on the page, inside the trim.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.drawing import shapes
from deckforge.drawing.ops import RGB, WHITE, Line, Page, Rect, Text, hex_colour, mix
from deckforge.kinds.numbered import PlayerColour
from deckforge.kinds.pawns import Pawns
from deckforge.layout.components.sheet import (
    PawnsDoNotFit,
    Sheet,
    palette,
    set_text,
    sheet_for,
)
from deckforge.model import Edition
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import TextStyle
from deckforge.text.script import is_rtl_locale
from deckforge.units import mm

PANEL_W, PANEL_H, TAB = mm(30), mm(40), mm(12)
PIECE_H = 2 * PANEL_H + 2 * TAB
GAP = mm(8)
LABEL_H = mm(12)


@dataclass(frozen=True)
class _Grid:
    """Where pieces go on a page: columns, rows, the grid's top-left corner, and whether
    rows fill from the right."""

    cols: int
    rows: int
    left: float
    top: float
    rtl: bool = False

    @property
    def per_page(self) -> int:
        """Pieces on one page."""
        return self.cols * self.rows

    def corner(self, index: int) -> tuple[float, float]:
        """The lower-left corner of the ``index``-th piece of a page."""
        row, col = divmod(index, self.cols)
        if self.rtl:
            col = self.cols - 1 - col
        return self.left + col * (PANEL_W + GAP), self.top - row * (PIECE_H + GAP) - PIECE_H


def _grid(sheet: Sheet, rtl: bool = False) -> _Grid:
    margin = max(mm(12), sheet.bleed + mm(8))
    width = sheet.w - 2 * margin
    height = sheet.h - 2 * margin - LABEL_H - mm(4)
    cols = int((width + GAP) // (PANEL_W + GAP))
    rows = int((height + GAP) // (PIECE_H + GAP))
    if cols < 1 or rows < 1:
        raise PawnsDoNotFit(
            f"a {sheet.w / mm(1):.0f} × {sheet.h / mm(1):.0f} mm page holds no pawn"
        )
    used_w = cols * PANEL_W + (cols - 1) * GAP
    return _Grid(cols, rows, (sheet.w - used_w) / 2, sheet.h - margin, rtl)


def _piece(x: float, y: float, colour: PlayerColour, ink: RGB, locale: str) -> list:
    """One pawn: base tab, back panel (upside down when folded), front panel, base tab."""
    fill = hex_colour(colour.hex)
    tab = mix(fill, WHITE, 0.6)
    ops: list = [
        Rect(x, y, PANEL_W, TAB, fill=tab, stroke=ink, line_width=0.4),
        Rect(x, y + TAB, PANEL_W, PANEL_H, fill=fill, stroke=ink, line_width=0.4),
        Rect(x, y + TAB + PANEL_H, PANEL_W, PANEL_H, fill=fill, stroke=ink, line_width=0.4),
        Rect(x, y + TAB + 2 * PANEL_H, PANEL_W, TAB, fill=tab, stroke=ink, line_width=0.4),
    ]
    for fy in (y + TAB, y + TAB + PANEL_H, y + TAB + 2 * PANEL_H):
        ops.append(Line(x, fy, x + PANEL_W, fy, ink, 0.6, dash=(3, 2)))
    style = TextStyle(10, 6, fonts.BOLD, align="centre")
    for py in (y + TAB + PANEL_H, y + TAB):
        centre = (x + PANEL_W / 2, py + PANEL_H * 0.6)
        ops.append(
            shapes.symbol(colour.symbol, *centre, mm(14), fill=WHITE, stroke=ink, line_width=0.8)
        )
        name = set_text(colour.name, PANEL_W - 4, mm(8), style, locale)
        ops.append(Text(x + 2, py + PANEL_H * 0.3, PANEL_W - 4, name, ink))
    return ops


def pawns(edition: Edition, set_: Pawns, profile: Profile) -> list[Page]:
    """The pawns' pages."""
    sheet = sheet_for(profile, landscape=False)
    locale = edition.locale
    grid = _grid(sheet, is_rtl_locale(locale))
    ink = palette(edition).ink
    margin = max(mm(12), sheet.bleed + mm(8))
    style = TextStyle(14, 9, fonts.BOLD, align="centre")
    label = set_text(set_.label, sheet.w - 2 * margin, LABEL_H, style, locale)
    colours = set_.colours
    chunks = [colours[i : i + grid.per_page] for i in range(0, len(colours), grid.per_page)]
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        ops: list = [sheet.background(WHITE)]
        for index, colour in enumerate(chunk):
            ops.extend(_piece(*grid.corner(index), colour, ink, locale))
        ops.append(Text(margin, margin + label.height, sheet.w - 2 * margin, label, ink))
        name = set_.id if len(chunks) == 1 else f"{set_.id} {number} of {len(chunks)}"
        pages.append(sheet.page(tuple(ops), name))
    return pages
