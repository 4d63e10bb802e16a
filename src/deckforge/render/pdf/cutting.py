"""Die lines in shop files: each shaped card's cut as a path stroked in the spot colour
``CutContour`` (the name cutting plotters' and die-cutting shops' software looks for; its
alternate 100 % magenta), 0.25 pt, set to overprint so that it knocks nothing out of the
art beneath, and drawn after the art, outside its clip.

In files that may hold optional content (PDF/X-4: PDF 1.6) the die line is on its own
layer, ``CutContour``, which a viewer can hide; PDF/X-1a:2001 is PDF 1.3, which has no
optional content, and there it is a plain path in its own colour.

A flat sheet that is cut and folded (a tuck box) has its folds too: dashed, in a second
spot colour, ``Crease`` (alternate 100 % cyan), on a layer of that name, the way
die-cutting shops keep cutting and creasing rules apart.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColorSep

from deckforge.drawing.outline import Cut, CutLines, DieCut
from deckforge.rl import layers

#: The spot colour's name, and the die line's width (points).
NAME = "CutContour"
WIDTH = 0.25
COLOUR = CMYKColorSep(0, 1, 0, 0, spotName=NAME, density=1)
#: The folds' spot colour.
FOLD = "Crease"
FOLD_COLOUR = CMYKColorSep(1, 0, 0, 0, spotName=FOLD, density=1)


def draw(painter, layered: bool, op: Cut) -> None:
    """Stroke one die line on the page being drawn, on the ``CutContour`` layer if
    ``layered``."""
    _stroke(painter, layered, NAME, COLOUR, op.outline.path(op.x, op.y, op.w, op.h))


def die_cut(painter, layered: bool, op: DieCut) -> None:
    """Stroke a flat sheet's cut in ``CutContour`` and its folds dashed in ``Crease``,
    each on its own layer if ``layered``."""
    _stroke(painter, layered, NAME, COLOUR, op.cut)
    if op.folds:
        dash = " ".join(f"{d:g}" for d in op.dash)
        _stroke(painter, layered, FOLD, FOLD_COLOUR, f"[{dash}] 0 d {op.folds}")


def _stroke(painter, layered: bool, name: str, colour, path: str) -> None:
    """Stroke ``path`` thin and overprinting in the spot colour ``colour``, inside a
    marked-content block of the layer ``name`` if ``layered``."""
    c = painter.c
    if layered:
        painter.code.append(f"/OC /{layers.layer(c, name)} BDC")
    c.saveState()
    c.setStrokeColor(colour)
    c.setStrokeOverprint(1)
    c.setOverprintMask(1)
    c.setLineWidth(WIDTH)
    painter.code.append(path + " S")
    c.restoreState()
    if layered:
        painter.code.append("EMC")


def cut_lines(painter, op: CutLines) -> None:
    """Stroke a home sheet's cut lines: one path, in the sheet's colours."""
    colour = painter.colour(op.stroke, stroke=True)
    painter.code.append(f"{colour} {op.line_width:g} w [] 0 d {op.path} S")
