"""Where the painter puts each placement of a page: in which order, and the operators
that start it (clipped to its area, moved to its origin)."""

from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from deckforge.drawing.ops import Placement


def column_order(placements: tuple[Placement, ...]) -> list[Placement]:
    """The placements column by column, in the order the imposition drew each.

    Texts of two cards side by side stand on the same lines: drawn one after the
    other, PDFium reads them as one line, and pdf.js joins them without a space
    unless the second stands further right. Columns are taken in the direction the
    imposition took a row, and each column's cards in the order it drew them, so
    that of two cards that share an edge the same one is drawn last (the edge's
    pixels are the last one's)."""
    row = None
    for i, a in enumerate(placements):
        for b in placements[i + 1 :]:
            if abs(a.clip[1] - b.clip[1]) < 1 and abs(a.clip[0] - b.clip[0]) >= 1:
                row = 1 if a.clip[0] < b.clip[0] else -1
                break
        if row is not None:
            break
    across = row or 1
    return sorted(placements, key=lambda p: across * round(p.clip[0], 3))


def placement_start(placement: Placement) -> str:
    """Save the graphics state, clip to the placement's area, move to its origin."""
    cx, cy, cw, ch = placement.clip
    code = f"q {fp_str(cx, cy, cw, ch)} re W n"
    if placement.clip_path:  # a shaped card: its cut, grown by the bleed
        code += f" {placement.clip_path} W n"
    if placement.rotate == 180:
        # Turn about the trim's centre: the face's origin lands on the far corner.
        turn = fp_str(2 * placement.x + cw, 2 * placement.y + ch)
        code += f" -1 0 0 -1 {turn} cm"
    return f"{code} 1 0 0 1 {fp_str(placement.x, placement.y)} cm"
