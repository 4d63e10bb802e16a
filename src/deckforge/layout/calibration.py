"""The duplex calibration sheet: a front with blue scales and a back with a red cross.

Printed double-sided and held to the light, the red cross shows how far the printer
puts backs from where their faces are; the sheet says which --back-offset makes up for
it. The back is placed exactly as card backs are (mirrored for the duplex edge, shifted
by the current offset), so printing it again shows whether the offset is right.
"""

from __future__ import annotations

from deckforge.drawing.ops import WHITE, Face, Line, Page, Placement, Rect, Text
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import TextStyle, fit
from deckforge.units import mm, to_mm

BLUE = (0.0, 0.25, 0.85)
RED = (0.9, 0.0, 0.0)
#: How far the scales reach either side of the centre, in millimetres.
REACH = 5


def _text(
    value: str,
    x: float,
    top: float,
    w: float,
    size: float,
    bold: bool = False,
    colour=(0.1, 0.1, 0.1),
    align: str = "left",
) -> Text:
    style = TextStyle(size, size, fonts.BOLD if bold else fonts.REGULAR, align=align)
    return Text(x, top, w, fit(value, w, 200, style, "en"), colour)


#: The scales' labels: every 2 mm, at the smallest size print shops allow.
LABEL_PT = 7
LABEL_EVERY = 2


def _scales(cx: float, cy: float) -> list:
    """A horizontal scale below the centre and a vertical one right of it, 0.5 mm ticks,
    1 mm long ticks. Labels every 2 mm alternate between two rows (two columns beside
    the vertical scale), so that 7 pt labels never touch."""
    ops: list = []
    base_y, base_x = cy - mm(25), cx + mm(25)
    for half in range(-2 * REACH, 2 * REACH + 1):
        offset = mm(half / 2)
        long = half % 2 == 0
        tick = mm(3 if long else 1.6)
        ops.append(Line(cx + offset, base_y, cx + offset, base_y + tick, BLUE, 0.3))
        ops.append(Line(base_x, cy + offset, base_x + tick, cy + offset, BLUE, 0.3))
        if half % (2 * LABEL_EVERY):
            continue
        value = half // 2
        label = f"{value:+d}" if value else "0"
        second = (value // LABEL_EVERY) % 2 == 1
        row_top = base_y - mm(0.8) - (mm(3.2) if second else 0)
        ops.append(
            _text(label, cx + offset - mm(4), row_top, mm(8), LABEL_PT, colour=BLUE, align="centre")
        )
        column = base_x + mm(3.6) + (mm(5.5) if second else 0)
        ops.append(_text(label, column, cy + offset + mm(1.3), mm(7), LABEL_PT, colour=BLUE))
    ops.append(Line(cx - mm(REACH), base_y, cx + mm(REACH), base_y, BLUE, 0.3))
    ops.append(Line(base_x, cy - mm(REACH), base_x, cy + mm(REACH), BLUE, 0.3))
    return ops


def calibration_pages(profile: Profile) -> list[Page]:
    """The two pages of the sheet for a duplex profile."""
    assert profile.paper is not None
    w, h = profile.paper
    cx, cy = w / 2, h / 2
    dx, dy = profile.back_offset
    short = profile.duplex == "short-edge"
    formula = "--back-offset X-a,b+Y" if short else "--back-offset a+X,b-Y"
    front = [
        Rect(0, 0, w, h, fill=WHITE),
        Line(cx, cy - mm(12), cx, cy + mm(12), BLUE, 0.3),
        Line(cx - mm(12), cy, cx + mm(12), cy, BLUE, 0.3),
        *_scales(cx, cy),
        _text(f"Duplex calibration: {profile.id}", mm(20), h - mm(20), w - mm(40), 14, True),
        _text(
            f"1. Print both pages double-sided ({profile.duplex.replace('-', ' ')} flip) at "
            "100 % (actual size).",
            mm(20),
            h - mm(30),
            w - mm(40),
            9,
        ),
        _text(
            "2. Hold the sheet to the light. Read where the red lines from the back cross "
            "the blue scales: X on the lower scale (right is +), Y on the right-hand scale "
            "(up is +), in millimetres.",
            mm(20),
            h - mm(36),
            w - mm(40),
            9,
        ),
        _text(
            f"3. This sheet was made with a back offset of a = {to_mm(dx):+.1f} mm, "
            f"b = {to_mm(dy):+.1f} mm. Build with {formula} (0,0 if the red cross sits on "
            "the centre).",
            mm(20),
            h - mm(48),
            w - mm(40),
            9,
        ),
    ]
    bx, by = (cx + dx, cy + dy)
    back = [
        Line(bx, by - mm(40), bx, by + mm(40), RED, 0.35),
        Line(bx - mm(40), by, bx + mm(40), by, RED, 0.35),
        _text(
            "back: the red lines meet the blue scales on the other side",
            mm(20),
            mm(20),
            w - mm(40),
            8,
            colour=RED,
        ),
    ]
    return [
        Page(w, h, (Placement(Face(tuple(front)), 0.0, 0.0, (0.0, 0.0, w, h)),), label="front"),
        Page(w, h, (Placement(Face(tuple(back)), 0.0, 0.0, (0.0, 0.0, w, h)),), label="back"),
    ]
